import { NativeSelect } from '@chakra-ui/react';

/**
 * A list's filter on one of a few values (a status, a result): "All statuses" first, which is `null`,
 * then each value by its label. Choosing one goes back to the first page (the caller's part).
 */
export function FilterSelect<Value extends string>({
  label,
  allLabel = 'All statuses',
  values,
  labels,
  value,
  onChange,
  size = 'md',
  width,
}: {
  /** The select's accessible name. */
  label: string;
  allLabel?: string;
  values: readonly Value[];
  labels: Record<Value, string>;
  value: Value | null;
  onChange: (value: Value | null) => void;
  size?: 'sm' | 'md';
  width: string;
}) {
  return (
    <NativeSelect.Root size={size} width={width}>
      <NativeSelect.Field
        aria-label={label}
        value={value ?? ''}
        onChange={(event) => onChange((event.target.value || null) as Value | null)}
      >
        <option value="">{allLabel}</option>
        {values.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
