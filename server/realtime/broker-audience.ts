// How many connections listen to a topic (an auction's watchers), across instances. Each instance
// counts its own subscriptions (a connection counts once per topic); with Redis every instance writes its
// count into the topic's hash every `syncMs` (field: the instance, value: count and expiry), and reads
// the sum. An instance that died stops refreshing its field, which then expires and is left out.
// Counts are for display ("12 watching"); at most `syncMs` behind.
import type { Redis } from 'ioredis';

export interface AudienceStore {
  /** The connection started or stopped listening to `topic`. */
  joined(topic: string, connectionId: string): void;
  left(topic: string, connectionId: string): void;
  /** The connection ended: it left every topic. */
  gone(connectionId: string): void;
  /** The audience of `topic` as last known (this instance alone without Redis). */
  count(topic: string): number;
  /** Called with the topics whose count changed (at most once per sync). */
  onChange(listener: (topics: string[]) => void): void;
  stop(): void;
}

/** Only topics matching `counted` are counted (the others need no audience). */
export function createAudienceStore(options: {
  counted: (topic: string) => boolean;
  redis?: Redis;
  instanceId: string;
  syncMs?: number;
}): AudienceStore {
  const syncMs = options.syncMs ?? 1000;
  const local = new Map<string, Set<string>>();
  const byConnection = new Map<string, Set<string>>();
  const totals = new Map<string, number>();
  const dirty = new Set<string>();
  const listeners: ((topics: string[]) => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const key = (topic: string) => `audience:${topic}`;

  function schedule() {
    if (!timer) timer = setTimeout(sync, options.redis ? syncMs : Math.min(syncMs, 250)).unref();
  }

  async function sync() {
    timer = undefined;
    const topics = new Set([...dirty, ...(options.redis ? local.keys() : [])]);
    dirty.clear();
    const changed: string[] = [];
    for (const topic of topics) {
      const mine = local.get(topic)?.size ?? 0;
      let total = mine;
      if (options.redis) {
        const now = Date.now();
        try {
          const field = options.instanceId;
          if (mine > 0) await options.redis.hset(key(topic), field, `${mine}:${now + 3 * syncMs}`);
          else await options.redis.hdel(key(topic), field);
          await options.redis.pexpire(key(topic), 10 * syncMs);
          const all = await options.redis.hgetall(key(topic));
          total = 0;
          for (const [instance, value] of Object.entries(all)) {
            const [count, expires] = value.split(':').map(Number);
            if ((expires ?? 0) < now) void options.redis.hdel(key(topic), instance).catch(() => {});
            else total += count ?? 0;
          }
        } catch {
          total = Math.max(mine, totals.get(topic) ?? 0);
        }
      }
      if (mine === 0) local.delete(topic);
      if (totals.get(topic) !== total) changed.push(topic);
      if (total === 0) totals.delete(topic);
      else totals.set(topic, total);
    }
    if (changed.length > 0) for (const listener of listeners) listener(changed);
    if (local.size > 0 && options.redis) schedule();
  }

  return {
    joined(topic, connectionId) {
      if (!options.counted(topic)) return;
      const set = local.get(topic) ?? new Set();
      local.set(topic, set);
      if (set.has(connectionId)) return;
      set.add(connectionId);
      const topics = byConnection.get(connectionId) ?? new Set();
      byConnection.set(connectionId, topics.add(topic));
      dirty.add(topic);
      schedule();
    },
    left(topic, connectionId) {
      if (!local.get(topic)?.delete(connectionId)) return;
      byConnection.get(connectionId)?.delete(topic);
      dirty.add(topic);
      schedule();
    },
    gone(connectionId) {
      for (const topic of byConnection.get(connectionId) ?? []) {
        local.get(topic)?.delete(connectionId);
        dirty.add(topic);
      }
      byConnection.delete(connectionId);
      schedule();
    },
    count: (topic) => totals.get(topic) ?? 0,
    onChange: (listener) => void listeners.push(listener),
    stop: () => clearTimeout(timer),
  };
}
