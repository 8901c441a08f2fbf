// After a sale (docs/auctions.md "Closing"): the winner gives a shipping address on the public page
// before the deadline and gets an order through the orders module (the lot at the hammer price, stock
// reserved in the same transaction). Past the deadline the sale lapses; the seller may then offer the
// lot to the next bidder (the highest other maximum, at the lower of it and the hammer price, with a new
// deadline) or relist it as a new draft.
import { and, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { maskedName } from '../../../contracts/domain/auction-rules';
import type { OrderAddress } from '../../../contracts/orders';
import { auctionBidders, auctionBids, auctions } from '../../db/schema';
import { type Actor, recordAudit, SYSTEM_ACTOR } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { sweepWhileUp } from '../../lib/periodic-sweep';
import { createAuctionOrder } from '../orders/service';
import type { AuctionRow } from './bids';

const notAwaiting = () =>
  new HttpError(409, 'This auction is not waiting for its winner’s address.', 'AUCTION_NOT_AWAITING');

/** The winner's order: only the leader, only while awaited, only before the deadline. */
export async function claimWin(
  app: FastifyInstance,
  row: AuctionRow,
  bidder: { id: string; name: string },
  shippingAddress: OrderAddress,
) {
  if (row.settlement !== 'awaiting_winner' || row.leaderBidderId !== bidder.id) throw notAwaiting();
  if (row.winnerDeadline && row.winnerDeadline.getTime() < Date.now())
    throw new HttpError(409, 'The time to give your address has passed.', 'AUCTION_DEADLINE_PASSED');
  const [who] = await app.db.select().from(auctionBidders).where(eq(auctionBidders.id, bidder.id));
  const actor: Actor = { id: null, name: `${bidder.name} (auction winner)` };
  return createAuctionOrder(
    app,
    actor,
    {
      sellerId: row.sellerId,
      productId: row.productId,
      quantity: row.quantity,
      priceMinor: row.priceMinor ?? row.startingPriceMinor,
      currency: row.currency,
      customerName: bidder.name,
      email: who?.email ?? '',
      shippingAddress,
      note: `Won at auction #${row.number}`,
    },
    async (tx, order) => {
      const [claimed] = await tx
        .update(auctions)
        .set({ settlement: 'ordered', orderId: order.id, version: sql`${auctions.version} + 1` })
        .where(and(eq(auctions.id, row.id), eq(auctions.settlement, 'awaiting_winner')))
        .returning({ id: auctions.id });
      if (!claimed) throw notAwaiting();
      await recordAudit(tx, {
        subject: { type: 'auction', id: row.id },
        actor,
        action: 'ordered',
        note: `Order #${order.number} for the winner`,
      });
    },
  );
}

/** Marks sales whose deadline passed without an address (every instance may run it: conditional). */
export async function lapseOverdue(app: FastifyInstance) {
  const lapsed = await app.db
    .update(auctions)
    .set({ settlement: 'lapsed', version: sql`${auctions.version} + 1` })
    .where(and(eq(auctions.settlement, 'awaiting_winner'), lt(auctions.winnerDeadline, sql`now()`)))
    .returning({ id: auctions.id });
  for (const { id } of lapsed)
    await recordAudit(app.db, {
      subject: { type: 'auction', id },
      actor: SYSTEM_ACTOR,
      action: 'lapsed',
      note: 'The winner gave no address before the deadline',
    });
  return lapsed.length;
}

export function sweepLapsed(app: FastifyInstance) {
  sweepWhileUp(app, {
    name: 'auction payment deadline sweep',
    everyMs: 60_000,
    log: app.log,
    run: () => lapseOverdue(app),
  });
}

/** The lapsed lot to the next bidder: the highest maximum of anyone else, not cancelled. */
export async function offerToNextBidder(app: FastifyInstance, actor: Actor, row: AuctionRow) {
  if (row.settlement !== 'lapsed')
    throw new HttpError(
      409,
      'Offer it to the next bidder once the winner’s deadline has passed.',
      'AUCTION_NOT_LAPSED',
    );
  const [next] = await app.db
    .select({ bidderId: auctionBids.bidderId, maxMinor: auctionBids.maxMinor, name: auctionBidders.name })
    .from(auctionBids)
    .innerJoin(auctionBidders, eq(auctionBidders.id, auctionBids.bidderId))
    .where(
      and(
        eq(auctionBids.auctionId, row.id),
        isNull(auctionBids.cancelledAt),
        ne(auctionBids.bidderId, row.leaderBidderId ?? '00000000-0000-0000-0000-000000000000'),
      ),
    )
    .orderBy(desc(auctionBids.maxMinor), auctionBids.sequence)
    .limit(1);
  if (!next) throw new HttpError(409, 'No other bidder bid on this lot.', 'NO_NEXT_BIDDER');
  const price = Math.min(next.maxMinor, row.priceMinor ?? next.maxMinor);
  const [updated] = await app.db
    .update(auctions)
    .set({
      leaderBidderId: next.bidderId,
      leaderMaxMinor: next.maxMinor,
      leaderName: maskedName(next.name),
      priceMinor: price,
      settlement: 'awaiting_winner',
      winnerDeadline: sql`now() + ${row.paymentHours} * interval '1 hour'`,
      version: sql`${auctions.version} + 1`,
    })
    .where(and(eq(auctions.id, row.id), eq(auctions.settlement, 'lapsed')))
    .returning();
  if (!updated) throw new HttpError(409, 'This auction changed meanwhile; reload it.', 'AUCTION_CHANGED');
  await recordAudit(app.db, {
    subject: { type: 'auction', id: row.id },
    actor,
    action: 'offered to next bidder',
    note: `Offered to ${next.name} at their maximum or the hammer price, whichever is lower`,
  });
  return updated;
}

/** A new draft with the same lot and terms, dated from now; the old auction says it was relisted. */
export async function relist(app: FastifyInstance, actor: Actor, row: AuctionRow) {
  if (
    row.status !== 'ended' ||
    row.settlement === 'relisted' ||
    (row.outcome === 'sold' && row.settlement !== 'lapsed')
  )
    throw new HttpError(
      409,
      'Relist an auction that ended unsold or whose winner did not pay.',
      'AUCTION_NOT_RELISTABLE',
    );
  const length = row.endsAt.getTime() - row.startsAt.getTime();
  const startsAt = new Date(Date.now() + 86_400_000);
  const endsAt = new Date(startsAt.getTime() + length);
  return app.db.transaction(async (tx) => {
    const [copy] = await tx
      .insert(auctions)
      .values({
        sellerId: row.sellerId,
        productId: row.productId,
        quantity: row.quantity,
        title: row.title,
        description: row.description,
        currency: row.currency,
        startingPriceMinor: row.startingPriceMinor,
        reserveMinor: row.reserveMinor,
        buyNowMinor: row.buyNowMinor,
        increments: row.increments,
        startsAt,
        endsAt,
        hardEndAt: new Date(endsAt.getTime() + (row.hardEndAt.getTime() - row.endsAt.getTime())),
        effectiveEndAt: endsAt,
        softCloseSeconds: row.softCloseSeconds,
        extensionSeconds: row.extensionSeconds,
        paymentHours: row.paymentHours,
        createdBy: actor.id,
      })
      .returning();
    await tx.update(auctions).set({ settlement: 'relisted' }).where(eq(auctions.id, row.id));
    await recordAudit(tx, {
      subject: { type: 'auction', id: row.id },
      actor,
      action: 'relisted',
      note: `Relisted as #${copy!.number}`,
    });
    await recordAudit(tx, {
      subject: { type: 'auction', id: copy!.id },
      actor,
      action: 'created',
      note: `Relisted from #${row.number}`,
    });
    return copy!;
  });
}
