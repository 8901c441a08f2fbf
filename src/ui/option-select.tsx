import { NativeSelect } from '@chakra-ui/react';

/**
 * A form's select of loaded choices: a blank first one when `blank` is given ("None", "Choose…"), then
 * each choice by its label. Without a visible label (a field's label names it otherwise), `ariaLabel`.
 */
export function OptionSelect({
  blank,
  options,
  value,
  onChange,
  size,
  id,
  name,
  ariaLabel,
  disabled,
  maxW,
}: {
  blank?: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  size?: 'sm' | 'md';
  id?: string;
  name?: string;
  ariaLabel?: string;
  disabled?: boolean;
  maxW?: string;
}) {
  return (
    <NativeSelect.Root size={size} disabled={disabled} maxW={maxW}>
      <NativeSelect.Field
        id={id}
        name={name}
        aria-label={ariaLabel}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {blank === undefined ? null : <option value="">{blank}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
