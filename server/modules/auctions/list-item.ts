// An auction as a list shows it (the list, an event's lots, the start of its page).
import type { AuctionListItem } from '../../../contracts/auctions';
import { type AuctionRow, statusAt } from './bids';

export function listItemOf(
  row: AuctionRow,
  productName: string | null,
  sellerName: string | null,
  now: Date,
): AuctionListItem {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    sellerId: row.sellerId,
    sellerName,
    productId: row.productId,
    productName,
    quantity: row.quantity,
    currency: row.currency,
    status: statusAt(row, now.getTime()),
    outcome: (row.outcome as AuctionListItem['outcome']) ?? null,
    priceMinor: row.priceMinor,
    bids: row.bids,
    startsAt: row.startsAt.toISOString(),
    effectiveEndAt: row.effectiveEndAt.toISOString(),
    eventId: row.eventId,
  };
}
