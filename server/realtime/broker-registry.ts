// What the embedded broker keeps per user besides sessions, in the process's memory or, when several
// instances share one Redis (REDIS_URL), cluster-wide there, so that every cap holds across instances:
// - which user a client id belongs to (the first to connect with it), and each user's client ids: the
//   kept-session cap counts them, and another user may not take a kept session over on another instance;
// - each user's open connections: the per-user connection cap counts every instance's. In Redis each
//   connection is a member of a per-user sorted set, scored by when it lapses; its instance refreshes it
//   on a heartbeat, so the connections of an instance that crashed lapse on their own within a minute.
import type { Redis } from 'ioredis';

export interface BrokerRegistry {
  ownerOf(clientId: string): Promise<string | undefined>;
  idsOf(userId: string): Promise<string[]>;
  own(clientId: string, userId: string): Promise<void>;
  disown(clientId: string): Promise<void>;
  /**
   * Takes a connection place for the user, unless they already hold `cap`; a client id that is already
   * connected takes its old place over (a tab reconnecting) and always gets in. Answers the place's key,
   * or null when refused. Checking and taking are one step: concurrent connections cannot pass together.
   */
  claimConnection(userId: string, clientId: string, cap: number): Promise<string | null>;
  releaseConnection(userId: string, key: string): Promise<void>;
  /** Stops the heartbeat (the places this instance holds then lapse on their own). */
  stop(): void;
}

/** One instance: everything in this process's memory. */
export function createMemoryRegistry(): BrokerRegistry {
  const owners = new Map<string, string>();
  const byUser = new Map<string, Set<string>>();
  // userId → place key → client id
  const connections = new Map<string, Map<string, string>>();
  let serial = 0;
  const disown = (clientId: string) => {
    const owner = owners.get(clientId);
    if (!owner) return;
    owners.delete(clientId);
    const ids = byUser.get(owner);
    ids?.delete(clientId);
    if (ids?.size === 0) byUser.delete(owner);
  };
  return {
    ownerOf: async (clientId) => owners.get(clientId),
    idsOf: async (userId) => [...(byUser.get(userId) ?? [])],
    async own(clientId, userId) {
      if (owners.get(clientId) === userId) return;
      disown(clientId);
      owners.set(clientId, userId);
      const ids = byUser.get(userId) ?? new Set<string>();
      byUser.set(userId, ids);
      ids.add(clientId);
    },
    disown: async (clientId) => disown(clientId),
    async claimConnection(userId, clientId, cap) {
      const open = connections.get(userId) ?? new Map<string, string>();
      const takesOver = [...open.values()].includes(clientId);
      if (!takesOver && open.size >= cap) return null;
      const key = String(++serial);
      open.set(key, clientId);
      connections.set(userId, open);
      return key;
    },
    async releaseConnection(userId, key) {
      const open = connections.get(userId);
      open?.delete(key);
      if (open?.size === 0) connections.delete(userId);
    },
    stop() {},
  };
}

/** How long a connection's place lives without its instance's heartbeat. */
export const CONNECTION_LEASE_MS = 45_000;
const HEARTBEAT_MS = 15_000;

// KEYS[1] the user's connections; ARGV: now, lapses at, cap, member, member suffix of this client id.
const CLAIM_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local open = redis.call('ZRANGE', KEYS[1], 0, -1)
local suffix = ARGV[5]
local takesOver = false
for _, member in ipairs(open) do
  if string.sub(member, -string.len(suffix)) == suffix then takesOver = true end
end
if not takesOver and #open >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
`;

type ClaimingRedis = Redis & {
  brokerClaimConnection(key: string, ...args: (string | number)[]): Promise<number>;
};

/**
 * Several instances: the registry in Redis (keys under the connection's `keyPrefix`). `instanceId`
 * tells this instance's places apart from the others'.
 */
export function createRedisRegistry(redis: Redis, instanceId: string): BrokerRegistry {
  const db = redis as ClaimingRedis;
  if (typeof (redis as { brokerClaimConnection?: unknown }).brokerClaimConnection !== 'function') {
    db.defineCommand('brokerClaimConnection', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  }
  const ownersKey = 'owners';
  const idsKey = (userId: string) => `client-ids:${userId}`;
  const connectionsKey = (userId: string) => `connections:${userId}`;
  // Client ids are encoded in members so that ':' in one cannot pass for another's suffix.
  const suffixOf = (clientId: string) => `:${encodeURIComponent(clientId)}`;
  // This instance's places (member → user), refreshed on every heartbeat.
  const held = new Map<string, string>();
  let serial = 0;

  const heartbeat = setInterval(() => {
    if (held.size === 0) return;
    const lapsesAt = Date.now() + CONNECTION_LEASE_MS;
    const pipeline = db.pipeline();
    for (const [member, userId] of held) {
      // XX: a place released meanwhile is not brought back.
      pipeline.zadd(connectionsKey(userId), 'XX', lapsesAt, member);
      pipeline.pexpireat(connectionsKey(userId), lapsesAt);
    }
    // Redis down: the places lapse, and the next heartbeat after it is back renews what is still held.
    pipeline.exec().catch(() => {});
  }, HEARTBEAT_MS).unref();

  return {
    async ownerOf(clientId) {
      return (await db.hget(ownersKey, clientId)) ?? undefined;
    },
    idsOf: (userId) => db.smembers(idsKey(userId)),
    async own(clientId, userId) {
      const previous = await db.hget(ownersKey, clientId);
      if (previous === userId) return;
      const multi = db.multi();
      if (previous) multi.srem(idsKey(previous), clientId);
      await multi.hset(ownersKey, clientId, userId).sadd(idsKey(userId), clientId).exec();
    },
    async disown(clientId) {
      const owner = await db.hget(ownersKey, clientId);
      if (!owner) return;
      await db.multi().hdel(ownersKey, clientId).srem(idsKey(owner), clientId).exec();
    },
    async claimConnection(userId, clientId, cap) {
      const now = Date.now();
      const member = `${instanceId}:${++serial}${suffixOf(clientId)}`;
      const claimed = await db.brokerClaimConnection(
        connectionsKey(userId),
        now,
        now + CONNECTION_LEASE_MS,
        cap,
        member,
        suffixOf(clientId),
      );
      if (claimed !== 1) return null;
      held.set(member, userId);
      return member;
    },
    async releaseConnection(userId, key) {
      held.delete(key);
      await db.zrem(connectionsKey(userId), key);
    },
    stop() {
      clearInterval(heartbeat);
    },
  };
}
