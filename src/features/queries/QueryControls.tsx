import { Button, Checkbox, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { dateTimeInputValue, formatDateTime } from '../../../contracts/domain/format';
import {
  type QueryPriority,
  queryPriorities,
  queryStatusLabels,
} from '../../../contracts/domain/query-status';
import type { QueryDetail } from '../../../contracts/queries';
import { getErrorMessage } from '../../services/http';
import { PersonChooser } from '../../ui/choosers';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { useQueryAction } from './api';
import { instantOf } from './ConnectDataDialog';
import { priorityLabels } from './labels';

/**
 * What the people working a query change: its status (the moves the server allows now), assignee,
 * priority, next follow-up and snooze. Each change answers the query as it is now; a refused one shows
 * the server's reason here.
 */
export function QueryControls({ query, canEdit }: { query: QueryDetail; canEdit: boolean }) {
  const action = useQueryAction(query.id);
  const [followUp, setFollowUp] = useState(dateTimeInputValue(query.nextFollowUpAt));
  const [followUpNote, setFollowUpNote] = useState(query.followUpNote);
  const [snoozeUntil, setSnoozeUntil] = useState(dateTimeInputValue(query.snoozedUntil));
  const [reopenOnReply, setReopenOnReply] = useState(query.snoozeReopenOnReply);
  const finished = query.status === 'resolved' || query.status === 'closed';
  const disabled = !canEdit || action.isPending;

  const saveFollowUp = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({ kind: 'follow-up', body: { at: instantOf(followUp), note: followUpNote } });
  };
  const saveSnooze = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({ kind: 'snooze', body: { until: instantOf(snoozeUntil), reopenOnReply } });
  };

  return (
    <Stack gap="4" data-tour="query-controls">
      <FormMessage status="error">{action.isError ? getErrorMessage(action.error) : null}</FormMessage>

      <Stack gap="2">
        <Text fontWeight="medium" id="query-move-label">
          Move to
        </Text>
        {query.nextStatuses.length ? (
          <HStack gap="2" wrap="wrap" role="group" aria-labelledby="query-move-label">
            {query.nextStatuses.map((status) => (
              <Button
                key={status}
                size="sm"
                variant="outline"
                disabled={disabled}
                onClick={() => action.mutate({ kind: 'status', body: { status } })}
              >
                {queryStatusLabels[status]}
              </Button>
            ))}
          </HStack>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            A closed query does not change.
          </Text>
        )}
      </Stack>

      <Field.Root disabled={disabled}>
        <Field.Label htmlFor="query-assignee">Assignee</Field.Label>
        <PersonChooser
          id="query-assignee"
          label="Assignee"
          value={query.assigneeId ?? ''}
          valueLabel={query.assigneeName}
          fixed={[{ value: '', label: 'Unassigned' }]}
          onChange={(assigneeId) =>
            action.mutate({ kind: 'assign', body: { assigneeId: assigneeId || null } })
          }
        />
      </Field.Root>

      <Field.Root disabled={disabled}>
        <Field.Label htmlFor="query-priority">Priority</Field.Label>
        <OptionSelect
          id="query-priority"
          size="sm"
          value={query.priority}
          disabled={disabled}
          options={queryPriorities.map((value) => ({ value, label: priorityLabels[value] }))}
          onChange={(priority) =>
            action.mutate({ kind: 'priority', body: { priority: priority as QueryPriority } })
          }
        />
      </Field.Root>

      <Stack as="form" gap="2" onSubmit={saveFollowUp} aria-label="Next follow-up">
        <Field.Root disabled={disabled || finished}>
          <Field.Label>Next follow-up</Field.Label>
          <Input
            size="sm"
            type="datetime-local"
            value={followUp}
            onChange={(event) => setFollowUp(event.target.value)}
          />
          <Field.HelperText>
            {query.nextFollowUpAt
              ? `${query.overdue ? 'Overdue since' : 'Due'} ${formatDateTime(query.nextFollowUpAt)}, reminding ${query.assigneeName ?? 'the shop'}`
              : finished
                ? 'A resolved or closed query has no follow-up.'
                : 'The assignee is reminded then.'}
          </Field.HelperText>
        </Field.Root>
        <Field.Root disabled={disabled || finished}>
          <Field.Label>Follow-up note</Field.Label>
          <Input
            size="sm"
            maxLength={500}
            value={followUpNote}
            onChange={(event) => setFollowUpNote(event.target.value)}
          />
        </Field.Root>
        <HStack gap="2">
          <Button size="sm" type="submit" variant="outline" disabled={disabled || finished}>
            Save follow-up
          </Button>
          {query.nextFollowUpAt ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={disabled || finished}
              onClick={() => {
                setFollowUp('');
                action.mutate({ kind: 'follow-up', body: { at: null, note: '' } });
              }}
            >
              Clear
            </Button>
          ) : null}
        </HStack>
      </Stack>

      <Stack as="form" gap="2" onSubmit={saveSnooze} aria-label="Snooze">
        <Field.Root disabled={disabled || finished}>
          <Field.Label>Snooze until</Field.Label>
          <Input
            size="sm"
            type="datetime-local"
            value={snoozeUntil}
            onChange={(event) => setSnoozeUntil(event.target.value)}
          />
          <Field.HelperText>
            {query.snoozedUntil
              ? `Snoozed until ${formatDateTime(query.snoozedUntil)}`
              : 'The query waits for the customer until then.'}
          </Field.HelperText>
        </Field.Root>
        <Checkbox.Root
          size="sm"
          checked={reopenOnReply}
          disabled={disabled || finished}
          onCheckedChange={(event) => setReopenOnReply(event.checked === true)}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Reopen when the customer replies (else stay snoozed)</Checkbox.Label>
        </Checkbox.Root>
        <HStack gap="2">
          <Button size="sm" type="submit" variant="outline" disabled={disabled || finished || !snoozeUntil}>
            Snooze
          </Button>
          {query.snoozedUntil ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={disabled}
              onClick={() => {
                setSnoozeUntil('');
                action.mutate({ kind: 'snooze', body: { until: null, reopenOnReply } });
              }}
            >
              End snooze
            </Button>
          ) : null}
        </HStack>
      </Stack>
    </Stack>
  );
}
