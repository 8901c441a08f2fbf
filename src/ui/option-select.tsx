import { NativeSelect } from '@chakra-ui/react';

/** A form's select of loaded choices: a blank first one ("None", "Choose…"), then each choice by its label. */
export function OptionSelect({
  blank,
  options,
  value,
  onChange,
  size,
  id,
  name,
}: {
  blank: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  size?: 'sm' | 'md';
  id?: string;
  name?: string;
}) {
  return (
    <NativeSelect.Root size={size}>
      <NativeSelect.Field
        id={id}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{blank}</option>
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
