import { Badge } from '@chakra-ui/react';
import type { RenewalStatus, SubscriptionState } from '../../contracts/subscriptions';

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

export const renewalStatusPalette: Record<RenewalStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};
const renewalStatusLabel: Record<RenewalStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** Where a renewal request stands, as admins see it. */
export function RenewalStatusBadge({ status }: { status: RenewalStatus }) {
  return <Badge colorPalette={renewalStatusPalette[status]}>{renewalStatusLabel[status]}</Badge>;
}
