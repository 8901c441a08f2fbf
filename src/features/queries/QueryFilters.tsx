import { Checkbox, Field, Stack, Text } from '@chakra-ui/react';
import { queryChannels, queryPriorities } from '../../../contracts/domain/query-status';
import { PersonChooser } from '../../ui/choosers';
import { DateRangeFields } from '../../ui/date-range-fields';
import { FilterBar, SellerFilter } from '../../ui/filter-bar';
import { FilterSelect } from '../../ui/filter-select';
import { channelLabels, priorityLabels } from './labels';
import { type QueryFilters as Filters, hasFilters, noFilters } from './url-state';

const assigneeChoices = [
  { value: 'me', label: 'Assigned to me' },
  { value: 'none', label: 'Unassigned' },
] as const;

/**
 * Seller (admins and staff), assignee, channel, priority, overdue follow-ups, SLA breached and the
 * created range; every change goes to the URL and back to page 1 (the caller's part).
 */
export function QueryFilters({
  view,
  showSeller,
  rangeError,
  onChange,
}: {
  view: Filters;
  showSeller: boolean;
  rangeError: string | null;
  onChange: (patch: Partial<Filters>) => void;
}) {
  return (
    <FilterBar
      label="Filter queries"
      tour="query-filters"
      active={hasFilters(view)}
      onClear={() => onChange(noFilters)}
    >
      {showSeller ? (
        <SellerFilter
          id="query-filter-seller"
          value={view.sellerId}
          onChange={(sellerId) => onChange({ sellerId })}
        />
      ) : null}
      <Field.Root width={{ base: 'full', md: '56' }}>
        <Field.Label htmlFor="query-filter-assignee">Assignee</Field.Label>
        <PersonChooser
          id="query-filter-assignee"
          label="Assignee"
          blank="Anyone"
          fixed={assigneeChoices}
          value={view.assignee ?? ''}
          onChange={(assignee) => onChange({ assignee: assignee || null })}
        />
      </Field.Root>
      <Stack gap="1.5">
        <Text as="span" fontSize="sm" fontWeight="medium" aria-hidden>
          Channel
        </Text>
        <FilterSelect
          label="Channel"
          allLabel="All channels"
          values={queryChannels}
          labels={channelLabels}
          value={view.channel}
          width="40"
          onChange={(channel) => onChange({ channel })}
        />
      </Stack>
      <Stack gap="1.5">
        <Text as="span" fontSize="sm" fontWeight="medium" aria-hidden>
          Priority
        </Text>
        <FilterSelect
          label="Priority"
          allLabel="All priorities"
          values={queryPriorities}
          labels={priorityLabels}
          value={view.priority}
          width="36"
          onChange={(priority) => onChange({ priority })}
        />
      </Stack>
      <DateRangeFields from={view.from} to={view.to} error={rangeError} onChange={onChange} />
      <Stack gap="2" pb="1">
        <Checkbox.Root
          size="sm"
          checked={view.overdue}
          onCheckedChange={(event) => onChange({ overdue: event.checked === true })}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Overdue follow-ups</Checkbox.Label>
        </Checkbox.Root>
        <Checkbox.Root
          size="sm"
          checked={view.slaBreached}
          onCheckedChange={(event) => onChange({ slaBreached: event.checked === true })}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>SLA breached</Checkbox.Label>
        </Checkbox.Root>
      </Stack>
    </FilterBar>
  );
}
