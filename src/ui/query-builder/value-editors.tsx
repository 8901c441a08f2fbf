// The value editors of a condition, one per kind of value: text, a number (with its unit), a date,
// and ranges of numbers or dates. Typed values commit after a pause or on blur (see useDraft); a date
// picker commits at once. Enumerated lists have their own picker (EnumValuesPicker).
import { HStack, Input, InputGroup, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { type ConditionValue, parseIsoDate, QUERY_LIMITS } from '../../../contracts/query-tree';
import { useDraft } from './use-draft';

/** Replaces a condition's value from its newest state; `undefined` means "no value yet". */
export type SetValue = (update: (current: ConditionValue | undefined) => ConditionValue | undefined) => void;

/** A typed number: "6", "-2.5", "1,5" (decimal comma); anything else is not a number. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const dotted = /^-?\d*,\d+$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
  const number = Number(dotted);
  return Number.isFinite(number) ? number : undefined;
}

const numberMeaning = (draft: string) => String(parseNumber(draft) ?? '');

/** An ISO value as a date input shows it (its calendar day), or '' when it is not a date. */
export function dateInputValue(value: unknown): string {
  return typeof value === 'string' && parseIsoDate(value) !== null ? value.slice(0, 10) : '';
}

const onEnter = (flush: () => void) => (event: React.KeyboardEvent) => {
  if (event.key === 'Enter') flush();
};

export const TextValue = memo(function TextValue({
  value,
  setValue,
  disabled,
}: {
  value: ConditionValue | undefined;
  setValue: SetValue;
  disabled?: boolean;
}) {
  const { draft, setDraft, flush } = useDraft(typeof value === 'string' ? value : '', (text) =>
    setValue(() => (text === '' ? undefined : text)),
  );
  return (
    <Input
      size="sm"
      aria-label="Value"
      placeholder="Text"
      maxLength={QUERY_LIMITS.maxTextLength}
      value={draft}
      disabled={disabled}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={flush}
      onKeyDown={onEnter(flush)}
    />
  );
});

/** One number box; `label` names it ("Value", "From", "To") and the unit follows both on screen and in the name. */
function NumberBox({
  label,
  committed,
  commit,
  unit,
  disabled,
}: {
  label: string;
  committed: number | undefined;
  commit: (number: number | undefined) => void;
  unit?: string;
  disabled?: boolean;
}) {
  const { draft, setDraft, flush } = useDraft(
    committed === undefined ? '' : String(committed),
    (text) => commit(parseNumber(text)),
    numberMeaning,
  );
  const notANumber = draft.trim() !== '' && parseNumber(draft) === undefined;
  const input = (
    <Input
      size="sm"
      inputMode="decimal"
      aria-label={unit ? `${label} (${unit})` : label}
      aria-invalid={notANumber || undefined}
      placeholder={label === 'Value' ? 'Number' : label}
      value={draft}
      disabled={disabled}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={flush}
      onKeyDown={onEnter(flush)}
    />
  );
  return unit ? <InputGroup endElement={<Text color="fg.muted">{unit}</Text>}>{input}</InputGroup> : input;
}

export const NumberValue = memo(function NumberValue({
  value,
  setValue,
  unit,
  disabled,
}: {
  value: ConditionValue | undefined;
  setValue: SetValue;
  unit?: string;
  disabled?: boolean;
}) {
  return (
    <NumberBox
      label="Value"
      committed={typeof value === 'number' ? value : undefined}
      commit={(number) => setValue(() => number)}
      unit={unit}
      disabled={disabled}
    />
  );
});

export const DateValue = memo(function DateValue({
  value,
  setValue,
  disabled,
}: {
  value: ConditionValue | undefined;
  setValue: SetValue;
  disabled?: boolean;
}) {
  return (
    <Input
      size="sm"
      type="date"
      aria-label="Date"
      value={dateInputValue(value)}
      disabled={disabled}
      onChange={(event) => setValue(() => event.target.value || undefined)}
    />
  );
});

type Part = string | number;

/**
 * A range with one end changed. A half-typed range stays in the tree as `['', 10]` (the schema
 * allows it; `completeConditionsOnly` leaves it out) so it survives the URL and a re-render; a range
 * with both ends cleared has no value at all.
 */
export function rangeWith(current: ConditionValue | undefined, end: 0 | 1, part: Part | undefined) {
  const range: Part[] = Array.isArray(current) && current.length === 2 ? [...current] : ['', ''];
  range[end] = part ?? '';
  return range.every((item) => item === '') ? undefined : range;
}

const rangeEnd = (value: ConditionValue | undefined, end: 0 | 1): Part | undefined =>
  Array.isArray(value) ? value[end] : undefined;

const numberEnd = (value: ConditionValue | undefined, end: 0 | 1) => {
  const part = rangeEnd(value, end);
  return typeof part === 'number' ? part : undefined;
};

export const RangeValue = memo(function RangeValue({
  kind,
  value,
  setValue,
  unit,
  disabled,
}: {
  kind: 'number' | 'date';
  value: ConditionValue | undefined;
  setValue: SetValue;
  unit?: string;
  disabled?: boolean;
}) {
  const ends = [0, 1] as const;
  const labels = ['From', 'To'] as const;
  return (
    <HStack gap="2" width="full">
      {ends.map((end) =>
        kind === 'number' ? (
          <NumberBox
            key={end}
            label={labels[end]}
            committed={numberEnd(value, end)}
            commit={(number) => setValue((current) => rangeWith(current, end, number))}
            unit={unit}
            disabled={disabled}
          />
        ) : (
          <Input
            key={end}
            size="sm"
            type="date"
            aria-label={labels[end]}
            value={dateInputValue(rangeEnd(value, end))}
            disabled={disabled}
            onChange={(event) =>
              setValue((current) => rangeWith(current, end, event.target.value || undefined))
            }
          />
        ),
      )}
    </HStack>
  );
});
