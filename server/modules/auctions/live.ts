// What watchers see (docs/auctions.md "Realtime"): after every change is committed, the auction's new
// state is published on its public topic `auctions/{id}` (only the server publishes there; the broker's
// ACL refuses anyone else). A message carries the whole state, so a view never needs the ones before
// it to be right; the bids it reports let the view's list of bids follow. Under heavy bidding an
// auction's messages are coalesced: at most one per `coalesceMs` (leading edge, so a lone bid goes out
// at once), carrying every bid since the last one.

import type { FastifyBaseLogger } from 'fastify';
import { type AuctionUpdate, auctionTopic, type PublicBid } from '../../../contracts/auctions';
import type { Broker } from '../../realtime/broker-transport';
import { type AuctionRow, liveStateOf } from './bids';

export interface AuctionPublisher {
  /** A committed change: `bid` when an accepted bid made it, `outbidId` when it took the lead from someone. */
  changed(row: AuctionRow, change: { bid?: PublicBid; outbidId?: string | null; now: Date }): void;
  /** Sends whatever is waiting (tests, shutdown). */
  flush(): Promise<void>;
  stop(): void;
}

interface Pending {
  row: AuctionRow;
  bids: PublicBid[];
  outbidIds: Set<string>;
  now: Date;
  timer: NodeJS.Timeout | null;
  lastSentAt: number;
}

export function createAuctionPublisher(deps: {
  broker: Pick<Broker, 'publish'>;
  watchers(auctionId: string): number;
  log: FastifyBaseLogger;
  coalesceMs?: number;
}): AuctionPublisher {
  const coalesceMs = deps.coalesceMs ?? 100;
  const pending = new Map<string, Pending>();
  const sending = new Set<Promise<void>>();

  function send(id: string) {
    const entry = pending.get(id);
    if (!entry) return;
    entry.timer = null;
    entry.lastSentAt = Date.now();
    const message: AuctionUpdate = {
      type: 'state',
      state: liveStateOf(entry.row, entry.now.getTime(), deps.watchers(id)),
      bids: entry.bids.sort((a, b) => a.sequence - b.sequence),
      outbidIds: [...entry.outbidIds],
      serverTime: new Date().toISOString(),
    };
    entry.bids = [];
    entry.outbidIds = new Set();
    const sent = deps.broker
      .publish(auctionTopic(id), message, { qos: 0 })
      .catch((error: unknown) => deps.log.warn({ err: error, auctionId: id }, 'auctions: publish failed'))
      .finally(() => sending.delete(sent));
    sending.add(sent);
  }

  /** Forgets auctions not published to for a minute (their next change goes out at once anyway). */
  function prune() {
    const idle = Date.now() - 60_000;
    for (const [id, entry] of pending) if (!entry.timer && entry.lastSentAt < idle) pending.delete(id);
  }

  return {
    changed(row, change) {
      if (pending.size > 1000) prune();
      const entry = pending.get(row.id) ?? {
        row,
        bids: [],
        outbidIds: new Set<string>(),
        now: change.now,
        timer: null,
        lastSentAt: 0,
      };
      pending.set(row.id, entry);
      // Transactions commit in lock order, but their answers may reach here out of it: keep the newest.
      if (row.version >= entry.row.version) {
        entry.row = row;
        entry.now = change.now;
      }
      if (change.bid) entry.bids.push(change.bid);
      if (change.outbidId) entry.outbidIds.add(change.outbidId);
      if (entry.timer) return;
      const wait = entry.lastSentAt + coalesceMs - Date.now();
      if (wait <= 0) send(row.id);
      else entry.timer = setTimeout(() => send(row.id), wait);
    },
    async flush() {
      for (const [id, entry] of pending) {
        if (entry.timer) {
          clearTimeout(entry.timer);
          send(id);
        }
      }
      await Promise.all([...sending]);
    },
    stop() {
      for (const entry of pending.values()) if (entry.timer) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}
