// The grid's total and page (findPage): exact when few match, estimated from a block sample when many
// do, and never a full count of a large match. Thresholds are shrunk so a 3,000-row table takes every
// branch; whichever branch answers, the page is the same: the first rows in the grid's order.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, sellers } from '../../db/schema';
import { captureStatements } from '../../test-plans';
import { createTestApp, type TestApp, testBackends } from '../../test-support';
import { type CountLimits, findPage } from './product-search';

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
  const page = (where: SQL, unfiltered = false, given: CountLimits = limits) =>
    findPage(
      t.database.db,
      where,
      { key: sql`${products.inventory}`, order: 'desc', skip: 0, limit: 3, unfiltered },
      given,
    );
  const count = async (where: SQL, unfiltered = false, given: CountLimits = limits) => {
    const { count: total, countExact } = await page(where, unfiltered, given);
    return { count: total, countExact };
  };
  /** The skus of the page (inventory is the row number, so the page is known in advance). */
  const skus = async (where: SQL, unfiltered = false, given: CountLimits = limits) => {
    const { ids } = await page(where, unfiltered, given);
    const rows = await t.database.db.select({ id: products.id, sku: products.sku }).from(products);
    const byId = new Map(rows.map((row) => [row.id, row.sku]));
    return ids.map((id) => byId.get(id));
  };

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

  it('trusts a sample that is surely past the limit, even below trustEstimateAbove: no capped read', async () => {
    // 1,500 matches (the planner expects ~3,000, so the sample runs); the sample sees ~300 of them,
    // whose low bound (4σ) is still ~1,150 > 100. Before, anything sampled below trustEstimateAbove was
    // first read up to exactLimit + 1 matches and sampled a second time (the bench's nested query).
    const odd = sql`NOT (${products.inventory} % 2 = 1)`;
    const { result, statements } = await captureStatements(t.database.db, () =>
      count(odd, false, { ...limits, trustEstimateAbove: 2000 }),
    );
    expect(result.countExact).toBe(false);
    expect(Math.abs(result.count - ROWS / 2)).toBeLessThanOrEqual(ROWS * 0.15);
    expect(statements.filter((statement) => /MATERIALIZED/.test(statement.text))).toEqual([]);
    expect(statements.filter((statement) => /TABLESAMPLE/.test(statement.text))).toHaveLength(1);
  });

  it('samples once when the capped read passes the limit', async () => {
    // 150 matches; the planner expects 1,000 (a third, for `<` on an expression), so the sample runs,
    // predicts too few to trust, and the capped read passes 100: its estimate is the same sample's.
    const { result, statements } = await captureStatements(t.database.db, () =>
      count(sql`${products.inventory} % 20 < 1`, false, { ...limits, trustEstimateAbove: 500 }),
    );
    expect(result.countExact).toBe(false);
    expect(statements.filter((statement) => /MATERIALIZED/.test(statement.text))).toHaveLength(1);
    expect(statements.filter((statement) => /TABLESAMPLE/.test(statement.text))).toHaveLength(1);
  });

  it('answers the same page whichever way it counted', async () => {
    const top = ['CNT-3000', 'CNT-2998', 'CNT-2996'];
    expect(await skus(half)).toEqual(top); // estimated: walked in order
    expect(await skus(half, false, { ...limits, sampleAboveRows: 10 * ROWS })).toEqual(top); // small table
    expect(await skus(half, false, { ...limits, exactLimit: ROWS })).toEqual(top); // one read, sorted
    expect(await skus(sql`${products.inventory} % 60 = 0`)).toEqual(['CNT-3000', 'CNT-2940', 'CNT-2880']);
    expect(await skus(sql`true`, true)).toEqual(['CNT-3000', 'CNT-2999', 'CNT-2998']);
  });

  it('counts a small table directly, exact below the limit and "about" above it', async () => {
    const small = { ...limits, sampleAboveRows: 10 * ROWS };
    expect(await count(sql`${products.inventory} <= 40`, false, small)).toEqual({
      count: 40,
      countExact: true,
    });
    expect(await count(half, false, small)).toEqual({ count: ROWS, countExact: false });
  });

  it('pages a small unfiltered table by walking its index, with a capped count, in one statement', async () => {
    const small = { ...limits, sampleAboveRows: 10 * ROWS };
    const exact = { ...small, exactLimit: 10 * ROWS };
    const { result, statements } = await captureStatements(t.database.db, () => page(sql`true`, true, exact));
    expect(result.count).toBe(ROWS);
    expect(result.countExact).toBe(true);
    expect(statements.filter((statement) => /MATERIALIZED|TABLESAMPLE/.test(statement.text))).toEqual([]);
    expect(statements).toHaveLength(2); // the table statistics, then the count and the page
    expect(await skus(sql`true`, true, exact)).toEqual(['CNT-3000', 'CNT-2999', 'CNT-2998']);
    // Past the exact limit the total becomes "about" the table's size; the page is the same.
    expect(await count(sql`true`, true, small)).toEqual({ count: ROWS, countExact: false });
    expect(await skus(sql`true`, true, small)).toEqual(['CNT-3000', 'CNT-2999', 'CNT-2998']);
  });
});
