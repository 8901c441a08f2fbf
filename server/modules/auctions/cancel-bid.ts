// An admin cancels a bid with a reason (issue 32): the ledger keeps the row, marked; the auction's state
// is recomputed by replaying the bids that remain (bids.ts replayAfterCancel) and published.
import { and, eq, sql } from 'drizzle-orm';
import { maskedName } from '../../../contracts/domain/auction-rules';
import type { Db } from '../../db/client';
import { auctionBidders, auctionBids, auctions } from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import {
  type AuctionRow,
  databaseNow,
  ledgerBids,
  lockAuction,
  replayAfterCancel,
  stateColumns,
  termsOf,
} from './bids';

export async function cancelBid(
  db: Db,
  actor: Actor,
  auctionId: string,
  sequence: number,
  reason: string,
): Promise<AuctionRow> {
  return db.transaction(async (tx) => {
    const row = await lockAuction(tx, auctionId);
    if (row.status !== 'scheduled')
      throw new HttpError(409, 'Bids can be cancelled only while the auction is live.', 'AUCTION_NOT_LIVE');
    const now = await databaseNow(tx);
    const [cancelled] = await tx
      .update(auctionBids)
      .set({ cancelledAt: now, cancelReason: reason, cancelledBy: actor.id })
      .where(
        and(
          eq(auctionBids.auctionId, auctionId),
          eq(auctionBids.sequence, sequence),
          sql`${auctionBids.cancelledAt} IS NULL`,
        ),
      )
      .returning();
    if (!cancelled)
      throw new HttpError(404, 'There is no such bid, or it is cancelled already.', 'BID_NOT_FOUND');
    const state = replayAfterCancel(
      termsOf(row),
      await ledgerBids(tx, auctionId),
      row.effectiveEndAt.getTime(),
    );
    const [leader] = state.leader
      ? await tx
          .select({ name: auctionBidders.name })
          .from(auctionBidders)
          .where(eq(auctionBidders.id, state.leader.bidderId))
      : [];
    const [updated] = await tx
      .update(auctions)
      .set({
        ...stateColumns(state, leader ? maskedName(leader.name) : null),
        version: sql`${auctions.version} + 1`,
        updatedAt: now,
      })
      .where(eq(auctions.id, auctionId))
      .returning();
    await recordAudit(tx, {
      subject: { type: 'auction', id: auctionId },
      actor,
      action: 'bid cancelled',
      note: `Bid ${sequence} cancelled: ${reason}`,
    });
    return updated!;
  });
}
