// Test support: a fake network for `http`, plugged in as the axios adapter (`http.defaults.adapter`),
// so requests run through the real interceptors and only the wire is fake. Never imported by the app.
import { type AxiosAdapter, AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

export interface RecordedRequest {
  method: string;
  /** The path as requested (baseURL is ''). */
  url: string;
  params: Record<string, unknown>;
  /** The Authorization header, or undefined when none was sent. */
  authorization: string | undefined;
  /** The parsed JSON body, when there was one. */
  body: unknown;
  config: InternalAxiosRequestConfig;
}

export type FakeReply = { status: number; data?: unknown } | { fail: 'network' | 'timeout' | 'abort' };

export type Responder = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** An axios adapter answering with `responder`; every request is recorded in `requests`. */
export function createFakeAdapter(responder: Responder): {
  adapter: AxiosAdapter;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const adapter: AxiosAdapter = async (config) => {
    const auth = config.headers.get('Authorization');
    const request: RecordedRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      params: { ...(config.params as Record<string, unknown>) },
      authorization: typeof auth === 'string' ? auth : undefined,
      body: parseBody(config.data),
      config,
    };
    requests.push(request);
    // Like a real network, answer asynchronously.
    const reply = await responder(request);
    if ('fail' in reply) {
      if (reply.fail === 'network') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
      if (reply.fail === 'timeout') {
        throw new AxiosError(
          `timeout of ${config.timeout ?? 0}ms exceeded`,
          AxiosError.ETIMEDOUT,
          config,
          {},
        );
      }
      throw new AxiosError('Request aborted', AxiosError.ECONNABORTED, config, {});
    }
    const response: AxiosResponse = {
      data: reply.data ?? '',
      status: reply.status,
      statusText: String(reply.status),
      headers: {},
      config,
      request: {},
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${reply.status}`,
      reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
  return { adapter, requests };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A test JWT (unsigned: the client never verifies, the server does). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'at+jwt' })}.${encode(claims)}.signature`;
}
