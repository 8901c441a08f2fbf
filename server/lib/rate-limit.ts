/**
 * A fixed-window counter per key (an IP, an account), in memory. For public endpoints that anyone
 * can call: enough to stop a script from hammering them from one address. Per process: behind several
 * instances each counts on its own, which still bounds the rate.
 */
export interface RateLimiter {
  /** Counts one hit for `key`; false when the key is over its limit in the current window. */
  hit(key: string): boolean;
}

export function createRateLimiter(options: {
  limit: number;
  windowMs: number;
  /** Most keys remembered; the oldest windows are forgotten first (bounded memory under a flood). */
  maxKeys?: number;
  now?: () => number;
}): RateLimiter {
  const { limit, windowMs, maxKeys = 10_000, now = Date.now } = options;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key) {
      const time = now();
      const current = windows.get(key);
      if (!current || time - current.start >= windowMs) {
        windows.delete(key);
        if (windows.size >= maxKeys) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        windows.set(key, { start: time, count: 1 });
        return true;
      }
      current.count += 1;
      return current.count <= limit;
    },
  };
}
