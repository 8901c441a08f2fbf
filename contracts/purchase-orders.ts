// Purchase orders and suppliers (issue 31, docs/commerce.md): the marketplace orders stock of a shop's
// products from a supplier, mails the order as a PDF, and takes deliveries in (any number of receipts)
// within the supplier's or product's tolerance; each receipt raises the stock in its own transaction.
import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { purchaseOrderStatuses } from './domain/purchase-order-state';
import { intParam } from './int-param';
import { addressSchema } from './sellers';

export const PURCHASE_ORDERS_ROUTE = '/orders/manage-purchase-orders';
export const CREATE_PURCHASE_ORDER_ROUTE = '/orders/create-new-purchase-order';
export const PURCHASE_ORDER_PAGE = '/orders/purchase-order';
export const PURCHASE_ORDERS_API = '/api/v1/purchaseOrders';
export const SUPPLIERS_API = '/api/v1/suppliers';
export const purchaseOrderPageLink = (id: string) => `${PURCHASE_ORDER_PAGE}?id=${id}`;

const text = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'A currency is a three-letter code.');

export const toleranceSchema = z
  .object({
    kind: z.enum(['percent', 'units']),
    /** Basis points for a percent (250 = 2.5 %), whole units otherwise. */
    value: z.number().int('A tolerance is a whole number.').min(0, 'A tolerance is 0 or more.').max(10_000),
  })
  .refine((t) => t.kind === 'units' || t.value <= 10_000, {
    message: 'A percent tolerance is at most 100 %.',
  });

export const supplierBodySchema = z.object({
  name: text(200, 'Enter the supplier’s name.'),
  email: z.email('Enter a valid e-mail address.').max(320),
  phone: z.string().trim().max(40).default(''),
  address: addressSchema.nullable().default(null),
  taxId: z.string().trim().max(30).default(''),
  currency,
  tolerance: toleranceSchema.default({ kind: 'percent', value: 0 }),
  active: z.boolean().default(true),
});
export type SupplierBody = z.infer<typeof supplierBodySchema>;

export const supplierSchema = supplierBodySchema.extend({ id: z.string(), createdAt: z.string() });
export type Supplier = z.infer<typeof supplierSchema>;

export const supplierListQuerySchema = z.object({
  query: z.string().trim().max(200).default(''),
  activeOnly: z.enum(['true', 'false']).default('false'),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(50),
});
export const supplierListSchema = z.object({ result: z.array(supplierSchema), total: z.number() });

export const purchaseOrderLineInputSchema = z.object({
  productId: z.uuid('Choose a product from the list.'),
  quantity: z
    .number()
    .int('A quantity is a whole number.')
    .min(1, 'A quantity is at least 1.')
    .max(10_000_000),
  unitCostMinor: z.number().int('Costs are whole minor units (cents).').min(0).max(1e12),
});

export const createPurchaseOrderBodySchema = z.object({
  supplierId: z.uuid('Choose a supplier.'),
  sellerId: z.uuid('Choose the shop whose stock it is.'),
  currency,
  expectedOn: z.iso.date('A date is written YYYY-MM-DD.').nullable().default(null),
  notes: z.string().trim().max(5000).default(''),
  lines: z
    .array(purchaseOrderLineInputSchema)
    .min(1, 'Add at least one line.')
    .max(200, 'At most 200 lines.'),
});
export type CreatePurchaseOrderBody = z.infer<typeof createPurchaseOrderBodySchema>;

/** POST /{id}/receipts: what arrived per line; over the tolerance needs `confirmOver` and a reason. */
export const receiptBodySchema = z
  .object({
    lines: z
      .array(
        z.object({
          lineId: z.uuid('Choose a line of this purchase order.'),
          quantity: z.number().int('A quantity is a whole number.').min(1, 'A quantity is at least 1.'),
        }),
      )
      .min(1, 'Enter what arrived.')
      .max(200),
    note: z.string().trim().max(1000).default(''),
    confirmOver: z.boolean().default(false),
    overReason: z.string().trim().max(500).default(''),
  })
  .refine((body) => !body.confirmOver || body.overReason.length > 0, {
    message: 'Say why more than ordered is kept.',
    path: ['overReason'],
  });
export type ReceiptBody = z.infer<typeof receiptBodySchema>;

export const purchaseOrderListQuerySchema = z.object({
  status: z.enum(purchaseOrderStatuses).optional(),
  supplierId: z.uuid().optional(),
  query: z.string().trim().max(200).default(''),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});
export type PurchaseOrderListQuery = z.infer<typeof purchaseOrderListQuerySchema>;

export const purchaseOrderListItemSchema = z.object({
  id: z.string(),
  number: z.number(),
  reference: z.string(),
  status: z.enum(purchaseOrderStatuses),
  supplierId: z.string(),
  supplierName: z.string(),
  sellerId: z.string(),
  sellerName: z.string().nullable(),
  currency: z.string(),
  totalMinor: z.number(),
  expectedOn: z.string().nullable(),
  createdAt: z.string(),
});
export type PurchaseOrderListItem = z.infer<typeof purchaseOrderListItemSchema>;

export const purchaseOrderListSchema = z.object({
  result: z.array(purchaseOrderListItemSchema),
  total: z.number(),
  totalCapped: z.boolean(),
  tabs: z.object(Object.fromEntries(purchaseOrderStatuses.map((s) => [s, z.number()]))) as z.ZodObject<
    Record<(typeof purchaseOrderStatuses)[number], z.ZodNumber>
  >,
});
export type PurchaseOrderList = z.infer<typeof purchaseOrderListSchema>;

export const purchaseOrderLineSchema = z.object({
  id: z.string(),
  productId: z.string(),
  name: z.string(),
  sku: z.string(),
  quantity: z.number(),
  unitCostMinor: z.number(),
  received: z.number(),
  tolerance: z.object({ kind: z.enum(['percent', 'units']), value: z.number() }),
  /** The fewest and most units accepted without a confirmation. */
  lowestAccepted: z.number(),
  highestAccepted: z.number(),
  done: z.boolean(),
});

export const purchaseOrderDetailSchema = purchaseOrderListItemSchema.extend({
  supplier: supplierSchema,
  notes: z.string(),
  lines: z.array(purchaseOrderLineSchema),
  receipts: z.array(
    z.object({
      id: z.string(),
      number: z.number(),
      lines: z.array(z.object({ lineId: z.string(), quantity: z.number() })),
      note: z.string(),
      overReason: z.string().nullable(),
      actorName: z.string(),
      createdAt: z.string(),
    }),
  ),
  history: z.array(auditEntrySchema),
  problems: z.object({
    send: z.string().nullable(),
    receive: z.string().nullable(),
    cancel: z.string().nullable(),
  }),
  sentAt: z.string().nullable(),
});
export type PurchaseOrderDetail = z.infer<typeof purchaseOrderDetailSchema>;
