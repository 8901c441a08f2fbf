// Test fixtures of the purchase-order pages: a supplier and a purchase order as the server answers them,
// and a page rendered with a router at a URL, a fresh data cache and the user's permissions. Only tests
// import this file.
import type { ReactNode } from 'react';
import {
  CREATE_PURCHASE_ORDER_ROUTE,
  PURCHASE_ORDER_PAGE,
  PURCHASE_ORDERS_ROUTE,
  type PurchaseOrderDetail,
  type PurchaseOrderListItem,
  type Supplier,
} from '../../../contracts/purchase-orders';
import type { RouteAction } from '../../../contracts/routes';
import { renderPageAt } from '../../services/testing/render-page';

export const PO_ID = '5d2e3f40-6b7c-4d8e-9f0a-1b2c3d4e5f60';
export const SUPPLIER_ID = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';
export const SELLER_ID = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
export const PRODUCT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const LINE_ID = '2f3e4d5c-6b7a-4988-a776-655443322110';
export const OTHER_LINE_ID = '3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d';

export const CLIENT_SETTINGS = {
  defaultCountry: 'DE',
  defaultLanguage: 'en',
  defaultCurrency: 'EUR',
  currencies: ['EUR', 'USD'],
  languages: ['en'],
  locale: 'en-US',
  timeZone: 'UTC',
  weekStart: 'monday',
};

export const supplier = (patch: Partial<Supplier> = {}): Supplier => ({
  id: SUPPLIER_ID,
  name: 'Tea <Traders>',
  email: 'orders@tea.example',
  phone: '+49 30 1234',
  address: null,
  taxId: 'DE123456789',
  currency: 'USD',
  tolerance: { kind: 'percent', value: 250 },
  active: true,
  createdAt: '2026-10-01T09:00:00.000Z',
  ...patch,
});

export const listItem = (patch: Partial<PurchaseOrderListItem> = {}): PurchaseOrderListItem => ({
  id: PO_ID,
  number: 7,
  reference: 'PO-7',
  status: 'draft',
  supplierId: SUPPLIER_ID,
  supplierName: 'Tea <Traders>',
  sellerId: SELLER_ID,
  sellerName: 'Chai & Co',
  currency: 'USD',
  totalMinor: 150_000,
  expectedOn: '2026-12-01',
  createdAt: '2026-11-01T09:00:00.000Z',
  ...patch,
});

type Line = PurchaseOrderDetail['lines'][number];

export const line = (patch: Partial<Line> = {}): Line => ({
  id: LINE_ID,
  productId: PRODUCT_ID,
  name: 'Assam <b>',
  sku: 'AS-1',
  quantity: 100,
  unitCostMinor: 1000,
  received: 0,
  tolerance: { kind: 'percent', value: 250 },
  lowestAccepted: 98,
  highestAccepted: 102,
  done: false,
  ...patch,
});

export const detail = (patch: Partial<PurchaseOrderDetail> = {}): PurchaseOrderDetail => ({
  ...listItem(),
  supplier: supplier(),
  notes: 'Deliver to the back door',
  lines: [
    line(),
    line({
      id: OTHER_LINE_ID,
      name: 'Darjeeling',
      sku: 'DJ-1',
      quantity: 50,
      unitCostMinor: 1000,
      lowestAccepted: 49,
      highestAccepted: 51,
    }),
  ],
  receipts: [],
  history: [
    {
      id: '1',
      at: '2026-11-01T09:00:00.000Z',
      actor: { id: null, name: 'Ann Admin' },
      action: 'created',
      changes: [],
      note: null,
    },
  ],
  problems: { send: null, receive: 'Send it to the supplier first.', cancel: null },
  sentAt: null,
  ...patch,
});

export function renderAt(path: string, page: ReactNode, options: { actions?: RouteAction[] } = {}) {
  const { actions = ['view', 'create', 'edit'] } = options;
  return renderPageAt(path, page, {
    permissions: {
      [PURCHASE_ORDERS_ROUTE]: actions,
      [PURCHASE_ORDER_PAGE]: actions.filter((action) => action === 'view'),
      [CREATE_PURCHASE_ORDER_ROUTE]: actions.filter((action) => action !== 'edit'),
    },
  });
}
