/**
 * A fixed-window counter per key (a user, an address) for what is not an HTTP request: socket events
 * such as placing a call or dialling. On rate-limiter-flexible: in Redis when the app has one
 * (REDIS_URL), so every instance counts together and spreading events over instances gains nothing;
 * in memory otherwise. During a Redis outage each instance counts on its own in memory (the insurance
 * limiter): the limit still holds per process, and nothing waits on a dead Redis.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimiter {
  /** Counts one hit for `key`; false when the key is over its limit in the current window. */
  hit(key: string): Promise<boolean>;
}

export interface RateLimit {
  limit: number;
  /** Rounded up to whole seconds: Redis expires keys by the second. */
  windowMs: number;
}

export interface CounterStore {
  /** The process's one Redis client for limits (plugins/rate-limits.ts); none: memory. */
  redis?: Redis;
  /** Prefix of every key, so that test apps (or two products on one Redis) do not share counts. */
  namespace?: string;
  /** Told when no store could count (the hit is then let through). */
  onError?(error: unknown): void;
}

export function createRateLimiter(
  options: RateLimit & { name: string },
  store: CounterStore = {},
): RateLimiter {
  const points = options.limit;
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const keyPrefix = `${store.namespace ?? 'mp:rate-limit:'}events:${options.name}`;
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  const limiter = store.redis
    ? new RateLimiterRedis({
        storeClient: store.redis,
        points,
        duration,
        keyPrefix,
        // Not connected: count in memory at once instead of queueing behind the reconnection.
        rejectIfRedisNotReady: true,
        // (The Redis client's own error listener says that Redis is away.)
        insuranceLimiter: memory,
      })
    : memory;
  return {
    async hit(key) {
      try {
        await limiter.consume(key);
        return true;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return false;
        // Neither store could count: let the event through (like the HTTP limits' skipOnError).
        store.onError?.(refusal);
        return true;
      }
    },
  };
}
