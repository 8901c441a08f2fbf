// The auction statechart on its own: the version rule (duplicates, coalesced messages, gaps), catching
// up, reconnecting (never a stale price as current), leading / outbid and the toast, the extension, the
// server's clock and the end states. (tests/model/auction.model.test.tsx runs every path of it against
// the adapter and the rendered view.)
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { AuctionUpdate, LiveSnapshot, LiveState, PublicBid } from '../../contracts/auctions';
import {
  type AuctionLiveEvent,
  auctionMachine,
  followsOn,
  isCurrent,
  isExtended,
  isLive,
  LIVE_STATUS_TEXT,
  liveStatus,
  liveStatusText,
  mergeBids,
  RECENT_BIDS_KEPT,
  remainingMs,
  serverNow,
  untilStartMs,
  viewOf,
} from './auction.machine';
import { allTransitionIds } from './testing/transition-coverage';

const AUCTION = 'auction-1';
const ME = 'bidder-me';
const BOB = 'bidder-bob';
const CAROL = 'bidder-carol';
const NAMES: Record<string, string> = { [ME]: 'M***', [BOB]: 'B***', [CAROL]: 'C***' };
const START = Date.parse('2030-05-01T12:00:00.000Z');
const END = START + 10 * 60_000;
/** The server's clock is a minute ahead of the local one. */
const OFFSET = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function liveState(overrides: Partial<LiveState> = {}): LiveState {
  return {
    auctionId: AUCTION,
    version: 1,
    status: 'scheduled',
    outcome: null,
    currency: 'EUR',
    startingPriceMinor: 1000,
    priceMinor: null,
    minimumBidMinor: 1000,
    leaderId: null,
    leaderName: null,
    reserveMet: null,
    buyNowMinor: null,
    bids: 0,
    startsAt: iso(START),
    effectiveEndAt: iso(END),
    hardEndAt: iso(END + 20 * 60_000),
    extended: false,
    watchers: 3,
    cancelReason: null,
    ...overrides,
  };
}

const bid = (sequence: number, who: string, priceMinor: number): PublicBid => ({
  sequence,
  bidder: NAMES[who] ?? '?',
  priceMinor,
  at: iso(START + sequence * 1000),
  cancelled: false,
});

/** The state after bid `sequence` by `who` at `priceMinor` (version = sequence + 1: v1 was the start). */
const afterBid = (sequence: number, who: string, priceMinor: number, overrides: Partial<LiveState> = {}) =>
  liveState({
    version: sequence + 1,
    status: 'live',
    priceMinor,
    minimumBidMinor: priceMinor + 50,
    leaderId: who,
    leaderName: NAMES[who] ?? null,
    bids: sequence,
    ...overrides,
  });

/** A local receive time; the server's time is `OFFSET` later. */
const at = (serverMs: number) => ({ receivedAt: serverMs - OFFSET, serverTime: iso(serverMs) });

function snapshotEvent(
  state: LiveState,
  recentBids: PublicBid[] = [],
  serverMs = START + 60_000,
): AuctionLiveEvent {
  const { receivedAt, serverTime } = at(serverMs);
  const snapshot: LiveSnapshot = { state, recentBids, serverTime };
  return { type: 'SNAPSHOT', snapshot, receivedAt };
}

function updateEvent(
  state: LiveState,
  bids: PublicBid[] = [],
  outbidIds: string[] = [],
  serverMs = START + 60_000,
): AuctionLiveEvent {
  const { receivedAt, serverTime } = at(serverMs);
  const update: AuctionUpdate = { type: 'state', state, bids, outbidIds, serverTime };
  return { type: 'UPDATE', update, receivedAt };
}

const bidAccepted = (state: LiveState, sequence: number, serverMs = START + 60_000): AuctionLiveEvent => ({
  type: 'BID_ACCEPTED',
  result: { sequence, state, leading: state.leaderId === ME },
  receivedAt: serverMs - OFFSET,
});

function start(bidderId: string | null = ME) {
  const actions = { fetchSnapshot: vi.fn(), retrySnapshot: vi.fn(), announceOutbid: vi.fn() };
  const actor = createActor(auctionMachine.provide({ actions }), {
    input: { auctionId: AUCTION, bidderId },
  }).start();
  const send = (...events: AuctionLiveEvent[]) => {
    for (const event of events) actor.send(event);
  };
  const snapshot = () => actor.getSnapshot();
  const value = () => snapshot().value;
  const text = () => liveStatusText(snapshot());
  const fired = () =>
    Object.entries(actions)
      .flatMap(([name, fn]) => fn.mock.invocationCallOrder.map((order) => [order, name] as const))
      .sort(([a], [b]) => a - b)
      .map(([, name]) => name);
  return { actor, send, snapshot, value, text, actions, fired };
}

/** Live at v2 with Bob leading at €10.00 (bid 1). */
const BOB_LEADS = afterBid(1, BOB, 1000);
const BOB_BIDS = [bid(1, BOB, 1000)];

/** A bidder's view, live at v2 with Bob leading. */
function liveWithBob(bidderId: string | null = ME) {
  const view = start(bidderId);
  view.send(snapshotEvent(BOB_LEADS, BOB_BIDS));
  return view;
}

/** The bidder leads at v3 (bid 2, €10.50). */
function leading() {
  const view = liveWithBob();
  view.send(updateEvent(afterBid(2, ME, 1050), [bid(2, ME, 1050)], [BOB]));
  expect(view.value()).toBe('liveLeading');
  return view;
}

describe('auction statechart: loading and the first snapshot', () => {
  it('starts loading and fetches the snapshot; nothing is current yet', () => {
    const { value, actions, text, snapshot } = start();
    expect(value()).toBe('loading');
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(1);
    expect(text()).toBe('Loading…');
    expect(isCurrent(snapshot())).toBe(false);
  });

  it('a scheduled auction before its start is upcoming; the offset is measured from the server time', () => {
    const { send, value, snapshot, text } = start();
    send(snapshotEvent(liveState(), [], START - 5 * 60_000));
    expect(value()).toBe('upcoming');
    expect(text()).toBe('Upcoming');
    expect(isCurrent(snapshot())).toBe(true);
    expect(isLive(snapshot())).toBe(false);
    expect(snapshot().context.offsetMs).toBe(OFFSET);
    expect(snapshot().context.watchers).toBe(3);
  });

  it('a scheduled auction whose start passed on the server clock is live (the server may still say scheduled)', () => {
    const { send, value, text } = start();
    send(snapshotEvent(liveState(), [], START + 1000));
    expect(value()).toBe('live');
    expect(text()).toBe('Live');
  });

  it('routes the first snapshot by the leader: leading, live for a watcher, ended', () => {
    const mine = start();
    mine.send(snapshotEvent(afterBid(1, ME, 1000), [bid(1, ME, 1000)]));
    expect(mine.value()).toBe('liveLeading');
    expect(mine.text()).toBe('You are leading');
    expect(mine.snapshot().context.hasBid).toBe(true);

    const watcher = start(null);
    watcher.send(snapshotEvent(afterBid(1, BOB, 1000)));
    expect(watcher.value()).toBe('live');

    const ended = start();
    ended.send(snapshotEvent(afterBid(1, BOB, 1000, { status: 'ended', outcome: 'sold' })));
    expect(ended.value()).toBe('ended');
  });

  it('a failed snapshot is marked and retried by the adapter; the next one clears it', () => {
    const { send, value, actions, snapshot } = start();
    send({ type: 'SNAPSHOT_FAILED' });
    expect(value()).toBe('loading');
    expect(snapshot().context.loadFailed).toBe(true);
    expect(actions.retrySnapshot).toHaveBeenCalledTimes(1);
    send({ type: 'SNAPSHOT_FAILED' });
    expect(actions.retrySnapshot).toHaveBeenCalledTimes(2);
    send(snapshotEvent(BOB_LEADS));
    expect(value()).toBe('live');
    expect(snapshot().context.loadFailed).toBe(false);
  });

  it('messages heard while loading are kept and applied on top of the snapshot when they follow on', () => {
    const { send, value, snapshot, actions } = start();
    send(updateEvent(afterBid(2, CAROL, 1050), [bid(2, CAROL, 1050)]));
    expect(value()).toBe('loading');
    send(snapshotEvent(BOB_LEADS, BOB_BIDS));
    expect(value()).toBe('live');
    expect(snapshot().context.state?.version).toBe(3);
    expect(snapshot().context.state?.leaderId).toBe(CAROL);
    expect(snapshot().context.recentBids.map((b) => b.sequence)).toEqual([2, 1]);
    expect(snapshot().context.lastSequence).toBe(2);
    expect(snapshot().context.pending).toBeNull();
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(1);
  });

  it('a snapshot older than what the topic told (and not completed by it) is fetched again', () => {
    const { send, value, actions } = start();
    send(updateEvent(afterBid(4, CAROL, 1200), [bid(4, CAROL, 1200)]));
    send(snapshotEvent(BOB_LEADS, BOB_BIDS));
    expect(value()).toBe('loading');
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(2);
  });

  it('a snapshot that arrives while disconnected is shown as the last known state', () => {
    const { send, value, snapshot, text } = start();
    send({ type: 'DISCONNECTED' });
    send(snapshotEvent(BOB_LEADS));
    expect(value()).toBe('reconnecting');
    expect(text()).toBe('Reconnecting…');
    expect(isCurrent(snapshot())).toBe(false);
    send({ type: 'CONNECTED' });
    expect(value()).toBe('catchingUp');
  });

  it('a connection that comes back while loading changes nothing but the flag', () => {
    const { send, value, snapshot } = start();
    send({ type: 'DISCONNECTED' }, { type: 'CONNECTED' });
    expect(value()).toBe('loading');
    expect(snapshot().context.connected).toBe(true);
  });
});

describe('auction statechart: the version rule', () => {
  it('applies the next version', () => {
    const { send, snapshot, value } = liveWithBob(null);
    send(updateEvent(afterBid(2, CAROL, 1050), [bid(2, CAROL, 1050)]));
    expect(value()).toBe('live');
    expect(snapshot().context.state?.priceMinor).toBe(1050);
    expect(snapshot().context.recentBids.map((b) => b.sequence)).toEqual([2, 1]);
  });

  it('ignores a duplicate or older version (its known bids change nothing)', () => {
    const { send, snapshot, actions } = liveWithBob(null);
    send(updateEvent(afterBid(2, CAROL, 1050), [bid(2, CAROL, 1050)]));
    const before = snapshot().context;
    send(updateEvent(afterBid(2, CAROL, 1050), [bid(2, CAROL, 1050)]));
    send(updateEvent(BOB_LEADS, BOB_BIDS));
    expect(snapshot().context.state).toBe(before.state);
    expect(snapshot().context.recentBids).toEqual(before.recentBids);
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(1);
  });

  it('applies a coalesced message whose bids follow on from the last known bid', () => {
    const { send, snapshot, value, actions } = liveWithBob(null);
    send(updateEvent(afterBid(3, CAROL, 1100), [bid(2, ME, 1050), bid(3, CAROL, 1100)]));
    expect(value()).toBe('live');
    expect(snapshot().context.state?.version).toBe(4);
    expect(snapshot().context.lastSequence).toBe(3);
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(1);
  });

  it('a gap (a bid missing, or a jump with no bids) goes catching up and fetches a snapshot', () => {
    const missing = liveWithBob(null);
    missing.send(updateEvent(afterBid(3, CAROL, 1100), [bid(3, CAROL, 1100)]));
    expect(missing.value()).toBe('catchingUp');
    expect(missing.actions.fetchSnapshot).toHaveBeenCalledTimes(2);
    expect(missing.text()).toBe('Catching up…');
    expect(isCurrent(missing.snapshot())).toBe(false);
    // The price shown stays the last applied one, marked as not current.
    expect(missing.snapshot().context.state?.priceMinor).toBe(1000);

    const statusOnly = liveWithBob(null);
    statusOnly.send(updateEvent(afterBid(1, BOB, 1000, { version: 4, status: 'ended', outcome: 'sold' })));
    expect(statusOnly.value()).toBe('catchingUp');
  });

  it('catching up applies the snapshot, with what the topic told meanwhile on top', () => {
    const { send, value, snapshot, actions } = liveWithBob(null);
    send(updateEvent(afterBid(3, CAROL, 1100), [bid(3, CAROL, 1100)]));
    send(updateEvent(afterBid(4, BOB, 1150), [bid(4, BOB, 1150)]));
    send(snapshotEvent(afterBid(3, CAROL, 1100), [bid(3, CAROL, 1100), bid(2, ME, 1050), ...BOB_BIDS]));
    expect(value()).toBe('live');
    expect(snapshot().context.state?.version).toBe(5);
    expect(snapshot().context.recentBids.map((b) => b.sequence)).toEqual([4, 3, 2, 1]);
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(2);
  });

  it('catching up fetches again when the snapshot is behind the topic; a failure is retried', () => {
    const { send, value, actions, snapshot } = liveWithBob(null);
    send(updateEvent(afterBid(5, CAROL, 1200), [bid(5, CAROL, 1200)]));
    send(snapshotEvent(afterBid(2, ME, 1050), [bid(2, ME, 1050)]));
    expect(value()).toBe('catchingUp');
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(3);
    send({ type: 'SNAPSHOT_FAILED' });
    expect(actions.retrySnapshot).toHaveBeenCalledTimes(1);
    expect(snapshot().context.loadFailed).toBe(true);
    send(snapshotEvent(afterBid(5, CAROL, 1200), [bid(5, CAROL, 1200), bid(4, BOB, 1150)]));
    expect(value()).toBe('live');
    expect(snapshot().context.state?.priceMinor).toBe(1200);
  });

  it('catching up never goes back to an older state than the one shown', () => {
    const { send, value, actions, snapshot } = liveWithBob(null);
    send(updateEvent(afterBid(2, CAROL, 1050), [bid(2, CAROL, 1050)]));
    send({ type: 'DISCONNECTED' }, { type: 'CONNECTED' });
    send(snapshotEvent(BOB_LEADS, BOB_BIDS));
    expect(value()).toBe('catchingUp');
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(3);
    expect(snapshot().context.state?.version).toBe(3);
  });

  it('keeps the lead and the list straight when the own bid answers before the topic', () => {
    const { send, value, snapshot } = liveWithBob();
    send(bidAccepted(afterBid(2, ME, 1050), 2));
    expect(value()).toBe('liveLeading');
    expect(snapshot().context.lastSequence).toBe(2);
    // The topic's message of the same version: a duplicate, but its bid joins the list.
    send(updateEvent(afterBid(2, ME, 1050), [bid(2, ME, 1050)], [BOB]));
    expect(value()).toBe('liveLeading');
    expect(snapshot().context.recentBids.map((b) => b.sequence)).toEqual([2, 1]);
    // The next bid follows on from it.
    send(updateEvent(afterBid(3, BOB, 1100), [bid(3, BOB, 1100)], [ME]));
    expect(value()).toBe('liveOutbid');
  });

  it('an own bid answered after the topic is a duplicate that still says the viewer has bid', () => {
    const { send, value, snapshot } = liveWithBob();
    // The bid was out-bid at once by Bob's proxy: the topic says Bob leads at v3.
    send(updateEvent(afterBid(3, BOB, 1100), [bid(2, ME, 1050), bid(3, BOB, 1100)]));
    expect(value()).toBe('live');
    send(bidAccepted(afterBid(3, BOB, 1100), 2));
    expect(value()).toBe('liveOutbid');
    expect(snapshot().context.state?.version).toBe(4);
  });

  it('on the staff page a bid placed for a customer applies too, and means bidding is open', () => {
    const { send, value, snapshot } = start(null);
    send(snapshotEvent(liveState(), [], START - 5 * 60_000));
    expect(value()).toBe('upcoming');
    // The browser's clock has not passed the start yet; the accepted bid says bidding is open.
    send(bidAccepted(afterBid(1, CAROL, 1000), 1, START - 60_000));
    expect(value()).toBe('live');
    expect(snapshot().context.hasBid).toBe(false);
  });

  it('an own bid far ahead of the view is a gap', () => {
    const { send, value } = liveWithBob();
    send(bidAccepted(afterBid(4, ME, 1200), 4));
    expect(value()).toBe('catchingUp');
  });
});

describe('auction statechart: reconnecting', () => {
  it('never shows a stale price as current: reconnecting keeps it, marked, until caught up', () => {
    const { send, value, snapshot, text, actions } = liveWithBob(null);
    send({ type: 'DISCONNECTED' });
    expect(value()).toBe('reconnecting');
    expect(text()).toBe('Reconnecting…');
    expect(isCurrent(snapshot())).toBe(false);
    expect(snapshot().context.state?.priceMinor).toBe(1000);
    // What arrives meanwhile is kept, not shown.
    send(updateEvent(afterBid(2, CAROL, 1050), [bid(2, CAROL, 1050)]));
    expect(snapshot().context.state?.priceMinor).toBe(1000);
    send({ type: 'CONNECTED' });
    expect(value()).toBe('catchingUp');
    expect(isCurrent(snapshot())).toBe(false);
    expect(actions.fetchSnapshot).toHaveBeenCalledTimes(2);
    send(snapshotEvent(afterBid(3, BOB, 1100), [bid(3, BOB, 1100), bid(2, CAROL, 1050), ...BOB_BIDS]));
    expect(value()).toBe('live');
    expect(isCurrent(snapshot())).toBe(true);
    expect(snapshot().context.state?.priceMinor).toBe(1100);
  });

  it('losing the connection again while catching up goes back to reconnecting', () => {
    const { send, value } = liveWithBob(null);
    send({ type: 'DISCONNECTED' }, { type: 'CONNECTED' }, { type: 'DISCONNECTED' });
    expect(value()).toBe('reconnecting');
  });
});

describe('auction statechart: leading and outbid', () => {
  it('outbid announces once, with the new state', () => {
    const { send, value, text, actions } = leading();
    const outbid = updateEvent(afterBid(3, BOB, 1100), [bid(3, BOB, 1100)], [ME]);
    send(outbid);
    expect(value()).toBe('liveOutbid');
    expect(text()).toBe('You have been outbid');
    expect(actions.announceOutbid).toHaveBeenCalledTimes(1);
    expect(actions.announceOutbid.mock.calls[0]?.[1]).toEqual({ state: afterBid(3, BOB, 1100) });
    // The same message again, and Carol out-bidding Bob: still outbid, no second toast.
    send(outbid, updateEvent(afterBid(4, CAROL, 1150), [bid(4, CAROL, 1150)], [BOB]));
    expect(value()).toBe('liveOutbid');
    expect(actions.announceOutbid).toHaveBeenCalledTimes(1);
    // Leading again, outbid again: a new toast.
    send(bidAccepted(afterBid(5, ME, 1200), 5));
    expect(value()).toBe('liveLeading');
    send(updateEvent(afterBid(6, CAROL, 1250), [bid(5, ME, 1200), bid(6, CAROL, 1250)], [ME]));
    expect(actions.announceOutbid).toHaveBeenCalledTimes(2);
  });

  it('a lead lost while disconnected is announced when caught up', () => {
    const { send, value, actions } = leading();
    send({ type: 'DISCONNECTED' }, { type: 'CONNECTED' });
    send(snapshotEvent(afterBid(3, BOB, 1100), [bid(3, BOB, 1100)]));
    expect(value()).toBe('liveOutbid');
    expect(actions.announceOutbid).toHaveBeenCalledTimes(1);
  });

  it('is outbid (without a toast) when the server names the viewer among those who lost the lead', () => {
    const { send, value, actions } = liveWithBob();
    send(updateEvent(afterBid(3, BOB, 1100), [bid(2, ME, 1050), bid(3, BOB, 1100)], [ME]));
    expect(value()).toBe('liveOutbid');
    expect(actions.announceOutbid).not.toHaveBeenCalled();
  });

  it('a watcher never leads or is outbid', () => {
    const { send, value } = liveWithBob(null);
    send(updateEvent(afterBid(2, ME, 1050), [bid(2, ME, 1050)], [BOB]));
    expect(value()).toBe('live');
    expect(viewOf(afterBid(2, ME, 1050), null, true, START)).toBe('live');
  });
});

describe('auction statechart: the clock, the extension and the watchers', () => {
  it('upcoming turns live when the corrected clock passes the start (TICK)', () => {
    const { send, value } = start();
    send(snapshotEvent(liveState(), [], START - 5 * 60_000));
    // Local time before the start, but the server's clock (a minute ahead) is not there yet either.
    send({ type: 'TICK', now: START - OFFSET - 1000 });
    expect(value()).toBe('upcoming');
    // Local time still a minute before the start, the server's clock past it.
    send({ type: 'TICK', now: START - OFFSET + 1 });
    expect(value()).toBe('live');
  });

  it('counts down to the effective end on the server clock', () => {
    const { send, snapshot } = liveWithBob();
    const { context } = snapshot();
    const localNow = END - OFFSET - 65_000;
    expect(serverNow(context, localNow)).toBe(END - 65_000);
    expect(remainingMs(context, localNow)).toBe(65_000);
    expect(remainingMs(context, END)).toBe(0);
    expect(untilStartMs(context, START - OFFSET - 5000)).toBe(5000);
    // A newer measurement replaces the offset.
    send({
      type: 'WATCHERS',
      message: { type: 'watchers', auctionId: AUCTION, watchers: 9, serverTime: iso(START) },
      receivedAt: START - 2000,
    });
    expect(snapshot().context.offsetMs).toBe(2000);
    expect(snapshot().context.watchers).toBe(9);
    expect(remainingMs(snapshot().context, END - 2000 - 10_000)).toBe(10_000);
  });

  it('before the first snapshot there is nothing to count down to', () => {
    const { snapshot } = start();
    expect(remainingMs(snapshot().context, START)).toBeNull();
    expect(untilStartMs(snapshot().context, START)).toBeNull();
  });

  it('an end moved later while live is an extension, shown as such', () => {
    const { send, snapshot, value } = leading();
    expect(isExtended(snapshot())).toBe(false);
    const extended = afterBid(3, BOB, 1100, { effectiveEndAt: iso(END + 120_000), extended: true });
    send(updateEvent(extended, [bid(3, BOB, 1100)], [ME], END - 30_000));
    expect(value()).toBe('liveOutbid');
    expect(snapshot().context.extendedAt).toBe(END - 30_000);
    expect(isExtended(snapshot())).toBe(true);
    expect(remainingMs(snapshot().context, END - OFFSET)).toBe(120_000);
    // A bid cancelled by an admin moves it back.
    send(updateEvent(afterBid(3, BOB, 1100, { version: 5 }), [], [], END - 20_000));
    expect(snapshot().context.extendedAt).toBeNull();
    expect(isExtended(snapshot())).toBe(false);
  });

  it('a snapshot that says extended shows it too; an ended auction is not "extended"', () => {
    const { send, snapshot } = start(null);
    send(snapshotEvent(afterBid(1, BOB, 1000, { extended: true })));
    expect(isExtended(snapshot())).toBe(true);
    send(
      updateEvent(afterBid(1, BOB, 1000, { version: 3, status: 'ended', outcome: 'sold', extended: true })),
    );
    expect(isExtended(snapshot())).toBe(false);
  });

  it('watchers messages change the count only, in every state', () => {
    const { send, snapshot } = liveWithBob();
    const version = snapshot().context.state?.version;
    send({
      type: 'WATCHERS',
      message: { type: 'watchers', auctionId: AUCTION, watchers: 12, serverTime: iso(START + 60_000) },
      receivedAt: START,
    });
    expect(snapshot().context.watchers).toBe(12);
    expect(snapshot().context.state?.version).toBe(version);
    send({ type: 'DISCONNECTED' });
    send({
      type: 'WATCHERS',
      message: { type: 'watchers', auctionId: AUCTION, watchers: 13, serverTime: iso(START + 60_000) },
      receivedAt: START,
    });
    expect(snapshot().context.watchers).toBe(13);
  });
});

describe('auction statechart: the end', () => {
  const ended = (leader: string | null, outcome: LiveState['outcome'], version = 4) =>
    liveState({
      version,
      status: 'ended',
      outcome,
      priceMinor: leader ? 1100 : null,
      leaderId: leader,
      leaderName: leader ? (NAMES[leader] ?? null) : null,
      bids: leader ? 3 : 0,
    });

  function endAfterBidding(bidderId: string | null, final: LiveState) {
    const view = start(bidderId);
    view.send(snapshotEvent(BOB_LEADS, BOB_BIDS));
    if (bidderId) view.send(bidAccepted(afterBid(2, ME, 1050), 2));
    view.send(updateEvent(final, [], [], END + 1000));
    expect(view.value()).toBe('ended');
    expect(isCurrent(view.snapshot())).toBe(true);
    expect(isLive(view.snapshot())).toBe(false);
    return view;
  }

  it('won, lost, sold, reserve not met, no bids', () => {
    expect(endAfterBidding(ME, ended(ME, 'sold')).text()).toBe('You won');
    expect(endAfterBidding(ME, ended(BOB, 'sold')).text()).toBe('You did not win');
    expect(endAfterBidding(null, ended(BOB, 'sold', 3)).text()).toBe('Sold');
    expect(endAfterBidding(ME, ended(BOB, 'reserve_not_met')).text()).toBe('Reserve not met');
    const none = start(null);
    none.send(snapshotEvent(liveState(), [], START - 1000));
    none.send(updateEvent(ended(null, 'no_bids', 2), [], [], END + 1000));
    expect(none.text()).toBe('No bids');
  });

  it('a registered bidder who never bid sees "Sold", not "You did not win"', () => {
    const view = start('bidder-dave');
    view.send(snapshotEvent(BOB_LEADS, BOB_BIDS));
    view.send(updateEvent(ended(BOB, 'sold', 3), [], [], END + 1000));
    expect(liveStatus(view.snapshot())).toBe('sold');
  });

  it('cancelled, with its reason', () => {
    const { send, text, value } = start();
    send(snapshotEvent(liveState(), [], START - 1000));
    send(updateEvent(liveState({ version: 2, status: 'cancelled', cancelReason: 'The lot was damaged.' })));
    expect(value()).toBe('ended');
    expect(text()).toBe('Cancelled: The lot was damaged.');
  });

  it('an ended auction still takes a newer state (a bid cancelled after the close), nothing else', () => {
    const view = endAfterBidding(ME, ended(ME, 'sold'));
    view.send(updateEvent(ended(BOB, 'sold', 5), [], [], END + 5000));
    expect(view.text()).toBe('You did not win');
    view.send({ type: 'DISCONNECTED' }, updateEvent(ended(ME, 'sold', 9)));
    expect(view.value()).toBe('ended');
    expect(view.snapshot().context.state?.version).toBe(5);
  });
});

describe('auction statechart: helpers and shape', () => {
  it('follows on only from the next sequence, without holes', () => {
    expect(followsOn([bid(3, BOB, 1)], 2)).toBe(true);
    expect(followsOn([bid(4, BOB, 1), bid(3, BOB, 1)], 2)).toBe(true);
    expect(followsOn([bid(2, BOB, 1), bid(3, BOB, 1)], 2)).toBe(true);
    expect(followsOn([bid(4, BOB, 1)], 2)).toBe(false);
    expect(followsOn([bid(3, BOB, 1), bid(5, BOB, 1)], 2)).toBe(false);
    expect(followsOn([], 2)).toBe(false);
  });

  it('keeps the latest bids newest first, a re-reported bid replacing its copy', () => {
    const list = mergeBids(
      [bid(2, ME, 1050), bid(1, BOB, 1000)],
      [{ ...bid(1, BOB, 1000), cancelled: true }],
    );
    expect(list.map((b) => [b.sequence, b.cancelled])).toEqual([
      [2, false],
      [1, true],
    ]);
    const many = Array.from({ length: 15 }, (_, i) => bid(i + 1, BOB, 1000 + i));
    expect(mergeBids([], many)).toHaveLength(RECENT_BIDS_KEPT);
    expect(mergeBids([], many)[0]?.sequence).toBe(15);
  });

  it('has a word for every status', () => {
    expect(Object.keys(LIVE_STATUS_TEXT).sort()).toEqual(
      [
        'loading',
        'upcoming',
        'live',
        'leading',
        'outbid',
        'reconnecting',
        'catchingUp',
        'won',
        'lost',
        'sold',
        'reserveNotMet',
        'noBids',
        'cancelled',
      ].sort(),
    );
  });

  it('is flat: every transition is a candidate of a top-level state', () => {
    expect(Object.keys(auctionMachine.root.states).sort()).toEqual(
      [
        'catchingUp',
        'ended',
        'live',
        'liveLeading',
        'liveOutbid',
        'loading',
        'reconnecting',
        'upcoming',
      ].sort(),
    );
    expect(auctionMachine.root.transitions.size).toBe(0);
    for (const node of Object.values(auctionMachine.root.states))
      expect(Object.keys(node.states)).toEqual([]);
    // The count the model-based test covers (tests/model/auction.model.test.tsx).
    expect(allTransitionIds(auctionMachine)).toHaveLength(82);
  });
});
