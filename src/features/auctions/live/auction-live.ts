// The adapter of the auction statechart (src/machines/auction.machine.ts): the machine decides, this
// module does. It fetches snapshots (the newest request wins: an older answer is dropped), retries a
// failed one on a timer with back-off, turns the topic's messages into events (a payload that does not
// fit `auctionMessageSchema`, or is about another auction, is dropped), reports the connection, ticks
// the clock every second and calls `onOutbid` when the machine announces it. Every event is stamped
// with the local time it arrived (`now()`), which the machine compares with the server's time.
//
// `useAuctionLive` runs it for a page: the snapshot, and the local clock refreshed every second for
// the countdown.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import {
  auctionMessageSchema,
  auctionTopic,
  type BidResult,
  type LiveSnapshot,
  type LiveState,
  liveSnapshotSchema,
} from '../../../../contracts/auctions';
import { formatMinor } from '../../../../contracts/domain/currency';
import { type AuctionMachine, auctionMachine } from '../../../machines/auction.machine';
import { notify } from '../../../ui/notify';

export type AuctionLiveSnapshot = SnapshotFrom<AuctionMachine>;

export interface AuctionLiveDeps {
  auctionId: string;
  /** The viewer's bidder id on this auction; null for a watcher. */
  bidderId: string | null;
  /** `GET …/live` (staff) or `GET …/public/{token}/live` (the public page). */
  fetchSnapshot(): Promise<LiveSnapshot>;
  /** Listens to a broker topic; answers the unsubscribe. */
  subscribe(topic: string, onMessage: (payload: unknown) => void): () => void;
  /**
   * Listens to the broker connection: the listener is called on every change (and may be called at
   * once with the current one); answers the unsubscribe.
   */
  onConnection(listener: (connected: boolean) => void): () => void;
  /** The local clock, epoch ms. */
  now(): number;
  /** The viewer lost the lead (the page's toast). */
  onOutbid?(state: LiveState): void;
  /** Waits before each retry of a failed snapshot, the last one repeating. */
  retryDelaysMs?: readonly number[];
}

export interface AuctionLive {
  actor: Actor<AuctionMachine>;
  stop(): void;
  /** The answer of the viewer's own bid (the state it made). */
  bidAccepted(result: BidResult): void;
}

export const SNAPSHOT_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 5000, 10_000, 30_000];
export const TICK_MS = 1000;

/** A broker payload as an auction message, or null (MQTT.js hands bytes; the fakes hand objects). */
export function parseAuctionMessage(payload: unknown) {
  let value = payload;
  try {
    if (typeof payload === 'string') value = JSON.parse(payload);
    // `ArrayBuffer.isView`, not `instanceof`: MQTT.js's Buffer may come from another realm.
    else if (ArrayBuffer.isView(payload)) value = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return null;
  }
  const parsed = auctionMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function startAuctionLive(deps: AuctionLiveDeps): AuctionLive {
  const { auctionId } = deps;
  const delays = deps.retryDelaysMs?.length ? deps.retryDelaysMs : SNAPSHOT_RETRY_DELAYS_MS;
  let stopped = false;
  /** The newest snapshot request: answers of older ones are dropped. */
  let request = 0;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const clearRetry = () => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  };

  function fetchSnapshot() {
    clearRetry();
    const mine = ++request;
    let answer: Promise<LiveSnapshot>;
    try {
      answer = Promise.resolve(deps.fetchSnapshot());
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer
      .then((value) => liveSnapshotSchema.parse(value))
      .then(
        (snapshot) => {
          if (stopped || mine !== request) return;
          failures = 0;
          actor.send({ type: 'SNAPSHOT', snapshot, receivedAt: deps.now() });
        },
        () => {
          if (stopped || mine !== request) return;
          failures += 1;
          actor.send({ type: 'SNAPSHOT_FAILED' });
        },
      );
  }

  function retrySnapshot() {
    clearRetry();
    const delay = delays[Math.min(Math.max(failures, 1), delays.length) - 1] ?? TICK_MS;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      const value = actor.getSnapshot().value;
      // Meanwhile the connection may have dropped: the reconnect fetches for itself.
      if (!stopped && (value === 'loading' || value === 'catchingUp')) fetchSnapshot();
    }, delay);
  }

  const actor = createActor(
    auctionMachine.provide({
      actions: {
        fetchSnapshot,
        retrySnapshot,
        announceOutbid: (_, params) => deps.onOutbid?.(params.state),
      },
    }),
    { input: { auctionId, bidderId: deps.bidderId } },
  );
  actor.start();

  const unsubscribe = deps.subscribe(auctionTopic(auctionId), (payload) => {
    if (stopped) return;
    const message = parseAuctionMessage(payload);
    if (!message) return;
    const receivedAt = deps.now();
    if (message.type === 'state') {
      if (message.state.auctionId === auctionId) actor.send({ type: 'UPDATE', update: message, receivedAt });
    } else if (message.auctionId === auctionId) {
      actor.send({ type: 'WATCHERS', message, receivedAt });
    }
  });
  const offConnection = deps.onConnection((connected) => {
    if (!stopped) actor.send({ type: connected ? 'CONNECTED' : 'DISCONNECTED' });
  });
  const ticker = setInterval(() => {
    if (!stopped) actor.send({ type: 'TICK', now: deps.now() });
  }, TICK_MS);

  return {
    actor,
    bidAccepted(result) {
      if (!stopped) actor.send({ type: 'BID_ACCEPTED', result, receivedAt: deps.now() });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearRetry();
      clearInterval(ticker);
      unsubscribe();
      offConnection();
      actor.stop();
    },
  };
}

/** The default outbid toast (a page may pass its own `onOutbid`). */
export function toastOutbid(state: LiveState): void {
  notify({
    type: 'warning',
    title: 'You have been outbid',
    description:
      state.priceMinor === null
        ? undefined
        : `The price is now ${formatMinor(state.priceMinor, state.currency)}. Bid at least ${formatMinor(state.minimumBidMinor, state.currency)} to lead again.`,
  });
}

export interface AuctionLiveHandle {
  snapshot: AuctionLiveSnapshot;
  /** The local clock, refreshed every second (for the countdown). */
  now: number;
  bidAccepted(result: BidResult): void;
}

/**
 * Runs the live view of one auction while the component is mounted. It starts again (a new snapshot,
 * a new subscription) when the auction, the bidder, `subscribe` or `onConnection` change, so those two
 * must be stable (memoized) until the connection they stand for changes (e.g. the socket opened);
 * `fetchSnapshot`, `now` and `onOutbid` are read when used and need not be. Without `onOutbid` the
 * outbid bidder gets the default toast.
 */
export function useAuctionLive(deps: AuctionLiveDeps): AuctionLiveHandle {
  const latest = useRef(deps);
  latest.current = deps;
  const { auctionId, bidderId, subscribe: subscribeTopic, onConnection } = deps;
  const [live, setLive] = useState<AuctionLive | null>(null);

  useEffect(() => {
    const read = () => latest.current;
    const handle = startAuctionLive({
      auctionId,
      bidderId,
      fetchSnapshot: () => read().fetchSnapshot(),
      subscribe: subscribeTopic,
      onConnection,
      now: () => read().now(),
      onOutbid: (state) => (read().onOutbid ?? toastOutbid)(state),
      retryDelaysMs: read().retryDelaysMs,
    });
    setLive(handle);
    return () => {
      handle.stop();
      setLive(null);
    };
  }, [auctionId, bidderId, subscribeTopic, onConnection]);

  // Before the effect ran: the machine's first snapshot ("Loading…"), without starting anything.
  const initial = useMemo(
    () => createActor(auctionMachine, { input: { auctionId, bidderId } }).getSnapshot(),
    [auctionId, bidderId],
  );
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!live) return () => {};
      const subscription = live.actor.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    [live],
  );
  const snapshot = useSyncExternalStore(subscribe, () => live?.actor.getSnapshot() ?? initial);

  const [now, setNow] = useState(() => deps.now());
  useEffect(() => {
    setNow(latest.current.now());
    const timer = setInterval(() => setNow(latest.current.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  return {
    snapshot,
    now,
    bidAccepted: (result) => live?.bidAccepted(result),
  };
}
