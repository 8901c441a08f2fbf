// The demo catalogue on PGlite (and PostgreSQL when TEST_DATABASE_URL is set): what a visitor sees is
// consistent with what the server itself would have written, the demo seller's dashboard figures hold,
// the photos are real files with their derivatives, and the shared views work through the API.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductList, productStatuses } from '../../contracts/catalog';
import type { ImportList, ImportRequestList } from '../../contracts/imports';
import type { SavedView } from '../../contracts/saved-views';
import { productMedia, products, sellers } from '../db/schema';
import { categoryAttributeSet } from '../modules/attributes/attribute-defs';
import { attributeIndexOf, completenessOf } from '../modules/attributes/attribute-values';
import { productKeys } from '../modules/products/product-keys';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { seedDemo } from './index';
import { DEMO_SELLER_FIGURES } from './subscriptions';

describe.each(testBackends)('the demo catalogue on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let rows: (typeof products.$inferSelect)[];

  beforeAll(async () => {
    t = await createTestApp({ backend, seed: false, jobs: { enabled: false } });
    await seedDemo(t.database.db, { files: { storage: t.app.storage, dataDir: t.dataDir } });
    as = await apiAs(t.app);
    rows = await t.database.db.select().from(products);
  }, 120_000);
  afterAll(() => t?.close());

  it('holds a few hundred products over most demo sellers, in every status', async () => {
    expect(rows.length).toBeGreaterThanOrEqual(250);
    expect(rows.length).toBeLessThanOrEqual(500);
    expect(new Set(rows.map((row) => row.sellerId)).size).toBeGreaterThanOrEqual(25);
    for (const status of productStatuses) {
      expect(rows.filter((row) => row.status === status).length, status).toBeGreaterThanOrEqual(5);
    }
    expect(rows.filter((row) => row.status === 'rejected').every((row) => row.statusReason)).toBe(true);
    expect(rows.filter((row) => row.status !== 'rejected').every((row) => row.statusReason === null)).toBe(
      true,
    );
    const incomplete = rows.filter((row) => row.completeness < 100);
    expect(incomplete.length).toBeGreaterThanOrEqual(20);
    expect(incomplete.length).toBeLessThan(rows.length / 3);
    expect(rows.every((row) => row.categoryId)).toBe(true);
    expect(new Set(rows.map((row) => row.currency)).size).toBeGreaterThan(1);
  });

  it("keeps the demo seller's dashboard figures", async () => {
    const [demo] = await t.database.db.select().from(sellers).where(eq(sellers.email, 'seller@demo.local'));
    const own = rows.filter((row) => row.sellerId === demo!.id);
    const byStatus = Object.fromEntries(
      productStatuses.map((s) => [s, own.filter((r) => r.status === s).length]),
    );
    expect(byStatus).toEqual(DEMO_SELLER_FIGURES.products);
    expect(own.filter((row) => row.completeness < 100)).toHaveLength(1);
  });

  it('derives keys, search index and completeness exactly as the server does', async () => {
    const sets = new Map<string, Awaited<ReturnType<typeof categoryAttributeSet>>>();
    for (const row of rows) {
      const categoryId = row.categoryId!;
      if (!sets.has(categoryId)) sets.set(categoryId, await categoryAttributeSet(t.database.db, categoryId));
      const defs = sets.get(categoryId)!;
      const keys = productKeys(row.title, row.sku);
      expect({ titleKey: row.titleKey, skuKey: row.skuKey }).toEqual({
        titleKey: keys.titleKey,
        skuKey: keys.skuKey,
      });
      expect(row.attributeValues.every((value) => defs.has(value.keyId))).toBe(true);
      expect(row.attrIndex).toEqual(attributeIndexOf(row.attributeValues, defs));
      expect({ completeness: row.completeness, missingAttributes: row.missingAttributes }).toEqual(
        completenessOf(row.attributeValues, defs),
      );
    }
  });

  it('gives most products photos: stored files with their derivatives, served to the owner', async () => {
    const media = await t.database.db.select().from(productMedia);
    const withPhotos = rows.filter((row) => row.imageCount > 0);
    expect(withPhotos.length / rows.length).toBeGreaterThan(0.7);
    expect(withPhotos.length / rows.length).toBeLessThan(0.95);
    for (const row of withPhotos) {
      const gallery = media.filter((m) => m.productId === row.id && m.position !== null);
      expect(gallery).toHaveLength(row.imageCount);
      expect(gallery.find((m) => m.position === 0)?.id).toBe(row.mainImageId);
    }
    for (const file of media) {
      expect(existsSync(path.join(t.dataDir, file.storagePath))).toBe(true);
      for (const derivative of Object.values(file.derivatives)) {
        expect(existsSync(path.join(t.dataDir, derivative))).toBe(true);
      }
    }
    // Every file is its own: deleting one product's photos never takes another's.
    expect(new Set(media.map((m) => m.storagePath)).size).toBe(media.length);
    const mine = await as('Seller', 'POST', '/api/v1/stagingProducts/method/search', { limit: 25 });
    const thumb = json<ProductList>(mine).result.find((row) => row.thumbUrl)?.thumbUrl;
    expect(thumb).toBeTruthy();
    const served = await as('Seller', 'GET', thumb!);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('shares three views whose queries run, each for its audience', async () => {
    const viewsOf = async (who: 'Admin' | 'Staff' | 'Seller') =>
      json<{ result: SavedView[] }>(await as(who, 'GET', '/api/v1/savedViews?list=staging-products')).result;
    const admin = await viewsOf('Admin');
    const staff = await viewsOf('Staff');
    const seller = await viewsOf('Seller');
    expect(admin.map((view) => view.name)).toEqual(
      expect.arrayContaining(['Phones under ₹20,000 (live)', 'Needs attention: incomplete or rejected']),
    );
    expect(staff.map((view) => view.name)).toContain('Needs attention: incomplete or rejected');
    expect(seller.map((view) => view.name)).toEqual(
      expect.arrayContaining(['Phones under ₹20,000 (live)', 'Drafts to finish']),
    );
    expect(seller.map((view) => view.name)).not.toContain('Needs attention: incomplete or rejected');
    for (const [who, views] of [
      ['Admin', admin],
      ['Seller', seller],
    ] as const) {
      for (const view of views) {
        const attributeColumns = view.state.columns
          .filter((c) => c.startsWith('attr.'))
          .map((c) => c.slice(5));
        const response = await as(who, 'POST', '/api/v1/stagingProducts/method/search', {
          query: view.state.query,
          search: view.state.search,
          sort: view.state.sort,
          order: view.state.order,
          limit: view.state.pageSize,
          attributeColumns,
        });
        expect(response.statusCode, `${who}: ${view.name}: ${response.body}`).toBe(200);
        const list = json<ProductList>(response);
        // The seller sells no phones: the phone view runs for them, and finds none of theirs.
        const sellersPhones = who === 'Seller' && view.name.startsWith('Phones');
        expect(list.count, `${who}: ${view.name}`).toBeGreaterThanOrEqual(sellersPhones ? 0 : 3);
        if (view.name.startsWith('Phones')) {
          expect(list.result.every((row) => row.status === 'live' && row.price < 20_000)).toBe(true);
          if (who === 'Admin') expect(list.result[0]?.attributes).toHaveProperty('ram_gb');
        }
      }
    }
  });

  it('holds finished, failed and pending imports with their reports, and an open import request', async () => {
    const list = json<ImportList>(await as('Admin', 'GET', '/api/v1/imports/listImports?limit=100'));
    const byFile = new Map(list.result.map((entry) => [entry.fileName, entry]));
    const finished = byFile.get('peacock-summer-2026.csv');
    expect(finished?.batch).toMatchObject({ status: 'moved', counts: { total: 26, create: 24, error: 2 } });
    expect(finished?.batch.results).toMatchObject({ created: 24 });
    const failed = byFile.get('ganga-handloom-stock.csv');
    expect(failed?.batch.status).toBe('failed');
    expect(failed?.batch.error).toMatch(/UTF-8/);
    const pending = byFile.get('sample-catalog-sheet.csv');
    expect(pending?.batch.status).toBe('ready');
    const counts = pending?.batch.counts;
    expect(counts && counts.create + counts.update + counts.unchanged + counts.duplicate + counts.error).toBe(
      counts?.total,
    );
    expect(counts).toMatchObject({ total: 11, duplicate: 2, error: 4 });
    const mine = json<ImportList>(await as('Seller', 'GET', '/api/v1/imports/listImports'));
    expect(mine.result.map((entry) => entry.fileName)).toEqual(['sample-catalog-sheet.csv']);
    const requests = json<ImportRequestList>(
      await as('Staff', 'GET', '/api/v1/imports/listImportRequests?status=open'),
    );
    expect(requests.result).toEqual([
      expect.objectContaining({ kind: 'feed', sellerName: 'Demo Seller Store' }),
    ]);
  });
});
