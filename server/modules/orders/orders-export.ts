// The orders export (issue 31): what the list's tab, filters and search select, newest first, through
// the one export job as CSV or XLSX. The route fixes whose orders the job may read (a seller's own), so
// the file holds exactly what that user's list holds. Amounts are in the currency's major unit.
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  type OrderStatus,
  orderReference,
  orderStatusLabels,
  type PaymentState,
  paymentStateLabels,
} from '../../../contracts/domain/order-state';
import { ordersExportBodySchema } from '../../../contracts/orders';
import type { Db } from '../../db/client';
import { orders, sellers } from '../../db/schema';
import { minorToMajor } from '../../lib/documents/model';
import type { Cell, Column, ExportCursor, ExportDefinition } from '../../lib/export-definition';
import type { FileStorage } from '../../lib/storage/types';
import { exportJobHandler } from '../exports/export-job';
import { orderConditions } from './service';

export const ORDERS_EXPORT_KIND = 'export.orders';
export const ORDERS_EXPORT_NAME = 'Orders export';

export const ordersExportPayloadSchema = ordersExportBodySchema.extend({
  /** The seller whose orders the job may read; null: every seller's (admins and staff). */
  scope: z.string().nullable(),
});
export type OrdersExportPayload = z.infer<typeof ordersExportPayloadSchema>;

const columns: Column[] = [
  { header: 'Order', width: 12 },
  { header: 'Placed', width: 20 },
  { header: 'Seller', width: 24 },
  { header: 'Customer', width: 24 },
  { header: 'E-mail', width: 28 },
  { header: 'Status', width: 12 },
  { header: 'Payment', width: 16 },
  { header: 'Currency', width: 9 },
  { header: 'Total', width: 12 },
  { header: 'Paid', width: 12 },
  { header: 'Refunded', width: 12 },
];

interface OrderExportRow {
  id: string;
  cursorKey: string;
  cells: Cell[];
}

const whereOf = (payload: OrdersExportPayload) => {
  const { scope, format: _format, ...filters } = payload;
  return and(
    ...orderConditions(
      { isSeller: scope !== null, sellerId: scope },
      { ...filters, query: filters.query ?? '' },
    ),
  );
};

async function readBatch(db: Db, payload: OrdersExportPayload, after: ExportCursor | null, limit: number) {
  const keyset = after
    ? sql`(${orders.createdAt}, ${orders.id}) < (CAST(${after.key} AS timestamptz), CAST(${after.id} AS uuid))`
    : undefined;
  const rows = await db
    .select({
      order: orders,
      sellerName: sellers.sellerName,
      cursorKey: sql<string>`${orders.createdAt}::text`,
    })
    .from(orders)
    .innerJoin(sellers, eq(sellers.id, orders.sellerId))
    .where(and(whereOf(payload), keyset))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return rows.map(({ order, sellerName, cursorKey }): OrderExportRow => {
    const money = (minor: number) => minorToMajor(minor, order.currency);
    return {
      id: order.id,
      cursorKey,
      cells: [
        orderReference(order.number),
        order.createdAt,
        sellerName,
        order.customerName,
        order.email,
        orderStatusLabels[order.status as OrderStatus] ?? order.status,
        paymentStateLabels[order.paymentState as PaymentState] ?? order.paymentState,
        order.currency,
        money(order.totalMinor),
        money(order.paidMinor),
        money(order.refundedMinor),
      ],
    };
  });
}

export const ordersExport: ExportDefinition<OrdersExportPayload, OrderExportRow> = {
  kind: ORDERS_EXPORT_KIND,
  name: ORDERS_EXPORT_NAME,
  fileStem: 'orders',
  sheetName: 'Orders',
  noun: ['order', 'orders'],
  payloadSchema: ordersExportPayloadSchema,
  columns: async () => ({ columns }),
  async count(db, payload) {
    const [row] = await db.select({ n: sql<number>`count(*)::integer` }).from(orders).where(whereOf(payload));
    return Number(row?.n ?? 0);
  },
  readBatch,
  cellsOf: (row) => row.cells,
};

export const ordersExportHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(ordersExport, options);
