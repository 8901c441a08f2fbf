import { Badge } from '@chakra-ui/react';
import { type OfferStatus, offerStatusLabels } from '../../../contracts/domain/offer-status';
import { type StatusPalette, statusColor } from '../../lib/status-color';

/**
 * An offer status's colour, by the words of src/lib/status-color.ts where they apply (Declined red) and
 * otherwise by what it asks of the reader: a request waits for the seller (blue, new), an offer waits
 * for the customer (yellow, pending), accepted is done (green), expired is over (orange, like overdue).
 */
export function offerStatusPalette(status: OfferStatus): StatusPalette {
  switch (status) {
    case 'requested':
      return statusColor('new');
    case 'offered':
      return statusColor('pending');
    case 'accepted':
      return statusColor('completed');
    case 'expired':
      return statusColor('overdue');
    default:
      return statusColor(offerStatusLabels[status]);
  }
}

export function OfferStatusBadge({ status }: { status: OfferStatus }) {
  return (
    <Badge colorPalette={offerStatusPalette(status)} variant="subtle">
      {offerStatusLabels[status]}
    </Badge>
  );
}
