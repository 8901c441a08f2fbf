// Browsers connect with clean session false (SPEC §9) and a client id per tab, so every tab ever opened
// leaves a session in the embedded broker's memory: its subscriptions, and the QoS 1/2 messages queued
// for it while it is away. Nothing is lost by forgetting a session nobody came back to for a day — the
// database is the mailbox and the browser refetches it on connect — so such sessions are swept.
// (With REDIS_URL the sessions and when each went away live in Redis, shared by every instance.)
import type { Readable } from 'node:stream';

/** The slice of aedes-persistence (promise form, no callback) that forgetting a session needs. */
export interface SessionStore {
  cleanSubscriptions(client: { id: string }): Promise<unknown>;
  outgoingStream(client: { id: string }): Readable;
  outgoingClearMessageId(client: { id: string }, packet: { messageId?: number }): Promise<unknown>;
}

export const SESSION_TTL_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 3600 * 1000;

/** Drops a session's subscriptions (nothing more is queued for it) and the messages already queued. */
export async function forgetSession(store: SessionStore, clientId: string): Promise<void> {
  const client = { id: clientId };
  await store.cleanSubscriptions(client);
  const queued: { messageId?: number }[] = [];
  for await (const packet of store.outgoingStream(client)) queued.push(packet as { messageId?: number });
  for (const packet of queued) await store.outgoingClearMessageId(client, packet);
}

/**
 * When each kept session went away, per client id. In memory for one instance; in Redis for several
 * (broker-cluster.ts), since a tab that leaves one instance may come back on another.
 */
export interface AwayStore {
  set(clientId: string, since: number): Promise<void>;
  /** Answers whether it was there: of several instances sweeping at once, only that one forgets it. */
  remove(clientId: string): Promise<boolean>;
  /** When each of these went away (those connected are not in the answer). */
  since(clientIds: string[]): Promise<Map<string, number>>;
  awayBefore(time: number): Promise<string[]>;
}

export function createMemoryAwayStore(): AwayStore {
  const awaySince = new Map<string, number>();
  return {
    set: async (clientId, since) => void awaySince.set(clientId, since),
    remove: async (clientId) => awaySince.delete(clientId),
    since: async (clientIds) =>
      new Map(clientIds.flatMap((id) => (awaySince.has(id) ? [[id, awaySince.get(id) as number]] : []))),
    awayBefore: async (time) => [...awaySince].filter(([, since]) => since <= time).map(([id]) => id),
  };
}

/**
 * Remembers when each non-clean session went away and forgets those not back within `ttlMs`.
 * `forgotten(id)` lets the broker free what else it keeps per client id.
 */
export function createSessionSweeper(
  store: SessionStore,
  options: {
    ttlMs?: number;
    now?: () => number;
    forgotten?: (clientId: string) => unknown;
    away?: AwayStore;
  } = {},
) {
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS;
  const now = options.now ?? Date.now;
  const away = options.away ?? createMemoryAwayStore();
  let timer: NodeJS.Timeout | null = null;

  const forget = async (clientIds: string[]) => {
    let count = 0;
    for (const clientId of clientIds) {
      if (!(await away.remove(clientId))) continue; // back meanwhile, or another instance forgot it
      await forgetSession(store, clientId);
      await options.forgotten?.(clientId);
      count++;
    }
    return count;
  };

  const sweeper = {
    connected(clientId: string) {
      void away.remove(clientId).catch(() => {});
    },
    disconnected(clientId: string, clean: boolean) {
      if (!clean) void away.set(clientId, now()).catch(() => {});
    },
    /**
     * Forgets up to `count` of these sessions that are away (not connected), the longest away first;
     * answers how many. Connected ones are never forgotten.
     */
    async forgetOldestAway(clientIds: string[], count: number): Promise<number> {
      const since = await away.since(clientIds);
      const oldest = [...since]
        .sort(([, a], [, b]) => a - b)
        .slice(0, count)
        .map(([id]) => id);
      return forget(oldest);
    },
    /** Forgets the sessions away for longer than the TTL; answers how many. */
    async sweep(): Promise<number> {
      return forget(await away.awayBefore(now() - ttlMs));
    },
    start() {
      timer ??= setInterval(() => void sweeper.sweep().catch(() => {}), SWEEP_EVERY_MS).unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return sweeper;
}
