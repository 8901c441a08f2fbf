import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './http';
import {
  CACHE_LIFETIME_MS,
  createQueryClient,
  MAX_RETRY_DELAY_MS,
  QUERY_RETRIES,
  retryDelay,
  STALE_TIME_MS,
  shouldRetry,
} from './query-client';

afterEach(() => vi.useRealTimers());

const error = (status: number, cancelled = false) =>
  new ApiError({ message: 'x', status, code: 'X', cancelled });

describe('data cache constants (SPEC §9)', () => {
  it('doubles the retry delay from 1 s up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(MAX_RETRY_DELAY_MS).toBe(30_000);
  });

  it('retries 3 times by default, never a 4xx nor a cancelled request', () => {
    expect(QUERY_RETRIES).toBe(3);
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, error(500)))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, error(0))).toBe(true);
    expect(shouldRetry(0, new Error('x'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422, 429])
      expect(shouldRetry(0, error(status))).toBe(false);
    expect(shouldRetry(0, error(0, true))).toBe(false);
  });

  it('keeps results for 5 minutes', () => {
    const options = createQueryClient().getDefaultOptions();
    expect(CACHE_LIFETIME_MS).toBe(300_000);
    expect(options.queries?.gcTime).toBe(300_000);
    expect(options.queries?.staleTime).toBe(STALE_TIME_MS);
    expect(STALE_TIME_MS).toBeLessThanOrEqual(CACHE_LIFETIME_MS);
    expect(options.mutations?.retry).toBe(false);
  });

  it('a failing query is tried 1 + 3 times with 1 s, 2 s, 4 s pauses', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const queryFn = vi.fn().mockRejectedValue(error(503));
    const result = client.fetchQuery({ queryKey: ['x'], queryFn }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(queryFn).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4000);
    expect(queryFn).toHaveBeenCalledTimes(4);
    expect(await result).toBeInstanceOf(ApiError);
  });

  it('a 404 fails at once', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn().mockRejectedValue(error(404));
    await expect(client.fetchQuery({ queryKey: ['y'], queryFn })).rejects.toBeInstanceOf(ApiError);
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});
