// The one HTTP client of the SPA (SPEC §5, §7, §8). Free of React and of the auth machine: the auth
// layer plugs in through `configureHttp`, so tests can configure it with plain functions.
import axios, { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { ApiError } from './api-error';
import { httpHandlers, TOKEN_MISSING_MESSAGE } from './http-handlers';
import { hasTaskStatus } from './tasks';

// The light pieces live in their own modules so that the entry chunk can use them without axios;
// features import everything from here.
export { ApiError, type ApiErrorInit, getErrorMessage } from './api-error';
export {
  configureHttp,
  type HttpHandlers,
  REFRESH_LOCK_NAME,
  TOKEN_MISSING_MESSAGE,
  withRefreshLock,
} from './http-handlers';

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

/**
 * SPEC §9: the defaults requests carry (SPEC §7) only until the signed-in user's client settings are
 * known (src/services/client-settings.ts then calls `setDefaultParams`).
 */
export const DEFAULT_PARAMS = {
  defaultCountry: 'IN',
  defaultLanguage: 'EN',
  defaultCurrency: 'INR',
} as const;

export type DefaultParams = Record<keyof typeof DEFAULT_PARAMS, string>;

let defaultParams: DefaultParams = { ...DEFAULT_PARAMS };

/** The defaults every request carries as query params now (request params win). */
export function currentDefaultParams(): Readonly<DefaultParams> {
  return defaultParams;
}

/** Sets the defaults of every request from now on (the user's settings); empty values are ignored. */
export function setDefaultParams(next: Partial<DefaultParams>): void {
  const kept = Object.entries(next).filter(([, value]) => typeof value === 'string' && value !== '');
  defaultParams = { ...defaultParams, ...Object.fromEntries(kept) };
}

/** Back to SPEC §9's defaults (sign-out; tests). */
export function resetDefaultParams(): void {
  defaultParams = { ...DEFAULT_PARAMS };
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
    for (const [name, value] of Object.entries(defaultParams)) if (!merged.has(name)) merged.set(name, value);
    return merged;
  }
  return { ...defaultParams, ...(params && typeof params === 'object' ? params : {}) };
}

/** The product's wording of a failed request (SPEC §8 "Generic HTTP errors"). */
export function toApiError(error: unknown): ApiError {
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

let refreshInFlight: Promise<string | null> | null = null;

/** Concurrent 401s share one refresh; a token that changed meanwhile is used without refreshing again. */
function refreshOnce(failedToken: string | null | undefined): Promise<string | null> {
  const current = httpHandlers().getAccessToken();
  if (current && current !== failedToken) return Promise.resolve(current);
  refreshInFlight ??= Promise.resolve()
    .then(() => httpHandlers().refresh())
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
  const token = httpHandlers().getAccessToken();
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
    if (hasTaskStatus(response.data)) httpHandlers().onTask(response.data);
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
      httpHandlers().onUnauthorized();
      throw apiError;
    }
    if (!apiError.cancelled && !config?.silent) httpHandlers().notifyError(apiError.message);
    throw apiError;
  },
);
