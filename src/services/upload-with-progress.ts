// Uploads a file with real progress. fetch reports no upload progress, so this goes through
// XMLHttpRequest, and behaves like the HTTP client (http.ts) in every other way: the default params,
// the bearer token (never to third parties), the no-token cancellation, one silent refresh and retry on
// a 401, the task handler for a `taskStatus` answer, and failures as ApiError with the server's
// `{ message }`, toasted unless `silent`.
import { ApiError } from './api-error';
import { DEFAULT_PARAMS, isAuthUrl, isExemptUrl, isOwnServerUrl } from './http';
import { httpHandlers, TOKEN_MISSING_MESSAGE } from './http-handlers';
import { hasTaskStatus } from './tasks';

export interface UploadOptions {
  /** Bytes sent so far and in all (the whole form, so a little more than the file). */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborts the upload; the promise then rejects with a cancelled ApiError (nothing to show). */
  signal?: AbortSignal;
  /** Do not toast a failure: the caller shows it (e.g. beside the upload). */
  silent?: boolean;
  /** The form field that carries the file (default `file`). */
  fieldName?: string;
}

/** The URL with SPEC §7's default params added (params already in the URL win). */
function withDefaultParams(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const params = new URLSearchParams(queryAt < 0 ? '' : beforeHash.slice(queryAt + 1));
  for (const [name, value] of Object.entries(DEFAULT_PARAMS)) if (!params.has(name)) params.set(name, value);
  return `${path}?${params}${hashAt < 0 ? '' : url.slice(hashAt)}`;
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The same wording http.ts's `toApiError` gives a failed response. */
function responseError(status: number, body: unknown): ApiError {
  const field = (name: string): string | undefined => {
    if (!body || typeof body !== 'object') return undefined;
    const value = (body as Record<string, unknown>)[name];
    return typeof value === 'string' && value.trim() ? value : undefined;
  };
  return new ApiError({
    message: field('message') ?? `Request failed with status code ${status}`,
    status,
    code: field('code') ?? `HTTP_${status}`,
    data: body,
  });
}

const abortedError = () =>
  new ApiError({ message: 'Request aborted', status: 0, code: 'ERR_CANCELED', cancelled: true });

interface Sent {
  status: number;
  body: unknown;
}

/** One POST of the form; resolves with any answer (errors included), rejects only without one. */
function send(url: string, form: FormData, token: string | null, options: UploadOptions): Promise<Sent> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortedError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', url);
    if (token && isOwnServerUrl(url)) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : event.loaded);
    };
    xhr.onload = () => {
      settle();
      resolve({ status: xhr.status, body: parseBody(xhr.responseText) });
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError({ message: 'Network Error', status: 0, code: 'ERR_NETWORK' }));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new ApiError({ message: 'timeout exceeded', status: 0, code: 'ETIMEDOUT' }));
    };
    xhr.onabort = () => {
      settle();
      reject(abortedError());
    };
    options.signal?.addEventListener('abort', onAbort);
    xhr.send(form);
  });
}

/**
 * POSTs `file` (and `fields`, sent first so the server reads them before the file) as
 * multipart/form-data to `url`, reporting progress; resolves with the parsed JSON answer.
 */
export async function uploadWithProgress<T>(
  url: string,
  file: Blob,
  fields: Record<string, string> = {},
  options: UploadOptions = {},
): Promise<T> {
  const handlers = httpHandlers();
  const token = handlers.getAccessToken();
  if (!token && !isExemptUrl(url)) {
    // SPEC §5/§8: cancelled before it goes out; only rejected, never toasted.
    throw new ApiError({ message: TOKEN_MISSING_MESSAGE, status: 0, code: 'TOKEN_MISSING', cancelled: true });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(options.fieldName ?? 'file', file);
  const target = withDefaultParams(url);

  let error: ApiError;
  try {
    let answer = await send(target, form, token, options);
    if (answer.status === 401 && !isAuthUrl(url)) {
      // As http.ts: a token that changed meanwhile is used as is; otherwise one refresh, then one retry.
      const current = httpHandlers().getAccessToken();
      const fresh =
        current && current !== token
          ? current
          : await httpHandlers()
              .refresh()
              .catch(() => null);
      if (fresh) answer = await send(target, form, fresh, options);
      if (answer.status === 401) {
        // SPEC §8: the app removes the stored auth and goes to sign-in; no toast.
        httpHandlers().onUnauthorized();
        throw responseError(answer.status, answer.body);
      }
    }
    if (answer.status >= 200 && answer.status < 300) {
      if (hasTaskStatus(answer.body)) httpHandlers().onTask(answer.body);
      return answer.body as T;
    }
    error = responseError(answer.status, answer.body);
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    if (failure.status === 401) throw failure;
    error = failure;
  }
  if (!error.cancelled && !options.silent) httpHandlers().notifyError(error.message);
  throw error;
}
