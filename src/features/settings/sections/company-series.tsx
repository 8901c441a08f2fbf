// The invoice and credit-note series: a preset (India's Rule 46, the EU's yearly series, or custom), the
// two patterns with their problems as typed, and the next numbers they would print, live.
import { Code, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import {
  nextDocumentNumberPreview,
  SERIES_PRESETS,
  type SeriesPreset,
  seriesPatternProblems,
} from '../../../../contracts/domain/document-numbering';
import { formatSettings } from '../../../../contracts/domain/format';
import { type SectionForm, SettingField } from '../section-form';

type Preset = SeriesPreset | 'custom';

const presetLabels: Record<Preset, string> = {
  india: 'India (GST Rule 46: at most 16 letters, digits, - and /)',
  eu: 'EU (INV-{YYYY}-{seq:06})',
  custom: 'Custom',
};

/** The problems of a pattern under the chosen preset (India's rule applies only to its preset). */
export function seriesProblem(pattern: string, preset: Preset): string | undefined {
  return seriesPatternProblems(pattern, preset === 'india' ? 'india' : undefined)[0];
}

export function SeriesFields({ form, now = new Date() }: { form: SectionForm; now?: Date }) {
  const preset = form.value<Preset>('seriesPreset');
  const invoiceSeries = form.value<string>('invoiceSeries') ?? '';
  const creditNoteSeries = form.value<string>('creditNoteSeries') ?? '';
  const fiscalYearStartMonth = form.value<number>('fiscalYearStartMonth');
  const timeZone = formatSettings().timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const preview = nextDocumentNumberPreview(
    { company: { invoiceSeries, creditNoteSeries, fiscalYearStartMonth }, localization: { timeZone } },
    now,
  );
  const pattern = (field: 'invoiceSeries' | 'creditNoteSeries', label: string, next: string | null) => (
    <SettingField
      field={field}
      label={label}
      helperText={
        <>
          Placeholders: {'{seq:N}'} (the number, N digits), {'{YYYY}'}, {'{YY}'}, {'{FY}'}, {'{FY2}'},{' '}
          {'{MM}'}.
        </>
      }
    >
      {(control) => {
        const problem = seriesProblem(String(control.value ?? ''), preset);
        return (
          <Stack gap="1">
            <Input
              id={control.id}
              value={String(control.value ?? '')}
              disabled={control.disabled}
              aria-invalid={Boolean(problem) || control.invalid}
              onChange={(event) => control.onChange(event.target.value)}
              fontFamily="mono"
              maxW="24rem"
            />
            {problem ? (
              <Text fontSize="sm" color="fg.error">
                {problem}
              </Text>
            ) : (
              <Text fontSize="sm" aria-live="polite">
                Next number: <Code data-testid={`next-${field}`}>{next}</Code>
              </Text>
            )}
          </Stack>
        );
      }}
    </SettingField>
  );
  return (
    <Stack gap="4">
      <SettingField field="seriesPreset" label="Series preset">
        {(control) => (
          <NativeSelect.Root disabled={control.disabled} maxW="28rem">
            <NativeSelect.Field
              id={control.id}
              value={String(control.value)}
              onChange={(event) => {
                const next = event.target.value as Preset;
                control.onChange(next);
                // A preset fills both patterns; custom keeps what is there to edit.
                if (next !== 'custom') {
                  form.setValue('invoiceSeries', SERIES_PRESETS[next].invoice);
                  form.setValue('creditNoteSeries', SERIES_PRESETS[next].creditNote);
                }
              }}
            >
              {(Object.keys(presetLabels) as Preset[]).map((option) => (
                <option key={option} value={option}>
                  {presetLabels[option]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
      </SettingField>
      <HStack align="start" gap="4" wrap="wrap">
        {pattern('invoiceSeries', 'Invoice series', preview.invoice)}
        {pattern('creditNoteSeries', 'Credit note series', preview.creditNote)}
      </HStack>
    </Stack>
  );
}
