// The one audit timeline (ARCHITECTURE "audit trail"): who, when, and each field before → after,
// newest first, with older pages on demand. Every history endpoint answers the one page shape of
// contracts/audit.ts; each feature brings its words (field labels, what an action says, how a value
// reads) and its paged query.
import { Box, Button, Icon, Stack, Text, Timeline } from '@chakra-ui/react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { FileText, Image, type LucideIcon, Pencil, Plus, RefreshCw, Tag } from 'lucide-react';
import type { AuditEntry, AuditPage } from '../../contracts/audit';
import { formatDateTime } from '../../contracts/domain/format';
import { relativeTime } from '../lib/relative-time';
import { getErrorMessage } from '../services/http';
import { EmptyMessage, ErrorState, LoadingState } from './page-states';

export interface HistoryWords {
  fieldLabel: (field: string) => string;
  actionText: (entry: AuditEntry) => string;
  /** How a value reads; the field lets a price read as money. */
  formatValue: (value: unknown, field: string) => string;
  /**
   * Whether the entry's note is someone's own words (shown as a quotation) or a sentence the server
   * wrote (shown plainly). Notes are quotations unless the feature says otherwise.
   */
  noteIsQuote?: (entry: AuditEntry) => boolean;
}

const icons: Record<string, LucideIcon> = {
  created: Plus,
  updated: Pencil,
  status: RefreshCw,
  free: Tag,
  document: FileText,
  logo: Image,
  images: Image,
  category: Tag,
};

/** Every change, newest first: who, when, and each field before → after. */
export function HistoryTimeline({
  history,
  words,
  emptyDescription,
}: {
  history: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  words: HistoryWords;
  emptyDescription: string;
}) {
  const { actionText, fieldLabel, formatValue, noteIsQuote = () => true } = words;
  if (history.isPending) return <LoadingState rows={4} label="Loading history" />;
  if (history.isError)
    return <ErrorState message={getErrorMessage(history.error)} onRetry={() => history.refetch()} />;
  const entries = history.data.pages.flatMap((page) => page.result);
  if (entries.length === 0)
    return <EmptyMessage title="No changes recorded yet" description={emptyDescription} />;
  const total = history.data.pages[0]?.count ?? entries.length;
  return (
    <Stack gap="4">
      <Timeline.Root size="sm" variant="subtle" aria-label="Update history">
        {entries.map((entry) => {
          const EntryIcon = icons[entry.action] ?? RefreshCw;
          return (
            <Timeline.Item key={entry.id}>
              <Timeline.Connector>
                <Timeline.Separator />
                <Timeline.Indicator>
                  <Icon size="xs">
                    <EntryIcon />
                  </Icon>
                </Timeline.Indicator>
              </Timeline.Connector>
              <Timeline.Content>
                <Timeline.Title>
                  <Text as="span" fontWeight="semibold">
                    {entry.actor.name}
                  </Text>{' '}
                  {actionText(entry)}
                </Timeline.Title>
                <Timeline.Description>
                  <time dateTime={entry.at} title={formatDateTime(entry.at)}>
                    {relativeTime(entry.at)}
                  </time>
                </Timeline.Description>
                {entry.changes.length > 0 ? (
                  <Box as="ul" fontSize="sm" listStyleType="none">
                    {entry.changes.map((change) => (
                      <li key={change.field}>
                        <Text as="span" color="fg.muted">
                          {fieldLabel(change.field)}:
                        </Text>{' '}
                        <Text as="span" textDecoration="line-through" color="fg.subtle">
                          {formatValue(change.before, change.field)}
                        </Text>{' '}
                        → <Text as="span">{formatValue(change.after, change.field)}</Text>
                      </li>
                    ))}
                  </Box>
                ) : null}
                {entry.note ? (
                  <Text fontSize="sm" color="fg.muted" whiteSpace="pre-wrap">
                    {noteIsQuote(entry) ? `“${entry.note}”` : entry.note}
                  </Text>
                ) : null}
              </Timeline.Content>
            </Timeline.Item>
          );
        })}
      </Timeline.Root>
      {history.hasNextPage ? (
        <Button
          size="sm"
          variant="outline"
          alignSelf="center"
          loading={history.isFetchingNextPage}
          onClick={() => history.fetchNextPage()}
        >
          Show older changes ({total - entries.length} more)
        </Button>
      ) : null}
    </Stack>
  );
}
