// For the clustered broker's tests on a shared Redis (TEST_REDIS_URL): a key space of their own per
// run, removed afterwards, and a logger that says nothing.
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export function redisTestNamespace(): string {
  return `test-b1-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`;
}

/** Deletes every key under the namespace (pub/sub channels leave nothing behind). */
export async function dropRedisNamespace(url: string, namespace: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

const quiet = () => {};
export const silentLog = {
  level: 'silent',
  fatal: quiet,
  error: quiet,
  warn: quiet,
  info: quiet,
  debug: quiet,
  trace: quiet,
  silent: quiet,
  child: () => silentLog,
} as unknown as FastifyBaseLogger;
