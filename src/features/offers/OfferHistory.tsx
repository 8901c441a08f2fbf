import { List, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../../contracts/domain/format';
import type { OfferDetail } from '../../../contracts/offers';
import { relativeTime } from '../../lib/relative-time';

const ACTIONS: Record<string, string> = {
  created: 'recorded the request',
  draft: 'saved the draft',
  sent: 'sent the offer',
  opened: 'opened the link',
  accepted: 'accepted',
  declined: 'declined',
  expired: 'expired',
};

/** The offer's audit trail, newest first: who did what, when, in the server's words. */
export function OfferHistory({ history }: { history: OfferDetail['history'] }) {
  if (history.length === 0) return <Text color="fg.muted">No history yet.</Text>;
  return (
    <List.Root gap="2" listStyleType="none" aria-label="Offer history">
      {history.map((entry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the trail is append-only and read newest first
        <List.Item key={`${entry.at}-${index}`} fontSize="sm">
          <Text>
            <Text as="span" fontWeight="medium">
              {entry.actorName || 'The system'}
            </Text>{' '}
            {ACTIONS[entry.action] ?? entry.action}{' '}
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
