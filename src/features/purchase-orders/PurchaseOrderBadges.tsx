import { Badge } from '@chakra-ui/react';
import {
  type PurchaseOrderStatus,
  purchaseOrderStatusLabels,
} from '../../../contracts/domain/purchase-order-state';
import type { StatusPalette } from '../../lib/status-color';

/**
 * A purchase order status's colour by what it asks of the reader: a draft and a cancelled one wait for
 * nothing (gray), a sent one is on its way (blue), a partly received one still misses goods (orange),
 * a received one is done (green).
 */
export const purchaseOrderStatusPalette: Record<PurchaseOrderStatus, StatusPalette> = {
  draft: 'gray',
  sent: 'blue',
  partially_received: 'orange',
  received: 'green',
  cancelled: 'gray',
};

export function PurchaseOrderStatusBadge({ status }: { status: PurchaseOrderStatus }) {
  return (
    <Badge colorPalette={purchaseOrderStatusPalette[status]} variant="subtle">
      {purchaseOrderStatusLabels[status]}
    </Badge>
  );
}
