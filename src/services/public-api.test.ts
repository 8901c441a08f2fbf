// The public pages' fetch: JSON in and out, and every failure an ApiError worded for a customer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { isRecord, publicApi, unexpectedAnswer } from './public-api';

const words = {
  unreachable: 'Could not reach the shop. Check your connection and try again.',
  tooMany: 'Too many messages. Please wait a moment and try again.',
};

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => vi.unstubAllGlobals());

describe('publicApi', () => {
  it('GETs with an Accept header and answers the JSON', async () => {
    const fetchMock = answer(200, { sellerName: 'Lamps & Co' });
    await expect(publicApi(words)('GET', '/api/v1/enquiry/SEL-0001')).resolves.toEqual({
      sellerName: 'Lamps & Co',
    });
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/enquiry/SEL-0001', {
      method: 'GET',
      headers: { accept: 'application/json' },
      body: undefined,
    });
  });

  it('POSTs the body as JSON', async () => {
    const fetchMock = answer(201, { reference: 'Q-1' });
    await publicApi(words)('POST', '/api/v1/enquiry/SEL-0001', { name: 'Ann' });
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/enquiry/SEL-0001', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ann"}',
    });
  });

  it('rejects with the server’s own message and code', async () => {
    answer(404, { message: 'There is no such shop.', code: 'NOT_FOUND' });
    const error = await failure(publicApi(words)('GET', '/x'));
    expect(error).toMatchObject({ message: 'There is no such shop.', code: 'NOT_FOUND', status: 404 });
  });

  it('words a 429 without a message with the page’s own words, else says something went wrong', async () => {
    answer(429, 'not json');
    expect(await failure(publicApi(words)('POST', '/x', {}))).toMatchObject({
      message: words.tooMany,
      code: 'HTTP_429',
      status: 429,
    });
    answer(429, {});
    expect(await failure(publicApi({ unreachable: words.unreachable })('POST', '/x', {}))).toMatchObject({
      message: 'Something went wrong. Please try again.',
    });
    answer(500, null);
    expect(await failure(publicApi(words)('GET', '/x'))).toMatchObject({
      message: 'Something went wrong. Please try again.',
      code: 'HTTP_500',
    });
  });

  it('says the server could not be reached when fetch itself fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await failure(publicApi(words)('GET', '/x'));
    expect(error).toMatchObject({ message: words.unreachable, code: 'NETWORK_ERROR', status: 0 });
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe('shape-check helpers', () => {
  it('tells a record from null, arrays and values', () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
  });

  it('rejects an unexpected answer with the data kept', () => {
    expect(() => unexpectedAnswer({ odd: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_RESPONSE', data: { odd: true } }),
    );
  });
});
