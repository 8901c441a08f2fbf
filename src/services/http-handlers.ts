// How the rest of the app plugs into the HTTP client (http.ts): the auth layer's token getter and
// refresh, the app's toaster, the task handler. Kept apart from http.ts, and free of axios, because
// the entry chunk configures it at start-up while axios itself loads with the first request.

/** SPEC §8 "No token". */
export const TOKEN_MISSING_MESSAGE = 'Access token is missing. Request cancelled.';

/** The Web Locks name that serialises refresh-token rotation across the tabs of this origin. */
export const REFRESH_LOCK_NAME = 'auth-refresh';

export interface HttpHandlers {
  /** The current access token, or null when signed out. */
  getAccessToken: () => string | null;
  /** Refreshes the session; resolves with the new access token, or null when that failed. */
  refresh: () => Promise<string | null>;
  /** The session is over (refresh failed, or the retry was 401 again). */
  onUnauthorized: () => void;
  /** A response carried `taskStatus` (SPEC §7 task handler). */
  onTask: (body: unknown) => void;
  /** Shows a failure to the user (a toast). */
  notifyError: (message: string) => void;
}

const defaultHandlers: HttpHandlers = {
  getAccessToken: () => null,
  refresh: async () => null,
  onUnauthorized: () => {},
  onTask: () => {},
  notifyError: () => {},
};

let handlers: HttpHandlers = { ...defaultHandlers };

/**
 * Registers handlers (the auth layer's getters, the app's toaster). Several callers may each register
 * their own keys; each gets back a function that unregisters only the keys it installed.
 */
export function configureHttp(next: Partial<HttpHandlers>): () => void {
  handlers = { ...handlers, ...next };
  return () => {
    const restored = { ...handlers };
    for (const key of Object.keys(next) as (keyof HttpHandlers)[]) {
      if (handlers[key] === next[key]) Object.assign(restored, { [key]: defaultHandlers[key] });
    }
    handlers = restored;
  };
}

/** The handlers as configured now (read by http.ts on every request). */
export function httpHandlers(): HttpHandlers {
  return handlers;
}

/**
 * Runs `task` while holding the `auth-refresh` Web Lock when the browser has Web Locks, so that several
 * tabs never present the same refresh cookie at once (rotation would make all but one fail).
 */
export function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof locks.request !== 'function') return task();
  return locks.request(REFRESH_LOCK_NAME, { mode: 'exclusive' }, () => task()) as Promise<T>;
}
