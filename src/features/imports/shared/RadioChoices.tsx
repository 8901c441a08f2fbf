import { HStack, RadioGroup, Stack } from '@chakra-ui/react';

/** One of a few values, each a radio with its label: stacked, or side by side (`inline`). */
export function RadioChoices<Value extends string>({
  label,
  values,
  labels,
  value,
  onChange,
  inline = false,
  disabled,
  tour,
}: {
  /** The group's accessible name. */
  label: string;
  values: readonly Value[];
  labels: Record<Value, string>;
  value: Value;
  onChange: (value: Value) => void;
  inline?: boolean;
  disabled?: boolean;
  tour?: string;
}) {
  const Layout = inline ? HStack : Stack;
  return (
    <RadioGroup.Root
      value={value}
      onValueChange={(event) => event.value && onChange(event.value as Value)}
      disabled={disabled}
      aria-label={label}
      data-tour={tour}
    >
      <Layout gap={inline ? '5' : '2'} wrap={inline ? 'wrap' : undefined}>
        {values.map((option) => (
          <RadioGroup.Item key={option} value={option}>
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>{labels[option]}</RadioGroup.ItemText>
          </RadioGroup.Item>
        ))}
      </Layout>
    </RadioGroup.Root>
  );
}
