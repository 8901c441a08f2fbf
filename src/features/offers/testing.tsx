// Test fixtures of the offer pages: an offer as the server answers it, and a page rendered with a
// router at a URL, a fresh data cache and the user's permissions. Only tests import this file.
import type { ReactNode } from 'react';
import {
  OFFER_PAGE,
  OFFERS_ROUTE,
  type OfferDetail,
  type OfferListItem,
  type OfferPricing,
  type PublicOffer,
} from '../../../contracts/offers';
import { CREATE_ORDER_ROUTE } from '../../../contracts/orders';
import type { RouteAction } from '../../../contracts/routes';
import { renderPageAt } from '../../services/testing/render-page';

export const OFFER_ID = '5b0c7d2e-1f3a-4b5c-8d6e-7f8091a2b3c4';
export const PRODUCT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

export const listItem = (patch: Partial<OfferListItem> = {}): OfferListItem => ({
  id: OFFER_ID,
  number: 7,
  sellerId: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  sellerName: 'Chai & Co',
  customerName: 'Ada <script>',
  email: 'ada@example.com',
  status: 'offered',
  currentVersion: 1,
  currency: 'EUR',
  totalMinor: 9720,
  expiresAt: '2099-01-10T22:59:59.999Z',
  toConvert: false,
  createdAt: '2026-01-01T09:00:00.000Z',
  updatedAt: '2026-01-01T09:00:00.000Z',
  ...patch,
});

export const pricing = (patch: Partial<OfferPricing> = {}): OfferPricing => ({
  currency: 'EUR',
  shippingCountry: 'DE',
  lines: [
    {
      productId: PRODUCT_ID,
      name: 'Chair <b>',
      sku: 'CH-1',
      quantity: 12,
      listUnitPriceMinor: 1000,
      unitPriceMinor: 900,
      quantityBreaks: [{ minQuantity: 10, unitPriceMinor: 900 }],
      discountPercent: 10,
      discountMinor: null,
      grossMinor: 10_800,
      discountTotalMinor: 1080,
      netMinor: 9720,
      taxOptionId: 'DE-standard',
      taxLabel: 'DE VAT 19%',
      taxRate: 19,
      taxMinor: 1847,
      totalMinor: 11_567,
    },
  ],
  totals: {
    subtotalMinor: 10_800,
    discountMinor: 1080,
    taxMinor: 1847,
    shippingMinor: 1250,
    totalMinor: 12_817,
  },
  validUntil: '2099-01-10',
  notes: 'Delivery in <two> weeks',
  pricingErrors: [],
  ...patch,
});

export const detail = (patch: Partial<OfferDetail> = {}): OfferDetail => ({
  ...listItem(),
  phone: '',
  message: 'Twelve chairs <please>',
  shippingAddress: null,
  requestedItems: [{ productId: PRODUCT_ID, name: 'Chair <b>', quantity: 12, note: '' }],
  contactId: null,
  customerId: null,
  queryId: null,
  orderId: null,
  draft: pricing({ notes: 'Now with delivery' }),
  lastSent: pricing(),
  versions: [
    {
      version: 1,
      currency: 'EUR',
      totalMinor: 12_817,
      validUntil: '2099-01-10',
      expiresAt: '2099-01-10T22:59:59.999Z',
      sentAt: '2026-01-02T09:00:00.000Z',
      sentByName: 'Sam Seller',
      openedAt: null,
      snapshotSha256: 'a'.repeat(64),
    },
  ],
  responses: [],
  history: [
    { at: '2026-01-02T09:00:00.000Z', actorName: 'Sam Seller', action: 'sent', note: 'Version 1 sent' },
  ],
  canSend: true,
  choices: {
    currencies: ['EUR', 'USD', 'JPY'],
    defaultCurrency: 'EUR',
    taxOptions: [
      { id: 'DE-standard', label: 'DE VAT 19%', value: 19, country: 'DE' },
      { id: 'DE-reduced', label: 'DE VAT reduced 7%', value: 7, country: 'DE' },
      { id: 'CA-gst', label: 'CA GST 5%', value: 5, country: 'CA' },
    ],
    shippingCountry: 'DE',
    timeZone: 'Europe/Berlin',
    defaultValidUntil: '2099-02-01',
  },
  ...patch,
});

export const publicOffer = (patch: Partial<PublicOffer> = {}): PublicOffer => ({
  number: 7,
  version: 1,
  sellerName: 'Chai & Co',
  customerName: 'Ada <script>',
  status: 'offered',
  offer: pricing(),
  expiresAt: '2099-01-10T22:59:59.999Z',
  sentAt: '2026-01-02T09:00:00.000Z',
  newerVersion: null,
  newerToken: null,
  canRespond: true,
  reason: null,
  response: null,
  ...patch,
});

export function renderAt(
  path: string,
  page: ReactNode,
  options: { actions?: RouteAction[]; seller?: boolean; orderActions?: RouteAction[] } = {},
) {
  const { actions = ['view', 'edit', 'approve'], seller = false, orderActions = [] } = options;
  return renderPageAt(path, page, {
    seller,
    permissions: { [OFFERS_ROUTE]: actions, [OFFER_PAGE]: actions, [CREATE_ORDER_ROUTE]: orderActions },
  });
}
