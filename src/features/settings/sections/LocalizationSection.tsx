// Settings → Localization (issue 29 §2): the marketplace's default country, language and currency (what
// every request carries, SPEC §7), the currencies and languages it offers, its time zone, the locale of
// dates and numbers (with a live example) and the first day of the week. A seller's section has only the
// time zone (inherited or overridden): the section form shows just the fields their state lists.
import { Box, HStack, Stack, Tag, Text } from '@chakra-ui/react';
import { type JSX, useMemo } from 'react';
import { formatMoney } from '../../../../contracts/domain/currency';
import { countryList, currencyCodesIso } from '../../../../contracts/domain/iso-codes';
import { OptionSelect } from '../../../ui/option-select';
import { SectionFrame } from '../SectionFrame';
import { type FieldControl, type SectionForm, SettingField } from '../section-form';

/** Locales offered for dates and numbers; a saved one not listed here is still shown. */
const LOCALES = [
  'en-GB',
  'en-US',
  'en-IN',
  'hi-IN',
  'de-DE',
  'de-CH',
  'fr-FR',
  'es-ES',
  'it-IT',
  'pl-PL',
  'ja-JP',
  'ar-AE',
  'ar-DZ',
];

const WEEK_STARTS = [
  { value: 'monday', label: 'Monday' },
  { value: 'sunday', label: 'Sunday' },
  { value: 'saturday', label: 'Saturday' },
];

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regionLocaleNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** "English (EN)": the settings store two-letter codes in capitals. */
const languageLabel = (code: string) => {
  const name = languageNames.of(code.toLowerCase());
  return name ? `${name} (${code})` : code;
};

let allLanguages: string[] | undefined;
/** Every two-letter language code ICU names, by name. */
function languageCodes(): string[] {
  if (allLanguages) return allLanguages;
  const codes: string[] = [];
  for (let a = 97; a <= 122; a++) {
    for (let b = 97; b <= 122; b++) {
      const code = String.fromCharCode(a, b);
      if (languageNames.of(code)) codes.push(code.toUpperCase());
    }
  }
  allLanguages = codes.sort((x, y) => languageLabel(x).localeCompare(languageLabel(y), 'en'));
  return allLanguages;
}

function timeZones(current: string): string[] {
  const zones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
  return zones.includes(current) || !current ? zones : [current, ...zones];
}

const EXAMPLE_DATE = new Date(Date.UTC(2026, 10, 27, 12));
const EXAMPLE_AMOUNT = 1234.5;

/** "27 Nov 2026 · 1,234.50" in `locale`, as contracts/domain/format.ts writes dates and numbers. */
export function localeExample(locale: string): string {
  try {
    const date = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(EXAMPLE_DATE);
    const number = new Intl.NumberFormat(locale, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(EXAMPLE_AMOUNT);
    return `${date} · ${number}`;
  } catch {
    return '—';
  }
}

export default function LocalizationSection(): JSX.Element {
  return (
    <SectionFrame
      section="localization"
      description="What every request and every page assumes: the default country, language and currency, the time zone and how dates and numbers are written."
    >
      {(form) => <LocalizationFields form={form} />}
    </SectionFrame>
  );
}

function Select({
  control,
  options,
}: {
  control: FieldControl;
  options: { value: string; label: string }[];
}) {
  return (
    <OptionSelect
      id={control.id}
      disabled={control.disabled}
      maxW="24rem"
      options={options}
      value={String(control.value ?? '')}
      onChange={control.onChange}
    />
  );
}

/** A list of codes: each chosen one as a tag with its own remove button, and a select to add another. */
function CodeList({
  control,
  all,
  labelOf,
  noun,
  groupLabel,
}: {
  control: FieldControl;
  all: readonly string[];
  labelOf: (code: string) => string;
  noun: string;
  groupLabel: string;
}) {
  const chosen = (control.value as string[] | undefined) ?? [];
  const rest = all.filter((code) => !chosen.includes(code));
  return (
    <Stack gap="2" id={control.id} role="group" aria-label={groupLabel}>
      <HStack gap="2" wrap="wrap">
        {chosen.map((code) => (
          <Tag.Root key={code} size="lg" variant="surface">
            <Tag.Label>{labelOf(code)}</Tag.Label>
            {chosen.length > 1 && !control.disabled ? (
              <Tag.EndElement>
                <Tag.CloseTrigger
                  aria-label={`Remove ${labelOf(code)}`}
                  onClick={() => control.onChange(chosen.filter((other) => other !== code))}
                />
              </Tag.EndElement>
            ) : null}
          </Tag.Root>
        ))}
      </HStack>
      <OptionSelect
        size="sm"
        disabled={control.disabled}
        maxW="24rem"
        ariaLabel={`Add a ${noun}`}
        blank={`Add a ${noun}…`}
        options={rest.map((code) => ({ value: code, label: labelOf(code) }))}
        value=""
        onChange={(code) => {
          if (code) control.onChange([...chosen, code]);
        }}
      />
    </Stack>
  );
}

function LocalizationFields({ form }: { form: SectionForm }) {
  const countries = useMemo(
    () => countryList().map((country) => ({ value: country.code, label: country.name })),
    [],
  );
  const currencies = form.value<string[]>('currencies') ?? [];
  const languages = form.value<string[]>('languages') ?? [];
  const locale = form.value<string>('locale') ?? 'en-GB';
  const defaultCurrency = form.value<string>('defaultCurrency') ?? '';
  const localeOptions = (LOCALES.includes(locale) ? LOCALES : [locale, ...LOCALES]).map((tag) => ({
    value: tag,
    label: `${regionLocaleNames.of(tag) ?? tag} (${tag})`,
  }));
  const timeZone = form.value<string>('timeZone') ?? '';

  return (
    <Stack gap="5">
      <SettingField field="defaultCountry" label="Default country">
        {(control) => <Select control={control} options={countries} />}
      </SettingField>
      <SettingField
        field="currencies"
        label="Currencies offered"
        helperText="Prices keep their own currency; these are what forms offer."
      >
        {(control) => (
          <CodeList
            control={control}
            all={currencyCodesIso}
            labelOf={(code) => code}
            noun="currency"
            groupLabel="Currencies offered"
          />
        )}
      </SettingField>
      <SettingField field="defaultCurrency" label="Default currency">
        {(control) => (
          <Select control={control} options={currencies.map((code) => ({ value: code, label: code }))} />
        )}
      </SettingField>
      <SettingField field="languages" label="Languages offered">
        {(control) => (
          <CodeList
            control={control}
            all={languageCodes()}
            labelOf={languageLabel}
            noun="language"
            groupLabel="Languages offered"
          />
        )}
      </SettingField>
      <SettingField field="defaultLanguage" label="Default language">
        {(control) => (
          <Select
            control={control}
            options={languages.map((code) => ({ value: code, label: languageLabel(code) }))}
          />
        )}
      </SettingField>
      <SettingField
        field="timeZone"
        label="Time zone"
        helperText="Dates and times are shown in it; offers and auctions count their days in it."
      >
        {(control) => (
          <Select
            control={control}
            options={timeZones(timeZone).map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))}
          />
        )}
      </SettingField>
      <SettingField field="locale" label="Date and number format">
        {(control) => (
          <Stack gap="2">
            <Select control={control} options={localeOptions} />
            <Box>
              <Text fontSize="sm" color="fg.muted">
                Example:{' '}
                <Text as="span" data-testid="locale-example" color="fg" fontWeight="medium">
                  {localeExample(locale)}
                </Text>
              </Text>
              {defaultCurrency ? (
                <Text fontSize="sm" color="fg.muted">
                  A price in the default currency:{' '}
                  <Text as="span" data-testid="price-example" color="fg" fontWeight="medium">
                    {safeMoney(defaultCurrency, locale)}
                  </Text>
                </Text>
              ) : null}
            </Box>
          </Stack>
        )}
      </SettingField>
      <SettingField field="weekStart" label="First day of the week">
        {(control) => <Select control={control} options={WEEK_STARTS} />}
      </SettingField>
    </Stack>
  );
}

function safeMoney(code: string, locale: string): string {
  try {
    return formatMoney(EXAMPLE_AMOUNT, code, locale);
  } catch {
    return '—';
  }
}
