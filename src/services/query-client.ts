// The data cache (SPEC §9 "Data cache: retry delay doubles up to 30 s, 3 retries by default, cache
// lifetime 5 minutes").
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** Retries of a failed query before it shows as failed. */
export const QUERY_RETRIES = 3;
/** Longest pause between two retries. */
export const MAX_RETRY_DELAY_MS = 30_000;
/** How long an unused query result stays in memory. */
export const CACHE_LIFETIME_MS = 5 * 60_000;
/**
 * How long a result counts as fresh. Not the whole 5 minutes: a back-office shows data other people
 * change (sellers approved, imports finished), so a screen opened again after 30 s refetches in the
 * background, while the bursts of mounts, tab focus and re-renders within a screen share one request.
 * Mutations and broker notifications invalidate what they change on top of this.
 */
export const STALE_TIME_MS = 30_000;

/** 1 s, 2 s, 4 s, … capped at 30 s. `attempt` is the number of failures so far minus one (0 first). */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

/**
 * Retry up to three times, but never a 4xx (the same request gets the same answer: bad input, no
 * permission, not found; a 401 has already had its silent refresh) nor a request that never went out.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.cancelled) return false;
    if (error.status >= 400 && error.status < 500) return false;
  }
  return failureCount < QUERY_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        gcTime: CACHE_LIFETIME_MS,
        staleTime: STALE_TIME_MS,
      },
      mutations: {
        // Writes are not idempotent: a timed-out POST may have been applied, so it is never repeated
        // behind the user's back.
        retry: false,
      },
    },
  });
}
