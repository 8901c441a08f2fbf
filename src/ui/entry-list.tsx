import { List, Text } from '@chakra-ui/react';
import type { AuditEntry } from '../../contracts/audit';
import { formatDateTime } from '../../contracts/domain/format';
import { relativeTime } from '../lib/relative-time';

/**
 * A record's history as short sentences, newest first (orders, invoices, purchase orders): who did
 * what (`actions` words each action), when, and the entry's note. Their detail answers carry the
 * entries, so there is nothing to page.
 */
export function EntryList({
  entries,
  actions,
  label,
}: {
  entries: readonly AuditEntry[];
  actions: Readonly<Record<string, string>>;
  label: string;
}) {
  if (entries.length === 0) return <Text color="fg.muted">Nothing yet.</Text>;
  return (
    <List.Root gap="2" listStyleType="none" aria-label={label}>
      {entries.map((entry) => (
        <List.Item key={entry.id} fontSize="sm">
          <Text>
            <Text as="span" fontWeight="medium">
              {entry.actor.name || 'The system'}
            </Text>{' '}
            {actions[entry.action] ?? entry.action}{' '}
            <Text as="span" color="fg.muted">
              <time dateTime={entry.at} title={formatDateTime(entry.at)}>
                {relativeTime(entry.at)}
              </time>
            </Text>
          </Text>
          {entry.note ? (
            <Text color="fg.muted" overflowWrap="anywhere">
              {entry.note}
            </Text>
          ) : null}
        </List.Item>
      ))}
    </List.Root>
  );
}
