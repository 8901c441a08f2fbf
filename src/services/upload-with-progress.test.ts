import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { configureHttp, TOKEN_MISSING_MESSAGE } from './http-handlers';
import { uploadWithProgress } from './upload-with-progress';

/**
 * A fake XMLHttpRequest for axios's browser adapter: records what is sent; the test answers each
 * request (or fails it) and fires upload progress the way a browser does.
 */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  readyState = 0;
  status = 0;
  statusText = '';
  responseText = '';
  response = '';
  responseURL = '';
  responseType = '';
  timeout = 0;
  withCredentials = false;
  aborted = false;
  readonly upload = new EventTarget();
  onloadend: ((event?: Event) => void) | null = null;
  onerror: ((event?: Event) => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  // Download progress: not reported here.
  addEventListener() {}
  removeEventListener() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  // ── driven by the test ──
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body?: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    this.response = this.responseText;
    this.readyState = 4;
    this.upload.dispatchEvent(new ProgressEvent('loadend'));
    this.onloadend?.(new ProgressEvent('loadend'));
  }
  failNetwork() {
    this.readyState = 4;
    this.onerror?.(new ProgressEvent('error'));
  }
}

/** Waits until the helper has sent its `n`th request (it sends after awaiting a refresh, for one). */
async function request(n: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThanOrEqual(n));
  return FakeXhr.sent[n - 1] as FakeXhr;
}

let token: string | null;
const handlers = {
  refresh: vi.fn<() => Promise<string | null>>(),
  onUnauthorized: vi.fn(),
  onTask: vi.fn(),
  notifyError: vi.fn(),
};
let unconfigure: () => void;

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  token = 'token-1';
  for (const fn of Object.values(handlers)) fn.mockReset();
  handlers.refresh.mockResolvedValue(null);
  unconfigure = configureHttp({ getAccessToken: () => token, ...handlers });
});

afterEach(() => {
  unconfigure();
  vi.unstubAllGlobals();
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the upload to fail');
}

const photo = () => new File(['pixels'], 'shoe.jpg', { type: 'image/jpeg' });

describe('uploadWithProgress', () => {
  it('POSTs the fields then the file, with the bearer and the default params, and reports progress', async () => {
    const progress: [number, number][] = [];
    const done = uploadWithProgress<{ id: string }>(
      '/api/v1/stagingProducts/media?sellerId=s1',
      photo(),
      { sellerId: 's1' },
      { onProgress: (loaded, total) => progress.push([loaded, total]) },
    );
    const xhr = await request(1);
    expect(xhr.method).toBe('POST');
    const url = new URL(xhr.url, 'http://localhost');
    expect(url.pathname).toBe('/api/v1/stagingProducts/media');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sellerId: 's1',
      defaultCountry: 'IN',
      defaultLanguage: 'EN',
      defaultCurrency: 'INR',
    });
    expect(xhr.headers.authorization).toBe('Bearer token-1');
    // The browser writes the multipart Content-Type itself, with the boundary.
    expect(xhr.headers['content-type']).toBeUndefined();
    expect([...(xhr.body as FormData).keys()]).toEqual(['sellerId', 'file']);
    expect(((xhr.body as FormData).get('file') as File).name).toBe('shoe.jpg');
    xhr.progress(100, 400);
    xhr.progress(400, 400);
    xhr.respond(201, { id: 'm1' });
    await expect(done).resolves.toEqual({ id: 'm1' });
    expect(progress).toEqual([
      [100, 400],
      [400, 400],
    ]);
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('turns a `{ message }` answer into the ApiError http.ts throws, toasted unless silent', async () => {
    const loud = uploadWithProgress('/api/v1/x', photo());
    (await request(1)).respond(415, {
      message: 'Only JPEG, PNG, WebP, MP4 or WebM files are accepted.',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    const error = await failure(loud);
    expect(error).toMatchObject({
      message: 'Only JPEG, PNG, WebP, MP4 or WebM files are accepted.',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      cancelled: false,
    });
    expect(handlers.notifyError).toHaveBeenCalledWith(
      'Only JPEG, PNG, WebP, MP4 or WebM files are accepted.',
    );

    handlers.notifyError.mockReset();
    const quiet = uploadWithProgress('/api/v1/x', photo(), {}, { silent: true });
    (await request(2)).respond(500, '<html>proxy error</html>');
    expect(await failure(quiet)).toMatchObject({
      message: 'Request failed with status code 500',
      status: 500,
      code: 'HTTP_500',
    });
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('on a 401 refreshes once and sends the file again with the new token', async () => {
    handlers.refresh.mockImplementation(async () => {
      token = 'token-2';
      return 'token-2';
    });
    const done = uploadWithProgress<{ id: string }>('/api/v1/x', photo());
    (await request(1)).respond(401, { message: 'Token expired', code: 'TOKEN_EXPIRED' });
    const retry = await request(2);
    expect(retry.headers.authorization).toBe('Bearer token-2');
    expect(((retry.body as FormData).get('file') as File).name).toBe('shoe.jpg');
    retry.respond(201, { id: 'm2' });
    await expect(done).resolves.toEqual({ id: 'm2' });
    expect(handlers.refresh).toHaveBeenCalledTimes(1);
    expect(handlers.onUnauthorized).not.toHaveBeenCalled();
  });

  it('ends the session when the refresh fails, without a toast', async () => {
    const done = uploadWithProgress('/api/v1/x', photo());
    (await request(1)).respond(401, { message: 'Token expired', code: 'TOKEN_EXPIRED' });
    expect(await failure(done)).toMatchObject({ status: 401, message: 'Token expired' });
    expect(FakeXhr.sent).toHaveLength(1);
    expect(handlers.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('is cancelled before it goes out when there is no token', async () => {
    token = null;
    const error = await failure(uploadWithProgress('/api/v1/x', photo()));
    expect(error).toMatchObject({ message: TOKEN_MISSING_MESSAGE, code: 'TOKEN_MISSING', cancelled: true });
    expect(FakeXhr.sent).toHaveLength(0);
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('never sends the token to another origin', async () => {
    const done = uploadWithProgress('https://uploads.example.com/put', photo());
    const xhr = await request(1);
    expect(xhr.headers.authorization).toBeUndefined();
    xhr.respond(200, {});
    await done;
  });

  it('aborts with the signal: the request is stopped and the rejection is cancelled, not toasted', async () => {
    const controller = new AbortController();
    const done = uploadWithProgress('/api/v1/x', photo(), {}, { signal: controller.signal });
    const xhr = await request(1);
    controller.abort();
    expect(xhr.aborted).toBe(true);
    expect(await failure(done)).toMatchObject({ code: 'ERR_CANCELED', cancelled: true });
    expect(handlers.notifyError).not.toHaveBeenCalled();

    const already = await failure(
      uploadWithProgress('/api/v1/x', photo(), {}, { signal: controller.signal }),
    );
    expect(already.cancelled).toBe(true);
    expect(FakeXhr.sent).toHaveLength(1);
  });

  it('reports a network failure in the product’s words', async () => {
    const done = uploadWithProgress('/api/v1/x', photo());
    (await request(1)).failNetwork();
    expect(await failure(done)).toMatchObject({ message: 'Network Error', status: 0, code: 'ERR_NETWORK' });
    expect(handlers.notifyError).toHaveBeenCalledWith('Network Error');
  });

  it('hands a `taskStatus` answer to the task handler', async () => {
    const body = { taskStatus: { taskId: 't1', taskName: 'Import', status: 'Queued' } };
    const done = uploadWithProgress('/api/v1/imports/upload', photo());
    (await request(1)).respond(202, body);
    await expect(done).resolves.toEqual(body);
    expect(handlers.onTask).toHaveBeenCalledWith(body);
  });
});
