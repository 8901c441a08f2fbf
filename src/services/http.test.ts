import { AxiosError } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  configureHttp,
  currentDefaultParams,
  DEFAULT_PARAMS,
  getErrorMessage,
  http,
  isExemptUrl,
  isOwnServerUrl,
  REFRESH_LOCK_NAME,
  resetDefaultParams,
  setDefaultParams,
  TOKEN_MISSING_MESSAGE,
  toApiError,
  withRefreshLock,
} from './http';
import { createFakeAdapter, deferred, type FakeReply, type RecordedRequest } from './testing/fake-adapter';

let token: string | null;
let responder: (request: RecordedRequest) => FakeReply | Promise<FakeReply>;
let requests: RecordedRequest[];
const handlers = {
  refresh: vi.fn<() => Promise<string | null>>(),
  onUnauthorized: vi.fn(),
  onTask: vi.fn(),
  notifyError: vi.fn(),
};
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  token = 'token-1';
  responder = () => ({ status: 200, data: { ok: true } });
  const fake = createFakeAdapter((request) => responder(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  for (const fn of Object.values(handlers)) fn.mockReset();
  handlers.refresh.mockResolvedValue(null);
  unconfigure = configureHttp({ getAccessToken: () => token, ...handlers });
});

afterEach(() => {
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('bearer and default params', () => {
  it('sends Authorization: Bearer {token} on every request when a token exists', async () => {
    await http.get('/api/v1/sellers/listSellers');
    await http.post('/api/v1/sellers/createNewSeller', { name: 'x' });
    expect(requests.map((r) => r.authorization)).toEqual(['Bearer token-1', 'Bearer token-1']);
  });

  it('reads the token at request time (a refreshed token is used at once)', async () => {
    await http.get('/api/v1/a');
    token = 'token-2';
    await http.get('/api/v1/b');
    expect(requests.map((r) => r.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('never sends the access token to third parties (recaptcha, gstatic, other origins)', async () => {
    await http.get('https://www.gstatic.com/recaptcha/api.js');
    await http.get(`${location.origin}/api/v1/sellers/listSellers`);
    expect(requests.map((r) => r.authorization)).toEqual([undefined, 'Bearer token-1']);
    expect(isOwnServerUrl('/api/v1/x')).toBe(true);
    expect(isOwnServerUrl('//evil.example/x')).toBe(false);
    expect(isOwnServerUrl('http://127.0.0.1:7001/record')).toBe(false);
  });

  it('adds defaultCountry=IN, defaultLanguage=EN, defaultCurrency=INR to every request', async () => {
    await http.get('/api/v1/sellers/listSellers', { params: { skip: 0, limit: 20 } });
    expect(requests[0]?.params).toEqual({ ...DEFAULT_PARAMS, skip: 0, limit: 20 });
    expect(DEFAULT_PARAMS).toEqual({ defaultCountry: 'IN', defaultLanguage: 'EN', defaultCurrency: 'INR' });
  });

  it('lets request params win over the defaults', async () => {
    await http.get('/api/v1/x', { params: { defaultCurrency: 'USD' } });
    await http.get('/api/v1/x', { params: new URLSearchParams({ defaultCountry: 'US' }) });
    expect(requests[0]?.params).toEqual({
      defaultCountry: 'IN',
      defaultLanguage: 'EN',
      defaultCurrency: 'USD',
    });
    const searchParams = requests[1]?.config.params as URLSearchParams;
    expect(Object.fromEntries(searchParams)).toEqual({
      defaultCountry: 'US',
      defaultLanguage: 'EN',
      defaultCurrency: 'INR',
    });
  });

  it("carries the user's settings once they are set, not constants", async () => {
    try {
      setDefaultParams({ defaultCountry: 'JP', defaultCurrency: 'JPY', defaultLanguage: 'JA' });
      await http.get('/api/v1/x', { params: { skip: 0 } });
      await http.get('/api/v1/x', { params: new URLSearchParams({ skip: '0' }) });
      expect(requests[0]?.params).toEqual({
        defaultCountry: 'JP',
        defaultLanguage: 'JA',
        defaultCurrency: 'JPY',
        skip: 0,
      });
      expect(Object.fromEntries(requests[1]?.config.params as URLSearchParams)).toMatchObject({
        defaultCurrency: 'JPY',
      });
      // An empty value never replaces a known one.
      setDefaultParams({ defaultCurrency: '' });
      expect(currentDefaultParams().defaultCurrency).toBe('JPY');
    } finally {
      resetDefaultParams();
    }
    await http.get('/api/v1/x');
    expect(requests[2]?.params).toEqual(DEFAULT_PARAMS);
  });
});

describe('requests without a token', () => {
  beforeEach(() => {
    token = null;
  });

  it('are cancelled with exactly "Access token is missing. Request cancelled." and never sent', async () => {
    const error = await failure(http.get('/api/v1/sellers/listSellers'));
    expect(error.message).toBe('Access token is missing. Request cancelled.');
    expect(TOKEN_MISSING_MESSAGE).toBe('Access token is missing. Request cancelled.');
    expect(error.cancelled).toBe(true);
    expect(error.code).toBe('TOKEN_MISSING');
    expect(requests).toHaveLength(0);
    // Only rejected: no toast, no sign-out.
    expect(handlers.notifyError).not.toHaveBeenCalled();
    expect(handlers.onUnauthorized).not.toHaveBeenCalled();
  });

  const exempt: [rule: string, url: string][] = [
    ['port 7001', 'http://127.0.0.1:7001/api/v1/voice/method/getAccessToken'],
    ['/record', '/record/api/v1/users/abc'],
    ['recaptcha', 'https://www.google.com/recaptcha/api.js'],
    ['gstatic', 'https://www.gstatic.com/recaptcha/releases/x/recaptcha__en.js'],
    ['helper requests', '/api/v1/helperQuery/method/searchQueries'],
    ['queryBot requests', '/api/v1/queryBot/listQueryBotChats'],
    ['localEventMessage requests', '/api/v1/localEventMessage/listEventMessages'],
    ['the auth routes (how a token is obtained)', '/api/v1/auth/signin'],
    ['the auth routes: refresh', '/api/v1/auth/refresh'],
    ['the auth routes: forgot password', '/api/v1/auth/forgot-password'],
  ];

  it.each(exempt)('are sent when exempt: %s', async (_rule, url) => {
    expect(isExemptUrl(url)).toBe(true);
    await http.get(url);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.authorization).toBeUndefined();
  });

  it.each([
    '/api/v1/sellers/listSellers',
    '/api/v1/users/byToken/current',
    '/api/v1/imports/uploadCatalogSheet',
    'http://127.0.0.1:7000/api',
  ])('are not exempt: %s', (url) => {
    expect(isExemptUrl(url)).toBe(false);
  });
});

describe('401: one silent refresh, then retry', () => {
  it('refreshes once and retries the request with the new token', async () => {
    responder = (r) =>
      r.authorization === 'Bearer token-2'
        ? { status: 200, data: { id: 'u1' } }
        : { status: 401, data: { message: 'Access token expired', code: 'TOKEN_EXPIRED' } };
    handlers.refresh.mockImplementation(async () => {
      token = 'token-2';
      return token;
    });
    const { data } = await http.get('/api/v1/users/byToken/current');
    expect(data).toEqual({ id: 'u1' });
    expect(handlers.refresh).toHaveBeenCalledTimes(1);
    expect(requests.map((r) => r.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(handlers.onUnauthorized).not.toHaveBeenCalled();
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('shares one refresh between concurrent 401s', async () => {
    responder = (r) =>
      r.authorization === 'Bearer token-2'
        ? { status: 200, data: r.url }
        : { status: 401, data: { message: 'expired', code: 'TOKEN_EXPIRED' } };
    const gate = deferred<void>();
    handlers.refresh.mockImplementation(async () => {
      await gate.promise;
      token = 'token-2';
      return token;
    });
    const calls = [http.get('/api/v1/a'), http.get('/api/v1/b'), http.get('/api/v1/c')];
    await vi.waitFor(() => expect(handlers.refresh).toHaveBeenCalled());
    gate.resolve();
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.data)).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/c']);
    expect(handlers.refresh).toHaveBeenCalledTimes(1);
  });

  it('does not refresh again when the token already changed since the request went out', async () => {
    const first = deferred<FakeReply>();
    responder = (r) => (r.authorization === 'Bearer token-1' ? first.promise : { status: 200, data: 'ok' });
    const call = http.get('/api/v1/a');
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    token = 'token-2';
    first.resolve({ status: 401, data: { message: 'expired', code: 'TOKEN_EXPIRED' } });
    expect((await call).data).toBe('ok');
    expect(handlers.refresh).not.toHaveBeenCalled();
    expect(requests[1]?.authorization).toBe('Bearer token-2');
  });

  it('calls onUnauthorized when the retry is 401 again, without a toast', async () => {
    responder = () => ({ status: 401, data: { message: 'Account disabled', code: 'ACCOUNT_INACTIVE' } });
    handlers.refresh.mockImplementation(async () => {
      token = 'token-2';
      return token;
    });
    const error = await failure(http.get('/api/v1/users/byToken/current'));
    expect(error.status).toBe(401);
    expect(handlers.refresh).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
    expect(handlers.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('calls onUnauthorized when the refresh fails, without retrying', async () => {
    responder = () => ({ status: 401, data: { message: 'expired', code: 'TOKEN_EXPIRED' } });
    handlers.refresh.mockResolvedValue(null);
    const error = await failure(http.get('/api/v1/users/byToken/current'));
    expect(error.status).toBe(401);
    expect(requests).toHaveLength(1);
    expect(handlers.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('treats a refresh that throws as a failed refresh', async () => {
    responder = () => ({ status: 401, data: { message: 'expired', code: 'TOKEN_EXPIRED' } });
    handlers.refresh.mockRejectedValue(new Error('boom'));
    await failure(http.get('/api/v1/x'));
    expect(handlers.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('never refreshes for the auth routes themselves (a 401 there is the answer)', async () => {
    responder = () => ({
      status: 401,
      data: { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' },
    });
    const error = await failure(
      http.post('/api/v1/auth/signin', { email: 'a@b.c', password: 'x' }, { silent: true }),
    );
    expect(error.message).toBe('Invalid email or password');
    expect(error.code).toBe('INVALID_CREDENTIALS');
    expect(handlers.refresh).not.toHaveBeenCalled();
    expect(handlers.onUnauthorized).not.toHaveBeenCalled();
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });
});

describe('configureHttp', () => {
  it('merges registrations: the auth layer and the app each register their own handlers', async () => {
    const appToast = vi.fn();
    const unregisterApp = configureHttp({ notifyError: appToast });
    responder = () => ({ status: 500, data: { message: 'boom', code: 'INTERNAL' } });
    await failure(http.get('/api/v1/x'));
    // The token getter registered first is still in use; the toast is the app's.
    expect(requests[0]?.authorization).toBe('Bearer token-1');
    expect(appToast).toHaveBeenCalledWith('boom');
    expect(handlers.notifyError).not.toHaveBeenCalled();
    unregisterApp();
    await failure(http.get('/api/v1/x'));
    // Unregistering puts back the defaults for its own keys only: the token getter stays.
    expect(requests[1]?.authorization).toBe('Bearer token-1');
    expect(appToast).toHaveBeenCalledTimes(1);
  });

  it('unregistering leaves keys alone that someone registered again since', async () => {
    const first = vi.fn();
    const second = vi.fn();
    const unregisterFirst = configureHttp({ notifyError: first });
    configureHttp({ notifyError: second });
    unregisterFirst();
    responder = () => ({ status: 500 });
    await failure(http.get('/api/v1/x'));
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
  });
});

describe('withRefreshLock', () => {
  it('holds the auth-refresh Web Lock while the task runs when navigator.locks exists', async () => {
    const request = vi.fn((_name: string, _options: LockOptions, callback: () => Promise<unknown>) =>
      callback(),
    );
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    try {
      await expect(withRefreshLock(async () => 'done')).resolves.toBe('done');
      expect(request).toHaveBeenCalledWith(REFRESH_LOCK_NAME, { mode: 'exclusive' }, expect.any(Function));
      expect(REFRESH_LOCK_NAME).toBe('auth-refresh');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('runs the task directly without Web Locks', async () => {
    await expect(withRefreshLock(async () => 42)).resolves.toBe(42);
  });
});

describe('task handler', () => {
  it('hands a response carrying taskStatus to onTask', async () => {
    const body = { taskStatus: { taskId: 't-1', taskName: 'Export sellers', status: 'Pending' } };
    responder = () => ({ status: 200, data: body });
    await http.post('/api/v1/sellers/export', {});
    expect(handlers.onTask).toHaveBeenCalledWith(body);
  });

  it('ignores responses without taskStatus', async () => {
    responder = () => ({ status: 200, data: { result: [], count: 0 } });
    await http.get('/api/v1/sellers/listSellers');
    expect(handlers.onTask).not.toHaveBeenCalled();
  });
});

describe('errors', () => {
  const cases: [name: string, reply: FakeReply, message: string, status: number, code: string][] = [
    ['no response', { fail: 'network' }, 'Network Error', 0, 'ERR_NETWORK'],
    ['an aborted request', { fail: 'abort' }, 'Request aborted', 0, 'ECONNABORTED'],
    ['a timeout', { fail: 'timeout' }, 'timeout exceeded', 0, 'ETIMEDOUT'],
    [
      'a server message',
      { status: 400, data: { message: 'Seller not found', code: 'NOT_FOUND' } },
      'Seller not found',
      400,
      'NOT_FOUND',
    ],
    [
      'a 5xx with a message',
      { status: 503, data: { message: 'Down for maintenance', code: 'UNAVAILABLE' } },
      'Down for maintenance',
      503,
      'UNAVAILABLE',
    ],
    [
      'no message',
      { status: 502, data: '<html>Bad gateway</html>' },
      'Request failed with status code 502',
      502,
      'HTTP_502',
    ],
    ['an empty 404', { status: 404 }, 'Request failed with status code 404', 404, 'HTTP_404'],
  ];

  it.each(cases)(
    'maps %s to its message, toasts it and rejects with an ApiError',
    async (_name, reply, message, status, code) => {
      responder = () => reply;
      const error = await failure(http.get('/api/v1/sellers/listSellers'));
      expect(error).toMatchObject({ message, status, code, cancelled: false });
      expect(getErrorMessage(error)).toBe(message);
      expect(handlers.notifyError).toHaveBeenCalledWith(message);
    },
  );

  it('tells a timeout from an abort even when axios reports ECONNABORTED for both', () => {
    const timeout = new AxiosError('timeout of 10ms exceeded', AxiosError.ECONNABORTED);
    const abort = new AxiosError('Request aborted', AxiosError.ECONNABORTED);
    expect(getErrorMessage(toApiError(timeout))).toBe('timeout exceeded');
    expect(getErrorMessage(toApiError(abort))).toBe('Request aborted');
  });

  it('does not toast a silent request', async () => {
    responder = () => ({ status: 500, data: { message: 'boom', code: 'INTERNAL' } });
    await failure(http.get('/api/v1/x', { silent: true }));
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('does not toast a request the app cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(http.get('/api/v1/x', { signal: controller.signal }));
    expect(error.cancelled).toBe(true);
    expect(handlers.notifyError).not.toHaveBeenCalled();
  });

  it('getErrorMessage handles anything', () => {
    expect(getErrorMessage(new ApiError({ message: 'm', status: 400, code: 'C' }))).toBe('m');
    expect(getErrorMessage({ issues: [{ message: 'Enter a valid e-mail address' }] })).toBe(
      'Enter a valid e-mail address',
    );
    expect(getErrorMessage(new Error('plain'))).toBe('plain');
    expect(getErrorMessage('text')).toBe('text');
    expect(getErrorMessage(undefined)).toBe('An error occurred');
  });
});
