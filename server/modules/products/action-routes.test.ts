// The staging grid's actions on PGlite and PostgreSQL: selection counts, bulk status, category and
// delete, the report and the export — every role, the seller's scope, and bad input.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import type { BulkResult, Product } from '../../../contracts/catalog';
import type { CatalogReport, SelectionCount } from '../../../contracts/catalog-actions';
import { exportDownloadPath } from '../../../contracts/exports';
import type { Task, TaskAccepted } from '../../../contracts/notifications';
import type { QueryTree } from '../../../contracts/query-tree';
import { formulaCells, parseCsv } from '../../../tests/csv';
import {
  attributeOptions,
  attributes,
  categories,
  categoryAttributes,
  products,
  sellers,
} from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';

const API = '/api/v1/stagingProducts';

describe.each(testBackends)('staging product actions on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let phones: string;
  let cases: string;
  let colour: number;
  let material: number;
  let red: number;
  let otherSellerId: string;
  const mine: string[] = [];
  let theirs: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.database.db;
    await db.delete(products); // the demo catalogue would blur the counts
    const made = await db
      .insert(categories)
      .values([
        { name: 'Bulk phones', slug: 'bulk-phones' },
        { name: 'Bulk cases', slug: 'bulk-cases' },
      ])
      .returning();
    phones = made[0]!.id;
    cases = made[1]!.id;
    const [colourRow, materialRow] = await db
      .insert(attributes)
      .values([
        { code: 'b_colour', label: 'Colour', dataType: 'ENUMERATED', isRequired: true },
        { code: 'b_material', label: 'Material', dataType: 'STRING', isRequired: true },
      ])
      .returning();
    colour = colourRow!.id;
    material = materialRow!.id;
    const [redRow] = await db
      .insert(attributeOptions)
      .values({ attributeId: colour, value: 'Red' })
      .returning();
    red = redRow!.id;
    await db.insert(categoryAttributes).values([
      { categoryId: phones, attributeId: colour },
      { categoryId: cases, attributeId: material },
    ]);
    // Four products of the demo seller: two complete, two missing the colour.
    for (const [index, complete] of [true, true, false, false].entries()) {
      const response = await as('Seller', 'POST', `${API}/`, {
        // The last one's title would be three cells, one a formula, if read with ';' as the separator.
        title: `Bulk phone ${index}${index === 3 ? ';=1+1;y' : ''}`,
        sku: `BULK-${index}`,
        categoryId: phones,
        price: 100 + index,
        inventory: index,
        attributeValues: complete ? [{ keyId: colour, valueId: red }] : [],
      });
      expect(response.statusCode, response.body).toBe(201);
      mine.push(json<Product>(response).id);
    }
    const [other] = await db
      .insert(sellers)
      .values({ sellerCode: 'BULK-OTHER', sellerName: 'Other seller', email: 'other@bulk.test' })
      .returning();
    otherSellerId = other!.id;
    const response = await as('Admin', 'POST', `${API}/`, {
      title: 'Their phone',
      sku: 'THEIRS-1',
      price: 5,
      inventory: 1,
      categoryId: phones,
      sellerId: otherSellerId,
      attributeValues: [{ keyId: colour, valueId: red }],
    });
    expect(response.statusCode, response.body).toBe(201);
    theirs = json<Product>(response).id;
  });
  afterAll(() => t.close());

  const everything: QueryTree = { combinator: 'and', children: [] };
  const post = <T>(who: 'Seller' | 'Admin' | 'Staff', path: string, body: unknown) =>
    as(who, 'POST', `${API}/method/${path}`, body as Record<string, unknown>).then((response) => ({
      status: response.statusCode,
      body: json<T & { message?: string; code?: string }>(response),
    }));
  const product = async (id: string) => json<Product>(await as('Admin', 'GET', `${API}/${id}`));

  it('counts a selection exactly, scoped to what the viewer may see', async () => {
    expect(
      (await post<SelectionCount>('Seller', 'countSelection', { selection: { query: everything } })).body,
    ).toEqual({
      count: 4,
      overLimit: false,
      asJob: false,
    });
    expect(
      (await post<SelectionCount>('Admin', 'countSelection', { selection: { query: everything } })).body,
    ).toEqual({
      count: 5,
      overLimit: false,
      asJob: false,
    });
    // A seller naming another seller's product by id does not reach it.
    const ids = await post<SelectionCount>('Seller', 'countSelection', {
      selection: { ids: [mine[0], theirs] },
    });
    expect(ids.body.count).toBe(1);
  });

  it('sends the complete products for review and reports the incomplete ones with why', async () => {
    const result = await post<BulkResult>('Seller', 'bulkStatus', {
      selection: { ids: mine },
      status: 'in_review',
    });
    expect(result.status).toBe(200);
    expect(result.body.changed).toBe(2);
    expect(result.body.skippedCount).toBe(2);
    expect(result.body.skipped.map((row) => [row.sku, row.reason])).toEqual([
      ['BULK-2', 'Required attributes are missing.'],
      ['BULK-3', 'Required attributes are missing.'],
    ]);
    expect((await product(mine[0]!)).status).toBe('in_review');
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${mine[0]}/history`));
    expect(history.result[0]).toMatchObject({
      action: 'status',
      changes: [{ field: 'status', before: 'draft', after: 'in_review' }],
    });
  });

  it('lets only reviewers approve, and needs a reason to reject', async () => {
    const bySeller = await post<BulkResult>('Seller', 'bulkStatus', {
      selection: { ids: mine },
      status: 'approved',
    });
    expect(bySeller.body.changed).toBe(0);
    expect(bySeller.body.skipped.find((row) => row.sku === 'BULK-0')?.reason).toBe(
      'A product that is in review cannot become approved by its seller.',
    );
    const noReason = await post('Staff', 'bulkStatus', { selection: { ids: mine }, status: 'rejected' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe('REASON_REQUIRED');
    const approved = await post<BulkResult>('Staff', 'bulkStatus', {
      selection: {
        query: { combinator: 'and', children: [{ field: 'status', op: 'anyOf', value: ['in_review'] }] },
      },
      status: 'approved',
    });
    expect(approved.body.changed).toBe(2);
    expect((await product(mine[1]!)).status).toBe('approved');
  });

  it('moves products to another category, dropping values outside its set and recomputing completeness', async () => {
    const result = await post<BulkResult>('Seller', 'bulkCategory', {
      selection: { ids: [mine[0], mine[2]] },
      categoryId: cases,
    });
    expect(result.body).toMatchObject({ changed: 2, skippedCount: 0 });
    const moved = await product(mine[0]!);
    expect(moved).toMatchObject({ categoryId: cases, completeness: 0, attributeValues: [] });
    expect(moved.missingAttributes.map((attribute) => attribute.code)).toEqual(['b_material']);
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/${mine[0]}/history`));
    expect(history.result[0]?.changes).toEqual([
      { field: 'categoryId', before: phones, after: cases },
      { field: 'Colour', before: 'Red', after: null },
    ]);
    const again = await post<BulkResult>('Seller', 'bulkCategory', {
      selection: { ids: [mine[0]] },
      categoryId: cases,
    });
    expect(again.body).toMatchObject({
      changed: 0,
      skippedCount: 1,
      skipped: [{ reason: 'Already in this category.' }],
    });
    const unknown = await post('Admin', 'bulkCategory', {
      selection: { ids: [mine[0]] },
      categoryId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);
  });

  it('reports the query: statuses, categories, sellers, completeness, missing attributes, images', async () => {
    const report = await post<CatalogReport>('Admin', 'report', { query: everything });
    expect(report.status).toBe(200);
    expect(report.body.total).toBe(5);
    expect(
      Object.fromEntries(report.body.byStatus.map((entry) => [entry.status, entry.count])),
    ).toMatchObject({
      approved: 2,
      draft: 3,
    });
    expect(report.body.bySeller.map((entry) => entry.count).sort()).toEqual([1, 4]);
    expect(report.body.byCategory.find((entry) => entry.id === cases)).toMatchObject({
      label: 'Bulk cases',
      count: 2,
    });
    expect(report.body.withoutImages).toBe(5);
    expect(report.body.missingAttributes[0]).toMatchObject({ code: 'b_material', count: 2 });
    expect(report.body.completeness.at(-1)).toEqual({ band: '100 %', count: 2 });
    // A seller's report holds their own products only.
    expect((await post<CatalogReport>('Seller', 'report', { query: everything })).body.total).toBe(4);
  });

  it('exports the query with the chosen columns and attributes to CSV', async () => {
    const started = await as('Seller', 'POST', `${API}/method/export`, {
      query: everything,
      sort: 'sku',
      order: 'asc',
      columns: ['sku', 'title', 'status', 'price'],
      attributeColumns: ['b_colour'],
      format: 'csv',
    });
    expect(started.statusCode, started.body).toBe(202);
    const task = json<TaskAccepted>(started).taskStatus;
    expect(task.taskName).toBe('Products export');
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    const state = json<Task>(await as('Seller', 'GET', `/api/v1/tasks/${task.taskId}`));
    expect(state, state.error ?? '').toMatchObject({ status: 'Completed', progress: 100 });
    const download = await as('Seller', 'GET', exportDownloadPath(task.taskId));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/filename="products-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = download.rawPayload.toString('utf8');
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual(['SKU', 'Title', 'Status', 'Price', 'Currency', 'Colour']);
    expect(rows).toEqual([
      ['BULK-0', 'Bulk phone 0', 'Approved', '100', 'INR', ''],
      ['BULK-1', 'Bulk phone 1', 'Approved', '101', 'INR', 'Red'],
      ['BULK-2', 'Bulk phone 2', 'Draft', '102', 'INR', ''],
      ['BULK-3', 'Bulk phone 3;=1+1;y', 'Draft', '103', 'INR', ''],
    ]);
    expect(formulaCells(text)).toEqual([]);
  });

  it('refuses an export or a report whose query names an unknown attribute', async () => {
    const query = { combinator: 'and', children: [{ field: 'attr.nope', op: 'isEmpty' }] };
    expect((await post('Admin', 'report', { query })).status).toBe(400);
    expect((await post('Admin', 'export', { query, format: 'csv' })).status).toBe(400);
  });

  it('keeps a seller off another seller’s products even with a query over everything', async () => {
    const result = await post<BulkResult>('Seller', 'bulkStatus', {
      selection: { query: everything },
      status: 'in_review',
    });
    expect(result.status).toBe(200);
    expect((await product(theirs)).status).toBe('draft');
    expect(result.body.skipped.map((row) => row.sku)).not.toContain('THEIRS-1');
  });

  it('deletes only with the delete permission, and only what the viewer may see', async () => {
    const bySeller = await post('Seller', 'bulkDelete', { selection: { ids: [mine[3]] } });
    expect(bySeller.status).toBe(403);
    const byAdmin = await post<BulkResult>('Admin', 'bulkDelete', { selection: { ids: [mine[3], theirs] } });
    expect(byAdmin.body).toMatchObject({ changed: 2 });
    const left = await t.database.db
      .select({ id: products.id })
      .from(products)
      .where(inArray(products.id, [mine[3]!, theirs]));
    expect(left).toEqual([]);
    expect((await as('Admin', 'GET', `${API}/${theirs}`)).statusCode).toBe(404);
  });

  it('lists the query fields (attributes with their options) and searches sellers and categories', async () => {
    type Fields = { result: { key: string; kind: string; options?: { value: number; label: string }[] }[] };
    const forSeller = json<Fields>(await as('Seller', 'GET', `${API}/method/queryFields`)).result;
    expect(forSeller.map((field) => field.key)).not.toContain('seller');
    expect(forSeller.find((field) => field.key === 'attr.b_colour')).toMatchObject({
      kind: 'enum',
      options: [{ value: red, label: 'Red' }],
    });
    const forAdmin = json<Fields>(await as('Admin', 'GET', `${API}/method/queryFields`)).result;
    expect(forAdmin.map((field) => field.key)).toContain('seller');
    type Options = { result: { value: string; label: string }[] };
    const found = json<Options>(await as('Admin', 'GET', `${API}/method/options/categories?q=bulk%20ca`));
    expect(found.result).toEqual([{ value: cases, label: 'Bulk cases' }]);
    const byId = json<Options>(
      await as('Admin', 'GET', `${API}/method/options/sellers?ids=${otherSellerId}`),
    );
    expect(byId.result).toEqual([{ value: otherSellerId, label: 'Other seller' }]);
    // A seller never learns other sellers' names.
    const hidden = json<Options>(
      await as('Seller', 'GET', `${API}/method/options/sellers?ids=${otherSellerId}`),
    );
    expect(hidden.result).toEqual([]);
    expect((await as('Admin', 'GET', `${API}/method/options/users`)).statusCode).toBe(400);
  });

  it('refuses malformed selections', async () => {
    expect((await post('Admin', 'bulkStatus', { selection: { ids: [] }, status: 'live' })).status).toBe(400);
    expect((await post('Admin', 'bulkStatus', { selection: { ids: ['x'] }, status: 'live' })).status).toBe(
      400,
    );
    expect(
      (await post('Admin', 'bulkStatus', { selection: { ids: [mine[0]] }, status: 'gone' })).status,
    ).toBe(400);
    const deep: QueryTree = { combinator: 'and', children: [] };
    let node = deep;
    for (let level = 0; level < 6; level++) {
      const child: QueryTree = { combinator: 'or', children: [] };
      node.children.push(child);
      node = child;
    }
    expect((await post('Admin', 'countSelection', { selection: { query: deep } })).status).toBe(400);
  });
});
