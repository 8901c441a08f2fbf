// The public enquiry endpoints (no sign-in). Plain `fetch`, not the app's axios client: the page is
// loaded inside storefronts and needs neither tokens nor refreshes. Types only from the contract (its
// values would pull classic zod into this small chunk); answers are shape-checked by hand.
import type { EnquiryAccepted, EnquiryBody, EnquiryConfig, EnquiryProduct } from '../../../contracts/enquiry';
import { ApiError } from '../../services/api-error';

export const ENQUIRY_BASE = '/api/v1/enquiry';

const shopPath = (sellerCode: string) => `${ENQUIRY_BASE}/${encodeURIComponent(sellerCode)}`;

export const enquiryApi = {
  form: (sellerCode: string) => request<unknown>('GET', shopPath(sellerCode)).then(asConfig),
  products: (sellerCode: string, search: string, skip = 0) =>
    request<unknown>(
      'GET',
      `${shopPath(sellerCode)}/products?${new URLSearchParams({ search, skip: String(skip) })}`,
    ).then(asProducts),
  send: (sellerCode: string, body: EnquiryBody) =>
    request<unknown>('POST', shopPath(sellerCode), body).then(asAccepted),
};
export type EnquiryApi = typeof enquiryApi;

async function request<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new ApiError({
      message: 'Could not reach the shop. Check your connection and try again.',
      status: 0,
      code: 'NETWORK_ERROR',
      cause,
    });
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      isRecord(data) && typeof data.message === 'string' && data.message
        ? data.message
        : 'Something went wrong. Please try again.';
    const code = isRecord(data) && typeof data.code === 'string' ? data.code : `HTTP_${response.status}`;
    throw new ApiError({ message, status: response.status, code, data });
  }
  return data as T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unexpected(data: unknown): never {
  throw new ApiError({
    message: 'Unexpected answer from the server',
    status: 0,
    code: 'INVALID_RESPONSE',
    data,
  });
}

function asConfig(data: unknown): EnquiryConfig {
  if (!isRecord(data) || typeof data.sellerName !== 'string' || typeof data.formToken !== 'string')
    unexpected(data);
  return {
    sellerName: data.sellerName,
    intro: typeof data.intro === 'string' ? data.intro : '',
    languages: Array.isArray(data.languages)
      ? data.languages.filter((l): l is string => typeof l === 'string')
      : [],
    formToken: data.formToken,
  };
}

function asProducts(data: unknown): { items: EnquiryProduct[]; hasMore: boolean } {
  if (!isRecord(data) || !Array.isArray(data.items)) unexpected(data);
  return {
    items: data.items.filter(
      (item): item is EnquiryProduct =>
        isRecord(item) &&
        typeof item.id === 'string' &&
        typeof item.title === 'string' &&
        typeof item.sku === 'string',
    ),
    hasMore: data.hasMore === true,
  };
}

function asAccepted(data: unknown): EnquiryAccepted {
  if (!isRecord(data) || typeof data.reference !== 'string' || typeof data.message !== 'string')
    unexpected(data);
  return {
    mode: data.mode === 'offer' ? 'offer' : 'question',
    reference: data.reference,
    message: data.message,
  };
}
