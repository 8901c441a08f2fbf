// The grid's total (countMatches): exact when small, estimated from a block sample when large, and
// never a full count of a large match. Thresholds are shrunk so a 3,000-row table takes every branch.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, sellers } from '../../db/schema';
import { createTestApp, type TestApp, testBackends } from '../../test-support';
import { type CountLimits, countMatches } from './product-search';

const ROWS = 3000;
const limits: CountLimits = {
  exactLimit: 100,
  sampleRows: 600,
  sampleAboveRows: 1000,
  trustEstimateAbove: 200,
};
/** Every other product: half the table, spread over every page so a block sample sees the ratio. */
const half = sql`${products.inventory} % 2 = 0`;

describe.each(testBackends)('the product total on %s', (backend) => {
  let t: TestApp;
  const count = (where: SQL, unfiltered = false, given: CountLimits = limits) =>
    countMatches(t.database.db, where, unfiltered, given);

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    const db = t.database.db;
    const [seller] = await db.select({ id: sellers.id }).from(sellers).limit(1);
    await db.execute(sql`DELETE FROM ${products}`); // the demo catalogue would blur the figures
    await db.execute(sql`
      INSERT INTO ${products} (seller_id, title, sku, title_key, sku_key, inventory)
      SELECT ${seller!.id}, 'Count ' || i, 'CNT-' || i, 'count ' || i, 'cnt-' || i, i
      FROM generate_series(1, ${ROWS}) AS i`);
    await db.execute(sql`ANALYZE products`);
  }, 60_000);
  afterAll(() => t?.close());

  it('counts a selective query exactly (the sample predicts few, so the capped count runs)', async () => {
    expect(await count(sql`${products.inventory} % 60 = 0`)).toEqual({ count: ROWS / 60, countExact: true });
  });

  it('estimates a broad query from the sample, rounded to two figures, without counting', async () => {
    const total = await count(half);
    expect(total.countExact).toBe(false);
    expect(total.count).toBeGreaterThan(limits.exactLimit);
    expect(Math.abs(total.count - ROWS / 2)).toBeLessThanOrEqual(ROWS * 0.15);
    expect(total.count % 10).toBe(0);
  });

  it('answers an unfiltered list from the table statistics', async () => {
    const total = await count(sql`true`, true);
    expect(total).toEqual({ count: ROWS, countExact: false });
  });

  it('says "about" when a query the sample thought small passes the limit', async () => {
    // ~150 matches: the sample predicts below trustEstimateAbove, the capped count stops at 101.
    const total = await count(sql`${products.inventory} % 20 = 0`);
    expect(total.countExact).toBe(false);
    expect(total.count).toBeGreaterThan(limits.exactLimit);
  });

  it('counts a small table directly, exact below the limit and "about" above it', async () => {
    const small = { ...limits, sampleAboveRows: 10 * ROWS };
    expect(await count(sql`${products.inventory} <= 40`, false, small)).toEqual({
      count: 40,
      countExact: true,
    });
    expect(await count(half, false, small)).toEqual({ count: ROWS, countExact: false });
  });
});
