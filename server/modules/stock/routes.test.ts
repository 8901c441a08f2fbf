// The stock API (issue 31) on PGlite and PostgreSQL: adjustments with a reason and their ledger, the
// product editor and imports changing on hand through the same path, the low-stock notice told once
// per crossing, the consistency check for admins only, and a seller kept to their own products.
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductStock, StockConsistency } from '../../../contracts/stock';
import { notifications, products, users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { reserveStock } from './stock';

describe.each(testBackends)('stock API (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let own: string;
  let others: string;
  let sellerUser: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.app.db;
    const [seller] = await db
      .select({ id: users.id, sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerUser = seller!.id;
    const [mine] = await db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.sellerId, seller!.sellerId!))
      .orderBy(products.id)
      .limit(1);
    own = mine!.id;
    const [theirs] = await db
      .select({ id: products.id })
      .from(products)
      .where(ne(products.sellerId, seller!.sellerId!))
      .limit(1);
    others = theirs!.id;
  }, 120_000);
  afterAll(() => t?.close());

  const stock = async (who: 'Admin' | 'Seller', productId: string) => {
    const res = await as(who, 'GET', `/api/v1/stock/${productId}`);
    expect(res.statusCode, res.body).toBe(200);
    return json<ProductStock>(res);
  };

  it('adjusts by a change or a count, with a reason, and lists the moves newest first', async () => {
    const count = await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, {
      reason: 'count',
      counted: 40,
      note: 'Shelf count',
    });
    expect(count.statusCode, count.body).toBe(200);
    expect(json<ProductStock>(count)).toMatchObject({ onHand: 40, reserved: 0, available: 40 });
    const damaged = await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, {
      reason: 'damaged',
      delta: -3,
    });
    const after = json<ProductStock>(damaged);
    expect(after.onHand).toBe(37);
    expect(after.moves[0]).toMatchObject({
      onHandDelta: -3,
      reason: 'damaged',
      actorName: expect.any(String),
    });
    expect(after.moves[0]!.actorName).not.toBe('');
    expect(after.moves[1]).toMatchObject({ reason: 'count', note: 'Shelf count' });
    // The catalog's inventory figure follows on hand.
    const [product] = await t.app.db.select().from(products).where(eq(products.id, own));
    expect(product!.inventory).toBe(37);
  });

  it('refuses bad adjustments with words and changes nothing', async () => {
    const before = await stock('Seller', own);
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ reason: 'count' }, 400, /either a change or a counted/],
      [{ reason: 'count', delta: 1, counted: 2 }, 400, /either a change or a counted/],
      [{ reason: 'stolen', delta: 1 }, 400, /reason from the list/],
      [{ reason: 'found', delta: 1.5 }, 400, /whole units/],
      [{ reason: 'found', delta: 0 }, 400, /changes nothing/],
      [{ reason: 'lost', delta: -1_000_000 }, 409, /cannot go below/],
    ];
    for (const [body, status, message] of cases) {
      const res = await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(json<{ message: string }>(res).message).toMatch(message);
    }
    expect((await stock('Seller', own)).onHand).toBe(before.onHand);
  });

  it('keeps a seller to their own products, and needs the edit permission to change', async () => {
    expect((await as('Seller', 'GET', `/api/v1/stock/${others}`)).statusCode).toBe(404);
    expect(
      (await as('Seller', 'POST', `/api/v1/stock/${others}/adjustments`, { reason: 'found', delta: 1 }))
        .statusCode,
    ).toBe(404);
    expect((await stock('Admin', others)).productId).toBe(others);
    expect((await as('Admin', 'GET', '/api/v1/stock/not-a-uuid')).statusCode).toBe(400);
  });

  it('tells the seller once when available falls to the threshold, and again after it recovers', async () => {
    const lowNotices = async () =>
      (
        await t.app.db
          .select({ title: notifications.title })
          .from(notifications)
          .where(and(eq(notifications.userId, sellerUser)))
      ).filter((row) => row.title.startsWith('Low stock')).length;
    const start = await lowNotices();
    await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, { reason: 'count', counted: 20 });
    const set = await as('Seller', 'PUT', `/api/v1/stock/${own}/threshold`, { threshold: 10 });
    expect(json<ProductStock>(set).lowStockThreshold).toBe(10);
    await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, { reason: 'lost', delta: -12 });
    expect(await lowNotices()).toBe(start + 1);
    await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, { reason: 'lost', delta: -1 });
    expect(await lowNotices()).toBe(start + 1);
    await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, { reason: 'received', delta: 30 });
    await as('Seller', 'POST', `/api/v1/stock/${own}/adjustments`, { reason: 'count', counted: 5 });
    expect(await lowNotices()).toBe(start + 2);
    await as('Seller', 'PUT', `/api/v1/stock/${own}/threshold`, { threshold: 0 });
  });

  it('changes inventory from the product editor through a count, never below what is reserved', async () => {
    await as('Admin', 'POST', `/api/v1/stock/${own}/adjustments`, { reason: 'count', counted: 8 });
    await t.app.db.transaction((tx) =>
      reserveStock(tx, 'order:editor-test', [{ productId: own, quantity: 6 }]),
    );
    const read = async () =>
      json<{ version: number; inventory: number }>(
        await as('Admin', 'GET', `/api/v1/stagingProducts/${own}`),
      );
    const product = await read();
    const below = await as('Admin', 'PATCH', `/api/v1/stagingProducts/${own}`, {
      version: product.version,
      inventory: 5,
    });
    expect(below.statusCode, below.body).toBe(409);
    expect(json<{ message: string }>(below).message).toMatch(/below the 6 reserved/);
    expect((await read()).inventory).toBe(8);
    const ok = await as('Admin', 'PATCH', `/api/v1/stagingProducts/${own}`, {
      version: product.version,
      inventory: 12,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await stock('Admin', own);
    expect(after).toMatchObject({ onHand: 12, reserved: 6, available: 6 });
    expect(after.moves[0]).toMatchObject({ reason: 'count', onHandDelta: 4, note: 'Product editor' });
  });

  it('answers the consistency check to admins and staff only', async () => {
    const res = await as('Admin', 'GET', '/api/v1/stock/consistency');
    expect(res.statusCode, res.body).toBe(200);
    expect(json<StockConsistency>(res)).toMatchObject({ ok: true, mismatches: [] });
    expect((await as('Seller', 'GET', '/api/v1/stock/consistency')).statusCode).toBe(403);
    expect((await as('Staff', 'GET', '/api/v1/stock/consistency')).statusCode).toBe(403);
  });
});
