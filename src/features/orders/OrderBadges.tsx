import { Badge } from '@chakra-ui/react';
import {
  type OrderStatus,
  orderStatusLabels,
  type PaymentState,
  paymentStateLabels,
} from '../../../contracts/domain/order-state';
import { type StatusPalette, statusColor } from '../../lib/status-color';

/**
 * An order status's colour, by the words of src/lib/status-color.ts (SPEC §9: paid green, pending
 * yellow, cancelled and refunded as their words say) and, where they have none, by what the order asks
 * of the reader: shipped is on its way (blue, like new), delivered is done (completed).
 */
export function orderStatusPalette(status: OrderStatus): StatusPalette {
  switch (status) {
    case 'shipped':
      return statusColor('new');
    case 'delivered':
      return statusColor('completed');
    default:
      return statusColor(orderStatusLabels[status]);
  }
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge colorPalette={orderStatusPalette(status)} variant="subtle">
      {orderStatusLabels[status]}
    </Badge>
  );
}

/** Payment states in the SPEC §9 colours: paid, unpaid, pending (partly paid) and refunded. */
export function paymentStatePalette(state: PaymentState): StatusPalette {
  switch (state) {
    case 'partly_paid':
      return statusColor('pending');
    case 'partly_refunded':
      return statusColor('refunded');
    default:
      return statusColor(paymentStateLabels[state]);
  }
}

export function PaymentStateBadge({ state }: { state: PaymentState }) {
  return (
    <Badge colorPalette={paymentStatePalette(state)} variant="outline">
      {paymentStateLabels[state]}
    </Badge>
  );
}
