import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AuctionState,
  type AuctionTerms,
  type Bid,
  defaultIncrementTable,
  extendedEnd,
  incrementAt,
  incrementTableProblems,
  initialState,
  isRefusal,
  maskedName,
  minimumBid,
  outcomeOf,
  placeBid,
  replay,
  staggeredEnds,
} from './auction-rules';

const MIN = 60_000;
const terms = (overrides: Partial<AuctionTerms> = {}): AuctionTerms => ({
  startingPriceMinor: 1_000,
  reserveMinor: null,
  buyNowMinor: null,
  increments: defaultIncrementTable('EUR'),
  startsAt: 0,
  endsAt: 60 * MIN,
  hardEndAt: 70 * MIN,
  softCloseWindowMs: 2 * MIN,
  extensionMs: 2 * MIN,
  ...overrides,
});

function bidAll(t: AuctionTerms, bids: readonly Bid[]) {
  let state: AuctionState = initialState(t);
  const accepted: Bid[] = [];
  const states: AuctionState[] = [];
  for (const bid of bids) {
    const result = placeBid(t, state, bid);
    if (isRefusal(result)) continue;
    state = result.state;
    accepted.push(bid);
    states.push(state);
  }
  return { state, accepted, states };
}

describe('auction rules', () => {
  it('uses Trade Me’s increments in the currency’s minor units, whole yen in JPY', () => {
    const eur = defaultIncrementTable('EUR');
    expect(incrementAt(1_999, eur)).toBe(50);
    expect(incrementAt(2_000, eur)).toBe(100);
    expect(incrementAt(2_500_000, eur)).toBe(10_000);
    const jpy = defaultIncrementTable('JPY');
    expect(incrementAt(5, jpy)).toBe(1);
    expect(incrementAt(300, jpy)).toBe(5);
    expect(incrementTableProblems(eur)).toEqual([]);
    expect(incrementTableProblems([{ fromMinor: 10, stepMinor: 0 }])).toEqual([
      'The first increment starts at 0.',
      'Increment 1 must be at least one minor unit.',
    ]);
  });

  it('bids by proxy: the higher maximum leads one increment above the other, the earlier on a tie', () => {
    const t = terms();
    const a = placeBid(t, initialState(t), { bidderId: 'a', maxMinor: 5_000, at: MIN });
    if (isRefusal(a)) throw new Error('refused');
    expect(a.state).toMatchObject({ priceMinor: 1_000, leader: { bidderId: 'a', maxMinor: 5_000 } });
    expect(minimumBid(t, a.state)).toBe(1_050);
    const low = placeBid(t, a.state, { bidderId: 'b', maxMinor: 1_049, at: MIN });
    expect(low).toEqual({ reason: 'too_low', minimumMinor: 1_050 });
    const b = placeBid(t, a.state, { bidderId: 'b', maxMinor: 3_000, at: MIN });
    if (isRefusal(b)) throw new Error('refused');
    expect(b.state.priceMinor).toBe(3_100); // a counter-bids 30.00 + 1.00
    expect(b.state.leader?.bidderId).toBe('a');
    expect(b.outbid).toBeNull();
    const tie = placeBid(t, b.state, { bidderId: 'c', maxMinor: 5_000, at: MIN });
    if (isRefusal(tie)) throw new Error('refused');
    expect(tie.state).toMatchObject({ priceMinor: 5_000, leader: { bidderId: 'a' } });
    const over = placeBid(t, tie.state, { bidderId: 'c', maxMinor: 9_000, at: MIN });
    if (isRefusal(over)) throw new Error('refused');
    expect(over.state).toMatchObject({ priceMinor: 5_100, leader: { bidderId: 'c', maxMinor: 9_000 } });
    expect(over.outbid).toBe('a');
  });

  it('meets a hidden reserve as soon as a maximum reaches it', () => {
    const t = terms({ reserveMinor: 4_000 });
    const { state } = bidAll(t, [{ bidderId: 'a', maxMinor: 4_500, at: MIN }]);
    expect(state.priceMinor).toBe(4_000);
    expect(outcomeOf(t, state)).toBe('sold');
    const below = bidAll(t, [{ bidderId: 'a', maxMinor: 3_000, at: MIN }]).state;
    expect(outcomeOf(t, below)).toBe('reserve_not_met');
    expect(outcomeOf(t, initialState(t))).toBe('no_bids');
  });

  it('extends the end for a late bid, never past the hard end, and refuses bids after it', () => {
    const t = terms();
    expect(extendedEnd(t, 60 * MIN, 57 * MIN)).toBe(60 * MIN);
    expect(extendedEnd(t, 60 * MIN, 59 * MIN)).toBe(61 * MIN);
    expect(extendedEnd(t, 69 * MIN, 69 * MIN + 30_000)).toBe(70 * MIN);
    const { state, states } = bidAll(t, [
      { bidderId: 'a', maxMinor: 2_000, at: 59 * MIN + 59_999 },
      { bidderId: 'b', maxMinor: 3_000, at: 61 * MIN + 59_000 },
    ]);
    expect(states.map((s) => s.effectiveEndAt)).toEqual([61 * MIN + 59_999, 63 * MIN + 59_000]);
    expect(placeBid(t, state, { bidderId: 'c', maxMinor: 9_000, at: state.effectiveEndAt })).toEqual({
      reason: 'ended',
    });
    expect(placeBid(t, initialState(t), { bidderId: 'c', maxMinor: 9_000, at: -1 })).toEqual({
      reason: 'not_started',
    });
  });

  it('sells at Buy Now only before the first bid', () => {
    const t = terms({ buyNowMinor: 8_000 });
    const bought = bidAll(t, [{ bidderId: 'a', maxMinor: 8_000, at: MIN }]).state;
    expect(bought).toMatchObject({ priceMinor: 8_000, boughtNow: true, effectiveEndAt: MIN });
    const later = bidAll(t, [
      { bidderId: 'a', maxMinor: 2_000, at: MIN },
      { bidderId: 'b', maxMinor: 9_000, at: MIN },
    ]).state;
    expect(later).toMatchObject({ boughtNow: false, priceMinor: 2_100, leader: { bidderId: 'b' } });
  });

  it('gives the live run’s price, leader and end again when the ledger is replayed, whatever the bids', () => {
    const bidArb = fc.record({
      bidderId: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      maxMinor: fc.integer({ min: 0, max: 3_000_000 }),
      at: fc.integer({ min: -MIN, max: 75 * MIN }),
    });
    fc.assert(
      fc.property(
        fc.array(bidArb, { maxLength: 60 }),
        fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: null }),
        (raw, reserve) => {
          const t = terms({ reserveMinor: reserve });
          const bids = [...raw].sort((x, y) => x.at - y.at);
          const { state, accepted, states } = bidAll(t, bids);
          expect(replay(t, accepted)).toEqual(state);
          let previous = initialState(t);
          for (const next of states) {
            expect(next.priceMinor ?? 0).toBeGreaterThanOrEqual(previous.priceMinor ?? 0);
            expect(next.effectiveEndAt).toBeGreaterThanOrEqual(previous.effectiveEndAt);
            expect(next.effectiveEndAt).toBeLessThanOrEqual(t.hardEndAt);
            expect(next.priceMinor).toBeLessThanOrEqual(next.leader?.maxMinor ?? 0);
            previous = next;
          }
          if (state.leader) {
            // The leader holds the highest maximum, the earliest of equal ones.
            const best = Math.max(...accepted.map((bid) => bid.maxMinor));
            expect(state.leader.maxMinor).toBe(best);
            const first = accepted.find((bid) => bid.maxMinor === best);
            expect(state.leader.bidderId).toBe(first?.bidderId);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('staggers the ends of an event’s lots and masks names', () => {
    expect(staggeredEnds(1_000, 3, MIN)).toEqual([1_000, 1_000 + MIN, 1_000 + 2 * MIN]);
    expect(maskedName('Anna Schmidt')).toBe('A***t');
    expect(maskedName('Al')).toBe('A***');
  });
});
