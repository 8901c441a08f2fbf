// `npm run seed -- --products N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is
// set): the rows that went through JSON and jsonb_to_recordset hold exactly what the server's own
// functions derive (keys, search index, completeness), they spread over categories, sellers and
// statuses as the benchmark needs, a second run numbers on, and the search API finds them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductList, productStatuses } from '../../contracts/catalog';
import type { QueryTree } from '../../contracts/query-tree';
import { rowsOf } from '../db/rows';
import { products, sellers, users } from '../db/schema';
import { categoryAttributeSet } from '../modules/attributes/attribute-defs';
import { attributeIndexOf, completenessOf } from '../modules/attributes/attribute-values';
import { productKeys } from '../modules/products/product-keys';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { MIN_BULK_SELLERS, seedBulkProducts } from './bulk-products';
import { ensureSeedCatalog } from './catalog-attributes';

const BULK = 500;
const isBulk = (sku: string) => /^[A-Z]{3}-\d{7}$/.test(sku);

describe.each(testBackends)('bulk products on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let rows: (typeof products.$inferSelect)[];

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    // Batches of 200: three statements, the last one short.
    const result = await seedBulkProducts(t.database.db, BULK, { batchSize: 200 });
    expect(result).toMatchObject({ inserted: BULK, firstNumber: 1 });
    rows = (await t.database.db.select().from(products)).filter((row) => isBulk(row.sku));
  }, 120_000);
  afterAll(() => t?.close());

  it('adds the products over many sellers, never the demo accounts', async () => {
    expect(rows).toHaveLength(BULK);
    const sellerCount = await t.database.db.$count(sellers);
    expect(sellerCount).toBeGreaterThanOrEqual(MIN_BULK_SELLERS);
    const demoSellers = (await t.database.db.select({ sellerId: users.sellerId }).from(users))
      .map((row) => row.sellerId)
      .filter((id) => id !== null);
    expect(rows.some((row) => demoSellers.includes(row.sellerId))).toBe(false);
    const perSeller = new Map<string, number>();
    for (const row of rows) perSeller.set(row.sellerId, (perSeller.get(row.sellerId) ?? 0) + 1);
    expect(perSeller.size).toBeGreaterThan(50);
    // Skewed: the biggest shop holds many times what a typical one does.
    expect(Math.max(...perSeller.values())).toBeGreaterThan(4 * (BULK / perSeller.size));
  });

  it('spreads them over categories and statuses, with prices, stock and some incomplete', () => {
    expect(new Set(rows.map((row) => row.categoryId)).size).toBeGreaterThan(20);
    for (const status of productStatuses) {
      expect(rows.filter((row) => row.status === status).length, status).toBeGreaterThan(5);
    }
    const incomplete = rows.filter((row) => row.completeness < 100).length;
    expect(incomplete).toBeGreaterThan(BULK * 0.04);
    expect(incomplete).toBeLessThan(BULK * 0.25);
    expect(rows.every((row) => row.priceMinor > 0 && row.inventory >= 0)).toBe(true);
    expect(rows.every((row) => row.createdAt <= row.updatedAt && row.updatedAt.getTime() <= Date.now())).toBe(
      true,
    );
    expect(rows.filter((row) => row.status === 'rejected').every((row) => row.statusReason)).toBe(true);
  });

  it('stores exactly the keys, search index and completeness the server derives', async () => {
    const sets = new Map<string, Awaited<ReturnType<typeof categoryAttributeSet>>>();
    for (const row of rows) {
      const categoryId = row.categoryId!;
      if (!sets.has(categoryId)) sets.set(categoryId, await categoryAttributeSet(t.database.db, categoryId));
      const defs = sets.get(categoryId)!;
      const { titleKey, skuKey } = productKeys(row.title, row.sku);
      expect({ titleKey: row.titleKey, skuKey: row.skuKey }).toEqual({ titleKey, skuKey });
      expect(row.attrIndex, row.sku).toEqual(attributeIndexOf(row.attributeValues, defs));
      expect({ completeness: row.completeness, missingAttributes: row.missingAttributes }, row.sku).toEqual(
        completenessOf(row.attributeValues, defs),
      );
    }
  });

  it("is found by the search API, with the benchmark's query counted exactly", async () => {
    const catalog = await ensureSeedCatalog(t.database.db);
    const colour = catalog.defs.get('colour')!;
    const optionOf = (label: string) => [...colour.options].find(([, value]) => value === label)![0];
    const [black, blue] = [optionOf('Black'), optionOf('Blue')];
    const screen = catalog.defs.get('screen_size')!;
    const query: QueryTree = {
      combinator: 'and',
      children: [
        { field: 'status', op: 'anyOf', value: ['live', 'approved'] },
        {
          combinator: 'or',
          children: [
            { field: 'attr.colour', op: 'anyOf', value: [black, blue] },
            { field: 'attr.screen_size', op: 'gte', value: 6 },
          ],
        },
      ],
    };
    const all = await t.database.db.select().from(products);
    const expected = all.filter((row) => {
      const colours = (row.attrIndex[String(colour.id)] as number[] | undefined) ?? [];
      const size = row.attrIndex[String(screen.id)] as number | undefined;
      return (
        (row.status === 'live' || row.status === 'approved') &&
        (colours.includes(black) || colours.includes(blue) || (size !== undefined && size >= 6))
      );
    });
    expect(expected.some((row) => isBulk(row.sku))).toBe(true);
    const response = await as('Admin', 'POST', '/api/v1/stagingProducts/method/search', {
      query,
      limit: 50,
      attributeColumns: ['colour', 'screen_size'],
    });
    expect(response.statusCode, response.body).toBe(200);
    const list = json<ProductList>(response);
    expect(list).toMatchObject({ count: expected.length, countExact: true });
    expect(list.result.map((row) => row.id)).toEqual(
      [...expected]
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1))
        .slice(0, 50)
        .map((row) => row.id),
    );

    const masala = rows.filter((row) => row.titleKey.includes('masala')).length;
    const search = json<ProductList>(
      await as('Admin', 'POST', '/api/v1/stagingProducts/method/search', { search: 'Masala', limit: 10 }),
    );
    expect(search.count).toBeGreaterThanOrEqual(masala);
    expect(search.result.every((row) => row.title.toLowerCase().includes('masala'))).toBe(true);
  });

  it('numbers on from an earlier run, and answers with fresh statistics', async () => {
    const result = await seedBulkProducts(t.database.db, 20);
    expect(result.firstNumber).toBe(BULK + 1);
    const [stats] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT reltuples::integer AS n FROM pg_class WHERE oid = 'products'::regclass`,
      ),
    );
    expect(stats!.n).toBeGreaterThanOrEqual(BULK + 20);
  });
});
