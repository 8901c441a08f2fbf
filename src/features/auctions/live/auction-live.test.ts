// The auction statechart's adapter with a fake topic, connection and snapshot endpoint: what it sends
// the machine (and when), what it drops, its timers (the tick, the retries with back-off), the newest
// snapshot request winning, stopping, and the React hook. (tests/model/auction.model.test.tsx runs
// every path of the machine through it against the rendered view.)
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AuctionUpdate,
  auctionTopic,
  type BidResult,
  type LiveSnapshot,
  type LiveState,
} from '../../../../contracts/auctions';
import {
  type AuctionLiveDeps,
  parseAuctionMessage,
  startAuctionLive,
  TICK_MS,
  useAuctionLive,
} from './auction-live';

const toasts = vi.hoisted(() => ({ notify: vi.fn(() => 'toast-1') }));
vi.mock('../../../ui/notify', () => ({ notify: toasts.notify }));

const AUCTION = 'auction-3';
const ME = 'bidder-me';
const START = Date.parse('2030-05-01T12:00:00.000Z');
const OFFSET = 30_000;
const iso = (ms: number) => new Date(ms).toISOString();

function liveState(overrides: Partial<LiveState> = {}): LiveState {
  return {
    auctionId: AUCTION,
    version: 2,
    status: 'live',
    outcome: null,
    currency: 'EUR',
    startingPriceMinor: 1000,
    priceMinor: 1000,
    minimumBidMinor: 1050,
    leaderId: 'bidder-bob',
    leaderName: 'B***',
    reserveMet: null,
    buyNowMinor: null,
    bids: 1,
    startsAt: iso(START),
    effectiveEndAt: iso(START + 10 * 60_000),
    hardEndAt: iso(START + 30 * 60_000),
    extended: false,
    watchers: 4,
    cancelReason: null,
    ...overrides,
  };
}

const bid1 = { sequence: 1, bidder: 'B***', priceMinor: 1000, at: iso(START + 1000), cancelled: false };
const SNAPSHOT: LiveSnapshot = { state: liveState(), recentBids: [bid1], serverTime: iso(START + 60_000) };

function updateOf(state: LiveState, outbidIds: string[] = []): AuctionUpdate {
  const bids = [
    {
      sequence: state.bids,
      bidder: 'X***',
      priceMinor: state.priceMinor ?? 0,
      at: iso(START),
      cancelled: false,
    },
  ];
  return { type: 'state', state, bids, outbidIds, serverTime: iso(START + 90_000) };
}

interface Fetch {
  resolve: (snapshot: LiveSnapshot) => void;
  reject: (error: Error) => void;
}

function fakeWorld(overrides: Partial<AuctionLiveDeps> = {}) {
  const world = {
    clock: START + 60_000 - OFFSET,
    fetches: [] as Fetch[],
    topics: [] as string[],
    onMessage: null as ((payload: unknown) => void) | null,
    onConnection: null as ((connected: boolean) => void) | null,
    unsubscribed: 0,
    outbids: [] as LiveState[],
  };
  const deps: AuctionLiveDeps = {
    auctionId: AUCTION,
    bidderId: ME,
    fetchSnapshot: () =>
      new Promise<LiveSnapshot>((resolve, reject) => {
        world.fetches.push({ resolve, reject });
      }),
    subscribe: (topic, onMessage) => {
      world.topics.push(topic);
      world.onMessage = onMessage;
      return () => {
        world.unsubscribed += 1;
        world.onMessage = null;
      };
    },
    onConnection: (listener) => {
      world.onConnection = listener;
      return () => {
        world.onConnection = null;
      };
    },
    now: () => world.clock,
    onOutbid: (state) => world.outbids.push(state),
    ...overrides,
  };
  return { world, deps };
}

/** Lets a fetch's answer reach the actor. */
const settle = () => act(async () => vi.advanceTimersByTimeAsync(0));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  toasts.notify.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startAuctionLive', () => {
  it('fetches the snapshot, subscribes to the auction topic and stamps what arrives with the local time', async () => {
    const { world, deps } = fakeWorld();
    const live = startAuctionLive(deps);
    expect(world.topics).toEqual([auctionTopic(AUCTION)]);
    expect(world.fetches).toHaveLength(1);
    expect(live.actor.getSnapshot().value).toBe('loading');
    world.fetches[0]?.resolve(SNAPSHOT);
    await settle();
    expect(live.actor.getSnapshot().value).toBe('live');
    expect(live.actor.getSnapshot().context.offsetMs).toBe(OFFSET);
    expect(live.actor.getSnapshot().context.state).toEqual(SNAPSHOT.state);
    live.stop();
  });

  it('takes the topic as text, bytes or an object; drops what does not fit or is another auction’s', async () => {
    const { world, deps } = fakeWorld({ bidderId: null });
    const live = startAuctionLive(deps);
    world.fetches[0]?.resolve(SNAPSHOT);
    await settle();
    const version = () => live.actor.getSnapshot().context.state?.version;

    world.onMessage?.('not json {');
    world.onMessage?.({ type: 'state', state: { version: 3 } });
    world.onMessage?.(JSON.stringify(updateOf(liveState({ auctionId: 'another', version: 3, bids: 2 }))));
    world.onMessage?.({ type: 'watchers', auctionId: 'another', watchers: 99, serverTime: iso(START) });
    expect(version()).toBe(2);
    expect(live.actor.getSnapshot().context.watchers).toBe(4);

    world.onMessage?.(JSON.stringify(updateOf(liveState({ version: 3, bids: 2, priceMinor: 1050 }))));
    expect(version()).toBe(3);
    world.onMessage?.(new TextEncoder().encode(JSON.stringify(updateOf(liveState({ version: 4, bids: 3 })))));
    expect(version()).toBe(4);
    world.onMessage?.({
      type: 'watchers',
      auctionId: AUCTION,
      watchers: 11,
      serverTime: iso(START + 90_000),
    });
    expect(live.actor.getSnapshot().context.watchers).toBe(11);
    live.stop();
  });

  it('parses payloads', () => {
    const watchers = { type: 'watchers', auctionId: AUCTION, watchers: 2, serverTime: iso(START) };
    expect(parseAuctionMessage(JSON.stringify(watchers))).toEqual(watchers);
    expect(parseAuctionMessage(new TextEncoder().encode(JSON.stringify(watchers)))).toEqual(watchers);
    expect(parseAuctionMessage(watchers)).toEqual(watchers);
    expect(parseAuctionMessage({ ...watchers, watchers: 'many' })).toBeNull();
    expect(parseAuctionMessage(new Uint8Array([0xff, 0x00]))).toBeNull();
    expect(parseAuctionMessage(null)).toBeNull();
  });

  it('retries a failed snapshot with back-off, and not once the view has moved on', async () => {
    const { world, deps } = fakeWorld({ retryDelaysMs: [1000, 5000] });
    const live = startAuctionLive(deps);
    world.fetches[0]?.reject(new Error('502'));
    await settle();
    expect(live.actor.getSnapshot().context.loadFailed).toBe(true);
    await act(async () => vi.advanceTimersByTimeAsync(999));
    expect(world.fetches).toHaveLength(1);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(world.fetches).toHaveLength(2);
    world.fetches[1]?.reject(new Error('502'));
    await settle();
    await act(async () => vi.advanceTimersByTimeAsync(4999));
    expect(world.fetches).toHaveLength(2);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(world.fetches).toHaveLength(3);
    // The last wait repeats; a success resets the back-off.
    world.fetches[2]?.reject(new Error('502'));
    await settle();
    await act(async () => vi.advanceTimersByTimeAsync(5000));
    expect(world.fetches).toHaveLength(4);
    world.fetches[3]?.resolve(SNAPSHOT);
    await settle();
    expect(live.actor.getSnapshot().value).toBe('live');

    // Catching up fails, then the connection drops: the reconnect fetches for itself, the retry does not.
    world.onConnection?.(false);
    world.onConnection?.(true);
    expect(world.fetches).toHaveLength(5);
    world.fetches[4]?.reject(new Error('502'));
    await settle();
    world.onConnection?.(false);
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(world.fetches).toHaveLength(5);
    live.stop();
  });

  it('drops the answer of a snapshot request a newer one superseded', async () => {
    const { world, deps } = fakeWorld({ bidderId: null });
    const live = startAuctionLive(deps);
    world.fetches[0]?.resolve(SNAPSHOT);
    await settle();
    world.onConnection?.(false);
    world.onConnection?.(true);
    world.onConnection?.(false);
    world.onConnection?.(true);
    expect(live.actor.getSnapshot().value).toBe('catchingUp');
    expect(world.fetches).toHaveLength(3);
    // The older request answers late with what was current back then: dropped.
    world.fetches[1]?.resolve({ ...SNAPSHOT, state: liveState({ version: 5, bids: 4, priceMinor: 1150 }) });
    await settle();
    expect(live.actor.getSnapshot().value).toBe('catchingUp');
    world.fetches[2]?.resolve({ ...SNAPSHOT, state: liveState({ version: 6, bids: 5, priceMinor: 1200 }) });
    await settle();
    expect(live.actor.getSnapshot().value).toBe('live');
    expect(live.actor.getSnapshot().context.state?.priceMinor).toBe(1200);
    live.stop();
  });

  it('a snapshot that does not fit the contract counts as a failure', async () => {
    const { world, deps } = fakeWorld();
    const live = startAuctionLive(deps);
    world.fetches[0]?.resolve({ state: { version: 'x' } } as unknown as LiveSnapshot);
    await settle();
    expect(live.actor.getSnapshot().context.loadFailed).toBe(true);
    live.stop();
  });

  it('a fetch that throws at once counts as a failure too', async () => {
    const { deps } = fakeWorld({
      fetchSnapshot: () => {
        throw new Error('offline');
      },
    });
    const live = startAuctionLive(deps);
    await settle();
    expect(live.actor.getSnapshot().context.loadFailed).toBe(true);
    live.stop();
  });

  it('ticks every second with the local clock: upcoming turns live at the corrected start', async () => {
    const { world, deps } = fakeWorld();
    const live = startAuctionLive(deps);
    world.clock = START - 5 * 60_000 - OFFSET;
    world.fetches[0]?.resolve({
      state: liveState({
        version: 1,
        status: 'scheduled',
        priceMinor: null,
        leaderId: null,
        leaderName: null,
        bids: 0,
      }),
      recentBids: [],
      serverTime: iso(START - 5 * 60_000),
    });
    await settle();
    expect(live.actor.getSnapshot().value).toBe('upcoming');
    // The local clock is still half a minute before the start; the server's passes it.
    world.clock = START - OFFSET;
    await act(async () => vi.advanceTimersByTimeAsync(TICK_MS));
    expect(live.actor.getSnapshot().value).toBe('live');
    live.stop();
  });

  it('sends the own bid’s answer and the connection; calls onOutbid when the lead is lost', async () => {
    const { world, deps } = fakeWorld();
    const live = startAuctionLive(deps);
    world.fetches[0]?.resolve(SNAPSHOT);
    await settle();
    const mine = liveState({ version: 3, bids: 2, priceMinor: 1050, leaderId: ME, leaderName: 'M***' });
    const result: BidResult = { sequence: 2, state: mine, leading: true };
    live.bidAccepted(result);
    expect(live.actor.getSnapshot().value).toBe('liveLeading');
    world.onMessage?.(
      updateOf(liveState({ version: 4, bids: 3, priceMinor: 1100, minimumBidMinor: 1150 }), [ME]),
    );
    expect(live.actor.getSnapshot().value).toBe('liveOutbid');
    expect(world.outbids).toEqual([
      liveState({ version: 4, bids: 3, priceMinor: 1100, minimumBidMinor: 1150 }),
    ]);
    world.onConnection?.(false);
    expect(live.actor.getSnapshot().value).toBe('reconnecting');
    live.stop();
  });

  it('stops: unsubscribes, stops ticking and retrying, ignores late answers', async () => {
    const { world, deps } = fakeWorld();
    const live = startAuctionLive(deps);
    live.stop();
    live.stop();
    expect(world.unsubscribed).toBe(1);
    expect(world.onConnection).toBeNull();
    expect(live.actor.getSnapshot().status).toBe('stopped');
    world.fetches[0]?.resolve(SNAPSHOT);
    await settle();
    live.bidAccepted({ sequence: 1, state: SNAPSHOT.state, leading: false });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('useAuctionLive', () => {
  it('runs the live view while mounted, re-rendering every second; the default outbid toast', async () => {
    const { world, deps } = fakeWorld({ onOutbid: undefined });
    const { result, unmount } = renderHook(() => useAuctionLive(deps));
    expect(result.current.snapshot.value).toBe('loading');
    expect(result.current.now).toBe(world.clock);
    await act(async () => {
      world.fetches[0]?.resolve(SNAPSHOT);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(result.current.snapshot.value).toBe('live');

    world.clock += 1000;
    await act(async () => vi.advanceTimersByTimeAsync(TICK_MS));
    expect(result.current.now).toBe(world.clock);

    act(() =>
      result.current.bidAccepted({
        sequence: 2,
        state: liveState({ version: 3, bids: 2, priceMinor: 1050, leaderId: ME, leaderName: 'M***' }),
        leading: true,
      }),
    );
    expect(result.current.snapshot.value).toBe('liveLeading');
    act(() =>
      world.onMessage?.(
        updateOf(liveState({ version: 4, bids: 3, priceMinor: 1100, minimumBidMinor: 1150 }), [ME]),
      ),
    );
    expect(result.current.snapshot.value).toBe('liveOutbid');
    expect(toasts.notify).toHaveBeenCalledTimes(1);
    expect(toasts.notify).toHaveBeenCalledWith({
      type: 'warning',
      title: 'You have been outbid',
      description: 'The price is now €11.00. Bid at least €11.50 to lead again.',
    });

    unmount();
    expect(world.unsubscribed).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts again when the connection it listens to changes (the socket opened later)', async () => {
    const { world, deps } = fakeWorld({ bidderId: null });
    const closed: AuctionLiveDeps = { ...deps, subscribe: () => () => {}, onConnection: () => () => {} };
    const { result, rerender } = renderHook((props: AuctionLiveDeps) => useAuctionLive(props), {
      initialProps: closed,
    });
    expect(world.topics).toEqual([]);
    // Other deps changing (not memoized) restart nothing.
    rerender({ ...closed, fetchSnapshot: deps.fetchSnapshot, now: () => world.clock });
    expect(world.fetches).toHaveLength(1);
    rerender(deps);
    expect(world.topics).toEqual([auctionTopic(AUCTION)]);
    expect(world.fetches).toHaveLength(2);
    await act(async () => {
      world.fetches[1]?.resolve(SNAPSHOT);
      await vi.advanceTimersByTimeAsync(0);
    });
    act(() => world.onMessage?.(updateOf(liveState({ version: 3, bids: 2, priceMinor: 1050 }))));
    expect(result.current.snapshot.context.state?.priceMinor).toBe(1050);
  });

  it('starts again for another bidder', async () => {
    const { world, deps } = fakeWorld();
    const { result, rerender } = renderHook((props: AuctionLiveDeps) => useAuctionLive(props), {
      initialProps: deps,
    });
    await act(async () => {
      world.fetches[0]?.resolve(SNAPSHOT);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(result.current.snapshot.context.bidderId).toBe(ME);
    rerender({ ...deps, bidderId: null });
    expect(world.unsubscribed).toBe(1);
    expect(world.fetches).toHaveLength(2);
    expect(result.current.snapshot.context.bidderId).toBeNull();
    expect(result.current.snapshot.value).toBe('loading');
  });
});
