// Stock (issue 31, docs/commerce.md): a product's on hand, what open orders hold (reserved) and what is
// available, its low-stock threshold, and the ledger of moves. Changing on hand is an adjustment with
// a reason; every move says who made it and when.
import { z } from 'zod';

export const STOCK_API = '/api/v1/stock';

export const adjustmentReasons = [
  'count',
  'received',
  'damaged',
  'lost',
  'found',
  'returned',
  'correction',
] as const;
export type AdjustmentReason = (typeof adjustmentReasons)[number];
export const adjustmentReasonLabels: Record<AdjustmentReason, string> = {
  count: 'Stock count',
  received: 'Goods received',
  damaged: 'Damaged',
  lost: 'Lost or stolen',
  found: 'Found',
  returned: 'Customer return',
  correction: 'Correction',
};

/** Every reason a move can have: the adjustments, and what the system writes (imports, orders, receipts). */
export const moveReasonLabels: Record<string, string> = {
  ...adjustmentReasonLabels,
  adjustment: 'Adjustment',
  import: 'Import',
  reserve: 'Reserved by an order',
  release: 'Released by an order',
  consume: 'Shipped',
  receipt: 'Purchase order receipt',
  return: 'Return restocked',
};

const units = z.number().int('Stock changes by whole units.');

/** POST /api/v1/stock/{productId}/adjustments: a change by `delta`, or a count (`counted`). */
export const stockAdjustmentBodySchema = z
  .object({
    reason: z.enum(adjustmentReasons, 'Choose a reason from the list.'),
    delta: units.min(-1_000_000).max(1_000_000).optional(),
    counted: units.min(0, 'A count is 0 or more.').max(100_000_000).optional(),
    note: z.string().trim().max(500).default(''),
  })
  .refine((body) => (body.delta === undefined) !== (body.counted === undefined), {
    message: 'Give either a change or a counted figure.',
    path: ['delta'],
  })
  .refine((body) => body.delta !== 0, { message: 'A change of 0 changes nothing.', path: ['delta'] });
export type StockAdjustmentBody = z.infer<typeof stockAdjustmentBodySchema>;

/** PUT /api/v1/stock/{productId}/threshold */
export const stockThresholdBodySchema = z.object({
  threshold: z
    .number()
    .int('A threshold is a whole number.')
    .min(0, 'A threshold is 0 or more.')
    .max(100_000_000),
});

export const stockMoveSchema = z.object({
  id: z.number(),
  onHandDelta: z.number(),
  reservedDelta: z.number(),
  reason: z.string(),
  note: z.string(),
  holder: z.string().nullable(),
  actorName: z.string(),
  createdAt: z.string(),
});
export type StockMove = z.infer<typeof stockMoveSchema>;

export const productStockSchema = z.object({
  productId: z.string(),
  onHand: z.number(),
  reserved: z.number(),
  available: z.number(),
  lowStockThreshold: z.number(),
  /** The latest moves, newest first. */
  moves: z.array(stockMoveSchema),
});
export type ProductStock = z.infer<typeof productStockSchema>;

export const stockConsistencySchema = z.object({
  ok: z.boolean(),
  checkedAt: z.string(),
  mismatches: z.array(z.object({ productId: z.string(), reserved: z.number(), live: z.number() })),
});
export type StockConsistency = z.infer<typeof stockConsistencySchema>;
