// A list filter's day range: "From" and "To" date inputs that bound each other, the range's error under
// "From". Days are ISO dates (YYYY-MM-DD) or null for an open end.
import { Field, Input } from '@chakra-ui/react';

export interface DayRange {
  from: string | null;
  to: string | null;
}

export function DateRangeFields({
  from,
  to,
  error,
  onChange,
}: DayRange & { error?: string | null; onChange: (patch: Partial<DayRange>) => void }) {
  return (
    <>
      <Field.Root width={{ base: 'full', md: '44' }} invalid={!!error}>
        <Field.Label>From</Field.Label>
        <Input
          type="date"
          value={from ?? ''}
          max={to ?? undefined}
          onChange={(event) => onChange({ from: event.target.value || null })}
        />
        {error ? <Field.ErrorText>{error}</Field.ErrorText> : null}
      </Field.Root>
      <Field.Root width={{ base: 'full', md: '44' }}>
        <Field.Label>To</Field.Label>
        <Input
          type="date"
          value={to ?? ''}
          min={from ?? undefined}
          onChange={(event) => onChange({ to: event.target.value || null })}
        />
      </Field.Root>
    </>
  );
}
