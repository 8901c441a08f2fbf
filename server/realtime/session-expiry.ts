// Browsers connect with clean session false (SPEC §9) and a client id per tab, so every tab ever opened
// leaves a session in the embedded broker's memory: its subscriptions, and the QoS 1/2 messages queued
// for it while it is away. Nothing is lost by forgetting a session nobody came back to for a day — the
// database is the mailbox and the browser refetches it on connect — so such sessions are swept.
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
 * Remembers when each non-clean session went away and forgets those not back within `ttlMs`.
 * `forgotten(id)` lets the broker free what else it keeps per client id.
 */
export function createSessionSweeper(
  store: SessionStore,
  options: { ttlMs?: number; now?: () => number; forgotten?: (clientId: string) => void } = {},
) {
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS;
  const now = options.now ?? Date.now;
  const awaySince = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;

  const sweeper = {
    connected(clientId: string) {
      awaySince.delete(clientId);
    },
    disconnected(clientId: string, clean: boolean) {
      if (!clean) awaySince.set(clientId, now());
    },
    /**
     * Forgets up to `count` of these sessions that are away (not connected), the longest away first;
     * answers how many. Connected ones are never forgotten.
     */
    async forgetOldestAway(clientIds: string[], count: number): Promise<number> {
      const away = clientIds
        .filter((id) => awaySince.has(id))
        .sort((a, b) => (awaySince.get(a) as number) - (awaySince.get(b) as number))
        .slice(0, count);
      for (const clientId of away) {
        awaySince.delete(clientId);
        await forgetSession(store, clientId);
        options.forgotten?.(clientId);
      }
      return away.length;
    },
    /** Forgets the sessions away for longer than the TTL; answers how many. */
    async sweep(): Promise<number> {
      const expired = [...awaySince].filter(([, since]) => now() - since >= ttlMs).map(([id]) => id);
      for (const clientId of expired) {
        awaySince.delete(clientId);
        await forgetSession(store, clientId);
        options.forgotten?.(clientId);
      }
      return expired.length;
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
