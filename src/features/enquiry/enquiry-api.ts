// The public enquiry endpoints (no sign-in), through the public pages' fetch (services/public-api.ts).
// Types only from the contract (its values would pull classic zod into this small chunk); answers are
// shape-checked by hand.
import type { EnquiryAccepted, EnquiryBody, EnquiryConfig, EnquiryProduct } from '../../../contracts/enquiry';
import { isRecord, publicApi, unexpectedAnswer as unexpected } from '../../services/public-api';

export const ENQUIRY_BASE = '/api/v1/enquiry';

const shopPath = (sellerCode: string) => `${ENQUIRY_BASE}/${encodeURIComponent(sellerCode)}`;

const request = publicApi({ unreachable: 'Could not reach the shop. Check your connection and try again.' });

export const enquiryApi = {
  form: (sellerCode: string) => request('GET', shopPath(sellerCode)).then(asConfig),
  products: (sellerCode: string, search: string, skip = 0) =>
    request(
      'GET',
      `${shopPath(sellerCode)}/products?${new URLSearchParams({ search, skip: String(skip) })}`,
    ).then(asProducts),
  send: (sellerCode: string, body: EnquiryBody) =>
    request('POST', shopPath(sellerCode), body).then(asAccepted),
};
export type EnquiryApi = typeof enquiryApi;

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
