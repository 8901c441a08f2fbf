import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { formatDateTime } from '../../../contracts/domain/format';
import { type QueryStatus, queryStatusLabels } from '../../../contracts/domain/query-status';
import type { QueryDetail, QueryEvent } from '../../../contracts/queries';
import { relativeTime } from '../../lib/relative-time';
import { getErrorMessage } from '../../services/http';
import { EmptyMessage, ErrorState } from '../../ui/page-states';
import { useOlderEvents, useWholeEvent } from './api';
import { eventKindLabels, priorityLabels } from './labels';

const statusLabel = (value: unknown) => queryStatusLabels[value as QueryStatus] ?? String(value ?? '—');
const priorityLabel = (value: unknown) =>
  priorityLabels[value as keyof typeof priorityLabels] ?? String(value ?? '—');

/** The line the server's structured events read as (status moves, priority, follow-up, snooze). */
export function eventSummary(event: QueryEvent): string | null {
  const data = event.data;
  switch (event.kind) {
    case 'status':
      return `${statusLabel(data.from)} → ${statusLabel(data.to)}`;
    case 'priority':
      return `${priorityLabel(data.from)} → ${priorityLabel(data.to)}`;
    case 'follow_up':
      return typeof data.at === 'string' ? `Follow up ${formatDateTime(data.at)}` : 'Follow-up cleared';
    case 'snooze':
      if (data.ended) return null;
      return typeof data.until === 'string'
        ? `Snoozed until ${formatDateTime(data.until)}${data.reopenOnReply === false ? ', stays snoozed on a reply' : ', reopens on a reply'}`
        : 'Snooze ended';
    case 'call':
    case 'email':
      return data.direction === 'incoming' ? 'Incoming' : data.direction === 'outgoing' ? 'Outgoing' : null;
    case 'message_out':
      return typeof data.subject === 'string' ? `Mail: ${data.subject}` : null;
    default:
      return null;
  }
}

const customerSide = new Set<QueryEvent['kind']>(['message_in']);
const conversation = new Set<QueryEvent['kind']>(['message_in', 'message_out', 'call', 'email', 'note']);

/** One event: who, when, what; the body as text (whole on demand when the preview was cut). */
function ThreadEvent({ queryId, event }: { queryId: string; event: QueryEvent }) {
  const [whole, setWhole] = useState(false);
  const full = useWholeEvent(queryId, event.id, whole);
  const body = whole && full.data ? full.data.body : event.body;
  const summary = eventSummary(event);
  const spoken = conversation.has(event.kind);
  return (
    <Box
      as="li"
      listStyleType="none"
      borderWidth={spoken ? '1px' : undefined}
      borderRadius="md"
      p={spoken ? '3' : '1'}
      bg={customerSide.has(event.kind) ? 'bg.subtle' : undefined}
      data-kind={event.kind}
    >
      <HStack gap="2" wrap="wrap" fontSize="sm">
        <Badge variant={spoken ? 'solid' : 'outline'} colorPalette={spoken ? 'brand' : 'gray'} size="sm">
          {eventKindLabels[event.kind]}
        </Badge>
        <Text as="span" fontWeight="medium">
          {event.actorName}
        </Text>
        <Text as="span" color="fg.muted">
          <time dateTime={event.createdAt} title={formatDateTime(event.createdAt)}>
            {relativeTime(event.createdAt)}
          </time>
        </Text>
        {summary ? (
          <Text as="span" color="fg.muted">
            · {summary}
          </Text>
        ) : null}
      </HStack>
      {body ? (
        <Text mt="2" whiteSpace="pre-wrap" overflowWrap="anywhere">
          {body}
        </Text>
      ) : null}
      {event.outcome ? (
        <Text mt="1" fontSize="sm">
          <Text as="span" fontWeight="medium">
            Outcome:
          </Text>{' '}
          {event.outcome}
        </Text>
      ) : null}
      {event.truncated && !(whole && full.data) ? (
        <Button size="xs" variant="plain" px="0" loading={full.isFetching} onClick={() => setWhole(true)}>
          Show the whole text
        </Button>
      ) : null}
      {full.isError ? <Text color="fg.error">{getErrorMessage(full.error)}</Text> : null}
    </Box>
  );
}

/** The thread, newest first: messages, replies, calls, notes and every change, older pages on demand. */
export function QueryThread({ query }: { query: QueryDetail }) {
  const older = useOlderEvents(query.id, query.events.nextBefore);
  const olderEvents = older.data?.pages.flatMap((page) => page.result) ?? [];
  // New events push the first page down: an older page may repeat one of it.
  const firstIds = new Set(query.events.result.map((event) => event.id));
  const events = [...query.events.result, ...olderEvents.filter((event) => !firstIds.has(event.id))];
  const more = older.data === undefined ? query.events.nextBefore !== null : older.hasNextPage;
  if (events.length === 0) return <EmptyMessage title="Nothing happened yet" />;
  return (
    <Stack gap="3">
      <Stack as="ol" gap="3" aria-label="Thread" ps="0" m="0">
        {events.map((event) => (
          <ThreadEvent key={event.id} queryId={query.id} event={event} />
        ))}
      </Stack>
      {older.isError ? (
        <ErrorState message={getErrorMessage(older.error)} onRetry={() => older.refetch()} />
      ) : null}
      {more ? (
        <Button
          variant="outline"
          size="sm"
          alignSelf="start"
          loading={older.isFetching}
          onClick={() => (older.data ? older.fetchNextPage() : older.refetch())}
        >
          Show older events
        </Button>
      ) : null}
    </Stack>
  );
}
