// Abuse limits with @fastify/rate-limit: routes declare `config.rateLimit`, and features that count
// something other than requests (sign-in attempts per account) make limiters with
// `app.createRateLimit`. Counts live in memory, or in Redis when REDIS_URL is set, so that several
// instances share them (an attacker spreading requests over instances gains nothing).
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { HttpError } from '../lib/http-error';
import { createRateLimiter, type RateLimit, type RateLimiter } from '../lib/rate-limit';
import { redactedUrl } from '../lib/redacted-url';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A limit on something other than requests (socket events per user): counted in the same Redis
     * as the HTTP limits, over the same client, when REDIS_URL is set (lib/rate-limit.ts).
     */
    createEventLimiter(limit: RateLimit & { name: string }): RateLimiter;
  }
}

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please wait a moment and try again.';

/** "in 5 minutes", "in 40 seconds": how long a refused caller waits, in words. */
export function waitInWords(ttlMs: number): string {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

export const rateLimitsPlugin = fp(
  async (app: FastifyInstance, options: { redisUrl?: string; namespace?: string }) => {
    let redis: Redis | undefined;
    if (options.redisUrl) {
      // Loaded only with REDIS_URL: a single instance keeps its counts in memory.
      const { Redis } = await import('ioredis');
      redis = new Redis(options.redisUrl, {
        lazyConnect: true,
        connectTimeout: 2000,
        // A command waits for at most one reconnection; then the limit is skipped (skipOnError).
        maxRetriesPerRequest: 1,
      });
      // Without a listener a Redis hiccup would crash the process; ioredis reconnects by itself.
      redis.on('error', (error) => app.log.warn({ err: error }, 'rate limits: Redis error'));
      try {
        await redis.connect();
      } catch (error) {
        redis.disconnect();
        throw new Error(
          `Cannot connect to Redis at ${redactedUrl(options.redisUrl)} (REDIS_URL): ${error instanceof Error ? error.message : error}`,
        );
      }
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    const namespace = options.namespace ?? 'mp:rate-limit:';
    app.decorate('createEventLimiter', (limit: RateLimit & { name: string }) =>
      createRateLimiter(limit, {
        redis,
        namespace,
        onError: (error) => app.log.warn({ err: error, limit: limit.name }, 'event limit not counted'),
      }),
    );
    await app.register(fastifyRateLimit, {
      global: false,
      redis,
      nameSpace: namespace,
      // Keys per limiter kept in memory; under a flood of distinct keys the oldest go first.
      cache: 50_000,
      // A Redis outage must not take sign-in and the chat widget down with it: limits pause until it
      // is back (and say so in the log).
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, `${TOO_MANY_REQUESTS_MESSAGE} (retry in ${context.after})`, 'RATE_LIMITED'),
    });
  },
  { name: 'rate-limits' },
);

export interface RequestLimit {
  /** Names the limiter's keys (in Redis every limiter made this way shares one key space). */
  name: string;
  max: number;
  timeWindow: number;
  /** Whose requests are counted together; the client's address by default. */
  key?: (request: FastifyRequest) => string;
  /** What a refused caller reads. */
  message?: string;
}

/**
 * A limit for a route's `preHandler` (the body is parsed by then, so a key may come from it): over the
 * limit it answers 429 `{ message, code: 'RATE_LIMITED' }` with Retry-After. Several routes may share
 * one (their requests then count together), and one route may have several.
 */
export function requestLimit(app: FastifyInstance, limit: RequestLimit) {
  const key = limit.key ?? ((request: FastifyRequest) => request.ip);
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindow,
    keyGenerator: (request) => `${limit.name}:${key(request)}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', result.ttlInSeconds);
    throw new HttpError(429, limit.message ?? TOO_MANY_REQUESTS_MESSAGE, 'RATE_LIMITED');
  };
}
