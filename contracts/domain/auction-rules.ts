/**
 * The rules of a live auction (issue 32, docs/auctions.md), as pure functions the server applies one bid
 * at a time under the auction's lock, and that a replay of the ledger applies again to the same result:
 * - the increment table is data (tiers by price, in the currency's minor units; Trade Me's by default);
 * - proxy bidding: a bidder's hidden maximum counter-bids by the increment; equal maxima go to the
 *   earlier bid (eBay, PHP Pro Bid); the reserve is met automatically when a maximum reaches it;
 * - soft close: a bid in the late window moves the effective end to the bid time plus the extension,
 *   never past the hard end (PlebeianApp's `max_end_at`, ../shared/ANCHORS.md §11);
 * - Buy Now ends the auction at its price, and is offered only until the first bid (eBay's rule: a
 *   bidder's maximum above it must not be overtaken by a later buyer).
 * Amounts are integer minor units; times are epoch milliseconds.
 */
import { moneyDigits } from './currency';

/** From `fromMinor` (inclusive) upwards, each bid rises by at least `stepMinor`. */
export interface IncrementTier {
  fromMinor: number;
  stepMinor: number;
}

/** Trade Me's table in major units: below 20 → 0.50, 20–200 → 1, … above 25,000 → 100. */
const TRADE_ME: readonly [from: number, step: number][] = [
  [0, 0.5],
  [20, 1],
  [200, 5],
  [1_000, 10],
  [5_000, 50],
  [25_000, 100],
];

/** The default table in the currency's minor units; a step is at least one minor unit (whole yen). */
export function defaultIncrementTable(currency: string): IncrementTier[] {
  const scale = 10 ** moneyDigits(currency);
  return TRADE_ME.map(([from, step]) => ({
    fromMinor: Math.round(from * scale),
    stepMinor: Math.max(1, Math.round(step * scale)),
  }));
}

/** What is wrong with a table, in words; empty when usable. */
export function incrementTableProblems(table: readonly IncrementTier[]): string[] {
  const problems: string[] = [];
  if (table.length === 0) return ['Give at least one increment.'];
  if (table[0]?.fromMinor !== 0) problems.push('The first increment starts at 0.');
  table.forEach((tier, index) => {
    if (!Number.isSafeInteger(tier.stepMinor) || tier.stepMinor < 1)
      problems.push(`Increment ${index + 1} must be at least one minor unit.`);
    const previous = table[index - 1];
    if (previous && tier.fromMinor <= previous.fromMinor)
      problems.push(`Increment ${index + 1} must start above the one before.`);
  });
  return problems;
}

/** The step that applies at `priceMinor`. */
export function incrementAt(priceMinor: number, table: readonly IncrementTier[]): number {
  let step = table[0]?.stepMinor ?? 1;
  for (const tier of table) if (priceMinor >= tier.fromMinor) step = tier.stepMinor;
  return step;
}

export interface AuctionTerms {
  startingPriceMinor: number;
  /** Hidden; null: none. */
  reserveMinor: number | null;
  /** null: no Buy Now. */
  buyNowMinor: number | null;
  increments: readonly IncrementTier[];
  startsAt: number;
  /** The scheduled end; bids in the late window move the effective end, never past `hardEndAt`. */
  endsAt: number;
  hardEndAt: number;
  /** A bid this close to the effective end extends it … */
  softCloseWindowMs: number;
  /** … to the bid time plus this. */
  extensionMs: number;
}

export interface Leader {
  bidderId: string;
  /** The bidder's hidden maximum. */
  maxMinor: number;
  /** The ledger sequence of the bid that set it: the earlier of equal maxima leads. */
  sequence: number;
}

export interface AuctionState {
  priceMinor: number | null;
  leader: Leader | null;
  effectiveEndAt: number;
  /** The accepted bids so far (the ledger's length). */
  bids: number;
  /** Set when Buy Now took it, or a bid came after the end was reached (refused). */
  boughtNow: boolean;
}

export const initialState = (terms: AuctionTerms): AuctionState => ({
  priceMinor: null,
  leader: null,
  effectiveEndAt: terms.endsAt,
  bids: 0,
  boughtNow: false,
});

/** The least a new bid must be now: the starting price, or the price plus its increment. */
export function minimumBid(terms: AuctionTerms, state: AuctionState): number {
  if (state.priceMinor === null) return terms.startingPriceMinor;
  return state.priceMinor + incrementAt(state.priceMinor, terms.increments);
}

export interface Bid {
  bidderId: string;
  /** The most the bidder will pay (a plain bid is a maximum equal to its amount). */
  maxMinor: number;
  at: number;
}

export type BidRefusal =
  | { reason: 'not_started' }
  | { reason: 'ended' }
  | { reason: 'too_low'; minimumMinor: number };

export interface BidResult {
  state: AuctionState;
  /** The leader before the bid, when the bid took the lead from someone else (to tell them). */
  outbid: string | null;
  extended: boolean;
}

/** The price a leader with `leaderMax` pays against `challengerMax`: one increment above, within the max. */
function priceAgainst(terms: AuctionTerms, leaderMax: number, challengerMax: number): number {
  const above = challengerMax + incrementAt(challengerMax, terms.increments);
  return Math.min(leaderMax, above);
}

/** Meets the reserve automatically when the leader's maximum reaches it. */
function withReserve(terms: AuctionTerms, price: number, leaderMax: number): number {
  if (terms.reserveMinor !== null && leaderMax >= terms.reserveMinor && price < terms.reserveMinor)
    return terms.reserveMinor;
  return price;
}

/**
 * Decides one bid against the state (the caller holds the auction's lock and gives the bid the next
 * ledger sequence when it is accepted). Refused bids change nothing.
 */
export function placeBid(terms: AuctionTerms, state: AuctionState, bid: Bid): BidResult | BidRefusal {
  if (bid.at < terms.startsAt) return { reason: 'not_started' };
  if (state.boughtNow || bid.at >= state.effectiveEndAt) return { reason: 'ended' };
  const sequence = state.bids + 1;
  const leader = state.leader;
  const minimum = minimumBid(terms, state);
  const raisingOwnMax = leader?.bidderId === bid.bidderId;
  if (raisingOwnMax ? bid.maxMinor <= (leader?.maxMinor ?? 0) : bid.maxMinor < minimum)
    return { reason: 'too_low', minimumMinor: raisingOwnMax ? (leader?.maxMinor ?? 0) + 1 : minimum };

  let next: { price: number; leader: Leader };
  let outbid: string | null = null;
  if (!leader) {
    const price = withReserve(terms, terms.startingPriceMinor, bid.maxMinor);
    next = { price, leader: { bidderId: bid.bidderId, maxMinor: bid.maxMinor, sequence } };
  } else if (raisingOwnMax) {
    // The leader raises their own maximum: the price only moves to meet the reserve.
    const price = withReserve(terms, state.priceMinor ?? terms.startingPriceMinor, bid.maxMinor);
    next = { price, leader: { ...leader, maxMinor: bid.maxMinor } };
  } else if (bid.maxMinor > leader.maxMinor) {
    const price = withReserve(terms, priceAgainst(terms, bid.maxMinor, leader.maxMinor), bid.maxMinor);
    next = { price, leader: { bidderId: bid.bidderId, maxMinor: bid.maxMinor, sequence } };
    outbid = leader.bidderId;
  } else {
    // The earlier maximum holds (ties included) and counter-bids up to the challenger's plus a step.
    const price = withReserve(terms, priceAgainst(terms, leader.maxMinor, bid.maxMinor), leader.maxMinor);
    next = { price: Math.max(price, state.priceMinor ?? 0), leader };
  }

  const boughtNow = terms.buyNowMinor !== null && !leader && bid.maxMinor >= terms.buyNowMinor;
  const price = boughtNow && terms.buyNowMinor !== null ? terms.buyNowMinor : next.price;
  const end = boughtNow ? bid.at : extendedEnd(terms, state.effectiveEndAt, bid.at);
  return {
    state: {
      priceMinor: price,
      leader: boughtNow ? { bidderId: bid.bidderId, maxMinor: bid.maxMinor, sequence } : next.leader,
      effectiveEndAt: end,
      bids: sequence,
      boughtNow,
    },
    outbid,
    extended: !boughtNow && end > state.effectiveEndAt,
  };
}

/** Soft close: a bid in the late window moves the end to the bid plus the extension, capped at the hard end. */
export function extendedEnd(terms: AuctionTerms, effectiveEndAt: number, bidAt: number): number {
  if (bidAt < effectiveEndAt - terms.softCloseWindowMs) return effectiveEndAt;
  return Math.min(terms.hardEndAt, Math.max(effectiveEndAt, bidAt + terms.extensionMs));
}

export const isRefusal = (result: BidResult | BidRefusal): result is BidRefusal => 'reason' in result;

/** The state the accepted bids give, in ledger order: what the live run must equal. */
export function replay(terms: AuctionTerms, accepted: readonly Bid[]): AuctionState {
  let state = initialState(terms);
  for (const bid of accepted) {
    const result = placeBid(terms, state, bid);
    if (isRefusal(result))
      throw new Error(`replay: ledger bid ${state.bids + 1} is refused (${result.reason})`);
    state = result.state;
  }
  return state;
}

export type AuctionOutcome = 'sold' | 'reserve_not_met' | 'no_bids';

export function outcomeOf(terms: AuctionTerms, state: AuctionState): AuctionOutcome {
  if (!state.leader || state.priceMinor === null) return 'no_bids';
  if (terms.reserveMinor !== null && state.priceMinor < terms.reserveMinor) return 'reserve_not_met';
  return 'sold';
}

/** The scheduled ends of an event's lots, `gapMs` apart, so bidders are never asked to follow all at once. */
export function staggeredEnds(firstEndAt: number, lots: number, gapMs: number): number[] {
  return Array.from({ length: lots }, (_, index) => firstEndAt + index * gapMs);
}

/** A leader's name as watchers see it: first letter and last letter, the rest hidden ("A***a"). */
export function maskedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length <= 2) return `${trimmed.slice(0, 1)}***`;
  return `${trimmed.slice(0, 1)}***${trimmed.slice(-1)}`;
}
