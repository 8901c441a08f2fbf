// Orders (issue 31, docs/commerce.md): a customer's order of one seller's catalog products, priced by
// the server (contracts/domain/offer-pricing.ts: the rules offers use), with its payments, refunds,
// shipments and versions. Money is integer minor units of the order's currency
// (contracts/domain/currency.ts moneyDigits). Status and payment state: contracts/domain/order-state.ts.
import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { orderStatuses, paymentStates } from './domain/order-state';
import { intParam } from './int-param';
import { offerDiffSchema, offerPricingSchema } from './offers';
import { addressSchema } from './sellers';

export const ORDERS_ROUTE = '/orders/manage-orders';
export const CREATE_ORDER_ROUTE = '/orders/create-new-order';
export const ORDERS_API = '/api/v1/orders';
/** One order's page (its permission guards the order's own API). */
export const ORDER_PAGE = '/orders/order';
export const orderPageLink = (id: string) => `${ORDER_PAGE}?id=${id}`;

const day = z.iso.date('A date is written YYYY-MM-DD.');
const text = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const money = z
  .number()
  .int('Amounts are whole minor units (cents).')
  .min(1, 'An amount is more than 0.')
  .max(1e13);

/** An order's address (SPEC §3 Address); the shipping country is a two-letter code (taxes, shipping). */
export const orderAddressSchema = addressSchema.extend({
  fullName: text(200, 'Enter the full name.'),
  addressLine1: text(200, 'Enter the address.'),
  city: text(100, 'Enter the city.'),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'A country is a two-letter code, e.g. DE.'),
});
export type OrderAddress = z.infer<typeof orderAddressSchema>;

export const orderLineInputSchema = z
  .object({
    productId: z.uuid('Choose a product from the list.'),
    quantity: z
      .number()
      .int('A quantity is a whole number.')
      .min(1, 'A quantity is at least 1.')
      .max(1_000_000),
    discountPercent: z.number().min(0).max(100).nullable().default(null),
    discountMinor: z.number().int().min(0).nullable().default(null),
    /** A tax option of the shipping country; absent: the country's first (standard) rate; null: untaxed. */
    taxOptionId: z.string().max(40).nullable().optional(),
  })
  .refine((l) => l.discountPercent === null || l.discountMinor === null, {
    message: 'Give a line a percent or an amount off, not both.',
    path: ['discountMinor'],
  });
export type OrderLineInput = z.infer<typeof orderLineInputSchema>;

const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'A currency is a three-letter code.');

/** POST /api/v1/orders: an order entered by hand. */
export const createOrderBodySchema = z.object({
  /** Admins and staff choose the seller; a seller's is always their own. */
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  customerName: text(200, 'Enter the customer’s name.'),
  email: z.email('Enter a valid e-mail address.').max(320),
  phone: z.string().trim().max(40).default(''),
  shippingAddress: orderAddressSchema,
  /** Absent: the shipping address. */
  billingAddress: orderAddressSchema.optional(),
  currency,
  lines: z.array(orderLineInputSchema).min(1, 'Add at least one line.').max(200, 'At most 200 lines.'),
  notes: z.string().trim().max(5000).default(''),
});
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

/** POST /api/v1/orders/fromOffer/{offerId}: the accepted version's prices and taxes, frozen. */
export const orderFromOfferBodySchema = z.object({
  /** Absent: the offer's own, when it is complete (an enquiry form's request has only a country). */
  shippingAddress: orderAddressSchema.optional(),
  billingAddress: orderAddressSchema.optional(),
  notes: z.string().trim().max(5000).default(''),
});

/** PUT /api/v1/orders/{id}: a new version of the lines, re-priced and re-taxed. */
export const editOrderBodySchema = z.object({
  /** The version the edit was made on: an older one is refused (someone else changed the order). */
  version: z.number().int().min(1),
  lines: z.array(orderLineInputSchema).min(1, 'Add at least one line.').max(200, 'At most 200 lines.'),
  reason: text(500, 'Say why the order changes.'),
});
export type EditOrderBody = z.infer<typeof editOrderBodySchema>;

export const paymentMethods = ['card', 'bank_transfer', 'cash', 'cheque', 'other'] as const;
export const paymentMethodLabels: Record<(typeof paymentMethods)[number], string> = {
  card: 'Card',
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  cheque: 'Cheque',
  other: 'Other',
};

/** POST /api/v1/orders/{id}/payments */
export const paymentBodySchema = z.object({
  amountMinor: money,
  method: z.enum(paymentMethods, 'Choose how it was paid.'),
  paidOn: day,
  reference: z.string().trim().max(200).default(''),
});
export type PaymentBody = z.infer<typeof paymentBodySchema>;

/** POST /api/v1/orders/{id}/refunds: any number, up to what was captured; goods back restocked or written off. */
export const refundBodySchema = z.object({
  amountMinor: money,
  reason: text(500, 'Say why the money is refunded.'),
  returns: z
    .array(
      z.object({
        productId: z.uuid('Choose a product of the order.'),
        quantity: z.number().int('A quantity is a whole number.').min(1, 'A quantity is at least 1.'),
        /** true: back on hand; false: written off (damaged). */
        restock: z.boolean(),
      }),
    )
    .max(200)
    .default([]),
});
export type RefundBody = z.infer<typeof refundBodySchema>;

/** POST /api/v1/orders/{id}/shipments: the order leaves; the customer is mailed the tracking number. */
export const shipmentBodySchema = z.object({
  carrier: text(100, 'Name the carrier.'),
  trackingNumber: z.string().trim().max(100).default(''),
  notifyCustomer: z.boolean().default(true),
});
export type ShipmentBody = z.infer<typeof shipmentBodySchema>;

/** POST /api/v1/orders/{id}/cancel */
export const cancelBodySchema = z.object({ reason: text(500, 'Say why the order is cancelled.') });

export const orderListQuerySchema = z.object({
  status: z.enum(orderStatuses).optional(),
  paymentState: z.enum(paymentStates).optional(),
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  currency: currency.optional(),
  /** Placed on or after / before the end of these days (YYYY-MM-DD, UTC). */
  from: day.optional(),
  to: day.optional(),
  /** Name, e-mail, or the order number (ORD-12 or 12). */
  query: z.string().trim().max(200, 'Search with at most 200 characters.').default(''),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** POST /api/v1/orders/export: what the list's filters select, as CSV or XLSX, through the export job. */
export const ordersExportBodySchema = orderListQuerySchema
  .omit({ skip: true, limit: true })
  .extend({ format: z.enum(['csv', 'xlsx']).default('csv') });
export type OrdersExportBody = z.infer<typeof ordersExportBodySchema>;

export const orderListItemSchema = z.object({
  id: z.string(),
  number: z.number(),
  reference: z.string(),
  sellerId: z.string(),
  sellerName: z.string().nullable(),
  customerName: z.string(),
  email: z.string(),
  status: z.enum(orderStatuses),
  paymentState: z.enum(paymentStates),
  currency: z.string(),
  totalMinor: z.number(),
  paidMinor: z.number(),
  refundedMinor: z.number(),
  createdAt: z.string(),
});
export type OrderListItem = z.infer<typeof orderListItemSchema>;

export const orderTabsSchema = z.object(
  Object.fromEntries(orderStatuses.map((s) => [s, z.number()])),
) as z.ZodObject<Record<(typeof orderStatuses)[number], z.ZodNumber>>;
export type OrderTabs = z.infer<typeof orderTabsSchema>;

export const orderListSchema = z.object({
  result: z.array(orderListItemSchema),
  total: z.number(),
  totalCapped: z.boolean(),
  tabs: orderTabsSchema,
});
export type OrderList = z.infer<typeof orderListSchema>;

export const orderPaymentSchema = z.object({
  id: z.string(),
  amountMinor: z.number(),
  method: z.string(),
  paidOn: z.string(),
  reference: z.string(),
  actorName: z.string(),
  createdAt: z.string(),
});

export const orderRefundSchema = z.object({
  id: z.string(),
  number: z.number(),
  amountMinor: z.number(),
  reason: z.string(),
  returns: z.array(
    z.object({ productId: z.string(), name: z.string(), quantity: z.number(), restock: z.boolean() }),
  ),
  creditNoteId: z.string().nullable(),
  actorName: z.string(),
  createdAt: z.string(),
});

export const orderShipmentSchema = z.object({
  id: z.string(),
  carrier: z.string(),
  trackingNumber: z.string(),
  actorName: z.string(),
  createdAt: z.string(),
});

export const orderVersionSchema = z.object({
  version: z.number(),
  totalMinor: z.number(),
  reason: z.string(),
  diff: offerDiffSchema.nullable(),
  actorName: z.string(),
  createdAt: z.string(),
});

export const orderDetailSchema = orderListItemSchema.extend({
  phone: z.string(),
  customerId: z.string().nullable(),
  billingAddress: orderAddressSchema,
  shippingAddress: orderAddressSchema,
  version: z.number(),
  pricing: offerPricingSchema,
  notes: z.string(),
  offer: z.object({ id: z.string(), reference: z.string(), version: z.number() }).nullable(),
  payments: z.array(orderPaymentSchema),
  refunds: z.array(orderRefundSchema),
  shipments: z.array(orderShipmentSchema),
  versions: z.array(orderVersionSchema),
  history: z.array(auditEntrySchema),
  /** Its invoice and credit notes (issue 31), oldest first. */
  invoices: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['invoice', 'credit_note']),
      number: z.string().nullable(),
      status: z.string(),
      totalMinor: z.number(),
    }),
  ),
  /** What each action would be refused for now (null: allowed), so the page shows only what works. */
  problems: z.object({
    edit: z.string().nullable(),
    pay: z.string().nullable(),
    ship: z.string().nullable(),
    deliver: z.string().nullable(),
    cancel: z.string().nullable(),
    refund: z.string().nullable(),
  }),
  balanceDueMinor: z.number(),
  refundableMinor: z.number(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;
