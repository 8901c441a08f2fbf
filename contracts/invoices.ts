// Invoices and credit notes (issue 31, docs/commerce.md): made from an order, from a seller's
// subscription period (the marketplace bills its sellers) or by hand; a draft has no number, issuing
// gives it one from the issuer's gapless counter and freezes the document (PDF/A-3 with its EN 16931
// XML, stored with their SHA-256). Money is integer minor units of the invoice's currency.
import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { invoiceKinds, invoiceStatuses } from './domain/invoice-state';
import { intParam } from './int-param';

export const INVOICES_ROUTE = '/invoices/manage-invoices';
export const CREATE_INVOICE_ROUTE = '/invoices/create-invoice';
/** The same invoices, from the Marketing section (its guide text is empty: SPEC §1). */
export const MARKETING_INVOICES_ROUTE = '/marketing/manage-invoices';
/** One invoice's page. */
export const INVOICE_PAGE = '/invoices/invoice';
export const INVOICES_API = '/api/v1/invoices';
export const invoicePageLink = (id: string) => `${INVOICE_PAGE}?id=${id}`;

const day = z.iso.date('A date is written YYYY-MM-DD.');
const text = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'A currency is a three-letter code.');

/** A seller's or buyer's details as the document prints them. */
export const documentPartySchema = z.object({
  name: text(200, 'Enter the name.'),
  taxId: z.string().trim().max(30).default(''),
  email: z.union([z.literal(''), z.email('Enter a valid e-mail address.').max(320)]).default(''),
  addressLine1: z.string().trim().max(200).default(''),
  addressLine2: z.string().trim().max(200).default(''),
  city: z.string().trim().max(100).default(''),
  state: z.string().trim().max(100).default(''),
  zipcode: z.string().trim().max(20).default(''),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'A country is a two-letter code, e.g. DE.'),
});
export type DocumentParty = z.infer<typeof documentPartySchema>;

/** A line typed by hand: the server computes its net, tax and total. */
export const invoiceLineInputSchema = z.object({
  name: text(300, 'Describe the line.'),
  sku: z.string().trim().max(64).default(''),
  quantity: z
    .number()
    .int('A quantity is a whole number.')
    .min(1, 'A quantity is at least 1.')
    .max(1_000_000),
  unitPriceMinor: z.number().int('Prices are whole minor units (cents).').min(0).max(1e12),
  discountMinor: z.number().int().min(0).max(1e13).default(0),
  taxRate: z.number().min(0, 'A tax rate is 0–100 %.').max(100, 'A tax rate is 0–100 %.'),
});
export type InvoiceLineInput = z.infer<typeof invoiceLineInputSchema>;

/** POST /api/v1/invoices: a draft. */
export const createInvoiceBodySchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('order'), orderId: z.uuid('Choose an order.') }),
  z.object({ source: z.literal('subscription'), subscriptionId: z.uuid('Choose a subscription period.') }),
  z.object({
    source: z.literal('manual'),
    /** The seller issuing it (admins choose; the marketplace bills its sellers from their periods). */
    sellerId: z.uuid('Choose a seller from the list.'),
    buyer: documentPartySchema,
    currency,
    lines: z.array(invoiceLineInputSchema).min(1, 'Add at least one line.').max(200, 'At most 200 lines.'),
    shippingMinor: z.number().int().min(0).max(1e12).default(0),
    reference: z.string().trim().max(100).default(''),
    notes: z.string().trim().max(2000).default(''),
  }),
]);
export type CreateInvoiceBody = z.infer<typeof createInvoiceBodySchema>;

/** POST /api/v1/invoices/{id}/payments: money received on an invoice that no order carries. */
export const invoicePaymentBodySchema = z.object({
  amountMinor: z.number().int('Amounts are whole minor units (cents).').min(1, 'An amount is more than 0.'),
  paidOn: day,
  reference: z.string().trim().max(200).default(''),
});

export const invoiceReasonBodySchema = z.object({ reason: text(500, 'Say why.') });

/** POST /api/v1/invoices/{id}/mail: to the buyer's address unless another is given. */
export const invoiceMailBodySchema = z.object({
  to: z.email('Enter a valid e-mail address.').max(320).optional(),
});

export const invoiceListQuerySchema = z.object({
  status: z.enum(invoiceStatuses).optional(),
  kind: z.enum(invoiceKinds).optional(),
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  currency: currency.optional(),
  /** Issued (drafts: created) on or after / on or before these days. */
  from: day.optional(),
  to: day.optional(),
  /** The number, the buyer's name or e-mail. */
  query: z.string().trim().max(200, 'Search with at most 200 characters.').default(''),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoiceListItemSchema = z.object({
  id: z.string(),
  kind: z.enum(invoiceKinds),
  status: z.enum(invoiceStatuses),
  number: z.string().nullable(),
  source: z.string(),
  sellerId: z.string(),
  sellerName: z.string().nullable(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  currency: z.string(),
  totalMinor: z.number(),
  taxMinor: z.number(),
  paidMinor: z.number(),
  creditedMinor: z.number(),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  createdAt: z.string(),
});
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;

export const invoiceTabsSchema = z.object(
  Object.fromEntries(invoiceStatuses.map((s) => [s, z.number()])),
) as z.ZodObject<Record<(typeof invoiceStatuses)[number], z.ZodNumber>>;
export type InvoiceTabs = z.infer<typeof invoiceTabsSchema>;

export const invoiceListSchema = z.object({
  result: z.array(invoiceListItemSchema),
  total: z.number(),
  totalCapped: z.boolean(),
  tabs: invoiceTabsSchema,
});
export type InvoiceList = z.infer<typeof invoiceListSchema>;

export const documentLineSchema = z.object({
  name: z.string(),
  sku: z.string(),
  quantity: z.number(),
  unitPriceMinor: z.number(),
  discountMinor: z.number(),
  netMinor: z.number(),
  taxRate: z.number(),
  taxMinor: z.number(),
  totalMinor: z.number(),
});

export const invoiceDetailSchema = invoiceListItemSchema.extend({
  seller: documentPartySchema,
  buyer: documentPartySchema,
  lines: z.array(documentLineSchema),
  shippingMinor: z.number(),
  netMinor: z.number(),
  taxBreakdown: z.array(z.object({ rate: z.number(), baseMinor: z.number(), taxMinor: z.number() })),
  reference: z.string(),
  notes: z.string(),
  order: z.object({ id: z.string(), reference: z.string() }).nullable(),
  creditedInvoice: z.object({ id: z.string(), number: z.string().nullable() }).nullable(),
  creditNotes: z.array(
    z.object({
      id: z.string(),
      number: z.string().nullable(),
      totalMinor: z.number(),
      issueDate: z.string().nullable(),
    }),
  ),
  balanceMinor: z.number(),
  documentSha256: z.string().nullable(),
  pdfSha256: z.string().nullable(),
  issuedAt: z.string().nullable(),
  history: z.array(auditEntrySchema),
  /** What each action would be refused for now (null: allowed). */
  problems: z.object({
    issue: z.string().nullable(),
    delete: z.string().nullable(),
    pay: z.string().nullable(),
    fail: z.string().nullable(),
    cancel: z.string().nullable(),
    mail: z.string().nullable(),
  }),
  /** An Indian GST e-invoice (INV-01) can be exported: the issuer is in India and it is in INR. */
  gstExport: z.boolean(),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

/** POST /api/v1/invoices/register: the invoice register of a period, through the export job. */
export const invoiceRegisterBodySchema = z
  .object({
    from: day,
    to: day,
    format: z.enum(['csv', 'xlsx']).default('csv'),
    sellerId: z.uuid().optional(),
  })
  .refine((body) => body.from <= body.to, { message: 'The period ends before it starts.', path: ['to'] });
export type InvoiceRegisterBody = z.infer<typeof invoiceRegisterBodySchema>;
