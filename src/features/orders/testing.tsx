// Test fixtures of the order pages: an order as the server answers it, and a page rendered with a
// router at a URL, a fresh data cache and the user's permissions. Only tests import this file.
import type { ReactNode } from 'react';
import {
  CREATE_ORDER_ROUTE,
  ORDER_PAGE,
  ORDERS_ROUTE,
  type OrderDetail,
  type OrderListItem,
} from '../../../contracts/orders';
import type { RouteAction } from '../../../contracts/routes';
import { renderPageAt } from '../../services/testing/render-page';

export const ORDER_ID = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
export const PRODUCT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const SELLER_ID = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';

export const listItem = (patch: Partial<OrderListItem> = {}): OrderListItem => ({
  id: ORDER_ID,
  number: 42,
  reference: 'ORD-42',
  sellerId: SELLER_ID,
  sellerName: 'Chai & Co',
  customerName: 'Ada <script>',
  email: 'ada@example.com',
  status: 'pending',
  paymentState: 'unpaid',
  currency: 'EUR',
  totalMinor: 6422,
  paidMinor: 0,
  refundedMinor: 0,
  createdAt: '2026-11-01T09:00:00.000Z',
  ...patch,
});

const address = {
  fullName: 'Ada Buyer',
  email: 'ada@example.com',
  addressLine1: '1 Main Street',
  addressLine2: '',
  city: 'Berlin',
  state: '',
  country: 'DE',
  zipcode: '10115',
};

const noProblems = {
  edit: null,
  pay: null,
  ship: null,
  deliver: 'Only a shipped order can be marked delivered.',
  cancel: null,
  refund: 'Nothing was paid that is not refunded yet.',
};

export const detail = (patch: Partial<OrderDetail> = {}): OrderDetail => ({
  ...listItem(),
  phone: '',
  customerId: null,
  billingAddress: address,
  shippingAddress: address,
  version: 1,
  pricing: {
    currency: 'EUR',
    shippingCountry: 'DE',
    lines: [
      {
        productId: PRODUCT_ID,
        name: 'Chair <b>',
        sku: 'CH-1',
        quantity: 3,
        listUnitPriceMinor: 1999,
        unitPriceMinor: 1999,
        quantityBreaks: [],
        discountPercent: 10,
        discountMinor: null,
        grossMinor: 5997,
        discountTotalMinor: 600,
        netMinor: 5397,
        taxOptionId: 'DE-standard',
        taxLabel: 'DE VAT 19%',
        taxRate: 19,
        taxMinor: 1025,
        totalMinor: 6422,
      },
    ],
    totals: { subtotalMinor: 5997, discountMinor: 600, taxMinor: 1025, shippingMinor: 0, totalMinor: 6422 },
    validUntil: '',
    notes: '',
    pricingErrors: [],
  },
  notes: '',
  offer: null,
  payments: [],
  refunds: [],
  shipments: [],
  versions: [
    {
      version: 1,
      totalMinor: 6422,
      reason: 'Entered by hand',
      diff: null,
      actorName: 'Ann Admin',
      createdAt: '2026-11-01T09:00:00.000Z',
    },
  ],
  invoices: [],
  history: [
    {
      id: '1',
      at: '2026-11-01T09:00:00.000Z',
      actor: { id: null, name: 'Ann Admin' },
      action: 'created',
      changes: [],
      note: 'Entered by hand',
    },
  ],
  problems: noProblems,
  balanceDueMinor: 6422,
  refundableMinor: 0,
  shippedAt: null,
  deliveredAt: null,
  cancelledAt: null,
  updatedAt: '2026-11-01T09:00:00.000Z',
  ...patch,
});

export function renderAt(
  path: string,
  page: ReactNode,
  options: { actions?: RouteAction[]; seller?: boolean } = {},
) {
  const { actions = ['view', 'create', 'edit'], seller = false } = options;
  return renderPageAt(path, page, {
    seller,
    permissions: { [ORDERS_ROUTE]: actions, [ORDER_PAGE]: actions, [CREATE_ORDER_ROUTE]: actions },
  });
}
