// Model-based test of the auction statechart (issue 32, docs/auctions.md "The live view"; ARCHITECTURE.md
// "Statecharts"): every path of `getShortestPaths()` of the REAL machine, plus one path per transition
// they miss, each run against the REAL adapter (src/features/auctions/live/auction-live.ts,
// `startAuctionLive`) and the RENDERED live view (AuctionLiveView). Fakes only at the edges: the
// snapshot endpoint (a fetch whose answer the test releases or fails, so each state holds still while
// it is checked), the broker (the topic's subscriber gets the server's messages as JSON text or bytes,
// as MQTT.js hands them; the connection listener is told when it drops and comes back) and the clocks
// (the adapter's `now`, and fake timers for its one-second tick and its retry).
//
// The machine's context is unbounded (versions, bids and times grow), so the graph is drawn over a
// bounded world: a story of hub states (loading, upcoming, Bob leading, me leading, me outbid late with
// the end extended, sold to Bob; reconnecting and catching up from several of them) reached by the
// story's events, and from each hub the probes its transitions need (duplicates, gaps, the own bid's
// answer, the ends, the watchers, the connection). A probe leads to a leaf: the generator offers no
// events there. Nodes are the machine's exact snapshots (value and context), so a path's snapshots are
// exactly what its events make; a shadow of the pure machine is fed the same events, and the adapter's
// actor must equal it at every step. Two views are modelled: a bidder's (the story) and a watcher's
// (staff, who may bid for a customer: the answer of such a bid is applied too).
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { useSyncExternalStore } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  type AuctionUpdate,
  auctionTopic,
  type LiveSnapshot,
  type LiveState,
  type PublicBid,
} from '../../contracts/auctions';
import { AuctionLiveView, formatCountdown } from '../../src/features/auctions/live/AuctionLiveView';
import { type AuctionLive, startAuctionLive, TICK_MS } from '../../src/features/auctions/live/auction-live';
import {
  type AuctionLiveEvent,
  type AuctionViewState,
  auctionMachine,
} from '../../src/machines/auction.machine';
import { allTransitionIds, takenTransitionId } from '../../src/machines/testing/transition-coverage';
import { system } from '../../src/ui/theme';
import {
  completionPaths,
  expectFullCoverage,
  pathTransitions,
  type ModelPath as SharedModelPath,
} from './model-paths';

type AuctionSnapshot = SnapshotFrom<typeof auctionMachine>;
type ModelPath = SharedModelPath<AuctionSnapshot, AuctionLiveEvent>;

// ---------------------------------------------------------------------------------------------------
// The world's cast, clocks and states

const AUCTION = 'auction-7';
const ME = 'bidder-me';
const BOB = 'bidder-bob';
const CAROL = 'bidder-carol';
const NAMES: Record<string, string> = { [ME]: 'M***', [BOB]: 'B***', [CAROL]: 'C***' };
const MIN = 60_000;
const START = Date.parse('2030-05-01T12:00:00.000Z');
const END = START + 10 * MIN;
const EXTENDED_END = END + 2 * MIN;
/** The server's clock runs a minute and a half ahead of the browser's. */
const OFFSET = 90_000;
/** The adapter's retry wait (one, so that the fake clock stays on whole seconds). */
const RETRY_MS = 1000;
const iso = (ms: number) => new Date(ms).toISOString();

function st(version: number, overrides: Partial<LiveState> = {}): LiveState {
  return {
    auctionId: AUCTION,
    version,
    status: 'live',
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
    hardEndAt: iso(END + 20 * MIN),
    extended: false,
    watchers: 3,
    cancelReason: null,
    ...overrides,
  };
}

/** Live with `who` leading at `price` after `bids` bids. */
const leads = (version: number, who: string, price: number, bids: number, more: Partial<LiveState> = {}) =>
  st(version, {
    priceMinor: price,
    minimumBidMinor: price + 50,
    leaderId: who,
    leaderName: NAMES[who] ?? null,
    bids,
    ...more,
  });

/** Ended: sold to `who` (or `outcome`). */
const sold = (version: number, who: string, price: number, bids: number, more: Partial<LiveState> = {}) =>
  leads(version, who, price, bids, { status: 'ended', outcome: 'sold', ...more });

const pb = (sequence: number, who: string, priceMinor: number): PublicBid => ({
  sequence,
  bidder: NAMES[who] ?? '?',
  priceMinor,
  at: iso(START + sequence * 1000),
  cancelled: false,
});

// Every event of the world, named for the test titles.
const labels = new WeakMap<AuctionLiveEvent, string>();
function named<T extends AuctionLiveEvent>(label: string, event: T): T {
  labels.set(event, label);
  return event;
}

/** The snapshot endpoint answers (the server's clock at `serverMs`). */
const snap = (label: string, state: LiveState, recentBids: PublicBid[], serverMs: number) =>
  named(`SNAPSHOT(${label})`, {
    type: 'SNAPSHOT',
    snapshot: { state, recentBids, serverTime: iso(serverMs) } satisfies LiveSnapshot,
    receivedAt: serverMs - OFFSET,
  });

/** The topic's `state` message. */
const upd = (label: string, state: LiveState, bids: PublicBid[], outbidIds: string[], serverMs: number) =>
  named(`UPDATE(${label})`, {
    type: 'UPDATE',
    update: { type: 'state', state, bids, outbidIds, serverTime: iso(serverMs) } satisfies AuctionUpdate,
    receivedAt: serverMs - OFFSET,
  });

/** The answer of the viewer's own bid (or, on the staff page, of a bid for a customer). */
const acc = (label: string, state: LiveState, sequence: number, serverMs: number) =>
  named(`BID_ACCEPTED(${label})`, {
    type: 'BID_ACCEPTED',
    result: { sequence, state, leading: state.leaderId === ME },
    receivedAt: serverMs - OFFSET,
  });

const FAIL = named('SNAPSHOT_FAILED', { type: 'SNAPSHOT_FAILED' } as const);
const DISCONNECT = named('DISCONNECTED', { type: 'DISCONNECTED' } as const);
const CONNECT = named('CONNECTED', { type: 'CONNECTED' } as const);
const W7 = named('WATCHERS(7)', {
  type: 'WATCHERS',
  message: { type: 'watchers', auctionId: AUCTION, watchers: 7, serverTime: iso(START + 30_000) },
  receivedAt: START + 30_000 - OFFSET,
});
/** The browser's clock a second past the start on the server's clock (its own still before it). */
const TICK_START = named('TICK(past the start)', { type: 'TICK', now: START - OFFSET + 1000 } as const);

// The story: upcoming → (the clock) live → Bob bids → I lead → Bob outbids me late (extended) → sold.
const B1 = pb(1, BOB, 1000);
const B2 = pb(2, ME, 1050);
const B3 = pb(3, BOB, 1100);
const S1 = st(1, { status: 'scheduled' });
const S2 = leads(2, BOB, 1000, 1);
const S3 = leads(3, ME, 1050, 2);
const S4 = leads(4, BOB, 1100, 3, { effectiveEndAt: iso(EXTENDED_END), extended: true });
const S5 = sold(5, BOB, 1100, 3, { effectiveEndAt: iso(EXTENDED_END), extended: true });

const SNAP_S1 = snap('upcoming', S1, [], START - 5 * MIN);
const SNAP_S2 = snap('Bob leads', S2, [B1], START + MIN);
const SNAP_S3 = snap('I lead', S3, [B2, B1], START + 2 * MIN);
const SNAP_S4 = snap('Bob leads, extended', S4, [B3, B2, B1], END - 20_000);
const SNAP_S5 = snap('sold to Bob', S5, [B3, B2, B1], END + 3 * MIN);
const U2 = upd('Bob bids, v2', S2, [B1], [], START + MIN);
const U3 = upd('I lead, v3', S3, [B2], [BOB], START + 2 * MIN);
const U4 = upd('Bob outbids me late, v4, extended', S4, [B3], [ME], END - 30_000);
const U5 = upd('sold to Bob, v5', S5, [], [], EXTENDED_END + 1000);
/** Far ahead of everything shown (bid 5 with bid 4 unseen). */
const U_FAR6 = upd('v6, bid 4 unseen', leads(6, CAROL, 1200, 5), [pb(5, CAROL, 1200)], [], START + 6 * MIN);
const U_EDIT2 = upd(
  'start postponed, v2',
  st(2, { status: 'scheduled', startsAt: iso(START + 60 * MIN), effectiveEndAt: iso(END + 60 * MIN) }),
  [],
  [],
  START - 4 * MIN,
);
const B_RAISE4 = acc('I raise my maximum, v4', leads(4, ME, 1050, 3), 3, START + 3 * MIN);

interface Hub {
  name: string;
  /** The events that reach it from the start. */
  via: AuctionLiveEvent[];
  /** The events the world offers there. */
  offers: AuctionLiveEvent[];
}

const bidderHubs: Hub[] = [
  {
    name: 'loading',
    via: [],
    offers: [
      SNAP_S1,
      SNAP_S2,
      SNAP_S3,
      SNAP_S5,
      FAIL,
      U_FAR6,
      acc('my bid, out-bid at once, v3', leads(3, BOB, 1100, 2), 2, START + 2 * MIN),
      W7,
      DISCONNECT,
    ],
  },
  { name: 'loading, failed', via: [FAIL], offers: [SNAP_S1] },
  { name: 'loading, disconnected', via: [DISCONNECT], offers: [SNAP_S2, CONNECT] },
  { name: 'loading, the topic ahead', via: [U_FAR6], offers: [SNAP_S2] },
  {
    name: 'loading, my bid answered',
    via: [acc('my bid, out-bid at once, v3', leads(3, BOB, 1100, 2), 2, START + 2 * MIN)],
    offers: [SNAP_S2],
  },
  {
    name: 'upcoming',
    via: [SNAP_S1],
    offers: [
      upd('the same, v1', S1, [], [], START - 5 * MIN),
      upd('a gap, v3', leads(3, BOB, 1050, 2), [pb(2, BOB, 1050)], [], START + 2 * MIN),
      upd(
        'cancelled, v2',
        st(2, { status: 'cancelled', cancelReason: 'The lot was damaged.' }),
        [],
        [],
        START - 4 * MIN,
      ),
      upd('ended without bids, v2', st(2, { status: 'ended', outcome: 'no_bids' }), [], [], END + 1000),
      upd('I lead, v2', leads(2, ME, 1000, 1), [pb(1, ME, 1000)], [], START + MIN),
      upd(
        'I lose the lead to Bob, v3',
        leads(3, BOB, 1050, 2),
        [pb(1, ME, 1000), pb(2, BOB, 1050)],
        [ME],
        START + MIN,
      ),
      upd('started, v2', st(2), [], [], START + 1000),
      U_EDIT2,
      acc('my bid after one unseen, v3', leads(3, ME, 1050, 2), 2, START + 2 * MIN),
      acc('I buy it now, v2', sold(2, ME, 5000, 1), 1, START + MIN),
      acc('my bid leads, v2', leads(2, ME, 1000, 1), 1, START + MIN),
      acc('my bid, out-bid at once, v2', leads(2, BOB, 1050, 2), 1, START + MIN),
      W7,
      DISCONNECT,
      TICK_START,
    ],
  },
  { name: 'upcoming, reconnecting', via: [SNAP_S1, DISCONNECT], offers: [CONNECT] },
  { name: 'upcoming, catching up', via: [SNAP_S1, DISCONNECT, CONNECT], offers: [SNAP_S1] },
  { name: 'live by the clock', via: [SNAP_S1, TICK_START], offers: [U2, U_EDIT2] },
  {
    name: 'Bob leads',
    via: [SNAP_S1, TICK_START, U2],
    offers: [
      U2,
      upd('a gap, v4', leads(4, CAROL, 1100, 3), [pb(3, CAROL, 1100)], [BOB], START + 3 * MIN),
      upd('sold to Bob, v3', sold(3, BOB, 1000, 1), [], [], END + 1000),
      U3,
      upd(
        'I lose the lead to Carol, v4',
        leads(4, CAROL, 1100, 3),
        [B2, pb(3, CAROL, 1100)],
        [BOB, ME],
        START + 2 * MIN,
      ),
      upd('Carol leads, v3', leads(3, CAROL, 1050, 2), [pb(2, CAROL, 1050)], [BOB], START + 2 * MIN),
      acc('my bid after one unseen, v4', leads(4, ME, 1100, 3), 3, START + 3 * MIN),
      acc('my bid ends it, v3', sold(3, ME, 1050, 2), 2, END),
      acc('my bid leads, v3', S3, 2, START + 2 * MIN),
      acc('my bid, out-bid at once, v3', leads(3, BOB, 1100, 2), 2, START + 2 * MIN),
      W7,
      DISCONNECT,
    ],
  },
  {
    name: 'I lead',
    via: [SNAP_S1, TICK_START, U2, U3],
    offers: [
      U3,
      upd('a gap, v5', leads(5, BOB, 1150, 4), [pb(4, BOB, 1150)], [ME], START + 4 * MIN),
      upd('sold to me, v4', sold(4, ME, 1050, 2), [], [], END + 1000),
      upd('I raise my maximum, v4', leads(4, ME, 1050, 3), [pb(3, ME, 1050)], [], START + 3 * MIN),
      U4,
      acc('my bid after one unseen, v5', leads(5, ME, 1150, 4), 4, START + 4 * MIN),
      acc('my bid ends it, v4', sold(4, ME, 1100, 3), 3, END),
      B_RAISE4,
      acc('my raise, out-bid by a proxy, v4', leads(4, BOB, 1150, 3), 3, START + 3 * MIN),
      W7,
      DISCONNECT,
    ],
  },
  {
    name: 'I am outbid, extended',
    via: [SNAP_S1, TICK_START, U2, U3, U4],
    offers: [
      U4,
      upd('a gap, v6', leads(6, CAROL, 1200, 5), [pb(5, CAROL, 1200)], [BOB], START + 5 * MIN),
      U5,
      upd(
        'reserve not met, v5',
        leads(5, BOB, 1100, 3, { status: 'ended', outcome: 'reserve_not_met' }),
        [],
        [],
        EXTENDED_END + 1000,
      ),
      upd(
        'I lead again, v5',
        leads(5, ME, 1150, 4, { effectiveEndAt: iso(EXTENDED_END), extended: true }),
        [pb(4, ME, 1150)],
        [BOB],
        END - 20_000,
      ),
      upd(
        'Carol leads, v5',
        leads(5, CAROL, 1150, 4, { effectiveEndAt: iso(EXTENDED_END), extended: true }),
        [pb(4, CAROL, 1150)],
        [BOB],
        END - 20_000,
      ),
      acc('my bid after one unseen, v6', leads(6, ME, 1200, 5), 5, START + 5 * MIN),
      acc('my bid ends it, v5', sold(5, ME, 1150, 4), 4, EXTENDED_END),
      acc(
        'my bid leads, v5',
        leads(5, ME, 1150, 4, { effectiveEndAt: iso(EXTENDED_END), extended: true }),
        4,
        END - 20_000,
      ),
      acc(
        'my bid, out-bid at once, v5',
        leads(5, BOB, 1200, 4, { effectiveEndAt: iso(EXTENDED_END), extended: true }),
        4,
        END - 20_000,
      ),
      W7,
      DISCONNECT,
    ],
  },
  {
    name: 'I lead, reconnecting',
    via: [SNAP_S1, TICK_START, U2, U3, DISCONNECT],
    offers: [CONNECT, U_FAR6, B_RAISE4, W7],
  },
  {
    name: 'I lead, reconnecting, the topic ahead',
    via: [SNAP_S1, TICK_START, U2, U3, DISCONNECT, U_FAR6],
    offers: [CONNECT],
  },
  {
    name: 'I lead, catching up',
    via: [SNAP_S1, TICK_START, U2, U3, DISCONNECT, CONNECT],
    offers: [SNAP_S4, SNAP_S3, SNAP_S5, FAIL, U4, B_RAISE4, W7, DISCONNECT],
  },
  {
    name: 'I lead, catching up, failed',
    via: [SNAP_S1, TICK_START, U2, U3, DISCONNECT, CONNECT, FAIL],
    offers: [SNAP_S4],
  },
  {
    name: 'I lead, catching up, the topic ahead',
    via: [SNAP_S1, TICK_START, U2, U3, DISCONNECT, U_FAR6, CONNECT],
    offers: [SNAP_S4],
  },
  {
    name: 'I am outbid, catching up a gap',
    via: [
      SNAP_S1,
      TICK_START,
      U2,
      U3,
      U4,
      upd('a gap, v6', leads(6, CAROL, 1200, 5), [pb(5, CAROL, 1200)], [BOB], START + 5 * MIN),
    ],
    offers: [
      snap(
        'v5, Bob leads',
        leads(5, BOB, 1150, 4, { effectiveEndAt: iso(EXTENDED_END), extended: true }),
        [pb(4, BOB, 1150), B3, B2, B1],
        END - 10_000,
      ),
    ],
  },
  {
    name: 'Bob leads, catching up a gap',
    via: [
      SNAP_S1,
      TICK_START,
      U2,
      upd('a gap, v4', leads(4, CAROL, 1100, 3), [pb(3, CAROL, 1100)], [BOB], START + 3 * MIN),
    ],
    offers: [
      snap('v3, Carol leads', leads(3, CAROL, 1050, 2), [pb(2, CAROL, 1050), B1], START + 2 * MIN + 30_000),
    ],
  },
  {
    name: 'sold to Bob',
    via: [SNAP_S1, TICK_START, U2, U3, U4, U5],
    offers: [upd('a bid cancelled after the close, v6', sold(6, ME, 1050, 2), [], [], END + 10 * MIN), W7],
  },
];

/** The staff page: a watcher, whose bids for customers answer too. */
const watcherHubs: Hub[] = [
  { name: 'loading', via: [], offers: [SNAP_S1, SNAP_S2] },
  {
    name: 'upcoming',
    via: [SNAP_S1],
    offers: [acc('a bid for Bob, v2', S2, 1, START + MIN)],
  },
  {
    name: 'Bob leads',
    via: [SNAP_S2],
    offers: [
      acc('a bid for Carol, v3', leads(3, CAROL, 1050, 2), 2, START + 2 * MIN),
      upd('sold to Bob, v3', sold(3, BOB, 1000, 1), [], [], END + 1000),
    ],
  },
];

// ---------------------------------------------------------------------------------------------------
// The models

const keyOf = (snapshot: { value: unknown; context: unknown }) =>
  JSON.stringify([snapshot.value, snapshot.context]);

function replay(bidderId: string | null, events: AuctionLiveEvent[]): AuctionSnapshot {
  const actor = createActor(auctionMachine, { input: { auctionId: AUCTION, bidderId } }).start();
  for (const event of events) actor.send(event);
  const snapshot = actor.getSnapshot();
  actor.stop();
  return snapshot;
}

function modelOf(bidderId: string | null, hubs: Hub[]) {
  const offers = new Map<string, AuctionLiveEvent[]>();
  for (const hub of hubs) {
    const key = keyOf(replay(bidderId, hub.via));
    expect(offers.has(key), `hub "${hub.name}" is a state of its own`).toBe(false);
    offers.set(key, hub.offers);
  }
  const offered = new WeakSet<AuctionLiveEvent>(hubs.flatMap((hub) => hub.offers));
  return createTestModel(auctionMachine, {
    input: { auctionId: AUCTION, bidderId },
    events: (snapshot) => offers.get(keyOf(snapshot)) ?? [],
    // Only the world's events (the graph would add a bare event for every type a state handles).
    filterEvents: (_snapshot, event) => offered.has(event),
    serializeState: (snapshot) => keyOf(snapshot),
  });
}

const takenBy = (from: AuctionSnapshot, event: AuctionLiveEvent) =>
  takenTransitionId(auctionMachine, from, event);
const transitionsOf = (path: ModelPath): string[] => pathTransitions(path, takenBy);

interface Variant {
  name: string;
  bidderId: string | null;
  hubs: Hub[];
  model: ReturnType<typeof modelOf>;
  paths: ModelPath[];
  extra: ModelPath[];
}

const covered = new Set<string>();
const variants: Variant[] = [
  { name: 'the bidder', bidderId: ME, hubs: bidderHubs },
  { name: 'a watcher (staff)', bidderId: null, hubs: watcherHubs },
].map(({ name, bidderId, hubs }) => {
  const model = modelOf(bidderId, hubs);
  const paths = model.getShortestPaths() as ModelPath[];
  for (const path of paths) for (const id of transitionsOf(path)) covered.add(id);
  return { name, bidderId, hubs, model, paths, extra: [] };
});
// Completion paths after both: a transition either variant's shortest paths take needs no more.
for (const variant of variants) {
  variant.extra = completionPaths<AuctionSnapshot, AuctionLiveEvent>(variant.model, takenBy, covered);
}

// ---------------------------------------------------------------------------------------------------
// The real world: the adapter with fake edges, and the rendered view

interface PendingFetch {
  resolve: (snapshot: LiveSnapshot) => void;
  reject: (error: Error) => void;
}

interface World {
  bidderId: string | null;
  clock: number;
  live: AuctionLive;
  /** The pure machine fed the same events, its effects counted. */
  shadow: Actor<typeof auctionMachine>;
  shadowEffects: { fetch: number; retry: number; announced: LiveState[] };
  fetches: PendingFetch[];
  fetchCalls: number;
  retriesRun: number;
  topics: string[];
  onMessage: ((payload: unknown) => void) | null;
  onConnection: ((connected: boolean) => void) | null;
  outbids: LiveState[];
  /** The section's roles were checked on this path. */
  structureChecked: boolean;
}

let world: World;
const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();

// The page: it re-renders the view with the adapter's snapshot and the clock. One root stays mounted
// across the paths (each path's world replaces the last), so a step costs one render.
const screenClock = { version: 0, listeners: new Set<() => void>() };
const subscribeClock = (listener: () => void) => {
  screenClock.listeners.add(listener);
  return () => screenClock.listeners.delete(listener);
};
let mounted = false;

/** Sets the browser's clock and re-renders the page (call within `act`). */
function setClock(ms: number) {
  world.clock = ms;
  screenClock.version += 1;
  for (const listener of screenClock.listeners) listener();
}

function Harness() {
  useSyncExternalStore(subscribeClock, () => screenClock.version);
  const snapshot = useSelector(world.live.actor, (s) => s);
  return (
    <AuctionLiveView snapshot={snapshot} now={world.clock}>
      <button type="button">Place a bid</button>
    </AuctionLiveView>
  );
}

function startWorld(bidderId: string | null) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  const shadowEffects: World['shadowEffects'] = { fetch: 0, retry: 0, announced: [] };
  const created = {
    bidderId,
    clock: START - 10 * MIN,
    shadowEffects,
    fetches: [],
    fetchCalls: 0,
    retriesRun: 0,
    topics: [],
    onMessage: null,
    onConnection: null,
    outbids: [],
    structureChecked: false,
    shadow: createActor(
      auctionMachine.provide({
        actions: {
          fetchSnapshot: () => {
            shadowEffects.fetch += 1;
          },
          retrySnapshot: () => {
            shadowEffects.retry += 1;
          },
          announceOutbid: (_, params) => {
            shadowEffects.announced.push(params.state);
          },
        },
      }),
      { input: { auctionId: AUCTION, bidderId } },
    ).start(),
  } as unknown as World;
  world = created;
  created.live = startAuctionLive({
    auctionId: AUCTION,
    bidderId,
    fetchSnapshot: () =>
      new Promise<LiveSnapshot>((resolve, reject) => {
        created.fetchCalls += 1;
        created.fetches.push({ resolve, reject });
      }),
    subscribe: (topic, onMessage) => {
      created.topics.push(topic);
      created.onMessage = onMessage;
      return () => {
        created.onMessage = null;
      };
    },
    onConnection: (listener) => {
      created.onConnection = listener;
      return () => {
        created.onConnection = null;
      };
    },
    now: () => created.clock,
    onOutbid: (state) => created.outbids.push(state),
    retryDelaysMs: [RETRY_MS],
  });
  if (mounted) {
    act(() => setClock(created.clock));
  } else {
    render(
      <ChakraProvider value={system}>
        <Harness />
      </ChakraProvider>,
    );
    mounted = true;
  }
}

afterEach(() => {
  world?.live.stop();
  world?.shadow.stop();
  vi.useRealTimers();
});

/** Answers the fetch and lets the answer reach the actor (a few promise hops), and React render. */
async function answer(reply: () => void) {
  await act(async () => {
    reply();
    for (let i = 0; i < 6; i += 1) await Promise.resolve();
  });
}

// ---------------------------------------------------------------------------------------------------
// What each state shows

const euros = (minor: number) => `€${(minor / 100).toFixed(2)}`;
const two = (n: number) => String(n).padStart(2, '0');
const hms = (ms: number) => {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
};

const STATUS_WORDS: Record<Exclude<AuctionViewState, 'ended'>, string> = {
  loading: 'Loading…',
  upcoming: 'Upcoming',
  live: 'Live',
  liveLeading: 'You are leading',
  liveOutbid: 'You have been outbid',
  reconnecting: 'Reconnecting…',
  catchingUp: 'Catching up…',
};

/** The words of an ended auction, from the viewer's side. */
function endWords(state: LiveState, bidderId: string | null, hasBid: boolean): string {
  if (state.status === 'cancelled') return `Cancelled: ${state.cancelReason}`;
  if (state.outcome === 'reserve_not_met') return 'Reserve not met';
  if (state.outcome === 'no_bids') return 'No bids';
  if (bidderId && state.leaderId === bidderId) return 'You won';
  return bidderId && hasBid ? 'You did not win' : 'Sold';
}

const region = () => screen.getByTestId('auction-live-region');
const testText = (id: string) => screen.queryByTestId(id)?.textContent ?? null;

/** The adapter's actor equals the shadow, which equals the path's node; the view shows it. */
async function checkState(node: AuctionSnapshot) {
  const expected = world.shadow.getSnapshot();
  expect(keyOf(expected)).toBe(keyOf(node));
  const real = world.live.actor.getSnapshot();
  expect(real.value).toBe(expected.value);
  expect(real.context).toEqual(expected.context);
  const value = expected.value as AuctionViewState;
  visitedStates.add(value);
  const { context } = expected;

  // Effects: every fetch the machine asked for (and each retry the adapter ran), every toast.
  expect(world.fetchCalls).toBe(world.shadowEffects.fetch + world.retriesRun);
  expect(world.outbids).toEqual(world.shadowEffects.announced);
  expect(world.topics).toEqual([auctionTopic(AUCTION)]);

  // The section: one h2, no other heading; the bid form's slot (by role once a path: role queries
  // are slow in jsdom).
  if (!world.structureChecked) {
    world.structureChecked = true;
    const section = screen.getByRole('region', { name: 'Live auction' });
    expect(
      within(section)
        .getAllByRole('heading')
        .map((h) => h.tagName),
    ).toEqual(['H2']);
    expect(within(section).getByRole('button', { name: 'Place a bid' })).toBeInTheDocument();
  }
  expect([...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.tagName)).toEqual(['H2']);

  const state = context.state;
  if (!state) {
    expect(value).toBe('loading');
    expect(testText('auction-status')).toBe('Loading…');
    expect(screen.queryByText('The auction could not be loaded. Trying again…') !== null).toBe(
      context.loadFailed,
    );
    expect(screen.queryByTestId('auction-price')).toBeNull();
    return;
  }

  // The status and the price, one polite live region; stale (greyed, "Last known price") unless current.
  const ended = value === 'ended';
  const stale = value === 'loading' || value === 'reconnecting' || value === 'catchingUp';
  expect(region()).toHaveAttribute('aria-live', 'polite');
  expect(region()).toHaveAttribute('data-stale', String(stale));
  expect(testText('auction-status')).toBe(
    ended ? endWords(state, world.bidderId, context.hasBid) : STATUS_WORDS[value],
  );
  const extended = !ended && (state.extended || context.extendedAt !== null);
  expect(testText('auction-extended')).toBe(extended ? 'Extended' : null);
  expect(testText('auction-price')).toBe(euros(state.priceMinor ?? state.startingPriceMinor));
  expect(testText('auction-price-label')).toBe(
    stale
      ? 'Last known price'
      : state.priceMinor === null
        ? 'Starting price'
        : ended
          ? 'Final price'
          : 'Current price',
  );

  // The facts: the masked leader (the viewer's own lead said so), the bids, the watchers.
  const own = world.bidderId !== null && state.leaderId === world.bidderId;
  expect(testText('auction-leader')).toBe(
    state.leaderName ? `${state.leaderName}${own ? ' (you)' : ''}` : 'No bids yet',
  );
  expect(testText('auction-bids')).toBe(
    state.bids === 0 ? 'No bids yet' : state.bids === 1 ? '1 bid' : `${state.bids} bids`,
  );
  expect(testText('auction-watchers')).toBe(`${context.watchers ?? state.watchers} watching`);
  expect(testText('auction-minimum')).toBe(!stale && !ended ? euros(state.minimumBidMinor) : null);

  // The countdown to the start or the effective end, on the server's clock.
  const serverNow = world.clock + context.offsetMs;
  if (ended) {
    expect(screen.queryByTestId('auction-countdown')).toBeNull();
  } else {
    const target = Date.parse(value === 'upcoming' ? state.startsAt : state.effectiveEndAt);
    expect(testText('auction-countdown')).toBe(hms(target - serverNow));
    expect(testText('auction-countdown-label')).toBe(value === 'upcoming' ? 'Starts in' : 'Ends in');
  }

  // The latest bids, newest first.
  expect(screen.queryAllByTestId('auction-bid').map((item) => item.textContent)).toEqual(
    context.recentBids
      .slice(0, 5)
      .map((bid) => `${bid.bidder} ${euros(bid.priceMinor)}${bid.cancelled ? ' (cancelled)' : ''}`),
  );
}

const stateChecks = Object.fromEntries(
  Object.keys(auctionMachine.root.states).map((value) => [value, checkState]),
) as Record<AuctionViewState, (node: AuctionSnapshot) => Promise<void>>;

// ---------------------------------------------------------------------------------------------------
// How each event happens in the real world

type Executor<T extends AuctionLiveEvent['type']> = (
  event: Extract<AuctionLiveEvent, { type: T }>,
  before: AuctionSnapshot,
) => Promise<void>;

/** The newest fetch (an older one was superseded: its answer would be dropped). */
function takeFetch(): PendingFetch {
  const pending = world.fetches.at(-1);
  expect(pending, 'a snapshot request is waiting').toBeDefined();
  world.fetches = [];
  return pending as PendingFetch;
}

/** After a failure, the adapter fetches again when its timer fires. */
async function runRetryIfDue() {
  if (world.fetches.length > 0) return;
  expect(world.shadowEffects.retry).toBeGreaterThan(world.retriesRun);
  act(() => {
    vi.advanceTimersByTime(RETRY_MS);
  });
  world.retriesRun += 1;
  expect(world.fetches).toHaveLength(1);
}

/** A message of the topic, received at `receivedAt` on the browser's clock. */
function emit(payload: unknown, receivedAt: number) {
  expect(world.onMessage, 'subscribed to the topic').not.toBeNull();
  act(() => {
    setClock(receivedAt);
    world.onMessage?.(payload);
  });
}

const eventExecutors: { [T in AuctionLiveEvent['type']]: Executor<T> } = {
  SNAPSHOT: async (event) => {
    await runRetryIfDue();
    const pending = takeFetch();
    await answer(() => {
      setClock(event.receivedAt);
      pending.resolve(event.snapshot);
    });
  },
  SNAPSHOT_FAILED: async () => {
    const pending = takeFetch();
    await answer(() => pending.reject(new Error('502 Bad Gateway')));
  },
  // As MQTT.js hands them: text for the states, bytes for the watchers.
  UPDATE: async (event) => {
    emit(JSON.stringify(event.update), event.receivedAt);
  },
  WATCHERS: async (event) => {
    emit(new TextEncoder().encode(JSON.stringify(event.message)), event.receivedAt);
  },
  DISCONNECTED: async () => {
    act(() => world.onConnection?.(false));
  },
  CONNECTED: async () => {
    act(() => world.onConnection?.(true));
  },
  // The adapter's own tick, a second later, reads the clock.
  TICK: async (event) => {
    act(() => {
      setClock(event.now);
      vi.advanceTimersByTime(TICK_MS);
    });
  },
  BID_ACCEPTED: async (event) => {
    act(() => {
      setClock(event.receivedAt);
      world.live.bidAccepted(event.result);
    });
  },
};

const testParams = {
  states: stateChecks,
  events: Object.fromEntries(
    Object.entries(eventExecutors).map(([type, exec]) => [
      type,
      async (step: { event: { type: string } }) => {
        const event = step.event as AuctionLiveEvent;
        const before = world.shadow.getSnapshot();
        const id = takenBy(before, event);
        expect(id, `${labels.get(event)} is taken`).not.toBeNull();
        if (id) executedTransitions.add(id);
        world.shadow.send(event);
        await (exec as (event: AuctionLiveEvent, before: AuctionSnapshot) => Promise<void>)(event, before);
      },
    ]),
  ),
};

// ---------------------------------------------------------------------------------------------------

function describePath(path: ModelPath): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event): event is AuctionLiveEvent => event.type !== 'xstate.init')
    .map((event) => labels.get(event) ?? event.type);
  return `${String(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

describe('auction statechart × real adapter × rendered live view', () => {
  it('draws its paths from the real machine over the bounded world', () => {
    for (const variant of variants) {
      const adjacency = variant.model.getAdjacencyMap() as unknown as Record<
        string,
        { state: AuctionSnapshot; transitions: Record<string, { event: AuctionLiveEvent }> }
      >;
      // Every event the world offers is one the machine takes there.
      for (const { state, transitions } of Object.values(adjacency))
        for (const { event } of Object.values(transitions))
          expect(takenBy(state, event), `${labels.get(event)} from ${String(state.value)}`).not.toBeNull();
      // Every hub is reached.
      for (const hub of variant.hubs)
        expect(adjacency[keyOf(replay(variant.bidderId, hub.via))], hub.name).toBeDefined();
    }
    // Together the graphs take every transition of the machine.
    expect([...covered].sort()).toEqual(allTransitionIds(auctionMachine).sort());
    console.info(
      `auction model: ${variants
        .map((v) => `${v.name}: ${v.paths.length} shortest paths, ${v.extra.length} completion paths`)
        .join('; ')}`,
    );
  });

  for (const variant of variants) {
    const groups: [string, ModelPath[]][] = [
      [`${variant.name}: shortest paths`, variant.paths],
      [`${variant.name}: transitions the shortest paths miss`, variant.extra],
    ];
    for (const [name, paths] of groups) {
      if (paths.length === 0) continue;
      describe(`${name} (${paths.length})`, () => {
        it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
          startWorld(variant.bidderId);
          await variant.model.testPath(path as Parameters<typeof variant.model.testPath>[0], testParams);
        });
      });
    }
  }

  it('the executed paths reach every state and take every transition of the machine', () => {
    expectFullCoverage(auctionMachine, allTransitionIds(auctionMachine), visitedStates, executedTransitions);
  });
});

// ---------------------------------------------------------------------------------------------------
// Around the model: what the paths do not spell out

describe('around the model: the live view', () => {
  beforeAll(() => {
    cleanup();
    mounted = false;
  });
  afterEach(() => cleanup());

  function renderView(bidderId: string | null, events: AuctionLiveEvent[], now: number) {
    const snapshot = replay(bidderId, events);
    render(
      <ChakraProvider value={system}>
        <AuctionLiveView snapshot={snapshot} now={now} heading="Lot 12" />
      </ChakraProvider>,
    );
    return snapshot;
  }

  it('counts down in hours, and in days from a day on', () => {
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(formatCountdown(-5000)).toBe('00:00:00');
    expect(formatCountdown(1)).toBe('00:00:01');
    expect(formatCountdown(3_723_000)).toBe('01:02:03');
    expect(formatCountdown(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toBe('2 d 03:04:05');
    // Two days and a bit before the start, on the server's clock.
    const days = ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000;
    renderView(ME, [SNAP_S1], START - OFFSET - days);
    expect(screen.getByTestId('auction-countdown')).toHaveTextContent('2 d 03:04:05');
    expect(screen.getByRole('heading', { level: 2, name: 'Lot 12' })).toBeInTheDocument();
    expect(screen.getByTestId('auction-price-label')).toHaveTextContent('Starting price');
  });

  it('says when the snapshot could not be loaded (and that it tries again)', () => {
    renderView(ME, [FAIL], START);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(screen.getByText('The auction could not be loaded. Trying again…')).toBeInTheDocument();
  });

  it('writes prices in the auction’s currency from minor units', () => {
    const yen = snap(
      'in yen',
      { ...S2, currency: 'JPY', priceMinor: 1050, minimumBidMinor: 1100 },
      [],
      START + MIN,
    );
    renderView(null, [yen], START);
    expect(screen.getByTestId('auction-price')).toHaveTextContent('¥1,050');
    expect(screen.getByTestId('auction-minimum')).toHaveTextContent('¥1,100');
  });

  it('marks a cancelled bid in the list without relying on colour', () => {
    const cancelled = snap(
      'a bid cancelled',
      leads(3, BOB, 1000, 1),
      [{ ...B2, cancelled: true }, B1],
      START + 2 * MIN,
    );
    renderView(null, [cancelled], START);
    expect(screen.getAllByTestId('auction-bid').map((item) => item.textContent)).toEqual([
      'M*** €10.50 (cancelled)',
      'B*** €10.00',
    ]);
  });
});
