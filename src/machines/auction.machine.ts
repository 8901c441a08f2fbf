// The live view of one auction (issue 32, docs/auctions.md "The live view"): what a bidder or a watcher
// sees of it, as the server's topic `auctions/{id}` and the snapshot endpoint `GET …/live` tell it.
// Pure (ARCHITECTURE.md "Statecharts"): no invoke, no after, no spawn. Every effect (fetching a snapshot,
// retrying it, the outbid toast) is a named action with a no-op default that the adapter
// (src/features/auctions/live/auction-live.ts) provides; the topic's messages, the connection, the
// clock and the answers of the HTTP calls are events the adapter sends in, each stamped with the local
// time it arrived (`receivedAt`), so the machine needs no clock of its own.
//
// Flat, so that every transition is one candidate of one top-level state (see
// src/machines/testing/transition-coverage.ts):
// - loading       waiting for the first snapshot (a failure is retried by the adapter)
// - upcoming      scheduled, its start not passed on the server's clock
// - live          live; the viewer does not lead and has not been outbid (a watcher, or not bid yet)
// - liveLeading   live, and the viewer's bid leads
// - liveOutbid    live, the viewer has bid and someone else leads
// - reconnecting  the connection to the broker is lost: what is shown is the last known state, marked
//                 as such (never a stale price as current)
// - catchingUp    fetching a snapshot, after a reconnect or after a gap in the versions
// - ended         ended (won / lost / sold / reserve not met / no bids) or cancelled; see `liveStatus`
// An extension (the effective end moving later while live) is no state of its own: it can happen in
// each live state, so it is the transition that moves the end, recorded in `extendedAt` and shown as
// "Extended" (with the server's own `extended` flag).
//
// The version rule (contracts/auctions.ts, docs/auctions.md): every change raises `LiveState.version`
// by one, and a message carries the whole new state and the bids accepted since the previous message.
// A message applies when it is newer than what is shown; an older or equal one is a duplicate and is
// ignored (its bids still join the list: the viewer's own bid may have applied that version first).
// The next version always applies. A newer one applies when it is a coalesced message (the server
// sends at most one per 100 ms) whose bids follow on from the last bid known; otherwise messages were
// lost, and the view catches up from a snapshot. While it is not following the topic (loading,
// reconnecting, catching up) the newest state heard is kept (`pending`) and applied on top of the
// snapshot when it follows on from it; when it is further ahead the snapshot is behind the topic and
// is fetched again.
//
// The bidder's own bid (BID_ACCEPTED, the HTTP answer) carries the state too and may come before or
// after the topic's message about it: it is applied under the same rule (only as the next version: it
// has no bids to follow on with), and in any case tells that the viewer has bid (so a lead lost at
// once to a proxy bid shows as outbid).
//
// Where a newer state takes the view, in this order: ended; leading (the viewer leads); outbid (the
// viewer has bid and does not lead); live (started on the server's clock: the server may still say
// `scheduled` when the start passed without a bid); upcoming. In liveLeading and liveOutbid the viewer
// has bid, so only the first three remain. An accepted bid means bidding is open, so its answer never
// leads to upcoming (on the staff page, a watcher's view, a bid placed for a customer leads to live).
// An ended view still takes a newer state (a bid cancelled after the close may change the winner).
//
// The server's clock: every message says when it was sent (`serverTime`); the offset is the latest
// `serverTime − receivedAt`. Countdowns and "has it started" use the local clock plus the offset.
import { assign, setup } from 'xstate';
import type {
  AuctionUpdate,
  AuctionWatchers,
  BidResult,
  LiveSnapshot,
  LiveState,
  PublicBid,
} from '../../contracts/auctions';

export type AuctionViewState =
  | 'loading'
  | 'upcoming'
  | 'live'
  | 'liveLeading'
  | 'liveOutbid'
  | 'reconnecting'
  | 'catchingUp'
  | 'ended';

/** How many of the latest bids the view keeps (newest first). */
export const RECENT_BIDS_KEPT = 10;

/** What the topic (or the viewer's own bid) told while the view was not following it. */
export interface PendingState {
  /** The newest state heard. */
  state: LiveState;
  /** Every bid heard meanwhile (newest first). */
  bids: PublicBid[];
  outbidIds: string[];
}

export interface AuctionLiveContext {
  auctionId: string;
  /** The viewer's bidder id on this auction; null for a watcher (staff or anonymous). */
  bidderId: string | null;
  /** The last state applied; null until the first snapshot. */
  state: LiveState | null;
  /** The latest bids, newest first (at most RECENT_BIDS_KEPT). */
  recentBids: PublicBid[];
  /** The highest bid sequence known (0: none). */
  lastSequence: number;
  /** What was heard while loading, reconnecting or catching up (see the header). */
  pending: PendingState | null;
  /** The viewer has bid on this auction (their bid was accepted, they led, or were outbid). */
  hasBid: boolean;
  /** The server's clock minus the local one, ms (the latest measurement). */
  offsetMs: number;
  /** The watchers' count (from the states and the `watchers` messages). */
  watchers: number | null;
  /** Server time (epoch ms) when an extension was seen live; null when none was. */
  extendedAt: number | null;
  /** The broker connection, as the adapter last reported it. */
  connected: boolean;
  /** The last snapshot request failed (the adapter retries). */
  loadFailed: boolean;
}

export interface AuctionLiveInput {
  auctionId: string;
  bidderId: string | null;
}

export type AuctionLiveEvent =
  /** The answer of `GET …/live` (the first one, or a catch-up). */
  | { type: 'SNAPSHOT'; snapshot: LiveSnapshot; receivedAt: number }
  | { type: 'SNAPSHOT_FAILED' }
  /** A `state` message of the auction's topic. */
  | { type: 'UPDATE'; update: AuctionUpdate; receivedAt: number }
  /** A `watchers` message of the auction's topic (no version). */
  | { type: 'WATCHERS'; message: AuctionWatchers; receivedAt: number }
  | { type: 'DISCONNECTED' }
  | { type: 'CONNECTED' }
  /** The local clock (the adapter ticks every second). */
  | { type: 'TICK'; now: number }
  /** The HTTP answer of the viewer's own bid. */
  | { type: 'BID_ACCEPTED'; result: BidResult; receivedAt: number };

type EventOf<T extends AuctionLiveEvent['type']> = Extract<AuctionLiveEvent, { type: T }>;

// ---------------------------------------------------------------------------------------------------
// Pure helpers (exported for the view and the tests)

const time = (iso: string) => Date.parse(iso);

/** The server's clock now, from the local clock and the measured offset. */
export function serverNow(context: Pick<AuctionLiveContext, 'offsetMs'>, localNow: number): number {
  return localNow + context.offsetMs;
}

/** Milliseconds to the effective end on the server's clock (0 once passed; null before a snapshot). */
export function remainingMs(
  context: Pick<AuctionLiveContext, 'offsetMs' | 'state'>,
  localNow: number,
): number | null {
  if (!context.state) return null;
  return Math.max(0, time(context.state.effectiveEndAt) - serverNow(context, localNow));
}

/** Milliseconds to the start on the server's clock (0 once passed; null before a snapshot). */
export function untilStartMs(
  context: Pick<AuctionLiveContext, 'offsetMs' | 'state'>,
  localNow: number,
): number | null {
  if (!context.state) return null;
  return Math.max(0, time(context.state.startsAt) - serverNow(context, localNow));
}

const isOver = (state: LiveState) => state.status === 'ended' || state.status === 'cancelled';
const isRunning = (state: LiveState, atServer: number) =>
  state.status === 'live' || (state.status === 'scheduled' && atServer >= time(state.startsAt));

const maxSequence = (bids: readonly PublicBid[], floor: number) =>
  bids.reduce((max, bid) => Math.max(max, bid.sequence), floor);

/** `known` with `more` merged in by sequence (a bid heard again replaces its copy), newest first. */
export function mergeBids(known: readonly PublicBid[], more: readonly PublicBid[], keep = RECENT_BIDS_KEPT) {
  if (more.length === 0) return known as PublicBid[];
  const bySequence = new Map(known.map((bid) => [bid.sequence, bid]));
  for (const bid of more) bySequence.set(bid.sequence, bid);
  return [...bySequence.values()].sort((a, b) => b.sequence - a.sequence).slice(0, keep);
}

/** Whether the new bids (above `lastSequence`) continue it without a hole, and there is at least one. */
export function followsOn(bids: readonly PublicBid[], lastSequence: number): boolean {
  const fresh = [...new Set(bids.map((bid) => bid.sequence).filter((sequence) => sequence > lastSequence))];
  if (fresh.length === 0) return false;
  fresh.sort((a, b) => a - b);
  return fresh.every((sequence, index) => sequence === lastSequence + 1 + index);
}

/** What an applying event would make of the view (see `incomingOf`). */
interface Incoming {
  state: LiveState;
  /** The bids it brings (merged into the list). */
  bids: PublicBid[];
  outbidIds: string[];
  /** The highest bid sequence known after it. */
  lastSequence: number;
  /** The server's time when it was sent (measured, or from the offset). */
  atServer: number;
  /** The viewer's own bid. */
  ownBid: boolean;
  /** `serverTime − receivedAt`, when the event says when it was sent. */
  offsetMs: number | null;
  relation: 'duplicate' | 'next' | 'gap';
}

/** How a version (with the bids that came with it) relates to what is shown. */
function relationOf(
  context: AuctionLiveContext,
  version: number,
  bids: readonly PublicBid[] | null,
): Incoming['relation'] {
  const current = context.state?.version;
  if (current === undefined || version === current + 1) return 'next';
  if (version <= current) return 'duplicate';
  // Several changes in one (coalesced) message: fine when no bid is missing.
  return bids !== null && followsOn(bids, context.lastSequence) ? 'next' : 'gap';
}

/** The pending state after hearing `heard` (the newest state; every bid). */
function withHeard(context: AuctionLiveContext, heard: PendingState): PendingState {
  const pending = context.pending;
  const floor = Math.max(context.state?.version ?? -1, pending?.state.version ?? -1);
  const newer = heard.state.version > floor;
  return {
    state: newer || !pending ? heard.state : pending.state,
    bids: mergeBids(pending?.bids ?? [], heard.bids, Number.POSITIVE_INFINITY),
    outbidIds: [...new Set([...(pending?.outbidIds ?? []), ...heard.outbidIds])],
  };
}

/** The pending state applies on top of this snapshot (its next version, or following on from it). */
function pendingFollows(pending: PendingState | null, snapshot: LiveSnapshot): pending is PendingState {
  if (!pending || pending.state.version <= snapshot.state.version) return false;
  if (pending.state.version === snapshot.state.version + 1) return true;
  return followsOn(pending.bids, maxSequence(snapshot.recentBids, 0));
}

/**
 * What an event makes of the view. SNAPSHOT: the snapshot, with the pending state on top when it
 * follows on. UPDATE: the state it carries, related to the one shown. BID_ACCEPTED: the state it
 * carries; a duplicate leaves the current state (but still tells that the viewer has bid).
 */
function incomingOf(context: AuctionLiveContext, event: AuctionLiveEvent): Incoming | null {
  switch (event.type) {
    case 'SNAPSHOT': {
      const { snapshot, receivedAt } = event;
      const sentAt = time(snapshot.serverTime);
      const pending = context.pending;
      const onTop = pendingFollows(pending, snapshot);
      const bids = onTop ? mergeBids(snapshot.recentBids, pending.bids) : snapshot.recentBids;
      return {
        state: onTop ? pending.state : snapshot.state,
        bids,
        outbidIds: onTop ? pending.outbidIds : [],
        lastSequence: maxSequence(onTop ? pending.bids : [], maxSequence(snapshot.recentBids, 0)),
        atServer: sentAt,
        ownBid: false,
        offsetMs: sentAt - receivedAt,
        relation: 'next',
      };
    }
    case 'UPDATE': {
      const { update, receivedAt } = event;
      const sentAt = time(update.serverTime);
      return {
        state: update.state,
        bids: update.bids,
        outbidIds: update.outbidIds,
        lastSequence: maxSequence(update.bids, context.lastSequence),
        atServer: sentAt,
        ownBid: false,
        offsetMs: sentAt - receivedAt,
        relation: relationOf(context, update.state.version, update.bids),
      };
    }
    case 'BID_ACCEPTED': {
      const { result, receivedAt } = event;
      const relation = relationOf(context, result.state.version, null);
      return {
        state: relation === 'duplicate' && context.state ? context.state : result.state,
        bids: [],
        outbidIds: [],
        lastSequence: Math.max(context.lastSequence, result.sequence),
        atServer: receivedAt + context.offsetMs,
        ownBid: true,
        offsetMs: null,
        relation,
      };
    }
    default:
      return null;
  }
}

function hasBidAfter(
  context: AuctionLiveContext,
  heard: { state: LiveState; outbidIds: readonly string[]; ownBid: boolean },
) {
  const { bidderId } = context;
  if (bidderId === null) return false;
  return (
    context.hasBid || heard.ownBid || heard.outbidIds.includes(bidderId) || heard.state.leaderId === bidderId
  );
}

/** Where a state takes the view (the routing guards below, in their order). */
export function viewOf(
  state: LiveState,
  bidderId: string | null,
  hasBid: boolean,
  atServer: number,
): 'upcoming' | 'live' | 'liveLeading' | 'liveOutbid' | 'ended' {
  if (isOver(state)) return 'ended';
  if (bidderId !== null && state.leaderId === bidderId) return 'liveLeading';
  if (bidderId !== null && hasBid) return 'liveOutbid';
  return isRunning(state, atServer) ? 'live' : 'upcoming';
}

function targetOf(context: AuctionLiveContext, event: AuctionLiveEvent) {
  const incoming = incomingOf(context, event);
  if (!incoming) return null;
  return viewOf(incoming.state, context.bidderId, hasBidAfter(context, incoming), incoming.atServer);
}

const wasLeading = (context: AuctionLiveContext) =>
  context.bidderId !== null && context.state?.leaderId === context.bidderId;

// ---------------------------------------------------------------------------------------------------
// Selectors for the view

/** The snapshot's parts the selectors read (a machine snapshot, or anything shaped like one). */
export interface AuctionViewSnapshot {
  value: unknown;
  context: AuctionLiveContext;
}

export type LiveStatus =
  | 'loading'
  | 'upcoming'
  | 'live'
  | 'leading'
  | 'outbid'
  | 'reconnecting'
  | 'catchingUp'
  | 'won'
  | 'lost'
  | 'sold'
  | 'reserveNotMet'
  | 'noBids'
  | 'cancelled';

/** The status as words (a cancelled auction adds its reason, see `liveStatusText`). */
export const LIVE_STATUS_TEXT: Readonly<Record<LiveStatus, string>> = Object.freeze({
  loading: 'Loading…',
  upcoming: 'Upcoming',
  live: 'Live',
  leading: 'You are leading',
  outbid: 'You have been outbid',
  reconnecting: 'Reconnecting…',
  catchingUp: 'Catching up…',
  won: 'You won',
  lost: 'You did not win',
  sold: 'Sold',
  reserveNotMet: 'Reserve not met',
  noBids: 'No bids',
  cancelled: 'Cancelled',
});

export const EXTENDED_TEXT = 'Extended';

export function liveStatus(snapshot: AuctionViewSnapshot): LiveStatus {
  const { context } = snapshot;
  const value = snapshot.value as AuctionViewState;
  switch (value) {
    case 'liveLeading':
      return 'leading';
    case 'liveOutbid':
      return 'outbid';
    case 'ended': {
      const state = context.state;
      if (!state || state.status === 'cancelled') return 'cancelled';
      if (state.outcome === 'reserve_not_met') return 'reserveNotMet';
      if (state.outcome === 'no_bids' || state.leaderId === null) return 'noBids';
      if (context.bidderId !== null && state.leaderId === context.bidderId) return 'won';
      return context.bidderId !== null && context.hasBid ? 'lost' : 'sold';
    }
    default:
      return value;
  }
}

/** "Cancelled: <reason>" for a cancelled auction; otherwise the status's words. */
export function liveStatusText(snapshot: AuctionViewSnapshot): string {
  const status = liveStatus(snapshot);
  const reason = snapshot.context.state?.cancelReason;
  return status === 'cancelled' && reason
    ? `${LIVE_STATUS_TEXT.cancelled}: ${reason}`
    : LIVE_STATUS_TEXT[status];
}

const CURRENT: ReadonlySet<unknown> = new Set(['upcoming', 'live', 'liveLeading', 'liveOutbid', 'ended']);

/**
 * Whether what is shown is the current state. False while loading, reconnecting or catching up: the
 * view greys the last known price and says so (never a stale price as current).
 */
export const isCurrent = (snapshot: AuctionViewSnapshot): boolean => CURRENT.has(snapshot.value);

const LIVE: ReadonlySet<unknown> = new Set(['live', 'liveLeading', 'liveOutbid']);

/** Bidding is open as far as this view knows (live and current). */
export const isLive = (snapshot: AuctionViewSnapshot): boolean => LIVE.has(snapshot.value);

/** The end has been moved later by a late bid (the server's flag, or an extension seen live). */
export function isExtended(snapshot: AuctionViewSnapshot): boolean {
  const { state, extendedAt } = snapshot.context;
  if (!state || isOver(state)) return false;
  return state.extended || extendedAt !== null;
}

// ---------------------------------------------------------------------------------------------------
// The machine

type ActionArgs = { context: AuctionLiveContext; event: AuctionLiveEvent };

const announceOutbid = {
  type: 'announceOutbid',
  params: ({ context }: ActionArgs) => ({ state: context.state as LiveState }),
} as const;

/** Where a newer state takes the view, in this order (the guards read what the event makes of it). */
const toEnded = { guard: 'endsAuction', target: 'ended', actions: 'apply' } as const;
const toLeading = { guard: 'leads', target: 'liveLeading', actions: 'apply' } as const;
const toOutbid = { guard: 'isOutbid', target: 'liveOutbid', actions: 'apply' } as const;
const toLive = { guard: 'hasStarted', target: 'live', actions: 'apply' } as const;
const toUpcoming = { target: 'upcoming', actions: 'apply' } as const;
/** From a view where the viewer may not have bid (or is a watcher): every place. */
const routes = [toEnded, toLeading, toOutbid, toLive, toUpcoming] as const;

const duplicate = { guard: 'isDuplicate', actions: 'mergeBids' } as const;
const catchUp = { guard: 'isGap', target: 'catchingUp', actions: 'remember' } as const;

/** Upcoming or live: the viewer has not bid (or is a watcher, whose staff may bid for a customer). */
const open = {
  UPDATE: [duplicate, catchUp, ...routes],
  // A duplicate still tells that the viewer has bid (the topic's message came first): re-routed. An
  // accepted bid means bidding is open, whatever the clock says: live, for a watcher.
  BID_ACCEPTED: [catchUp, toEnded, toLeading, toOutbid, { target: 'live', actions: 'apply' }],
  WATCHERS: { actions: 'countWatchers' },
  DISCONNECTED: { target: 'reconnecting', actions: 'disconnect' },
} as const;

/**
 * Leading or outbid: the viewer has bid, so a live auction they do not lead has outbid them. From
 * leading, that is announced (the toast).
 */
const bidding = (announce: boolean) => {
  const outbid = announce
    ? ({ target: 'liveOutbid', actions: ['apply', announceOutbid] } as const)
    : ({ target: 'liveOutbid', actions: 'apply' } as const);
  return {
    UPDATE: [duplicate, catchUp, toEnded, toLeading, outbid],
    BID_ACCEPTED: [catchUp, toEnded, toLeading, outbid],
    WATCHERS: { actions: 'countWatchers' },
    DISCONNECTED: { target: 'reconnecting', actions: 'disconnect' },
  } as const;
};

/** What a view not following the topic does with the topic and the viewer's bids: keeps them. */
const keepingPending = {
  UPDATE: { actions: 'remember' },
  BID_ACCEPTED: { actions: 'remember' },
  WATCHERS: { actions: 'countWatchers' },
} as const;

export const auctionMachine = setup({
  types: {
    context: {} as AuctionLiveContext,
    events: {} as AuctionLiveEvent,
    input: {} as AuctionLiveInput,
  },
  actions: {
    // Context only (pure).
    /** Applies what an event makes of the view (see `incomingOf`); detects an extension. */
    apply: assign(({ context, event }) => {
      const incoming = incomingOf(context, event);
      if (!incoming) return {};
      const { state } = incoming;
      const previous = context.state;
      let extendedAt = context.extendedAt;
      if (previous && previous !== state) {
        const moved = time(state.effectiveEndAt) - time(previous.effectiveEndAt);
        if (moved > 0 && isRunning(previous, incoming.atServer) && !isOver(state))
          extendedAt = incoming.atServer;
        else if (moved < 0) extendedAt = null;
      }
      const snapshot = event.type === 'SNAPSHOT';
      // A pending state still ahead of the snapshot stays (shown after the reconnect's catch-up).
      const pending =
        snapshot && context.pending && context.pending.state.version > state.version ? context.pending : null;
      return {
        state,
        recentBids: snapshot ? mergeBids([], incoming.bids) : mergeBids(context.recentBids, incoming.bids),
        lastSequence: incoming.lastSequence,
        pending: snapshot ? pending : context.pending,
        hasBid: hasBidAfter(context, incoming),
        offsetMs: incoming.offsetMs ?? context.offsetMs,
        watchers: previous === state ? context.watchers : state.watchers,
        extendedAt,
        loadFailed: false,
      };
    }),
    /** A duplicate's bids still join the list (the viewer's own bid may have applied its version). */
    mergeBids: assign(({ context, event }) => {
      const { update, receivedAt } = event as EventOf<'UPDATE'>;
      return {
        recentBids: mergeBids(context.recentBids, update.bids),
        lastSequence: maxSequence(update.bids, context.lastSequence),
        offsetMs: time(update.serverTime) - receivedAt,
      };
    }),
    /** Keeps what was heard while not following the topic (and that the viewer has bid). */
    remember: assign(({ context, event }) => {
      if (event.type === 'UPDATE') {
        const { update, receivedAt } = event;
        const heard = { state: update.state, bids: update.bids, outbidIds: update.outbidIds };
        return {
          pending: withHeard(context, heard),
          hasBid: hasBidAfter(context, { ...heard, ownBid: false }),
          offsetMs: time(update.serverTime) - receivedAt,
        };
      }
      const { result } = event as EventOf<'BID_ACCEPTED'>;
      const heard = { state: result.state, bids: [], outbidIds: [] };
      return {
        pending: withHeard(context, heard),
        hasBid: hasBidAfter(context, { ...heard, ownBid: true }),
      };
    }),
    countWatchers: assign(({ event }) => {
      const { message, receivedAt } = event as EventOf<'WATCHERS'>;
      return { watchers: message.watchers, offsetMs: time(message.serverTime) - receivedAt };
    }),
    disconnect: assign({ connected: false }),
    connect: assign({ connected: true }),
    markLoadFailed: assign({ loadFailed: true }),
    // Effects: no-ops here, provided by the adapter with `auctionMachine.provide({ actions })`.
    /** Fetch `GET …/live`; answer with SNAPSHOT or SNAPSHOT_FAILED (a newer request supersedes). */
    fetchSnapshot: () => {},
    /** Fetch again after a pause (the adapter's timer, with back-off). */
    retrySnapshot: () => {},
    /** The viewer lost the lead: the toast. */
    announceOutbid: (_, _params: { state: LiveState }) => {},
  },
  guards: {
    isDuplicate: ({ context, event }) => incomingOf(context, event)?.relation === 'duplicate',
    isGap: ({ context, event }) => incomingOf(context, event)?.relation === 'gap',
    /** Only in `ended`: a newer state (a bid cancelled after the close). */
    isNewer: ({ context, event }) => incomingOf(context, event)?.relation === 'next',
    endsAuction: ({ context, event }) => targetOf(context, event) === 'ended',
    leads: ({ context, event }) => targetOf(context, event) === 'liveLeading',
    isOutbid: ({ context, event }) => targetOf(context, event) === 'liveOutbid',
    /** Caught up to find the lead lost meanwhile: the toast too. */
    outbidFromLead: ({ context, event }) => wasLeading(context) && targetOf(context, event) === 'liveOutbid',
    hasStarted: ({ context, event }) => targetOf(context, event) === 'live',
    /**
     * The snapshot is older than the state shown, or than one the topic already told and cannot be
     * completed by it: fetch again (never show an older state as the current one).
     */
    isBehind: ({ context, event }) => {
      const { snapshot } = event as EventOf<'SNAPSHOT'>;
      const { pending } = context;
      if (context.state && snapshot.state.version < context.state.version) return true;
      return (
        pending !== null &&
        pending.state.version > snapshot.state.version &&
        !pendingFollows(pending, snapshot)
      );
    },
    isDisconnected: ({ context }) => !context.connected,
    /** The server may still say `scheduled` when the start passed without a bid: the clock decides. */
    startedByClock: ({ context, event }) => {
      const { now } = event as EventOf<'TICK'>;
      return context.state !== null && isRunning(context.state, serverNow(context, now));
    },
  },
}).createMachine({
  id: 'auction',
  context: ({ input }) => ({
    auctionId: input.auctionId,
    bidderId: input.bidderId,
    state: null,
    recentBids: [],
    lastSequence: 0,
    pending: null,
    hasBid: false,
    offsetMs: 0,
    watchers: null,
    extendedAt: null,
    connected: true,
    loadFailed: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      entry: 'fetchSnapshot',
      on: {
        SNAPSHOT: [
          // Shown, but as the last known state until the connection is back.
          { guard: 'isDisconnected', target: 'reconnecting', actions: 'apply' },
          { guard: 'isBehind', actions: 'fetchSnapshot' },
          ...routes,
        ],
        SNAPSHOT_FAILED: { actions: ['markLoadFailed', 'retrySnapshot'] },
        ...keepingPending,
        DISCONNECTED: { actions: 'disconnect' },
        CONNECTED: { actions: 'connect' },
      },
    },
    upcoming: {
      on: {
        ...open,
        TICK: { guard: 'startedByClock', target: 'live' },
      },
    },
    live: { on: open },
    liveLeading: { on: bidding(true) },
    liveOutbid: { on: bidding(false) },
    reconnecting: {
      on: {
        ...keepingPending,
        CONNECTED: { target: 'catchingUp', actions: 'connect' },
      },
    },
    catchingUp: {
      entry: 'fetchSnapshot',
      on: {
        SNAPSHOT: [
          { guard: 'isBehind', actions: 'fetchSnapshot' },
          { guard: 'outbidFromLead', target: 'liveOutbid', actions: ['apply', announceOutbid] },
          ...routes,
        ],
        SNAPSHOT_FAILED: { actions: ['markLoadFailed', 'retrySnapshot'] },
        ...keepingPending,
        DISCONNECTED: { target: 'reconnecting', actions: 'disconnect' },
      },
    },
    ended: {
      on: {
        UPDATE: { guard: 'isNewer', actions: 'apply' },
        WATCHERS: { actions: 'countWatchers' },
      },
    },
  },
});

export type AuctionMachine = typeof auctionMachine;
