// Closing (docs/auctions.md "Closing"): a job per auction is queued for its effective end; when it runs
// early (a late bid moved the end) it queues itself again for the new end. Closing is one conditional
// UPDATE (`status = 'scheduled' AND effective_end_at <= now`), so an auction closes exactly once, with
// several instances or after a restart; a sweep every 30 seconds closes any whose job was lost.
import { and, eq, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { auctions } from '../../db/schema';
import { sweepWhileUp } from '../../lib/periodic-sweep';
import type { AuctionRow } from './bids';
import type { AuctionPublisher } from './live';
import { mailClosed } from './mail';

export const CLOSE_JOB = 'auction.close';
const SWEEP_MS = 30_000;

/** Queues the close for the auction's effective end (a duplicate job is harmless: closing is conditional). */
export async function scheduleClose(app: FastifyInstance, row: AuctionRow): Promise<void> {
  if (row.status !== 'scheduled' && !(row.status === 'ended' && row.boughtNow)) return;
  await app.jobs.enqueue({
    kind: CLOSE_JOB,
    name: 'Close auction',
    ownerId: null,
    payload: { auctionId: row.id },
    runAfter: row.status === 'ended' ? new Date() : row.effectiveEndAt,
  });
}

/**
 * Closes the auction if its end has passed, by the database's clock: the outcome from the rules' state,
 * and for a sale the winner's deadline to give an address. Returns the row when this call closed it.
 */
export async function closeIfDue(db: Db, auctionId: string): Promise<AuctionRow | null> {
  const [row] = await db
    .update(auctions)
    .set({
      status: 'ended',
      outcome: sql`CASE
        WHEN ${auctions.leaderBidderId} IS NULL THEN 'no_bids'
        WHEN ${auctions.reserveMinor} IS NOT NULL AND ${auctions.priceMinor} < ${auctions.reserveMinor} THEN 'reserve_not_met'
        ELSE 'sold' END`,
      endedAt: sql`clock_timestamp()`,
      version: sql`${auctions.version} + 1`,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(
      and(
        eq(auctions.id, auctionId),
        eq(auctions.status, 'scheduled'),
        lte(auctions.effectiveEndAt, sql`clock_timestamp()`),
      ),
    )
    .returning();
  if (!row) return null;
  return settleIfSold(db, row);
}

/** A sold auction (closed, or bought now) awaits its winner's address until the deadline. */
async function settleIfSold(db: Db, row: AuctionRow): Promise<AuctionRow> {
  if (row.outcome !== 'sold' || row.settlement !== null) return row;
  const [settled] = await db
    .update(auctions)
    .set({
      settlement: 'awaiting_winner',
      winnerDeadline: sql`clock_timestamp() + ${row.paymentHours} * interval '1 hour'`,
    })
    .where(and(eq(auctions.id, row.id), sql`${auctions.settlement} IS NULL`))
    .returning();
  return settled ?? row;
}

async function runClose(app: FastifyInstance, publisher: AuctionPublisher, auctionId: string) {
  const [row] = await app.db.select().from(auctions).where(eq(auctions.id, auctionId));
  if (!row) return { closed: false };
  if (row.status === 'ended' && row.boughtNow && row.settlement === null) {
    const settled = await settleIfSold(app.db, row);
    if (settled.settlement !== null) await mailClosed(app, settled);
    return { closed: true };
  }
  const closed = await closeIfDue(app.db, auctionId);
  if (closed) {
    publisher.changed(closed, { now: closed.endedAt ?? new Date() });
    await mailClosed(app, closed);
    return { closed: true };
  }
  // Still open: a late bid moved the end. Come back then.
  if (row.status === 'scheduled') await scheduleClose(app, row);
  return { closed: false };
}

export function registerClosing(app: FastifyInstance, publisher: AuctionPublisher) {
  app.jobs.register(CLOSE_JOB, async ({ payload }) => runClose(app, publisher, String(payload.auctionId)));
  sweepWhileUp(app, {
    name: 'auction closing sweep',
    everyMs: SWEEP_MS,
    log: app.log,
    run: async () => {
      const due = await app.db
        .select({ id: auctions.id })
        .from(auctions)
        .where(and(eq(auctions.status, 'scheduled'), lte(auctions.effectiveEndAt, sql`now()`)))
        .limit(100);
      for (const { id } of due) await runClose(app, publisher, id);
    },
  });
}
