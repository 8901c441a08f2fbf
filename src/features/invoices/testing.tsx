// Test fixtures of the invoice pages: an invoice as the server answers it (a draft, or issued), and a
// page rendered with a router at a URL, a fresh data cache and the user's permissions. Only tests import
// this file.
import type { ReactNode } from 'react';
import {
  CREATE_INVOICE_ROUTE,
  INVOICE_PAGE,
  INVOICES_ROUTE,
  type InvoiceDetail,
  type InvoiceListItem,
  MARKETING_INVOICES_ROUTE,
} from '../../../contracts/invoices';
import type { RouteAction } from '../../../contracts/routes';
import { renderPageAt } from '../../services/testing/render-page';

export const INVOICE_ID = '5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f';
export const SELLER_ID = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
export const ORDER_ID = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

export const listItem = (patch: Partial<InvoiceListItem> = {}): InvoiceListItem => ({
  id: INVOICE_ID,
  kind: 'invoice',
  status: 'unpaid',
  number: 'INV-2026-00042',
  source: 'manual',
  sellerId: SELLER_ID,
  sellerName: 'Chai & Co',
  buyerName: 'Ada <script>',
  buyerEmail: 'ada@example.com',
  currency: 'EUR',
  totalMinor: 11900,
  taxMinor: 1900,
  paidMinor: 0,
  creditedMinor: 0,
  issueDate: '2026-11-02',
  dueDate: '2026-11-16',
  createdAt: '2026-11-01T09:00:00.000Z',
  ...patch,
});

const party = (name: string, email: string) => ({
  name,
  taxId: 'DE123456789',
  email,
  addressLine1: '1 Main Street',
  addressLine2: '',
  city: 'Berlin',
  state: '',
  zipcode: '10115',
  country: 'DE',
});

/** An issued, unpaid invoice typed by hand. */
export const detail = (patch: Partial<InvoiceDetail> = {}): InvoiceDetail => ({
  ...listItem(),
  seller: party('Chai & Co', 'billing@chai.example'),
  buyer: party('Ada <script>', 'ada@example.com'),
  lines: [
    {
      name: 'Consulting <b>',
      sku: '',
      quantity: 2,
      unitPriceMinor: 5000,
      discountMinor: 0,
      netMinor: 10000,
      taxRate: 19,
      taxMinor: 1900,
      totalMinor: 11900,
    },
  ],
  shippingMinor: 0,
  netMinor: 10000,
  taxBreakdown: [{ rate: 19, baseMinor: 10000, taxMinor: 1900 }],
  reference: '',
  notes: '',
  order: null,
  creditedInvoice: null,
  creditNotes: [],
  balanceMinor: 11900,
  documentSha256: 'a'.repeat(64),
  pdfSha256: 'b'.repeat(64),
  issuedAt: '2026-11-02T09:00:00.000Z',
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
  problems: {
    issue: 'It is issued already.',
    delete: 'An issued invoice is never deleted: cancel it with a credit note.',
    pay: null,
    fail: null,
    cancel: null,
    mail: null,
  },
  gstExport: false,
  ...patch,
});

/** A draft: no number, no files; it may be issued or deleted. */
export const draft = (patch: Partial<InvoiceDetail> = {}): InvoiceDetail =>
  detail({
    status: 'draft',
    number: null,
    issueDate: null,
    dueDate: null,
    documentSha256: null,
    pdfSha256: null,
    issuedAt: null,
    problems: {
      issue: null,
      delete: null,
      pay: 'Issue it first: a draft has no number.',
      fail: 'Issue it first: a draft has no number.',
      cancel: 'A draft is deleted, not cancelled.',
      mail: 'Issue it first: a draft has no number.',
    },
    ...patch,
  });

export function renderAt(
  path: string,
  page: ReactNode,
  options: { actions?: RouteAction[]; seller?: boolean } = {},
) {
  const { actions = ['view', 'create', 'edit', 'delete', 'export'], seller = false } = options;
  return renderPageAt(path, page, {
    seller,
    permissions: {
      [INVOICES_ROUTE]: actions,
      [INVOICE_PAGE]: ['view'],
      [CREATE_INVOICE_ROUTE]: actions.filter((action) => action === 'view' || action === 'create'),
      [MARKETING_INVOICES_ROUTE]: ['view'],
    },
  });
}
