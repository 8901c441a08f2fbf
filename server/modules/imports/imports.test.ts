// Catalog imports on PGlite and PostgreSQL: upload and validation as a task, the report and its exact
// counts, mapping fixes, the dry run and the moves (idempotent, conflicts reported), pricing-only
// updates, duplicate merges, stop and resume, mark inactive, suggested titles, the error sheet, and
// who may do what. Jobs run by hand (runOnce), so each test knows when its task has run.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import { exportDownloadPath } from '../../../contracts/exports';
import type {
  BatchReport,
  BatchTaskAnswer,
  Import,
  ImportList,
  MarkInactivePreview,
  SuggestedTitleList,
  UploadAnswer,
} from '../../../contracts/imports';
import type { TaskAccepted } from '../../../contracts/notifications';
import { formulaCells, parseCsv } from '../../../tests/csv';
import {
  attributeOptions,
  attributes,
  catalogImports,
  categories,
  categoryAttributes,
  importBatches,
  products,
  stockMoves,
} from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { demoSellerId, multipart } from '../sellers/test-helpers';
import { releaseStock, reserveStock, stockOf } from '../stock/stock';

const API = '/api/v1/imports';
const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
const csv = (rows: string[][]) =>
  Buffer.from(`${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`);
const HEADER = ['SKU', 'Title', 'Category', 'Price', 'Stock', 'Imp colour', 'Supplier note'];

describe.each(testBackends)('catalog imports on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let otherSellerId: string;

  const runJobs = async () => {
    let ran = 0;
    while (await t.app.jobs.worker.runOnce()) ran++;
    return ran;
  };
  const upload = async (
    who: 'Seller' | 'Staff' | 'Admin',
    content: Buffer,
    options: { name?: string; fields?: Record<string, string>; type?: string } = {},
  ) => {
    const body = multipart(
      [{ filename: options.name ?? 'sheet.csv', type: options.type ?? 'text/csv', content }],
      options.fields,
    );
    return as(who, 'POST', `${API}/uploadCatalogSheet`, body.payload, body.headers);
  };
  const uploaded = async (
    content: Buffer,
    options: Parameters<typeof upload>[2] = {},
    who: 'Seller' | 'Staff' | 'Admin' = 'Seller',
  ) => {
    const response = await upload(who, content, options);
    expect(response.statusCode, response.body).toBe(201);
    const answer = json<UploadAnswer>(response);
    await runJobs();
    return answer.import;
  };
  const report = async (batch: string, query = '') => {
    const response = await as('Seller', 'GET', `${API}/getBatchReport?batch=${batch}&limit=100${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<BatchReport>(response);
  };
  const currentBatch = async (importId: string) =>
    json<Import>(await as('Admin', 'GET', `${API}/getImport/${importId}`)).batch;
  const productBySku = async (sku: string) => {
    const [row] = await t.database.db
      .select()
      .from(products)
      .where(and(eq(products.sellerId, sellerId), eq(products.sku, sku)));
    return row;
  };

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    sellerId = await demoSellerId(t, 'seller@demo.local');
    otherSellerId = await demoSellerId(t, 'blocked@demo.local');
    const db = t.database.db;
    const [category] = await db
      .insert(categories)
      .values({ name: 'Imp Gadgets', slug: 'imp-gadgets' })
      .returning();
    const [colour] = await db
      .insert(attributes)
      .values({ code: 'imp_colour', label: 'Imp colour', dataType: 'ENUMERATED' })
      .returning();
    await db.insert(attributeOptions).values([
      { attributeId: colour!.id, value: 'Red' },
      { attributeId: colour!.id, value: 'Blue' },
    ]);
    await db.insert(categoryAttributes).values({ categoryId: category!.id, attributeId: colour!.id });
    // Duplicate keys are the title and the template's attributes.
    const template = await as('Admin', 'PUT', `${API}/titleTemplate`, {
      template: '{maker} {model} {imp_colour}',
    });
    expect(template.statusCode, template.body).toBe(200);
  });
  afterAll(() => t?.close());

  const sheet = csv([
    HEADER,
    ['IMP-1', 'Gadget one', 'Imp Gadgets', '1,299.50', '10', 'red', 'first'],
    ['IMP-2', 'Gadget two', 'Imp Gadgets', '799', '4', 'Blue', ''],
    ['IMP-3', '=HYPERLINK("http://evil.test","x")', 'Imp Gadgets', 'cheap', '1', 'Red', 'x;=1+1;y'],
    ['IMP-4', 'Gadget four', 'Nowhere', '10', '1', 'Green', ''],
    ['IMP-1', 'Gadget one again', 'Imp Gadgets', '5', '1', 'Red', 'same SKU'],
    ['IMP-5', 'Gadget  ONE', 'Imp Gadgets', '5', '1', 'RED', 'same title and colour'],
    [],
    ['IMP-6', '', 'Imp Gadgets', '5', '1', 'Red', 'no title'],
  ]);

  it('validates an upload as a task: exact counts, each bad cell, duplicates, unmapped columns', async () => {
    const response = await upload('Seller', sheet);
    expect(response.statusCode, response.body).toBe(201);
    const answer = json<UploadAnswer>(response);
    expect(answer.taskStatus).toMatchObject({ status: 'Queued', taskName: 'Validate sheet.csv' });
    expect(answer.import).toMatchObject({ sellerId, fileName: 'sheet.csv', format: 'csv', headers: HEADER });
    expect(answer.import.batch).toMatchObject({ number: 1, status: 'queued' });
    expect(answer.import.batch.mapping.map((column) => column.target)).toEqual([
      'sku',
      'title',
      'category',
      'price',
      'inventory',
      'attr:imp_colour',
      null,
    ]);
    expect(await runJobs()).toBe(1);
    const result = await report(answer.import.batch.id);
    expect(result.batch).toMatchObject({ status: 'ready', rowsRead: 7, progress: 100 });
    expect(result.batch.counts).toEqual({
      total: 7,
      create: 2,
      update: 0,
      unchanged: 0,
      duplicate: 2,
      error: 3,
    });
    expect(result.unmappedColumns).toEqual([{ index: 6, header: 'Supplier note' }]);
    const byLine = new Map(result.rows.map((row) => [row.line, row]));
    expect(byLine.get(2)).toMatchObject({ outcome: 'create', sku: 'IMP-1' });
    expect(byLine.get(2)?.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ label: 'Price', before: null, after: '1299.50' })]),
    );
    expect(byLine.get(4)?.title).toBe('=HYPERLINK("http://evil.test","x")');
    expect(byLine.get(4)?.errors).toEqual([expect.objectContaining({ cell: 'D4', code: 'INVALID_PRICE' })]);
    expect(byLine.get(5)?.errors.map((error) => error.cell)).toEqual(['C5']);
    expect(byLine.get(6)).toMatchObject({ outcome: 'duplicate', duplicateOf: { line: 2 } });
    expect(byLine.get(7)).toMatchObject({ outcome: 'duplicate', duplicateOf: { line: 2 } });
    expect(byLine.has(8)).toBe(false); // the blank row
    expect(byLine.get(9)?.errors).toEqual([expect.objectContaining({ code: 'TITLE_REQUIRED', cell: 'B9' })]);
    expect(result.topErrors.reduce((sum, error) => sum + error.count, 0)).toBe(3);
    const filtered = await report(answer.import.batch.id, '&outcome=error');
    expect(filtered.count).toBe(3);
    expect(
      json<ImportList>(await as('Seller', 'GET', `${API}/searchImports?query=sheet`)).count,
    ).toBeGreaterThan(0);
    const history = json<AuditPage>(
      await as('Seller', 'GET', `${API}/getImportUpdateHistory/${answer.import.id}`),
    );
    expect(history.result.map((entry) => entry.action)).toEqual(['validated', 'uploaded']);
  });

  it('writes the error sheet: the original rows plus an Errors column, formulas neutralised', async () => {
    const imported = await uploaded(sheet);
    const response = await as('Seller', 'POST', `${API}/exportBatchErrors`, { batch: imported.batch.id });
    expect(response.statusCode, response.body).toBe(202);
    const { taskStatus } = json<TaskAccepted>(response);
    await runJobs();
    const file = await as('Seller', 'GET', exportDownloadPath(taskStatus.taskId));
    expect(file.statusCode, file.body).toBe(200);
    const rows = parseCsv(file.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([...HEADER, 'Errors']);
    expect(rows).toHaveLength(4);
    expect(rows[1]?.[1]).toBe(`'=HYPERLINK("http://evil.test","x")`);
    // Read with ';' as the list separator too (Excel in German, French…): no cell is a formula.
    expect(rows[1]?.[6]).toBe('x;=1+1;y');
    expect(formulaCells(file.body)).toEqual([]);
    expect(rows[1]?.[7]).toMatch(/^D4: The price must be a number/);
    const xlsx = await as('Seller', 'POST', `${API}/exportBatchErrors`, {
      batch: imported.batch.id,
      format: 'xlsx',
    });
    await runJobs();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await as('Seller', 'GET', exportDownloadPath(json<TaskAccepted>(xlsx).taskStatus.taskId)))
        .rawPayload as never,
    );
    const cell = workbook.worksheets[0]?.getRow(2).getCell(2);
    expect(cell?.type).toBe(ExcelJS.ValueType.String);
    expect(cell?.value).toBe('=HYPERLINK("http://evil.test","x")');
  });

  it('refuses files that are not sheets, empty files and badly encoded text; reads a header-only sheet', async () => {
    expect((await upload('Seller', Buffer.alloc(0))).statusCode).toBe(400);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0, 1, 2, 3]);
    const binary = await upload('Seller', png, { name: 'products.csv' });
    expect(binary.statusCode).toBe(415);
    const latin1 = await upload('Seller', Buffer.from('SKU,Désignation\r\nA,b\r\n', 'latin1'));
    expect(latin1.statusCode).toBe(400);
    expect(json(latin1).message).toMatch(/UTF-8/);
    const headerOnly = await uploaded(csv([HEADER]));
    const batch = await currentBatch(headerOnly.id);
    expect(batch).toMatchObject({ status: 'ready', counts: { total: 0 } });
    const noSku = await uploaded(
      csv([
        ['Name', 'Price'],
        ['A', '1'],
      ]),
    );
    expect((await currentBatch(noSku.id)).counts).toMatchObject({ total: 1, error: 1 });
  });

  it('reads columns in any order, duplicate headers once, and XLSX like CSV', async () => {
    const shuffled = await uploaded(
      csv([
        ['Stock', 'Price', 'sku', 'SKU', 'Title', 'Category'],
        ['3', '10', 'IMP-ORDER-1', 'IGNORED', 'Ordered gadget', 'Imp Gadgets'],
      ]),
    );
    expect(shuffled.batch.mapping.map((column) => column.target)).toEqual([
      'inventory',
      'price',
      'sku',
      null,
      'title',
      'category',
    ]);
    expect((await currentBatch(shuffled.id)).counts).toMatchObject({ total: 1, create: 1 });

    const workbook = new ExcelJS.Workbook();
    const sheetOf = workbook.addWorksheet('Products');
    sheetOf.addRows([HEADER, ['IMP-X1', 'Xlsx gadget', 'Imp Gadgets', 12.5, 7, 'Blue', '']]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const xlsx = await uploaded(buffer, {
      name: 'products.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(xlsx.format).toBe('xlsx');
    const result = await report((await currentBatch(xlsx.id)).id);
    expect(result.rows[0]).toMatchObject({ line: 2, outcome: 'create', sku: 'IMP-X1' });
    expect(result.rows[0]?.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ label: 'Price', after: '12.50' })]),
    );
  });

  it('fixes a mapping by reprocessing, and remembers it for the seller’s next sheet', async () => {
    const imported = await uploaded(
      csv([
        ['SKU', 'Name of item', 'Category', 'Cost'],
        ['IMP-M1', 'Mapped', 'Imp Gadgets', '5'],
      ]),
    );
    expect((await currentBatch(imported.id)).counts).toMatchObject({ error: 1 });
    const mapping = imported.batch.mapping.map((column) =>
      column.header === 'Name of item'
        ? { ...column, target: 'title' }
        : column.header === 'Cost'
          ? { ...column, target: 'price' }
          : column,
    );
    const bad = await as('Seller', 'POST', `${API}/reprocessBatch`, {
      batch: imported.batch.id,
      mapping: mapping.map((column) => ({
        ...column,
        target: column.target === 'sku' ? null : column.target,
      })),
    });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).message).toMatch(/SKU/);
    const response = await as('Seller', 'POST', `${API}/reprocessBatch`, {
      batch: imported.batch.id,
      mapping,
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<BatchTaskAnswer>(response);
    expect(answer.batch.number).toBe(2);
    await runJobs();
    expect((await currentBatch(imported.id)).counts).toMatchObject({ total: 1, create: 1, error: 0 });
    // Both batches stay, newest first; a seller finds only their own.
    const batches = json<{ result: { number: number; status: string }[]; count: number }>(
      await as('Seller', 'GET', `${API}/searchBatches?importId=${imported.id}`),
    );
    expect(batches.result.map((batch) => [batch.number, batch.status])).toEqual([
      [2, 'ready'],
      [1, 'ready'],
    ]);
    expect(batches.count).toBe(2);
    const kyc = json<{ count: number }>(
      await as('Kyc', 'GET', `${API}/searchBatches?importId=${imported.id}`),
    );
    expect(kyc.count).toBe(0);
    const failed = json<{ result: { status: string }[] }>(
      await as('Admin', 'GET', `${API}/searchBatches?status=failed&limit=100`),
    );
    expect(failed.result.every((batch) => batch.status === 'failed')).toBe(true);
    // The editor's choices: the product fields, then attributes.
    const targets = json<{ result: { target: string; kind: string }[] }>(
      await as('Seller', 'GET', `${API}/mappingTargets`),
    ).result;
    expect(targets.slice(0, 4).map((target) => target.target)).toEqual(['sku', 'title', 'category', 'price']);
    expect(targets).toContainEqual(expect.objectContaining({ target: 'attr:imp_colour', kind: 'attribute' }));
    const again = await uploaded(
      csv([
        ['SKU', 'Name of item', 'Category', 'Cost'],
        ['IMP-M2', 'Mapped too', 'Imp Gadgets', '6'],
      ]),
    );
    expect(again.batch.mapping.map((column) => column.target)).toEqual(['sku', 'title', 'category', 'price']);
    // Another seller's sheet does not get this seller's choices.
    const staffs = await uploaded(
      csv([
        ['SKU', 'Name of item'],
        ['X', 'y'],
      ]),
      { fields: { sellerId: otherSellerId } },
      'Staff',
    );
    expect(staffs.batch.mapping.map((column) => column.target)).toEqual(['sku', null]);
  });

  it('moves exactly what it previewed: creates, updates, conflicts; running it twice changes nothing twice', async () => {
    const first = await uploaded(
      csv([
        ['SKU', 'Title', 'Category', 'Price', 'Stock', 'Imp colour'],
        ['IMP-MV-1', 'Mover one', 'Imp Gadgets', '100', '1', 'Red'],
        ['IMP-MV-2', 'Mover two', 'Imp Gadgets', '200', '2', ''],
        ['IMP-MV-3', 'Mover three', 'Imp Gadgets', '300', '3', 'Blue'],
      ]),
    );
    expect((await currentBatch(first.id)).leftToMove).toEqual({ full: 3, pricing: 3, duplicates: 0 });
    const moved = await as('Seller', 'POST', `${API}/moveToStaging?batch=${first.batch.id}`);
    expect(moved.statusCode, moved.body).toBe(200);
    // Enqueued twice on purpose: the second task must find nothing left to do.
    const twice = await as('Seller', 'POST', `${API}/moveToStaging?batch=${first.batch.id}`);
    expect(twice.statusCode).toBe(409);
    await runJobs();
    const after = await currentBatch(first.id);
    expect(after).toMatchObject({ status: 'moved', results: { created: 3 }, leftToMove: { full: 0 } });
    const one = await productBySku('IMP-MV-1');
    expect(one).toMatchObject({ title: 'Mover one', priceMinor: 10_000, inventory: 1, status: 'draft' });
    expect(json(await as('Seller', 'POST', `${API}/moveToStaging?batch=${first.batch.id}`)).message).toMatch(
      /moved already/,
    );

    // The next sheet updates two of them; one is edited in staging between the preview and the move.
    const second = await uploaded(
      csv([
        ['SKU', 'Title', 'Price', 'Stock', 'Imp colour'],
        ['IMP-MV-1', 'Mover one', '150', '1', 'Red'],
        ['IMP-MV-2', 'Mover two renamed', '200', '2', 'Blue'],
        ['IMP-MV-3', 'Mover three', '300', '3', 'Blue'],
      ]),
    );
    const preview = await report(second.batch.id);
    expect(preview.batch.counts).toMatchObject({ update: 2, unchanged: 1 });
    expect(preview.rows[0]?.changes).toEqual([
      { field: 'priceMinor', label: 'Price', before: '100.00', after: '150.00' },
    ]);
    expect(preview.rows[1]?.changes.map((change) => change.label)).toEqual(['Title', 'Imp colour']);
    const two = (await productBySku('IMP-MV-2')) as { id: string; version: number };
    const edit = await as('Seller', 'PATCH', `/api/v1/stagingProducts/${two.id}`, {
      title: 'Edited meanwhile',
      version: two.version,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await as('Seller', 'POST', `${API}/moveToStaging?batch=${second.batch.id}`);
    await runJobs();
    const result = await report(second.batch.id);
    expect(result.batch.results).toMatchObject({ updated: 1, conflict: 1, unchanged: 1 });
    expect(result.rows[1]).toMatchObject({ result: 'conflict' });
    expect(result.rows[1]?.resultMessage).toMatch(/Title/);
    expect(await productBySku('IMP-MV-2')).toMatchObject({ title: 'Edited meanwhile' });
    expect(await productBySku('IMP-MV-1')).toMatchObject({ priceMinor: 15_000 });
    const history = json<{ result: { action: string; note: string }[] }>(
      await as('Seller', 'GET', `/api/v1/stagingProducts/${(await productBySku('IMP-MV-1'))?.id}/history`),
    );
    expect(history.result[0]).toMatchObject({ action: 'updated' });
    expect(history.result[0]?.note).toMatch(/batch 1, line 2/);

    // Pricing only: price and stock of known SKUs; an unknown SKU is reported, titles are not touched.
    const pricing = await uploaded(
      csv([
        ['SKU', 'Title', 'Price', 'Stock'],
        ['IMP-MV-1', 'Not this title', '175', '9'],
        ['IMP-MV-404', 'Unknown', '1', '1'],
      ]),
    );
    await as('Seller', 'POST', `${API}/moveToStagingOnlyPricingAndInventory?batch=${pricing.batch.id}`);
    await runJobs();
    expect((await currentBatch(pricing.id)).results).toMatchObject({ updated: 1, no_match: 1 });
    expect(await productBySku('IMP-MV-1')).toMatchObject({
      title: 'Mover one',
      priceMinor: 17_500,
      inventory: 9,
    });
    expect(await productBySku('IMP-MV-404')).toBeUndefined();

    // Inventory is on hand: the import's change is a stock move, and it never goes below what open
    // orders hold (that row is a conflict, the rest of the sheet still moves).
    const mover = (await productBySku('IMP-MV-1'))!;
    const moves = await t.database.db.select().from(stockMoves).where(eq(stockMoves.productId, mover.id));
    expect(moves.at(-1)).toMatchObject({ reason: 'import', note: expect.stringMatching(/line 2/) });
    expect((await stockOf(t.database.db, [mover.id]))[0]?.onHand).toBe(9);
    await t.database.db.transaction((tx) =>
      reserveStock(tx, 'order:import-test', [{ productId: mover.id, quantity: 7 }]),
    );
    const below = await uploaded(
      csv([
        ['SKU', 'Title', 'Price', 'Stock'],
        ['IMP-MV-1', '', '175', '6'],
      ]),
    );
    await as('Seller', 'POST', `${API}/moveToStagingOnlyPricingAndInventory?batch=${below.batch.id}`);
    await runJobs();
    expect((await currentBatch(below.id)).results).toMatchObject({ conflict: 1 });
    expect((await report(below.batch.id)).rows[0]?.resultMessage).toMatch(/below the 7 units reserved/);
    expect((await productBySku('IMP-MV-1'))?.inventory).toBe(9);
    await t.database.db.transaction((tx) => releaseStock(tx, 'order:import-test'));
  });

  it('merges duplicates into the product they duplicate, filling only what it lacks', async () => {
    const imported = await uploaded(
      csv([
        ['SKU', 'Title', 'Category', 'Price', 'Imp colour'],
        ['IMP-DUP-1', 'Twin', 'Imp Gadgets', '10', ''],
        ['IMP-DUP-1', 'Twin again', 'Imp Gadgets', '11', 'Blue'],
      ]),
    );
    const early = await as('Seller', 'POST', `${API}/mergeDuplicatesToStaging?batch=${imported.batch.id}`);
    expect(early.statusCode).toBe(200);
    await runJobs();
    expect((await report(imported.batch.id, '&outcome=duplicate')).rows[0]).toMatchObject({
      result: 'skipped',
    });
    // The skipped row stays skipped: a merge takes each row once. A fresh batch merges after the move.
    const fresh = await as('Seller', 'POST', `${API}/reprocessBatch`, { batch: imported.batch.id });
    const batch = json<BatchTaskAnswer>(fresh).batch.id;
    await runJobs();
    await as('Seller', 'POST', `${API}/moveToStaging?batch=${batch}`);
    await runJobs();
    await as('Seller', 'POST', `${API}/mergeDuplicatesToStaging?batch=${batch}`);
    await runJobs();
    const merged = await productBySku('IMP-DUP-1');
    expect(merged).toMatchObject({ title: 'Twin', priceMinor: 1000 });
    expect(merged?.attributeValues).toEqual([expect.objectContaining({ value: 'Blue' })]);
    expect((await report(batch, '&outcome=duplicate')).rows[0]).toMatchObject({ result: 'merged' });
  });

  it('stops a running validation and resumes it from its checkpoint with exact counts', async () => {
    const rows = [HEADER];
    for (let index = 0; index < 20_000; index++)
      rows.push([
        `IMP-BIG-${index}`,
        `Big ${index}`,
        'Imp Gadgets',
        '5',
        '1',
        index % 7 ? 'Red' : 'Pink',
        '',
      ]);
    const response = await upload('Seller', csv(rows), { name: 'big.csv' });
    const answer = json<UploadAnswer>(response);
    const stop = await as('Seller', 'POST', `${API}/stopBatch`, { batch: answer.import.batch.id });
    expect(stop.statusCode, stop.body).toBe(200);
    await runJobs();
    expect(await currentBatch(answer.import.id)).toMatchObject({ status: 'stopped', rowsRead: 0 });
    expect(
      (await as('Seller', 'POST', `${API}/moveToStaging?batch=${answer.import.batch.id}`)).statusCode,
    ).toBe(409);

    // Resumed, then interrupted mid-sheet by a worker shutdown, then resumed by the next worker.
    expect(
      (await as('Seller', 'POST', `${API}/resumeBatch`, { batch: answer.import.batch.id })).statusCode,
    ).toBe(200);
    t.app.jobs.worker.start();
    const db = t.database.db;
    for (;;) {
      const [row] = await db
        .select({ read: importBatches.rowsRead })
        .from(importBatches)
        .where(eq(importBatches.id, answer.import.batch.id));
      if ((row?.read ?? 0) > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await t.app.jobs.worker.stop();
    await runJobs();
    const batch = await currentBatch(answer.import.id);
    expect(batch.status).toBe('ready');
    expect(batch.counts).toEqual({
      total: 20_000,
      create: 17_142,
      update: 0,
      unchanged: 0,
      duplicate: 0,
      error: 2858,
    });
    expect((await report(batch.id, '&outcome=error')).count).toBe(2858);
  }, 120_000);

  it('validates a 100,000-row sheet with exact counts', async () => {
    const lines = ['SKU,Title,Category,Price,Stock'];
    for (let index = 0; index < 100_000; index++)
      lines.push(
        `IMP-HUGE-${index},Huge ${index},Imp Gadgets,${index % 1000 === 0 ? 'n/a' : '9.99'},${index % 50}`,
      );
    const imported = await uploaded(Buffer.from(lines.join('\n')), { name: 'huge.csv' });
    const batch = await currentBatch(imported.id);
    expect(batch).toMatchObject({ status: 'ready', rowsRead: 100_000 });
    expect(batch.counts).toEqual({
      total: 100_000,
      create: 99_900,
      update: 0,
      unchanged: 0,
      duplicate: 0,
      error: 100,
    });
  }, 120_000);

  it('marks inactive the live products a sheet no longer has, after a confirmation of the count', async () => {
    const db = t.database.db;
    await db
      .update(products)
      .set({ status: 'live' })
      .where(and(eq(products.sellerId, sellerId), inArray(products.sku, ['IMP-MV-2', 'IMP-MV-3'])));
    const imported = await uploaded(
      csv([
        ['SKU', 'Title'],
        ['IMP-MV-1', 'Mover one'],
        ['IMP-MV-2', 'Mover two'],
      ]),
    );
    const preview = json<MarkInactivePreview>(
      await as('Seller', 'GET', `${API}/markInactive?batch=${imported.batch.id}`),
    );
    const live = await db.$count(products, and(eq(products.sellerId, sellerId), eq(products.status, 'live')));
    expect(preview.willChange).toBe(live - 1);
    expect(preview.missing).toBeGreaterThanOrEqual(preview.willChange);
    const stale = await as('Seller', 'POST', `${API}/markInactive`, {
      batch: imported.batch.id,
      expected: preview.willChange + 1,
    });
    expect(stale.statusCode).toBe(409);
    const done = await as('Seller', 'POST', `${API}/markInactive`, {
      batch: imported.batch.id,
      expected: preview.willChange,
    });
    expect(json(done)).toMatchObject({ changed: preview.willChange });
    expect(await productBySku('IMP-MV-3')).toMatchObject({ status: 'inactive' });
    expect(await productBySku('IMP-MV-2')).toMatchObject({ status: 'live' });
  });

  it('suggests titles from the admin’s template and applies them as a new batch', async () => {
    expect((await as('Staff', 'PUT', `${API}/titleTemplate`, { template: '{brand}' })).statusCode).toBe(403);
    expect(
      (await as('Admin', 'PUT', `${API}/titleTemplate`, { template: 'no placeholder' })).statusCode,
    ).toBe(400);
    const imported = await uploaded(
      csv([
        ['SKU', 'Title', 'Category', 'Price', 'Maker', 'Model', 'Imp colour'],
        ['IMP-T-1', '', 'Imp Gadgets', '5', 'Zenith', 'X2', 'Blue'],
        ['IMP-T-2', 'Kept', 'Imp Gadgets', '5', 'Zenith', '', ''],
      ]),
    );
    expect((await currentBatch(imported.id)).counts).toMatchObject({ error: 1, create: 1 });
    const list = json<SuggestedTitleList>(
      await as('Seller', 'POST', `${API}/getSuggestedTitles`, { batch: imported.batch.id }),
    );
    expect(list.template).toBe('{maker} {model} {imp_colour}');
    expect(list.result).toEqual([
      { line: 2, sku: 'IMP-T-1', current: '', suggested: 'Zenith X2 Blue' },
      { line: 3, sku: 'IMP-T-2', current: 'Kept', suggested: 'Zenith' },
    ]);
    const applied = await as('Seller', 'POST', `${API}/applySuggestedTitles`, {
      batch: imported.batch.id,
      all: true,
      onlyMissing: true,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(json(applied)).toMatchObject({ applied: 1 });
    await runJobs();
    const result = await report((await currentBatch(imported.id)).id);
    expect(result.batch.counts).toMatchObject({ create: 2, error: 0 });
    expect(result.rows.map((row) => row.title)).toEqual(['Zenith X2 Blue', 'Kept']);
  });

  it('lets sellers import only into their own catalogue; staff name the seller', async () => {
    const mine = await uploaded(csv([['SKU'], ['IMP-OWN-1']]));
    expect((await as('Kyc', 'GET', `${API}/getImport/${mine.id}`)).statusCode).toBe(404);
    expect((await as('Kyc', 'GET', `${API}/getBatchReport?batch=${mine.batch.id}`)).statusCode).toBe(404);
    expect((await as('Kyc', 'POST', `${API}/moveToStaging?batch=${mine.batch.id}`)).statusCode).toBe(404);
    // A seller naming another seller still imports into their own catalogue.
    const spoof = await uploaded(csv([['SKU'], ['IMP-OWN-2']]), { fields: { sellerId: otherSellerId } });
    expect(spoof.sellerId).toBe(sellerId);
    const missing = await upload('Staff', csv([['SKU'], ['X']]));
    expect(missing.statusCode).toBe(400);
    expect(json(missing).message).toMatch(/seller/);
    const forOther = await uploaded(
      csv([['SKU'], ['IMP-OWN-3']]),
      { fields: { sellerId: otherSellerId } },
      'Admin',
    );
    expect(forOther.sellerId).toBe(otherSellerId);
    const sellers = json<ImportList>(await as('Seller', 'GET', `${API}/listImports?limit=100`));
    expect(sellers.result.every((entry) => entry.sellerId === sellerId)).toBe(true);
    const admins = json<ImportList>(await as('Admin', 'GET', `${API}/listImports?sellerId=${otherSellerId}`));
    expect(admins.result.map((entry) => entry.id)).toContain(forOther.id);
    expect((await as('Seller', 'GET', `${API}/listImports?limit=1000`)).statusCode).toBe(400);
    expect((await as('Seller', 'GET', `${API}/getBatchReport?batch=nope`)).statusCode).toBe(400);
    const unauthenticated = await t.app.inject({ method: 'GET', url: `${API}/listImports` });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('takes import requests: a seller asks, staff import for them, the seller follows', async () => {
    const invalid = await as('Seller', 'POST', `${API}/addImportProductsApi`, {
      feedUrl: 'ftp://feeds.test/x.csv',
    });
    expect(invalid.statusCode).toBe(400);
    const feed = await as('Seller', 'POST', `${API}/addImportProductsApi`, {
      feedUrl: 'http://127.0.0.1:9/feed.csv',
      note: 'Our nightly feed',
    });
    expect(feed.statusCode, feed.body).toBe(201);
    const feedRequest = json<{ id: string; status: string }>(feed);
    expect((await as('Seller', 'POST', `${API}/takeImportRequest/${feedRequest.id}`)).statusCode).toBe(403);
    const refused = await as('Staff', 'POST', `${API}/importFromRequest/${feedRequest.id}`);
    expect(refused.statusCode).toBe(400);
    expect(json(refused).message).toMatch(/private or local/);

    const file = multipart(
      [
        {
          filename: 'my-products.csv',
          type: 'text/csv',
          content: csv([
            ['SKU', 'Title'],
            ['IMP-RQ-1', 'Requested'],
          ]),
        },
      ],
      {
        note: 'Please map this',
      },
    );
    const asked = await as('Seller', 'POST', `${API}/addImportProductsApi`, file.payload, file.headers);
    expect(asked.statusCode, asked.body).toBe(201);
    const requestId = json<{ id: string }>(asked).id;
    const read = await as('Staff', 'GET', `${API}/getImportRequest/${requestId}`);
    expect(json(read)).toMatchObject({ status: 'open', kind: 'file', note: 'Please map this', sellerId });
    expect((await as('Kyc', 'GET', `${API}/getImportRequest/${requestId}`)).statusCode).toBe(404);
    const taken = await as('Staff', 'POST', `${API}/takeImportRequest/${requestId}`);
    expect(json(taken)).toMatchObject({ status: 'in_progress', assignee: { name: expect.any(String) } });
    const made = await as('Staff', 'POST', `${API}/importFromRequest/${requestId}`);
    expect(made.statusCode, made.body).toBe(201);
    const answer = json<UploadAnswer>(made);
    expect(answer.import).toMatchObject({ sellerId, requestId, fileName: 'my-products.csv' });
    await runJobs();
    expect((await as('Seller', 'GET', `${API}/getImport/${answer.import.id}`)).statusCode).toBe(200);
    const done = await as('Staff', 'POST', `${API}/updateImportRequest/${requestId}`, {
      status: 'done',
      response: 'Imported.',
    });
    expect(json(done)).toMatchObject({ status: 'done', importIds: [answer.import.id] });
    const list = json<{ result: { id: string }[] }>(await as('Seller', 'GET', `${API}/listImportRequests`));
    expect(list.result.map((entry) => entry.id)).toContain(requestId);
    expect(json<{ result: unknown[] }>(await as('Kyc', 'GET', `${API}/listImportRequests`)).result).toEqual(
      [],
    );
    const history = json<AuditPage>(await as('Seller', 'GET', `${API}/getRequestUpdateHistory/${requestId}`));
    expect(history.result.map((entry) => entry.action)).toEqual(['done', 'imported', 'taken', 'requested']);
    expect((await as('Kyc', 'GET', `${API}/getRequestUpdateHistory/${requestId}`)).statusCode).toBe(404);
    const original = await as('Staff', 'GET', `${API}/downloadRequestFile/${requestId}`);
    expect(original.body).toContain('IMP-RQ-1');
  });

  it('serves the sample sheet, which validates to good rows, errors and duplicates', async () => {
    const response = await as('Seller', 'GET', `${API}/sampleSheet`);
    expect(response.headers['content-type']).toMatch(/text\/csv/);
    const imported = await uploaded(response.rawPayload, { name: 'sample.csv' });
    const counts = (await currentBatch(imported.id)).counts;
    expect(counts.total).toBe(11);
    expect(counts.error).toBeGreaterThan(0);
    expect(counts.duplicate).toBeGreaterThan(0);
    expect(counts.create).toBeGreaterThan(0);
  });

  it('keeps the uploaded sheet as it came', async () => {
    const imported = await uploaded(csv([['SKU'], ['IMP-FILE-1']]));
    const [row] = await t.database.db
      .select({ storagePath: catalogImports.storagePath, fileHash: catalogImports.fileHash })
      .from(catalogImports)
      .where(eq(catalogImports.id, imported.id));
    const content = await readFile(`${t.dataDir}/${row?.storagePath}`);
    expect(content.toString('utf8')).toContain('IMP-FILE-1');
    expect(createHash('sha256').update(content).digest('hex')).toBe(row?.fileHash);
  });
});
