// Where the embedded broker keeps what it shares: one instance keeps it in memory; several instances on
// one Redis (REDIS_URL) share it there, the established way to run Aedes on several nodes:
// - published messages go through mqemitter-redis, so a message published on any instance reaches its
//   subscribers on every instance (each delivers to its own connections);
// - kept sessions, subscriptions, retained messages and in-flight QoS 1/2 messages live in
//   aedes-persistence-redis, so a kept session survives its client reconnecting to another instance;
// - client id owners, per-user connection counts and when each kept session went away live in Redis
//   too (broker-registry.ts, session-expiry.ts), so every cap holds cluster-wide.
// Authentication and the ACL are not shared state: every instance runs them (embedded-broker.ts).
//
// Redis down: the broker reports itself degraded (/api/health, for admins), connections are refused
// and publishes fail at once (the notification or chat message is stored already, and the browser
// refetches on reconnect); ioredis reconnects by itself and publishing resumes when Redis is back.
//
// The Redis persistence needs no patch for the two aedes bugs that broker-persistence.ts fixes on the
// memory one (broker-persistence.test.ts runs the same cases on both): it finds a PUBREL's message by the
// client's message id, not by a broker identity the PUBREL lacks, and a packet without a message id
// (a refused forward) matches nothing, so no other queued message is cleared in its place.
// It needs something else instead: see publishInOrder.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';
import { redactedUrl } from '../lib/redacted-url';
import { createBrokerPersistence } from './broker-persistence';
import { type BrokerRegistry, createMemoryRegistry, createRedisRegistry } from './broker-registry';
import { type AwayStore, createMemoryAwayStore, SESSION_TTL_MS } from './session-expiry';

export type ClusterState = 'ok' | 'degraded';

export interface BrokerBackend {
  /** Aedes' `mq`; undefined: its own in-memory emitter. */
  mq?: unknown;
  persistence: unknown;
  registry: BrokerRegistry;
  away: AwayStore;
  /** Only with Redis: whether every connection to it is up. */
  clusterState?: () => ClusterState;
  /** Only with Redis: a connection for small shared counts (topic audiences), under the namespace. */
  redis?: Redis;
  /** What Aedes needs on top of this backend (publishInOrder with Redis). */
  prepare?(aedes: { publish: unknown }): void;
  close(): Promise<void>;
}

/** One instance: the memory emitter, the patched memory persistence, registries in memory. */
export function createLocalBackend(): BrokerBackend {
  const registry = createMemoryRegistry();
  return {
    persistence: createBrokerPersistence(),
    registry,
    away: createMemoryAwayStore(),
    close: async () => registry.stop(),
  };
}

/** Connection attempts at start-up before a wrong or unreachable REDIS_URL stops the start. */
const START_ATTEMPTS = 10;

/**
 * Marks every command's promise as handled, and returns it unchanged (whoever awaits it still sees its
 * error). aedes-persistence-redis leaves a few commands un-awaited (`lrem` in delWill, putWill and when
 * a queued packet is gone); with Redis down their rejection would be unhandled and end the process.
 */
function withHandledCommands(redis: Redis): Redis {
  return new Proxy(redis, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        if (result && typeof (result as Promise<unknown>).catch === 'function' && result !== target) {
          (result as Promise<unknown>).catch(() => {});
        }
        return result;
      };
    },
  });
}

type AnyPublish = (packet: unknown, ...rest: unknown[]) => void;

/**
 * Makes the broker's publishes run one after another, each emitted before the next begins.
 *
 * Aedes numbers each publish (brokerCounter) when it starts, and a client drops any message whose number
 * is not above the last one it had from that broker (aedes' `dedupe`, meant for duplicates). With the
 * Redis store, queueing a message for kept sessions takes a few round trips, more for a topic with more
 * sessions: concurrent publishes then reach the emitter out of order, and a client subscribed to both
 * topics silently loses the one that came late (19 of 20 messages on this machine, in
 * broker-persistence.test.ts, before this). One Redis publish after another keeps the order.
 */
export function publishInOrder(aedes: { publish: unknown }): void {
  const publish = (aedes.publish as AnyPublish).bind(aedes);
  let tail = Promise.resolve();
  (aedes as { publish: AnyPublish }).publish = (packet, ...rest) => {
    const done = typeof rest.at(-1) === 'function' ? (rest.pop() as (error?: Error) => void) : undefined;
    // A publish that throws must not end the chain: every later publish would be dropped unseen.
    tail = tail
      .then(
        () =>
          new Promise<void>((resolve) =>
            publish(packet, ...rest, (error?: Error) => {
              resolve();
              done?.(error);
            }),
          ),
      )
      .catch((error: unknown) => done?.(error instanceof Error ? error : new Error(String(error))));
  };
}

type SubscriptionWrite = (client: { id: string }, subs: unknown[], ...rest: unknown[]) => Promise<unknown>;

/**
 * Makes the Redis store's subscription writes safe for a SUBSCRIBE of several topics.
 *
 * Aedes stores a SUBSCRIBE's whole topic list once per topic, all at once, and the store waits for each
 * write's echo ($SYS/sub/add) in a map keyed by client and first topic: the later writes replace the
 * earlier ones' waiters, which then never resolve, and the SUBACK is never sent. A browser subscribes to
 * its three topics in one SUBSCRIBE: it got no SUBACK and no notification (the memory store has no
 * echo). Here concurrent writes of the same list share one write, and writes for one client run one
 * after another, so each has its own waiter.
 */
export function serializeSubscriptionWrites(persistence: object): void {
  const store = persistence as Record<'addSubscriptions' | 'removeSubscriptions', SubscriptionWrite>;
  for (const name of ['addSubscriptions', 'removeSubscriptions'] as const) {
    const write = store[name].bind(persistence);
    const sameList = new WeakMap<object, Promise<unknown>>();
    const clientTails = new Map<string, Promise<unknown>>();
    store[name] = (client, subs, ...rest) => {
      // The callback form (not used by aedes 1.x) is passed through as it is.
      if (rest.some((arg) => typeof arg === 'function')) return write(client, subs, ...rest);
      const shared = sameList.get(subs);
      if (shared) return shared;
      const previous = clientTails.get(client.id) ?? Promise.resolve();
      const result = previous.catch(() => {}).then(() => write(client, subs));
      sameList.set(subs, result);
      const tail = result.catch(() => {});
      clientTails.set(client.id, tail);
      void tail.then(() => {
        sameList.delete(subs);
        if (clientTails.get(client.id) === tail) clientTails.delete(client.id);
      });
      return result;
    };
  }
}

interface MQEmitterRedisPrefixConstructor {
  new (
    prefix: string,
    options: { subConn: Redis; pubConn: Redis },
  ): { state: NodeJS.EventEmitter; close(callback: () => void): void };
}

/**
 * Several instances: everything in Redis under `namespace` (keys and pub/sub channels), so that
 * deployments or test runs sharing one Redis do not meet.
 */
export async function connectRedisBackend(
  url: string,
  options: { namespace: string; log: FastifyBaseLogger },
): Promise<BrokerBackend> {
  const { Redis } = await import('ioredis');
  const require = createRequire(import.meta.url);
  // CommonJS packages without the prefixing emitter in their typings.
  const { MQEmitterRedisPrefix } = require('mqemitter-redis') as {
    MQEmitterRedisPrefix: MQEmitterRedisPrefixConstructor;
  };
  const redisPersistence = require('aedes-persistence-redis') as (options: object) => unknown;

  let started = false;
  const connectionOptions = (keyPrefix?: string): RedisOptions => ({
    lazyConnect: true,
    connectTimeout: 2000,
    keyPrefix,
    // A command waits for at most one reconnection, then fails: a publish or a connection attempt
    // during an outage answers at once instead of holding a request.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) =>
      started ? Math.min(100 * attempt, 2000) : attempt >= START_ATTEMPTS ? null : 200,
  });
  const keys = `${options.namespace}`;
  const connections = {
    store: new Redis(url, connectionOptions(`${keys}store:`)),
    registry: new Redis(url, connectionOptions(`${keys}registry:`)),
    publisher: new Redis(url, connectionOptions()),
    subscriber: new Redis(url, connectionOptions()),
  };
  const all = Object.values(connections);
  let degraded = false;
  for (const [name, connection] of Object.entries(connections)) {
    // Without an 'error' listener a Redis hiccup would crash the process.
    connection.on('error', (error) => {
      if (!started) return;
      options.log.warn({ err: error, connection: name }, 'broker: Redis error');
    });
    connection.on('close', () => {
      if (!started || degraded) return;
      degraded = true;
      options.log.warn('broker: Redis unreachable, the broker cluster is degraded');
    });
    connection.on('ready', () => {
      if (!degraded || !all.every((each) => each.status === 'ready')) return;
      degraded = false;
      options.log.info('broker: Redis is back, the broker cluster is whole again');
    });
  }
  try {
    await Promise.all(all.map((connection) => connection.connect()));
  } catch (error) {
    for (const connection of all) connection.disconnect();
    throw new Error(
      `Cannot connect to Redis at ${redactedUrl(url)} (REDIS_URL): ${error instanceof Error ? error.message : error}`,
    );
  }
  started = true;

  // Pub/sub channels get the namespace and a level of their own, so that topic wildcards still work.
  const mq = new MQEmitterRedisPrefix(`${keys}mq/`, {
    subConn: connections.subscriber,
    pubConn: connections.publisher,
  });
  // mqemitter-redis re-emits Redis errors here, and an EventEmitter's unheard 'error' throws.
  mq.state.on('error', () => {});
  const persistence = redisPersistence({
    conn: withHandledCommands(connections.store),
    // A message queued for a session that is then forgotten (session-expiry.ts) is never cleared by
    // the store: let it lapse after twice the sessions' life.
    packetTTL: () => Math.ceil((2 * SESSION_TTL_MS) / 1000),
  });
  serializeSubscriptionWrites(persistence as object);
  const registry = createRedisRegistry(connections.registry, randomUUID());
  const awayKey = 'away';
  const db = connections.registry;
  const away: AwayStore = {
    set: async (clientId, since) => void (await db.zadd(awayKey, since, clientId)),
    remove: async (clientId) => (await db.zrem(awayKey, clientId)) === 1,
    async since(clientIds) {
      if (clientIds.length === 0) return new Map();
      const scores = await db.zmscore(awayKey, ...clientIds);
      return new Map(
        clientIds.flatMap((id, index) => {
          const score = scores[index];
          return score === null || score === undefined ? [] : [[id, Number(score)] as [string, number]];
        }),
      );
    },
    awayBefore: (time) => db.zrangebyscore(awayKey, '-inf', time),
  };

  return {
    mq,
    persistence,
    registry,
    away,
    redis: connections.registry,
    prepare: publishInOrder,
    clusterState: () => (all.every((connection) => connection.status === 'ready') ? 'ok' : 'degraded'),
    async close() {
      registry.stop();
      // Aedes closed the emitter and the store (quit); what is left (down or not) is cut.
      for (const connection of all) connection.disconnect();
    },
  };
}
