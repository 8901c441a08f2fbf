// The one HTTP client of the SPA (SPEC §5, §7, §8). Free of React and of the auth machine: the auth
// layer plugs in through `configureHttp`, so tests can configure it with plain functions.
import axios, { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { hasTaskStatus } from './tasks';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not toast a failure: the caller shows it (e.g. the sign-in form) or ignores it. */
    silent?: boolean;
    /** Internal: this is the one retry after a silent refresh. */
    _retried?: boolean;
    /** Internal: the access token the request was sent with. */
    _sentToken?: string | null;
  }
}

/** SPEC §8 "No token". */
export const TOKEN_MISSING_MESSAGE = 'Access token is missing. Request cancelled.';

/** SPEC §7/§9: the defaults every request carries as query params (request params win). */
export const DEFAULT_PARAMS = {
  defaultCountry: 'IN',
  defaultLanguage: 'EN',
  defaultCurrency: 'INR',
} as const;

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

export interface ApiErrorInit {
  message: string;
  /** HTTP status; 0 when there was no response. */
  status: number;
  code: string;
  /** True when the request never went out or was cancelled by the app: nothing to show the user. */
  cancelled?: boolean;
  data?: unknown;
  cause?: unknown;
}

/** What every request of `http` rejects with. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly cancelled: boolean;
  readonly data: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.cancelled = init.cancelled ?? false;
    this.data = init.data;
  }
}

/**
 * Requests that may go out without an access token (SPEC §5): port 7001, `/record`, recaptcha and
 * gstatic, and helper, queryBot and localEventMessage requests. Also `/api/v1/auth/`: sign-in,
 * refresh, sign-out and forgot/reset password are how a token is obtained (refresh authenticates with
 * its HttpOnly cookie), so they can never require one.
 */
export function isExemptUrl(url: string): boolean {
  return [
    ':7001',
    '/record',
    'recaptcha',
    'gstatic',
    'helper',
    'queryBot',
    'localEventMessage',
    '/api/v1/auth/',
  ].some((part) => url.includes(part));
}

/** The auth routes themselves: never refreshed on 401 (a 401 there is the answer, e.g. bad credentials). */
export function isAuthUrl(url: string): boolean {
  return url.includes('/api/v1/auth/');
}

/**
 * Whether the bearer may be attached: only requests to this app's own server (relative URLs or this
 * origin). Exempt third parties such as recaptcha or gstatic must never receive the access token.
 */
export function isOwnServerUrl(url: string): boolean {
  if (url.startsWith('//')) return false;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return true;
  try {
    return typeof location !== 'undefined' && new URL(url).origin === location.origin;
  } catch {
    return false;
  }
}

function requestUrl(config: Pick<InternalAxiosRequestConfig, 'baseURL' | 'url'>): string {
  const url = config.url ?? '';
  if (!config.baseURL || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) return url;
  return `${config.baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

function withDefaultParams(params: unknown): unknown {
  if (params instanceof URLSearchParams) {
    const merged = new URLSearchParams(params);
    for (const [name, value] of Object.entries(DEFAULT_PARAMS))
      if (!merged.has(name)) merged.set(name, value);
    return merged;
  }
  return { ...DEFAULT_PARAMS, ...(params && typeof params === 'object' ? params : {}) };
}

/** The product's wording of a failed request (SPEC §8 "Generic HTTP errors"). */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (!axios.isAxiosError(error)) {
    return new ApiError({
      message: error instanceof Error && error.message ? error.message : 'An error occurred',
      status: 0,
      code: 'UNKNOWN',
      cause: error,
    });
  }
  if (axios.isCancel(error)) {
    // Cancelled by the app (e.g. a query that is no longer needed): nobody waits for a message.
    return new ApiError({
      message: 'Request aborted',
      status: 0,
      code: 'ERR_CANCELED',
      cancelled: true,
      cause: error,
    });
  }
  const { response } = error;
  if (
    error.code === AxiosError.ETIMEDOUT ||
    (error.code === AxiosError.ECONNABORTED && /timeout/i.test(error.message))
  ) {
    return new ApiError({ message: 'timeout exceeded', status: 0, code: AxiosError.ETIMEDOUT, cause: error });
  }
  if (error.code === AxiosError.ECONNABORTED) {
    return new ApiError({
      message: 'Request aborted',
      status: 0,
      code: AxiosError.ECONNABORTED,
      cause: error,
    });
  }
  if (!response) {
    return new ApiError({ message: 'Network Error', status: 0, code: AxiosError.ERR_NETWORK, cause: error });
  }
  const body: unknown = response.data;
  const field = (name: string): string | undefined => {
    if (!body || typeof body !== 'object') return undefined;
    const value = (body as Record<string, unknown>)[name];
    return typeof value === 'string' && value.trim() ? value : undefined;
  };
  return new ApiError({
    message: field('message') ?? `Request failed with status code ${response.status}`,
    status: response.status,
    code: field('code') ?? `HTTP_${response.status}`,
    data: body,
    cause: error,
  });
}

/** The message to show for any failure (an ApiError, an axios error, a validation error, anything). */
export function getErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (axios.isAxiosError(error)) return toApiError(error).message;
  if (error && typeof error === 'object' && 'issues' in error && Array.isArray(error.issues)) {
    const first: unknown = error.issues[0];
    if (first && typeof first === 'object' && 'message' in first && typeof first.message === 'string')
      return first.message;
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'An error occurred';
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

let refreshInFlight: Promise<string | null> | null = null;

/** Concurrent 401s share one refresh; a token that changed meanwhile is used without refreshing again. */
function refreshOnce(failedToken: string | null | undefined): Promise<string | null> {
  const current = handlers.getAccessToken();
  if (current && current !== failedToken) return Promise.resolve(current);
  refreshInFlight ??= Promise.resolve()
    .then(() => handlers.refresh())
    .catch(() => null)
    .finally(() => {
      refreshInFlight = null;
    });
  return refreshInFlight;
}

export const http = axios.create({
  // Paths are written in full ('/api/v1/...'): the SPA and the API share one origin.
  baseURL: '',
  // Timeouts reject with ETIMEDOUT rather than ECONNABORTED, so they are told apart from aborts.
  transitional: { ...axios.defaults.transitional, clarifyTimeoutError: true },
});

http.interceptors.request.use((config) => {
  config.params = withDefaultParams(config.params);
  const url = requestUrl(config);
  const token = handlers.getAccessToken();
  config._sentToken = token;
  if (token) {
    if (isOwnServerUrl(url)) config.headers.set('Authorization', `Bearer ${token}`);
  } else if (!isExemptUrl(url)) {
    // SPEC §5/§8: cancelled before it goes out; only rejected, never toasted.
    throw new ApiError({ message: TOKEN_MISSING_MESSAGE, status: 0, code: 'TOKEN_MISSING', cancelled: true });
  }
  return config;
});

http.interceptors.response.use(
  (response: AxiosResponse) => {
    if (hasTaskStatus(response.data)) handlers.onTask(response.data);
    return response;
  },
  async (error: unknown) => {
    // Already ours: the no-token cancellation from the request interceptor, or a failed retry.
    if (error instanceof ApiError) throw error;
    const config = axios.isAxiosError(error) ? error.config : undefined;
    const apiError = toApiError(error);
    if (apiError.status === 401 && config && !isAuthUrl(requestUrl(config))) {
      if (!config._retried) {
        const token = await refreshOnce(config._sentToken);
        if (token) return http.request({ ...config, _retried: true });
      }
      // SPEC §8: the app removes the stored auth and goes to sign-in; no toast.
      handlers.onUnauthorized();
      throw apiError;
    }
    if (!apiError.cancelled && !config?.silent) handlers.notifyError(apiError.message);
    throw apiError;
  },
);
