import { Badge } from '@chakra-ui/react';
import type { SubscriptionState } from '../../contracts/subscriptions';

/** One colour per subscription state, the same on the seller's pages and the admins'. */
export const subscriptionStatePalette: Record<SubscriptionState, string> = {
  Active: 'green',
  'Expiring soon': 'orange',
  Expired: 'red',
  Blocked: 'red',
  Free: 'blue',
  'No subscription': 'gray',
};

export function SubscriptionStateBadge({ state }: { state: SubscriptionState }) {
  return (
    <Badge colorPalette={subscriptionStatePalette[state]} variant={state === 'Blocked' ? 'solid' : 'subtle'}>
      {state}
    </Badge>
  );
}

/** "12 Mar 2025": dates of periods and renewals, without a time of day. */
export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
}
