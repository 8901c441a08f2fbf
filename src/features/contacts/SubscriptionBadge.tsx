import { Badge } from '@chakra-ui/react';
import { type ContactSubscription, contactSubscriptionLabels } from '../../../contracts/marketing';
import { statusColor } from '../../lib/status-color';

/** SPEC §9's colours: subscribed green, unsubscribed orange, bounced red. */
export function SubscriptionBadge({ state }: { state: ContactSubscription }) {
  const label = contactSubscriptionLabels[state];
  return (
    <Badge colorPalette={statusColor(label)} variant="subtle">
      {label}
    </Badge>
  );
}
