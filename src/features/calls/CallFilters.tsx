import { Button, Field, Flex, Input, InputGroup, NativeSelect } from '@chakra-ui/react';
import { Search, X } from 'lucide-react';
import { useCallback } from 'react';
import { type CallStatus, callStatuses, type ReferenceType } from '../../../contracts/calls';
import { DateRangeFields } from '../../ui/date-range-fields';
import { useUrlSearchText } from '../../ui/use-debounced-value';
import { type CallView, hasFilters, MAX_NUMBER_SEARCH, sanitiseNumberSearch } from './url-state';

export const NUMBER_SEARCH_DEBOUNCE_MS = 300;

export type CallFilterPatch = Partial<Pick<CallView, 'number' | 'status' | 'direction' | 'from' | 'to'>>;

/** The number box: typing stays local and instant; the URL (and so the query) follows after a pause. */
function NumberSearch({ value, onSearch }: { value: string; onSearch: (number: string) => void }) {
  const [text, setText] = useUrlSearchText(value, onSearch, NUMBER_SEARCH_DEBOUNCE_MS);
  return (
    <Field.Root maxW={{ md: '56' }}>
      <Field.Label>Number</Field.Label>
      <InputGroup startElement={<Search size={16} />}>
        <Input
          type="search"
          inputMode="tel"
          placeholder="Digits of the number"
          maxLength={MAX_NUMBER_SEARCH}
          value={text}
          // Only what the server searches by: digits and phone punctuation.
          onChange={(event) => setText(sanitiseNumberSearch(event.target.value))}
        />
      </InputGroup>
    </Field.Root>
  );
}

/** Number, status, direction and date range; every change goes to the URL and back to page 1. */
export function CallFilters({
  view,
  onChange,
  rangeError,
}: {
  view: CallView;
  onChange: (patch: CallFilterPatch, options?: { replace?: boolean }) => void;
  rangeError: string | null;
}) {
  const onSearch = useCallback((number: string) => onChange({ number }, { replace: true }), [onChange]);
  return (
    <Flex
      as="form"
      role="search"
      aria-label="Filter calls"
      data-tour="call-filters"
      gap="3"
      my="4"
      wrap="wrap"
      align="flex-end"
      onSubmit={(event) => event.preventDefault()}
    >
      <NumberSearch value={view.number} onSearch={onSearch} />
      <Field.Root width={{ base: 'full', md: '44' }}>
        <Field.Label>Status</Field.Label>
        <NativeSelect.Root size="md">
          <NativeSelect.Field
            value={view.status ?? ''}
            onChange={(event) => onChange({ status: (event.target.value || null) as CallStatus | null })}
          >
            <option value="">All statuses</option>
            {callStatuses.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <Field.Root width={{ base: 'full', md: '36' }}>
        <Field.Label>Direction</Field.Label>
        <NativeSelect.Root size="md">
          <NativeSelect.Field
            value={view.direction ?? ''}
            onChange={(event) =>
              onChange({ direction: (event.target.value || null) as ReferenceType | null })
            }
          >
            <option value="">All</option>
            <option value="INCOMING">Incoming</option>
            <option value="OUTGOING">Outgoing</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <DateRangeFields from={view.from} to={view.to} error={rangeError} onChange={onChange} />
      {hasFilters(view) ? (
        <Button
          variant="ghost"
          onClick={() => onChange({ number: '', status: null, direction: null, from: null, to: null })}
        >
          <X /> Clear filters
        </Button>
      ) : null}
    </Flex>
  );
}
