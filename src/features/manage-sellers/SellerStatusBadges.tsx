import { Badge, HStack } from '@chakra-ui/react';
import type { Seller } from '../../../contracts/sellers';
import { statusColor } from '../../lib/status-color';

/** Lifecycle status, plus Free and Blocked when they apply. */
export function SellerStatusBadges({ seller }: { seller: Pick<Seller, 'status' | 'isFree' | 'blocked'> }) {
  return (
    <HStack gap="1" wrap="wrap">
      <Badge colorPalette={statusColor(seller.status)}>{seller.status}</Badge>
      {seller.isFree ? <Badge colorPalette="blue">Free</Badge> : null}
      {seller.blocked ? <Badge colorPalette="red">Blocked</Badge> : null}
    </HStack>
  );
}
