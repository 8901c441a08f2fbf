// Stock that never oversells (issue 31), on PGlite and PostgreSQL: fifty orders at once for the last ten
// units reserve exactly ten; a bundle's two lines on one product count together; release, consume and
// adjust keep on hand ≥ reserved ≥ 0, and reserved always equals the live reservations.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows';
import { products, stockItems, stockMoves } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { createTestApp, type TestApp, testBackends } from '../../test-support';
import {
  adjustStock,
  consumeStock,
  countStock,
  lowStockCrossings,
  NOT_ENOUGH_STOCK,
  perProduct,
  releaseStock,
  reserveStock,
  stockMismatches,
  stockOf,
} from './stock';

describe('perProduct', () => {
  it('sums the lines of one product and orders the products by id', () => {
    expect(
      perProduct([
        { productId: 'b', quantity: 2 },
        { productId: 'a', quantity: 1 },
        { productId: 'b', quantity: 3 },
      ]),
    ).toEqual([
      ['a', 1],
      ['b', 5],
    ]);
    expect(() => perProduct([{ productId: 'a', quantity: 0 }])).toThrow(/at least 1/);
    expect(() => perProduct([{ productId: 'a', quantity: 1.5 }])).toThrow(/whole number/);
  });
});

describe.each(testBackends)('stock on %s', (backend) => {
  let t: TestApp;
  let ids: string[];
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    ids = (await t.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(3)).map(
      (row) => row.id,
    );
    expect(ids).toHaveLength(3);
  });
  afterAll(() => t?.close());

  const db = () => t.database.db;
  /** A stock count: on hand becomes `n`. */
  const setOnHand = (productId: string, n: number) =>
    db().transaction((tx) => countStock(tx, productId, n, { note: 'test' }));
  const reserve = (holder: string, lines: { productId: string; quantity: number }[]) =>
    db().transaction((tx) => reserveStock(tx, holder, lines));

  it('starts from the product inventory, and adjusting keeps the catalog figure in step', async () => {
    const [product] = await db().select().from(products).where(eq(products.id, ids[0]!));
    const [before] = await db().transaction((tx) => adjustStock(tx, ids[0]!, 0, 'count').then((r) => [r]));
    expect(before!.onHand).toBe(Math.max(0, product!.inventory));
    await setOnHand(ids[0]!, 12);
    const [after] = await db()
      .select({ inventory: products.inventory })
      .from(products)
      .where(eq(products.id, ids[0]!));
    expect(after!.inventory).toBe(12);
  });

  it('lets fifty parallel orders take the last ten units: exactly ten succeed', async () => {
    const productId = ids[1]!;
    await setOnHand(productId, 10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => reserve(`order:race-${i}`, [{ productId, quantity: 1 }])),
    );
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(won).toBe(10);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toBeInstanceOf(HttpError);
        expect((outcome.reason as HttpError).code).toBe(NOT_ENOUGH_STOCK);
        expect((outcome.reason as HttpError).message).toMatch(/\(0 left, 1 wanted\)/);
      }
    }
    const [item] = await stockOf(db(), [productId]);
    expect(item).toMatchObject({ onHand: 10, reserved: 10 });
    expect(await stockMismatches(db())).toEqual([]);
  });

  it("counts a bundle's two lines on one product together, and reserves nothing when one line fails", async () => {
    const [a, b] = [ids[0]!, ids[2]!];
    await setOnHand(a, 5);
    await setOnHand(b, 3);
    await expect(
      reserve('order:bundle', [
        { productId: a, quantity: 1 },
        { productId: b, quantity: 2 },
        { productId: b, quantity: 2 },
      ]),
    ).rejects.toMatchObject({ status: 409, code: NOT_ENOUGH_STOCK });
    // All or nothing: the first product's unit came back with the rollback.
    expect(await stockOf(db(), [a, b])).toEqual(
      [
        { productId: a, onHand: 5, reserved: 0 },
        { productId: b, onHand: 3, reserved: 0 },
      ].sort((x, y) => (x.productId < y.productId ? -1 : 1)),
    );
    await reserve('order:bundle', [
      { productId: b, quantity: 1 },
      { productId: b, quantity: 2 },
    ]);
    expect((await stockOf(db(), [b]))[0]).toMatchObject({ onHand: 3, reserved: 3 });
    expect(await stockMismatches(db())).toEqual([]);
  });

  it('releases on cancel, consumes on shipment, once each; on hand never goes below reserved', async () => {
    const productId = ids[0]!;
    await setOnHand(productId, 8);
    await reserve('order:cancelled', [{ productId, quantity: 3 }]);
    await reserve('order:shipped', [{ productId, quantity: 2 }]);
    await expect(db().transaction((tx) => adjustStock(tx, productId, -4, 'count'))).rejects.toMatchObject({
      status: 409,
      code: 'STOCK_RESERVED',
    });

    expect(await db().transaction((tx) => releaseStock(tx, 'order:cancelled'))).toBe(1);
    expect(await db().transaction((tx) => releaseStock(tx, 'order:cancelled'))).toBe(0);
    expect((await stockOf(db(), [productId]))[0]).toMatchObject({ onHand: 8, reserved: 2 });

    expect(await db().transaction((tx) => consumeStock(tx, 'order:shipped'))).toBe(1);
    expect((await stockOf(db(), [productId]))[0]).toMatchObject({ onHand: 6, reserved: 0 });
    expect(await stockMismatches(db())).toEqual([]);

    const moves = await db()
      .select({
        reason: stockMoves.reason,
        onHand: stockMoves.onHandDelta,
        reserved: stockMoves.reservedDelta,
      })
      .from(stockMoves)
      .where(eq(stockMoves.productId, productId));
    expect(moves.slice(-4)).toEqual([
      { reason: 'reserve', onHand: 0, reserved: 3 },
      { reason: 'reserve', onHand: 0, reserved: 2 },
      { reason: 'release', onHand: 0, reserved: -3 },
      { reason: 'consume', onHand: -2, reserved: -2 },
    ]);
  });

  it('tells of low stock once per crossing of the threshold, again after it rose above it', async () => {
    const productId = ids[1]!;
    // The race's winners give their units back.
    await db().transaction(async (tx) => {
      for (let i = 0; i < 50; i++) await releaseStock(tx, `order:race-${i}`);
    });
    await setOnHand(productId, 20);
    await db().update(stockItems).set({ lowStockThreshold: 12 }).where(eq(stockItems.productId, productId));
    const crossings = () => db().transaction((tx) => lowStockCrossings(tx, [productId]));
    expect(await crossings()).toEqual([]);

    await reserve('order:low-1', [{ productId, quantity: 8 }]);
    const [told] = await crossings();
    expect(told).toMatchObject({ productId, available: 12, threshold: 12 });
    expect(told!.sellerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await crossings()).toEqual([]);

    await db().transaction((tx) => releaseStock(tx, 'order:low-1'));
    expect(await crossings()).toEqual([]);
    await reserve('order:low-2', [{ productId, quantity: 9 }]);
    expect(await crossings()).toMatchObject([{ productId, available: 11 }]);
    expect(await stockMismatches(db())).toEqual([]);
  });

  it('finds an item whose reserved figure drifted from its live reservations', async () => {
    const productId = ids[2]!;
    await db()
      .update(stockItems)
      .set({ reserved: sql`${stockItems.reserved} - 1` })
      .where(eq(stockItems.productId, productId));
    const found = await stockMismatches(db());
    expect(found).toEqual([{ productId, reserved: 2, live: 3 }]);
    await db()
      .update(stockItems)
      .set({ reserved: sql`${stockItems.reserved} + 1` })
      .where(eq(stockItems.productId, productId));
    expect(await stockMismatches(db())).toEqual([]);
    // The database itself refuses reserved above on hand.
    await expect(
      db().update(stockItems).set({ reserved: 1000 }).where(eq(stockItems.productId, productId)),
    ).rejects.toThrow();
    expect(rowsOf(await db().execute(sql`SELECT 1`))).toHaveLength(1);
  });
});
