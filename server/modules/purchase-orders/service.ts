// Purchase orders (issue 31): drafted for one shop's products from a supplier (each line takes the
// product's own receiving tolerance, else the supplier's), sent (the supplier mailed the PDF), received
// in any number of receipts (stock raised through the stock path in the receipt's transaction; over the
// tolerance only with a confirmation and a reason) and cancelled while nothing arrived. The status
// follows from the lines (contracts/domain/purchase-order-state.ts).
import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  highestAccepted,
  lineReceived,
  lowestAccepted,
  type PurchaseOrderStatus,
  purchaseOrderReference,
  purchaseOrderStatuses,
  receivedStatus,
  type Tolerance,
  toleranceText,
} from '../../../contracts/domain/purchase-order-state';
import type {
  CreatePurchaseOrderBody,
  PurchaseOrderDetail,
  PurchaseOrderList,
  PurchaseOrderListQuery,
  ReceiptBody,
  Supplier,
} from '../../../contracts/purchase-orders';
import type { Db, Tx } from '../../db/client';
import {
  products,
  productTolerances,
  purchaseOrderLines,
  purchaseOrderReceipts,
  purchaseOrders,
  suppliers,
} from '../../db/schema';
import { type Actor, readAuditPage, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { sellerNames, TOTAL_CAP } from '../../lib/tabbed-list';
import { adjustStock } from '../stock/stock';

type PoRow = typeof purchaseOrders.$inferSelect;
type LineRow = typeof purchaseOrderLines.$inferSelect;
type SupplierRow = typeof suppliers.$inferSelect;

export const poNotFound = () =>
  new HttpError(404, 'There is no such purchase order.', 'PURCHASE_ORDER_NOT_FOUND');

export function supplierOf(row: SupplierRow): Supplier {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address ?? null,
    taxId: row.taxId,
    currency: row.currency,
    tolerance: { kind: row.toleranceKind as Tolerance['kind'], value: row.toleranceValue },
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

const toleranceOf = (line: LineRow): Tolerance => ({
  kind: line.toleranceKind as Tolerance['kind'],
  value: line.toleranceValue,
});

export async function findPurchaseOrder(db: Db | Tx, id: string, lock = false): Promise<PoRow> {
  const query = db.select().from(purchaseOrders).where(eq(purchaseOrders.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw poNotFound();
  return row;
}

export async function listPurchaseOrders(db: Db, query: PurchaseOrderListQuery): Promise<PurchaseOrderList> {
  const conditions: (SQL | undefined)[] = [];
  if (query.status) conditions.push(eq(purchaseOrders.status, query.status));
  if (query.supplierId) conditions.push(eq(purchaseOrders.supplierId, query.supplierId));
  const search = query.query.trim();
  if (search) {
    const number = /^(?:PO-)?(\d{1,15})$/i.exec(search);
    const byName = ilike(suppliers.name, containsPattern(search));
    conditions.push(number ? or(byName, eq(purchaseOrders.number, Number(number[1]))) : byName);
  }
  const where = and(...conditions);
  const [rows, [counted], tabRows] = await Promise.all([
    db
      .select({ po: purchaseOrders, supplierName: suppliers.name })
      .from(purchaseOrders)
      .innerJoin(suppliers, eq(suppliers.id, purchaseOrders.supplierId))
      .where(where)
      .orderBy(desc(purchaseOrders.createdAt), desc(purchaseOrders.id))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: sql<number>`count(*)::integer` }).from(
      db
        .select({ one: sql`1` })
        .from(purchaseOrders)
        .innerJoin(suppliers, eq(suppliers.id, purchaseOrders.supplierId))
        .where(where)
        .limit(TOTAL_CAP + 1)
        .as('capped'),
    ),
    db
      .select({ status: purchaseOrders.status, n: sql<number>`count(*)::integer` })
      .from(purchaseOrders)
      .groupBy(purchaseOrders.status),
  ]);
  const names = await sellerNames(
    db,
    rows.map((row) => row.po.sellerId),
  );
  const tabs = Object.fromEntries(
    purchaseOrderStatuses.map((status) => [status, 0]),
  ) as PurchaseOrderList['tabs'];
  for (const row of tabRows) if (row.status in tabs) tabs[row.status as PurchaseOrderStatus] = Number(row.n);
  const total = Number(counted?.n ?? 0);
  return {
    result: rows.map(({ po, supplierName }) => ({
      id: po.id,
      number: po.number,
      reference: purchaseOrderReference(po.number),
      status: po.status as PurchaseOrderStatus,
      supplierId: po.supplierId,
      supplierName,
      sellerId: po.sellerId,
      sellerName: names.get(po.sellerId) ?? null,
      currency: po.currency,
      totalMinor: po.totalMinor,
      expectedOn: po.expectedOn,
      createdAt: po.createdAt.toISOString(),
    })),
    total: Math.min(total, TOTAL_CAP),
    totalCapped: total > TOTAL_CAP,
    tabs,
  };
}

/** Why an action is refused now, or null. */
export function poActionProblem(
  action: 'send' | 'receive' | 'cancel',
  status: PurchaseOrderStatus,
  anyReceived: boolean,
) {
  if (status === 'cancelled') return 'It is cancelled.';
  switch (action) {
    case 'send':
      return status === 'draft' ? null : 'It was sent already.';
    case 'receive':
      if (status === 'draft') return 'Send it to the supplier first.';
      return status === 'received' ? 'Everything arrived already.' : null;
    case 'cancel':
      return anyReceived ? 'Goods arrived on it: it can no longer be cancelled.' : null;
  }
}

export async function purchaseOrderDetail(db: Db, id: string): Promise<PurchaseOrderDetail> {
  const po = await findPurchaseOrder(db, id);
  const [[supplier], lines, receipts, history, names] = await Promise.all([
    db.select().from(suppliers).where(eq(suppliers.id, po.supplierId)),
    db
      .select()
      .from(purchaseOrderLines)
      .where(eq(purchaseOrderLines.purchaseOrderId, id))
      .orderBy(asc(purchaseOrderLines.position)),
    db
      .select()
      .from(purchaseOrderReceipts)
      .where(eq(purchaseOrderReceipts.purchaseOrderId, id))
      .orderBy(asc(purchaseOrderReceipts.number)),
    readAuditPage(db, { type: 'purchase_order', id }, { skip: 0, limit: 200 }),
    sellerNames(db, [po.sellerId]),
  ]);
  const status = po.status as PurchaseOrderStatus;
  const anyReceived = lines.some((line) => line.received > 0);
  return {
    id: po.id,
    number: po.number,
    reference: purchaseOrderReference(po.number),
    status,
    supplierId: po.supplierId,
    supplierName: supplier!.name,
    sellerId: po.sellerId,
    sellerName: names.get(po.sellerId) ?? null,
    currency: po.currency,
    totalMinor: po.totalMinor,
    expectedOn: po.expectedOn,
    createdAt: po.createdAt.toISOString(),
    supplier: supplierOf(supplier!),
    notes: po.notes,
    lines: lines.map((line) => {
      const tolerance = toleranceOf(line);
      return {
        id: line.id,
        productId: line.productId,
        name: line.name,
        sku: line.sku,
        quantity: line.quantity,
        unitCostMinor: line.unitCostMinor,
        received: line.received,
        tolerance,
        lowestAccepted: lowestAccepted(line.quantity, tolerance),
        highestAccepted: highestAccepted(line.quantity, tolerance),
        done: lineReceived({ ordered: line.quantity, received: line.received, tolerance }),
      };
    }),
    receipts: receipts.map((receipt) => ({
      id: receipt.id,
      number: receipt.number,
      lines: receipt.lines,
      note: receipt.note,
      overReason: receipt.overReason,
      actorName: receipt.actorName,
      createdAt: receipt.createdAt.toISOString(),
    })),
    history: history.result,
    problems: {
      send: poActionProblem('send', status, anyReceived),
      receive: poActionProblem('receive', status, anyReceived),
      cancel: poActionProblem('cancel', status, anyReceived),
    },
    sentAt: po.sentAt?.toISOString() ?? null,
  };
}

export async function createPurchaseOrder(
  app: Pick<FastifyInstance, 'db'>,
  actor: Actor,
  body: CreatePurchaseOrderBody,
): Promise<string> {
  return app.db.transaction(async (tx) => {
    const [supplier] = await tx.select().from(suppliers).where(eq(suppliers.id, body.supplierId));
    if (!supplier?.active) throw new HttpError(400, 'Choose an active supplier.', 'SUPPLIER_NOT_FOUND');
    const ids = [...new Set(body.lines.map((line) => line.productId))];
    const found = await tx
      .select({
        id: products.id,
        title: products.title,
        sku: products.sku,
        kind: productTolerances.kind,
        value: productTolerances.value,
      })
      .from(products)
      .leftJoin(productTolerances, eq(productTolerances.productId, products.id))
      .where(and(inArray(products.id, ids), eq(products.sellerId, body.sellerId)));
    if (found.length !== ids.length)
      throw new HttpError(400, 'Choose products of the shop the stock is for.', 'PRODUCT_NOT_OF_SELLER');
    const byId = new Map(found.map((product) => [product.id, product]));
    const total = body.lines.reduce((sum, line) => sum + line.quantity * line.unitCostMinor, 0);
    if (!Number.isSafeInteger(total)) throw new HttpError(400, 'The order is too large.', 'TOO_LARGE');
    const [po] = await tx
      .insert(purchaseOrders)
      .values({
        supplierId: supplier.id,
        sellerId: body.sellerId,
        currency: body.currency,
        expectedOn: body.expectedOn,
        notes: body.notes,
        totalMinor: total,
        createdBy: actor.id,
      })
      .returning({ id: purchaseOrders.id, number: purchaseOrders.number });
    await tx.insert(purchaseOrderLines).values(
      body.lines.map((line, position) => {
        const product = byId.get(line.productId)!;
        return {
          purchaseOrderId: po!.id,
          position,
          productId: product.id,
          name: product.title,
          sku: product.sku,
          quantity: line.quantity,
          unitCostMinor: line.unitCostMinor,
          toleranceKind: product.kind ?? supplier.toleranceKind,
          toleranceValue: product.value ?? supplier.toleranceValue,
        };
      }),
    );
    await recordAudit(tx, {
      subject: { type: 'purchase_order', id: po!.id },
      actor,
      action: 'created',
      note: `To ${supplier.name}`,
    });
    return po!.id;
  });
}

async function lockedFor(tx: Tx, id: string, action: 'send' | 'receive' | 'cancel') {
  const po = await findPurchaseOrder(tx, id, true);
  const lines = await tx
    .select()
    .from(purchaseOrderLines)
    .where(eq(purchaseOrderLines.purchaseOrderId, id))
    .orderBy(asc(purchaseOrderLines.position));
  const problem = poActionProblem(
    action,
    po.status as PurchaseOrderStatus,
    lines.some((line) => line.received > 0),
  );
  if (problem) throw new HttpError(409, problem, 'PURCHASE_ORDER_ACTION_REFUSED');
  return { po, lines };
}

/** Marks it sent (the caller mails the PDF once this commits). */
export async function markSent(app: Pick<FastifyInstance, 'db'>, actor: Actor, id: string) {
  await app.db.transaction(async (tx) => {
    await lockedFor(tx, id, 'send');
    await tx
      .update(purchaseOrders)
      .set({ status: 'sent', sentAt: new Date(), updatedAt: new Date() })
      .where(eq(purchaseOrders.id, id));
    await recordAudit(tx, {
      subject: { type: 'purchase_order', id },
      actor,
      action: 'sent',
      changes: [{ field: 'Status', before: 'draft', after: 'sent' }],
    });
  });
}

export async function cancelPurchaseOrder(
  app: Pick<FastifyInstance, 'db'>,
  actor: Actor,
  id: string,
  reason: string,
) {
  await app.db.transaction(async (tx) => {
    const { po } = await lockedFor(tx, id, 'cancel');
    await tx
      .update(purchaseOrders)
      .set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() })
      .where(eq(purchaseOrders.id, id));
    await recordAudit(tx, {
      subject: { type: 'purchase_order', id },
      actor,
      action: 'cancelled',
      changes: [{ field: 'Status', before: po.status, after: 'cancelled' }],
      note: reason,
    });
  });
}

/**
 * A delivery: each line's received count rises and so does its product's stock, in one transaction.
 * More than a line's tolerance over what was ordered is refused unless confirmed with a reason.
 */
export async function receiveGoods(
  app: Pick<FastifyInstance, 'db'>,
  actor: Actor,
  id: string,
  body: ReceiptBody,
) {
  return app.db.transaction(async (tx) => {
    const { po, lines } = await lockedFor(tx, id, 'receive');
    const byId = new Map(lines.map((line) => [line.id, line]));
    const arriving = new Map<string, number>();
    for (const item of body.lines) {
      if (!byId.has(item.lineId))
        throw new HttpError(400, 'Choose lines of this purchase order.', 'LINE_NOT_IN_ORDER');
      arriving.set(item.lineId, (arriving.get(item.lineId) ?? 0) + item.quantity);
    }
    const over = [...arriving].flatMap(([lineId, quantity]) => {
      const line = byId.get(lineId)!;
      const most = highestAccepted(line.quantity, toleranceOf(line));
      return line.received + quantity > most
        ? [
            `${line.name}: ${line.received + quantity} of ${line.quantity} ordered (tolerance ${toleranceText(toleranceOf(line))})`,
          ]
        : [];
    });
    if (over.length && !body.confirmOver)
      throw new HttpError(
        409,
        `More than ordered, beyond the tolerance: ${over.join('; ')}. Confirm with a reason to keep it.`,
        'OVER_RECEIPT',
      );
    for (const [lineId, quantity] of arriving) {
      const line = byId.get(lineId)!;
      line.received += quantity;
      await tx
        .update(purchaseOrderLines)
        .set({ received: line.received })
        .where(eq(purchaseOrderLines.id, lineId));
      await adjustStock(tx, line.productId, quantity, 'received', {
        note: `${purchaseOrderReference(po.number)} from the supplier`,
        actor,
      });
    }
    const [{ next }] = (await tx
      .select({ next: sql<number>`coalesce(max(${purchaseOrderReceipts.number}), 0)::integer + 1` })
      .from(purchaseOrderReceipts)
      .where(eq(purchaseOrderReceipts.purchaseOrderId, id))) as [{ next: number }];
    await tx.insert(purchaseOrderReceipts).values({
      purchaseOrderId: id,
      number: next,
      lines: [...arriving].map(([lineId, quantity]) => ({ lineId, quantity })),
      note: body.note,
      overReason: over.length ? body.overReason : null,
      actorId: actor.id,
      actorName: actor.name,
    });
    const status = receivedStatus(
      lines.map((line) => ({
        ordered: line.quantity,
        received: line.received,
        tolerance: toleranceOf(line),
      })),
    );
    await tx
      .update(purchaseOrders)
      .set({ status, receivedAt: status === 'received' ? new Date() : null, updatedAt: new Date() })
      .where(eq(purchaseOrders.id, id));
    await recordAudit(tx, {
      subject: { type: 'purchase_order', id },
      actor,
      action: 'received',
      changes: status !== po.status ? [{ field: 'Status', before: po.status, after: status }] : [],
      note: `Receipt ${next}: ${[...arriving].map(([lineId, quantity]) => `${quantity} × ${byId.get(lineId)!.name}`).join(', ')}${over.length ? ` — over the tolerance: ${body.overReason}` : ''}`,
    });
    return { productIds: [...arriving.keys()].map((lineId) => byId.get(lineId)!.productId) };
  });
}
