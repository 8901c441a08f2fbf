// Stock that never oversells (issue 31, docs/commerce.md). Every change of a product's on-hand or
// reserved quantity goes through here, inside the caller's transaction, and leaves a stock_moves row:
// - reserve: the quantities are summed per product first (a bundle's two lines on one product count
//   together), then each product takes one conditional UPDATE, in id order so two orders never deadlock:
//   `reserved = reserved + q WHERE on_hand - reserved >= q`. No row means "not enough stock", and the
//   caller's transaction rolls back whatever it had reserved.
// - release (a cancel) and consume (a shipment) end a holder's live reservations through the same path.
// - adjust changes on hand (a count, an import, a receipt, a return); it cannot go below what is reserved.
// The check constraints of stock_items refuse anything that would break on_hand ≥ reserved ≥ 0.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { products, stockItems, stockMoves, stockReservations } from '../../db/schema';
import { type Actor, NO_ACTOR } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';

export interface StockLine {
  productId: string;
  quantity: number;
}

export const NOT_ENOUGH_STOCK = 'NOT_ENOUGH_STOCK';

/** Quantities summed per product, in product id order (the order rows are locked in). */
export function perProduct(lines: readonly StockLine[]): [string, number][] {
  const sums = new Map<string, number>();
  for (const line of lines) {
    if (!Number.isInteger(line.quantity) || line.quantity <= 0)
      throw new HttpError(400, 'A quantity is a whole number of at least 1.');
    sums.set(line.productId, (sums.get(line.productId) ?? 0) + line.quantity);
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The products' stock rows, made the first time a product's stock is touched, its on hand taken from
 * the product's inventory figure (what the catalog and imports kept before stock was tracked).
 */
export async function ensureStockItems(tx: Db | Tx, productIds: readonly string[]): Promise<void> {
  if (productIds.length === 0) return;
  await tx.execute(sql`
    INSERT INTO stock_items (product_id, seller_id, on_hand)
    SELECT id, seller_id, greatest(inventory, 0) FROM products
    WHERE id = ANY(${`{${productIds.join(',')}}`}::uuid[])
    ON CONFLICT (product_id) DO NOTHING`);
}

async function notEnough(tx: Db | Tx, productId: string, wanted: number): Promise<HttpError> {
  const [row] = await tx
    .select({ title: products.title, onHand: stockItems.onHand, reserved: stockItems.reserved })
    .from(stockItems)
    .innerJoin(products, eq(products.id, stockItems.productId))
    .where(eq(stockItems.productId, productId));
  if (!row) return new HttpError(400, 'There is no such product.', 'PRODUCT_NOT_FOUND');
  const left = Math.max(0, row.onHand - row.reserved);
  return new HttpError(
    409,
    `Not enough stock of ${row.title} (${left} left, ${wanted} wanted).`,
    NOT_ENOUGH_STOCK,
  );
}

/** Holds the lines' stock for `holder` ('order:{id}'), all or nothing (the caller's transaction). */
export async function reserveStock(
  tx: Tx,
  holder: string,
  lines: readonly StockLine[],
  actor: Actor = NO_ACTOR,
): Promise<void> {
  const wanted = perProduct(lines);
  await ensureStockItems(
    tx,
    wanted.map(([id]) => id),
  );
  for (const [productId, quantity] of wanted) {
    const taken = await tx
      .update(stockItems)
      .set({ reserved: sql`${stockItems.reserved} + ${quantity}`, updatedAt: new Date() })
      .where(
        and(
          eq(stockItems.productId, productId),
          sql`${stockItems.onHand} - ${stockItems.reserved} >= ${quantity}`,
        ),
      )
      .returning({ productId: stockItems.productId });
    if (taken.length === 0) throw await notEnough(tx, productId, quantity);
    await tx.insert(stockReservations).values({ productId, holder, quantity });
    await tx.insert(stockMoves).values({
      productId,
      reservedDelta: quantity,
      reason: 'reserve',
      holder,
      actorId: actor.id,
      actorName: actor.name,
    });
  }
}

/**
 * Ends `holder`'s live reservations: released (a cancel: the stock is available again) or consumed (a
 * shipment: it leaves on hand too). Ending nothing is no error, so a retried cancel is harmless.
 */
async function endReservations(tx: Tx, holder: string, how: 'released' | 'consumed', actor: Actor) {
  const ended = await tx
    .update(stockReservations)
    .set({ state: how, endedAt: new Date() })
    .where(and(eq(stockReservations.holder, holder), eq(stockReservations.state, 'live')))
    .returning({ productId: stockReservations.productId, quantity: stockReservations.quantity });
  const consumed = how === 'consumed';
  for (const [productId, quantity] of perProduct(ended)) {
    await tx
      .update(stockItems)
      .set({
        reserved: sql`${stockItems.reserved} - ${quantity}`,
        ...(consumed ? { onHand: sql`${stockItems.onHand} - ${quantity}` } : {}),
        updatedAt: new Date(),
      })
      .where(eq(stockItems.productId, productId));
    await tx.insert(stockMoves).values({
      productId,
      reservedDelta: -quantity,
      onHandDelta: consumed ? -quantity : 0,
      reason: consumed ? 'consume' : 'release',
      holder,
      actorId: actor.id,
      actorName: actor.name,
    });
  }
  return ended.length;
}

export const releaseStock = (tx: Tx, holder: string, actor: Actor = NO_ACTOR) =>
  endReservations(tx, holder, 'released', actor);

export const consumeStock = (tx: Tx, holder: string, actor: Actor = NO_ACTOR) =>
  endReservations(tx, holder, 'consumed', actor);

/**
 * Changes a product's on hand by `delta` (a count, an import, a receipt, a return), never below what is
 * reserved; the product's inventory figure follows, so the catalog shows the same number.
 */
export async function adjustStock(
  tx: Tx,
  productId: string,
  delta: number,
  reason: string,
  options: { note?: string; actor?: Actor } = {},
): Promise<{ onHand: number; reserved: number }> {
  if (!Number.isInteger(delta)) throw new HttpError(400, 'Stock changes by whole units.');
  await ensureStockItems(tx, [productId]);
  const [row] = await tx
    .update(stockItems)
    .set({ onHand: sql`${stockItems.onHand} + ${delta}`, updatedAt: new Date() })
    .where(
      and(
        eq(stockItems.productId, productId),
        sql`${stockItems.onHand} + ${delta} >= ${stockItems.reserved}`,
      ),
    )
    .returning({ onHand: stockItems.onHand, reserved: stockItems.reserved });
  if (!row) {
    const [item] = await tx.select().from(stockItems).where(eq(stockItems.productId, productId));
    if (!item) throw new HttpError(400, 'There is no such product.', 'PRODUCT_NOT_FOUND');
    throw new HttpError(
      409,
      `On hand cannot go below the ${item.reserved} reserved (it is ${item.onHand}).`,
      'STOCK_RESERVED',
    );
  }
  await tx.update(products).set({ inventory: row.onHand }).where(eq(products.id, productId));
  const actor = options.actor ?? NO_ACTOR;
  await tx.insert(stockMoves).values({
    productId,
    onHandDelta: delta,
    reason,
    note: options.note ?? '',
    actorId: actor.id,
    actorName: actor.name,
  });
  return row;
}

/** A stock count: on hand becomes what was counted (the difference is the move), never below reserved. */
export async function countStock(
  tx: Tx,
  productId: string,
  counted: number,
  options: { note?: string; actor?: Actor; reason?: string } = {},
): Promise<{ onHand: number; reserved: number }> {
  if (!Number.isInteger(counted) || counted < 0)
    throw new HttpError(400, 'A count is a whole number, 0 or more.');
  await ensureStockItems(tx, [productId]);
  const [item] = await tx
    .select({ onHand: stockItems.onHand })
    .from(stockItems)
    .where(eq(stockItems.productId, productId))
    .for('update');
  if (!item) throw new HttpError(400, 'There is no such product.', 'PRODUCT_NOT_FOUND');
  return adjustStock(tx, productId, counted - item.onHand, options.reason ?? 'count', options);
}

export interface StockCount {
  productId: string;
  counted: number;
  note?: string;
}

/**
 * Many counts at once (an import's chunk): one statement sets each product's on hand to its counted
 * figure and writes a move for each that changed. The caller checks first that no count is below what
 * is reserved (`stockOf`); the check constraint refuses it anyway, rolling the whole chunk back.
 */
export async function countStockMany(
  tx: Tx,
  counts: readonly StockCount[],
  reason: string,
  actor: Actor = NO_ACTOR,
): Promise<void> {
  if (counts.length === 0) return;
  for (const count of counts)
    if (!Number.isInteger(count.counted) || count.counted < 0)
      throw new HttpError(400, 'A count is a whole number, 0 or more.');
  await ensureStockItems(
    tx,
    counts.map((count) => count.productId),
  );
  const rows = counts.map((count) => ({
    product_id: count.productId,
    counted: count.counted,
    note: count.note ?? '',
  }));
  await tx.execute(sql`
    WITH x AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(product_id uuid, counted integer, note text)
    ), old AS (
      SELECT s.product_id, s.on_hand, x.counted, x.note FROM stock_items s JOIN x ON x.product_id = s.product_id
      WHERE s.on_hand <> x.counted ORDER BY s.product_id FOR UPDATE OF s
    ), changed AS (
      UPDATE stock_items s SET on_hand = old.counted, updated_at = now() FROM old
      WHERE s.product_id = old.product_id
      RETURNING s.product_id, old.counted AS counted, old.counted - old.on_hand AS delta, old.note AS note
    ), shown AS (
      UPDATE products p SET inventory = changed.counted FROM changed WHERE p.id = changed.product_id
    )
    INSERT INTO stock_moves (product_id, on_hand_delta, reason, note, actor_id, actor_name)
    SELECT product_id, delta, ${reason}, note, ${actor.id}::uuid, ${actor.name} FROM changed`);
}

export interface LowStock {
  productId: string;
  sellerId: string;
  available: number;
  threshold: number;
}

/**
 * After a change of these products' stock: those that just fell to their low-stock threshold or below,
 * claimed once per crossing (the caller tells their seller), and those back above it are re-armed.
 * One UPDATE each, so two instances never tell twice.
 */
export async function lowStockCrossings(tx: Db | Tx, productIds: readonly string[]): Promise<LowStock[]> {
  if (productIds.length === 0) return [];
  const ids = sql`${`{${[...productIds].join(',')}}`}::uuid[]`;
  await tx.execute(sql`
    UPDATE stock_items SET low_stock_notified_at = NULL
    WHERE product_id = ANY(${ids}) AND low_stock_notified_at IS NOT NULL
      AND on_hand - reserved > low_stock_threshold`);
  return rowsOf<LowStock>(
    await tx.execute(sql`
      UPDATE stock_items SET low_stock_notified_at = now()
      WHERE product_id = ANY(${ids}) AND low_stock_notified_at IS NULL AND low_stock_threshold > 0
        AND on_hand - reserved <= low_stock_threshold
      RETURNING product_id AS "productId", seller_id AS "sellerId", on_hand - reserved AS available,
        low_stock_threshold AS threshold`),
  ).sort((a, b) => (a.productId < b.productId ? -1 : 1));
}

export interface StockMismatch {
  productId: string;
  reserved: number;
  live: number;
}

/** Items whose reserved figure is not the sum of their live reservations (none, when all is well). */
export async function stockMismatches(db: Db | Tx): Promise<StockMismatch[]> {
  return rowsOf<StockMismatch>(
    await db.execute(sql`
      SELECT i.product_id AS "productId", i.reserved, coalesce(r.live, 0)::integer AS live
      FROM stock_items i
      LEFT JOIN (
        SELECT product_id, sum(quantity)::integer AS live FROM stock_reservations
        WHERE state = 'live' GROUP BY product_id
      ) r ON r.product_id = i.product_id
      WHERE i.reserved <> coalesce(r.live, 0)
      ORDER BY i.product_id`),
  );
}

/** A few products' stock, for pages that show it. */
export async function stockOf(db: Db | Tx, productIds: readonly string[]) {
  if (productIds.length === 0) return [];
  return db
    .select({ productId: stockItems.productId, onHand: stockItems.onHand, reserved: stockItems.reserved })
    .from(stockItems)
    .where(inArray(stockItems.productId, [...productIds]))
    .orderBy(asc(stockItems.productId));
}
