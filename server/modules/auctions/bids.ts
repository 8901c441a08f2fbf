// Deciding bids (issue 32, docs/auctions.md "Deciding a bid"): one transaction per bid under a lock on
// the auction's row, so bids on one auction are decided strictly one after another (bids on different
// auctions do not wait for each other). The clock is the database's: every instance agrees on "now" and
// on whether the end has passed. Each accepted bid is appended to the ledger with the next sequence, and
// the auction row keeps the rules' state; replaying the ledger gives the same state (tested).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  AUCTION_ENDED_MESSAGE,
  AUCTION_NOT_STARTED_MESSAGE,
  type AuctionStatus,
  BID_TOO_LOW_CODE,
  bidTooLowMessage,
  type LiveState,
  type PublicBid,
  RAISE_OWN_MAX_MESSAGE,
  UNCONFIRMED_BIDDER_MESSAGE,
  WRONG_CURRENCY_MESSAGE,
} from '../../../contracts/auctions';
import {
  type AuctionState,
  type AuctionTerms,
  type Bid,
  initialState,
  isRefusal,
  maskedName,
  minimumBid,
  placeBid,
} from '../../../contracts/domain/auction-rules';
import { formatMinor } from '../../../contracts/domain/currency';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { auctionBidders, auctionBids, auctions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';

export type AuctionRow = typeof auctions.$inferSelect;
export type LedgerRow = typeof auctionBids.$inferSelect;

export const auctionNotFound = () => new HttpError(404, 'There is no such auction.', 'AUCTION_NOT_FOUND');

export function termsOf(row: AuctionRow): AuctionTerms {
  return {
    startingPriceMinor: row.startingPriceMinor,
    reserveMinor: row.reserveMinor,
    buyNowMinor: row.buyNowMinor,
    increments: row.increments,
    startsAt: row.startsAt.getTime(),
    endsAt: row.endsAt.getTime(),
    hardEndAt: row.hardEndAt.getTime(),
    softCloseWindowMs: row.softCloseSeconds * 1000,
    extensionMs: row.extensionSeconds * 1000,
  };
}

export function stateOf(row: AuctionRow): AuctionState {
  return {
    priceMinor: row.priceMinor,
    leader:
      row.leaderBidderId && row.leaderMaxMinor !== null
        ? { bidderId: row.leaderBidderId, maxMinor: row.leaderMaxMinor, sequence: row.leaderSequence ?? 0 }
        : null,
    effectiveEndAt: row.effectiveEndAt.getTime(),
    bids: row.bids,
    boughtNow: row.boughtNow,
  };
}

/** The columns that store `state` (and the leader's masked name). */
export function stateColumns(state: AuctionState, leaderName: string | null) {
  return {
    priceMinor: state.priceMinor,
    leaderBidderId: state.leader?.bidderId ?? null,
    leaderMaxMinor: state.leader?.maxMinor ?? null,
    leaderSequence: state.leader?.sequence ?? null,
    leaderName,
    effectiveEndAt: new Date(state.effectiveEndAt),
    bids: state.bids,
    boughtNow: state.boughtNow,
  };
}

/** The status people see: a scheduled auction is live from its start. */
export function statusAt(row: Pick<AuctionRow, 'status' | 'startsAt'>, nowMs: number): AuctionStatus {
  if (row.status === 'scheduled' && row.startsAt.getTime() <= nowMs) return 'live';
  return row.status as AuctionStatus;
}

export function liveStateOf(row: AuctionRow, nowMs: number, watchers: number): LiveState {
  const state = stateOf(row);
  return {
    auctionId: row.id,
    version: row.version,
    status: statusAt(row, nowMs),
    outcome: (row.outcome as LiveState['outcome']) ?? null,
    currency: row.currency,
    startingPriceMinor: row.startingPriceMinor,
    priceMinor: row.priceMinor,
    minimumBidMinor: minimumBid(termsOf(row), state),
    leaderId: row.leaderBidderId,
    leaderName: row.leaderName,
    reserveMet:
      row.reserveMinor === null ? null : row.priceMinor !== null && row.priceMinor >= row.reserveMinor,
    buyNowMinor: row.bids === 0 ? row.buyNowMinor : null,
    bids: row.bids,
    startsAt: row.startsAt.toISOString(),
    effectiveEndAt: row.effectiveEndAt.toISOString(),
    hardEndAt: row.hardEndAt.toISOString(),
    extended: row.effectiveEndAt.getTime() > row.endsAt.getTime(),
    watchers,
    cancelReason: row.cancelReason,
  };
}

export function publicBidOf(entry: LedgerRow, bidderName: string): PublicBid {
  return {
    sequence: entry.sequence,
    bidder: maskedName(bidderName),
    priceMinor: entry.priceMinor,
    at: entry.placedAt.toISOString(),
    cancelled: entry.cancelledAt !== null,
  };
}

/** The database's clock, read inside the transaction after the lock is held. */
export async function databaseNow(tx: Db | Tx): Promise<Date> {
  const [row] = rowsOf<{ now: string | Date }>(await tx.execute(sql`SELECT clock_timestamp() AS now`));
  return new Date(row?.now ?? Date.now());
}

export async function lockAuction(tx: Tx, auctionId: string): Promise<AuctionRow> {
  const [row] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for('update');
  if (!row) throw auctionNotFound();
  return row;
}

export interface BidInput {
  auctionId: string;
  bidderId: string;
  maxMinor: number;
  currency: string;
  /** The staff member who placed it for the customer. */
  placedBy: string | null;
}

export interface DecidedBid {
  auction: AuctionRow;
  entry: LedgerRow;
  bidderName: string;
  /** The bidder who lost the lead to this bid. */
  outbidId: string | null;
  extended: boolean;
  now: Date;
}

function refuse(reason: 'not_started' | 'ended'): never {
  if (reason === 'not_started') throw new HttpError(409, AUCTION_NOT_STARTED_MESSAGE, 'AUCTION_NOT_STARTED');
  throw new HttpError(409, AUCTION_ENDED_MESSAGE, 'AUCTION_ENDED');
}

/** Decides one bid: accepted (appended to the ledger, the state moved) or refused with words. */
export async function decideBid(db: Db, input: BidInput): Promise<DecidedBid> {
  return db.transaction(async (tx) => {
    const row = await lockAuction(tx, input.auctionId);
    const now = await databaseNow(tx);
    if (row.status === 'draft') refuse('not_started');
    if (row.status !== 'scheduled') refuse('ended');
    if (input.currency !== row.currency)
      throw new HttpError(422, WRONG_CURRENCY_MESSAGE(row.currency), 'WRONG_CURRENCY', {
        currency: WRONG_CURRENCY_MESSAGE(row.currency),
      });
    const [bidder] = await tx
      .select({ name: auctionBidders.name, confirmedAt: auctionBidders.confirmedAt })
      .from(auctionBidders)
      .where(and(eq(auctionBidders.id, input.bidderId), eq(auctionBidders.auctionId, row.id)));
    if (!bidder?.confirmedAt) throw new HttpError(403, UNCONFIRMED_BIDDER_MESSAGE, 'BIDDER_UNCONFIRMED');

    const terms = termsOf(row);
    const state = stateOf(row);
    const decided = placeBid(terms, state, {
      bidderId: input.bidderId,
      maxMinor: input.maxMinor,
      at: now.getTime(),
    });
    if (isRefusal(decided)) {
      if (decided.reason !== 'too_low') refuse(decided.reason);
      const minimum = formatMinor(decided.minimumMinor, row.currency);
      const message =
        state.leader?.bidderId === input.bidderId
          ? RAISE_OWN_MAX_MESSAGE(minimum)
          : bidTooLowMessage(minimum);
      throw new HttpError(409, message, BID_TOO_LOW_CODE, { maxMinor: message });
    }

    const next = decided.state;
    const sequence = row.lastSequence + 1;
    const leaderName =
      next.leader?.bidderId === input.bidderId ? maskedName(bidder.name) : (row.leaderName ?? null);
    const [entry] = await tx
      .insert(auctionBids)
      .values({
        auctionId: row.id,
        sequence,
        bidderId: input.bidderId,
        maxMinor: input.maxMinor,
        priceMinor: next.priceMinor ?? terms.startingPriceMinor,
        effectiveEndAt: new Date(next.effectiveEndAt),
        placedAt: now,
        placedBy: input.placedBy,
      })
      .returning();
    const [auction] = await tx
      .update(auctions)
      .set({
        ...stateColumns(next, leaderName),
        lastSequence: sequence,
        version: sql`${auctions.version} + 1`,
        updatedAt: now,
        // Buy Now ends it at once; the closing job settles it like any sale.
        ...(next.boughtNow ? { status: 'ended', outcome: 'sold', endedAt: now } : {}),
      })
      .where(eq(auctions.id, row.id))
      .returning();
    return {
      auction: auction!,
      entry: entry!,
      bidderName: bidder.name,
      outbidId: decided.outbid,
      extended: decided.extended,
      now,
    };
  });
}

/** The accepted, not cancelled bids in ledger order, as the rules take them. */
export async function ledgerBids(db: Db | Tx, auctionId: string): Promise<Bid[]> {
  const rows = await db
    .select({ bidderId: auctionBids.bidderId, maxMinor: auctionBids.maxMinor, at: auctionBids.placedAt })
    .from(auctionBids)
    .where(and(eq(auctionBids.auctionId, auctionId), isNull(auctionBids.cancelledAt)))
    .orderBy(asc(auctionBids.sequence));
  return rows.map((row) => ({ bidderId: row.bidderId, maxMinor: row.maxMinor, at: row.at.getTime() }));
}

/**
 * The state after cancelling bids: the remaining ones replayed in ledger order. The end shown to
 * bidders never moves earlier (they planned by it), and a remaining bid the rules would now refuse
 * (it relied on the cancelled one) is passed over.
 */
export function replayAfterCancel(
  terms: AuctionTerms,
  bids: readonly Bid[],
  shownEndAt: number,
): AuctionState {
  let state: AuctionState = { ...initialState(terms), effectiveEndAt: shownEndAt };
  for (const bid of bids) {
    const result = placeBid(terms, state, bid);
    if (!isRefusal(result)) state = result.state;
  }
  return { ...state, effectiveEndAt: Math.max(state.effectiveEndAt, shownEndAt) };
}
