// A setting typed on one line: the section form's field (label, source, reset) around a plain input.
import { Input } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { SettingField } from '../section-form';

export function TextSetting({
  field,
  label,
  helperText,
  kind = 'text',
  maxLength,
}: {
  field: string;
  label: string;
  helperText?: ReactNode;
  /** `url` checks the address in the browser and brings the address keyboard on a phone. */
  kind?: 'text' | 'url';
  maxLength?: number;
}) {
  const url = kind === 'url';
  return (
    <SettingField field={field} label={label} helperText={helperText}>
      {(control) => (
        <Input
          id={control.id}
          type={url ? 'url' : undefined}
          inputMode={url ? 'url' : undefined}
          maxLength={maxLength}
          value={String(control.value ?? '')}
          disabled={control.disabled}
          onChange={(event) => control.onChange(event.target.value)}
        />
      )}
    </SettingField>
  );
}

/** A whole-number setting on one line (days, counts); an emptied box holds 0 until typed again. */
export function NumberSetting({
  field,
  label,
  helperText,
  min,
  max,
}: {
  field: string;
  label: string;
  helperText?: ReactNode;
  min: number;
  max: number;
}) {
  return (
    <SettingField field={field} label={label} helperText={helperText}>
      {(control) => (
        <Input
          id={control.id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          maxW="8rem"
          value={String(control.value ?? '')}
          disabled={control.disabled}
          onChange={(event) => control.onChange(Math.trunc(Number(event.target.value)))}
        />
      )}
    </SettingField>
  );
}
