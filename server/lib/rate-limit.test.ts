import { createServer, type Server, Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test-support';
import { createRateLimiter } from './rate-limit';

const REDIS_URL = process.env.TEST_REDIS_URL;
/** A port of this test's own (brief B2: 3341–3349) for the Redis proxy that plays the outage. */
const PROXY_PORT = 3341;

/** `count` hits one after the other, and what each answered. */
async function hits(limiter: { hit(key: string): Promise<boolean> }, key: string, count: number) {
  const answers: boolean[] = [];
  for (let i = 0; i < count; i++) answers.push(await limiter.hit(key));
  return answers;
}

const uniqueNamespace = () => `mp-test:rl:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}:`;

describe('event limiter in memory (no REDIS_URL)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a fixed window per key and forgets it when the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const limiter = createRateLimiter({ name: 'memory', limit: 2, windowMs: 1000 });
    expect(await hits(limiter, 'a', 3)).toEqual([true, true, false]);
    expect(await limiter.hit('b')).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(await limiter.hit('a')).toBe(true);
  });
});

/** A TCP proxy in front of Redis that the test can take away and bring back (a Redis outage). */
function redisProxy(target: URL) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    async start() {
      server = createServer((client) => {
        const upstream = new Socket();
        upstream.connect(Number(target.port || 6379), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve) => server?.listen(PROXY_PORT, '127.0.0.1', resolve));
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  };
}

function status(redis: Redis, wanted: 'ready' | 'not ready'): Promise<void> {
  const reached = () => (wanted === 'ready') === (redis.status === 'ready');
  if (reached()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!reached()) return;
      for (const event of ['ready', 'close', 'reconnecting', 'end']) redis.off(event, check);
      resolve();
    };
    for (const event of ['ready', 'close', 'reconnecting', 'end']) redis.on(event, check);
  });
}

describe.skipIf(!REDIS_URL)('event limiter in Redis (needs TEST_REDIS_URL)', () => {
  const namespace = uniqueNamespace();
  const clients: Redis[] = [];
  /** A connected client, as the rate-limits plugin makes one per instance. */
  const client = async (url: string) => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    redis.on('error', () => {});
    clients.push(redis);
    await status(redis, 'ready');
    return redis;
  };

  afterAll(async () => {
    const admin = new Redis(REDIS_URL as string);
    const keys = await admin.keys(`${namespace}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
    for (const redis of clients) redis.disconnect();
  });

  it('two instances (two clients, two limiters) share one count per key', async () => {
    const a = createRateLimiter(
      { name: 'shared', limit: 3, windowMs: 10_000 },
      { redis: await client(REDIS_URL as string), namespace },
    );
    const b = createRateLimiter(
      { name: 'shared', limit: 3, windowMs: 10_000 },
      { redis: await client(REDIS_URL as string), namespace },
    );
    expect([await a.hit('u1'), await b.hit('u1'), await a.hit('u1')]).toEqual([true, true, true]);
    // The fourth hit, on the other instance, is over the shared limit; on either instance after it too.
    expect([await b.hit('u1'), await a.hit('u1')]).toEqual([false, false]);
    // Other keys and other limits count apart.
    expect(await b.hit('u2')).toBe(true);
    const other = createRateLimiter(
      { name: 'other', limit: 1, windowMs: 10_000 },
      { redis: clients[0], namespace },
    );
    expect(await other.hit('u1')).toBe(true);
  });

  it('a Redis outage falls back to a count per process, and Redis counts again once it is back', async () => {
    const proxy = redisProxy(new URL(REDIS_URL as string));
    await proxy.start();
    try {
      const redis = await client(`redis://127.0.0.1:${PROXY_PORT}`);
      const errors: unknown[] = [];
      const limiter = createRateLimiter(
        { name: 'outage', limit: 2, windowMs: 10_000 },
        { redis, namespace, onError: (error) => errors.push(error) },
      );
      expect(await limiter.hit('before')).toBe(true);

      await proxy.stop();
      await status(redis, 'not ready');
      // The limit still holds in this process: the third hit is refused, from memory.
      expect(await hits(limiter, 'during', 3)).toEqual([true, true, false]);
      expect(errors).toEqual([]);

      await proxy.start();
      await status(redis, 'ready');
      // Back in Redis: the outage's hits were counted in memory only, and the new ones land in Redis.
      const direct = await client(REDIS_URL as string);
      expect(await direct.get(`${namespace}events:outage:during`)).toBeNull();
      expect(await limiter.hit('after')).toBe(true);
      expect(await direct.get(`${namespace}events:outage:after`)).toBe('1');
    } finally {
      await proxy.stop();
    }
  });

  describe('through the app (app.createEventLimiter, REDIS_URL)', () => {
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      const env = { REDIS_URL: REDIS_URL as string };
      first = await createTestApp({ env, rateLimits: { namespace } });
      second = await createTestApp({ env, rateLimits: { namespace } });
    });
    afterAll(async () => {
      await first?.close();
      await second?.close();
    });

    it('two instances with one Redis refuse the hit past the limit on either', async () => {
      const limit = { name: 'app-shared', limit: 2, windowMs: 10_000 };
      const a = first.app.createEventLimiter(limit);
      const b = second.app.createEventLimiter(limit);
      expect([await a.hit('user'), await b.hit('user'), await a.hit('user')]).toEqual([true, true, false]);
    });
  });
});
