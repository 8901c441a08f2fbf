// Catalog imports on the S3 driver (s3rver on 127.0.0.1, port 4573), beside the same app on the disk
// driver: the uploaded sheet is stored in the bucket (nothing under DATA_DIR), validation reads it from
// there with the same verdicts as on disk, and the error sheet is written to and served from the bucket.
// A validate job whose store is down fails its attempt and is retried with nothing lost or half written,
// then completes once the store is back; an outage outlasting every attempt fails the batch with the
// storage's words, and a resume finishes it. File names with `../` or an absolute path stay in their
// folder, a crafted key is refused (404), and an oversize sheet answers 413 with nothing stored.
// Jobs run by hand (runOnce); retries are due at once (retryBaseMs 0), so no test waits for time.
import { readdir } from 'node:fs/promises';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDownloadPath } from '../../../contracts/exports';
import type { BatchReport, Import, UploadAnswer } from '../../../contracts/imports';
import type { TaskAccepted } from '../../../contracts/notifications';
import {
  attributeOptions,
  attributes,
  catalogImports,
  categories,
  categoryAttributes,
  importBatches,
  importRequests,
  importRows,
  jobs,
} from '../../db/schema';
import { scratchDir } from '../../lib/scratch';
import { startTestS3, type TestS3 } from '../../lib/storage/test-s3';
import { apiAs, createTestApp, json, type TestApp } from '../../test-support';
import { exportStorageKey, exportsFolder } from '../exports/export-job';
import { multipart } from '../sellers/test-helpers';
import { IMPORT_FOLDER } from './imports';

const API = '/api/v1/imports';
const REQUEST_FOLDER = 'uploads/import-requests';
const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
const csv = (rows: string[][]) =>
  Buffer.from(`${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`);
const HEADER = ['SKU', 'Title', 'Category', 'Price', 'Stock', 'Imp colour', 'Supplier note'];
const sheet = csv([
  HEADER,
  ['S3-1', 'Gadget one', 'Imp Gadgets', '1,299.50', '10', 'red', 'first'],
  ['S3-2', 'Gadget two', 'Imp Gadgets', '799', '4', 'Blue', ''],
  ['S3-3', '=HYPERLINK("http://evil.test","x")', 'Imp Gadgets', 'cheap', '1', 'Red', 'x;=1+1;y'],
  ['S3-4', 'Gadget four', 'Nowhere', '10', '1', 'Green', ''],
  ['S3-1', 'Gadget one again', 'Imp Gadgets', '5', '1', 'Red', 'same SKU'],
  ['S3-5', 'Gadget  ONE', 'Imp Gadgets', '5', '1', 'RED', 'same title and colour'],
  ['S3-6', '', 'Imp Gadgets', '5', '1', 'Red', 'no title'],
]);
const SHEET_COUNTS = { total: 7, create: 2, update: 0, unchanged: 0, duplicate: 2, error: 3 };

/** One test app with its helpers; the disk and the S3 app are driven the same way. */
async function importsApp(env: Record<string, string>) {
  const t = await createTestApp({ env, jobs: { enabled: false, retryBaseMs: 0 } });
  const as = await apiAs(t.app);
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
  const template = await as('Admin', 'PUT', `${API}/titleTemplate`, {
    template: '{maker} {model} {imp_colour}',
  });
  expect(template.statusCode, template.body).toBe(200);

  const runJobs = async () => {
    let ran = 0;
    while (await t.app.jobs.worker.runOnce()) ran++;
    return ran;
  };
  const upload = (content: Buffer, name = 'sheet.csv') => {
    const body = multipart([{ filename: name, type: 'text/csv', content }]);
    return as('Seller', 'POST', `${API}/uploadCatalogSheet`, body.payload, body.headers);
  };
  const uploaded = async (content: Buffer, name?: string) => {
    const response = await upload(content, name);
    expect(response.statusCode, response.body).toBe(201);
    return json<UploadAnswer>(response).import;
  };
  const report = async (batch: string) => {
    const response = await as('Seller', 'GET', `${API}/getBatchReport?batch=${batch}&limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    return json<BatchReport>(response);
  };
  const currentBatch = async (importId: string) =>
    json<Import>(await as('Admin', 'GET', `${API}/getImport/${importId}`)).batch;
  const storagePathOf = async (importId: string) => {
    const [row] = await db
      .select({ storagePath: catalogImports.storagePath })
      .from(catalogImports)
      .where(eq(catalogImports.id, importId));
    return row?.storagePath as string;
  };
  const storedRows = async (batchId: string) =>
    (await db.select({ n: count() }).from(importRows).where(eq(importRows.batchId, batchId)))[0]?.n ?? 0;
  const importCount = async () => (await db.select({ n: count() }).from(catalogImports))[0]?.n ?? 0;
  const keys = async (prefix: string) => {
    const found: string[] = [];
    for await (const key of t.app.storage.list(prefix)) found.push(key);
    return found.sort();
  };
  const errorSheet = async (batch: string) => {
    const response = await as('Seller', 'POST', `${API}/exportBatchErrors`, { batch });
    expect(response.statusCode, response.body).toBe(202);
    const { taskId } = json<TaskAccepted>(response).taskStatus;
    expect(await runJobs()).toBe(1);
    return { taskId, download: await as('Seller', 'GET', exportDownloadPath(taskId)) };
  };
  return {
    t,
    as,
    runJobs,
    upload,
    uploaded,
    report,
    currentBatch,
    storagePathOf,
    storedRows,
    importCount,
    keys,
    errorSheet,
  };
}

type ImportsApp = Awaited<ReturnType<typeof importsApp>>;

/** The verdicts of a report, without what differs between two apps (product and batch ids). */
const verdicts = (result: BatchReport) =>
  result.rows.map((row) => ({
    line: row.line,
    outcome: row.outcome,
    sku: row.sku,
    title: row.title,
    errors: row.errors,
    duplicateOf: row.duplicateOf && { ...row.duplicateOf, productId: null },
    changes: row.changes,
  }));

const bytesOf = async (t: TestApp, key: string) => {
  const object = await t.app.storage.get(key);
  expect(object).not.toBeNull();
  return Buffer.concat((await object?.body.toArray()) as Buffer[]);
};
/** The files (not the folders other features keep there) in the app's scratch space. */
const scratchFiles = async (t: TestApp) =>
  (await readdir(scratchDir(t.dataDir), { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

describe('catalog imports on S3', () => {
  let s3: TestS3;
  let onS3: ImportsApp;
  let onDisk: ImportsApp;
  beforeAll(async () => {
    s3 = await startTestS3({ port: 4573 });
    onS3 = await importsApp(s3.env);
    onDisk = await importsApp({});
    expect([onS3.t.app.storage.driver, onDisk.t.app.storage.driver]).toEqual(['s3', 'disk']);
  });
  afterAll(async () => {
    await onS3?.t.close();
    await onDisk?.t.close();
    await s3?.close();
  });

  it('stores the sheet in the bucket and validates it from there with the verdicts the disk gives', async () => {
    const imported = await onS3.uploaded(sheet);
    const key = await onS3.storagePathOf(imported.id);
    expect(key).toMatch(/^uploads\/imports\/[0-9a-f-]{36}\.csv$/);
    expect(await onS3.t.app.storage.exists(key)).toBe(true);
    expect(await bytesOf(onS3.t, key)).toEqual(sheet);
    // Nothing under DATA_DIR: not the sheet, not the scratch copy it was checked in.
    expect(await readdir(`${onS3.t.dataDir}/${IMPORT_FOLDER}`).catch(() => [])).toEqual([]);
    expect(await scratchFiles(onS3.t)).toEqual([]);

    expect(await onS3.runJobs()).toBe(1);
    const fromS3 = await onS3.report(imported.batch.id);
    expect(fromS3.batch).toMatchObject({ status: 'ready', rowsRead: 7, progress: 100 });
    expect(fromS3.batch.counts).toEqual(SHEET_COUNTS);

    const onDiskImport = await onDisk.uploaded(sheet);
    expect(await onDisk.runJobs()).toBe(1);
    const fromDisk = await onDisk.report(onDiskImport.batch.id);
    expect(fromDisk.batch.counts).toEqual(SHEET_COUNTS);
    expect(verdicts(fromS3)).toEqual(verdicts(fromDisk));
    expect(fromS3.topErrors).toEqual(fromDisk.topErrors);
    expect(fromS3.unmappedColumns).toEqual([{ index: 6, header: 'Supplier note' }]);

    // The error sheet: written to the bucket (not the disk) and downloaded from it, as on disk.
    const s3Errors = await onS3.errorSheet(imported.batch.id);
    expect(await onS3.t.app.storage.exists(exportStorageKey(s3Errors.taskId, 'csv'))).toBe(true);
    expect(await readdir(exportsFolder(onS3.t.dataDir)).catch(() => [])).toEqual([]);
    expect(s3Errors.download.statusCode, s3Errors.download.body).toBe(200);
    expect(s3Errors.download.rawPayload).toEqual(
      await bytesOf(onS3.t, exportStorageKey(s3Errors.taskId, 'csv')),
    );
    const diskErrors = await onDisk.errorSheet(onDiskImport.batch.id);
    expect(s3Errors.download.body).toBe(diskErrors.download.body);
    expect(s3Errors.download.body).toContain('D4: The price must be a number');
  });

  it('answers 503 to an upload while the store is down, keeping no row, no object and no scratch file', async () => {
    const imports = await onS3.importCount();
    const before = await onS3.keys(`${IMPORT_FOLDER}/`);
    await s3.stop();
    try {
      const down = await onS3.upload(sheet, 'down.csv');
      expect(down.statusCode, down.body).toBe(503);
      expect(json(down)).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    } finally {
      await s3.start();
    }
    expect(await onS3.importCount()).toBe(imports);
    expect(await onS3.keys(`${IMPORT_FOLDER}/`)).toEqual(before);
    expect(await scratchFiles(onS3.t)).toEqual([]);
  });

  it('retries a validation whose store is down, with nothing written, and completes it once it is back', async () => {
    const imported = await onS3.uploaded(sheet, 'retried.csv');
    const taskId = imported.batch.taskId as string;
    await s3.stop();
    try {
      expect(await onS3.t.app.jobs.worker.runOnce()).toBe(true);
    } finally {
      await s3.start();
    }
    const [job] = await onS3.t.database.db.select().from(jobs).where(eq(jobs.id, taskId));
    expect(job).toMatchObject({ status: 'Queued', attempts: 1 });
    const [batch] = await onS3.t.database.db
      .select()
      .from(importBatches)
      .where(eq(importBatches.id, imported.batch.id));
    expect(batch).toMatchObject({ checkpointLine: 0, rowsRead: 0, counts: { total: 0 } });
    expect(await onS3.storedRows(imported.batch.id)).toBe(0);
    // The sheet is still in the bucket, and the retry (due at once) reads it.
    expect(await onS3.t.app.storage.exists(await onS3.storagePathOf(imported.id))).toBe(true);
    expect(await onS3.runJobs()).toBe(1);
    const done = await onS3.currentBatch(imported.id);
    expect(done).toMatchObject({ status: 'ready', rowsRead: 7, error: null });
    expect(done.counts).toEqual(SHEET_COUNTS);
    expect(await onS3.storedRows(imported.batch.id)).toBe(7);
    const [finished] = await onS3.t.database.db.select().from(jobs).where(eq(jobs.id, taskId));
    expect(finished).toMatchObject({ status: 'Completed', attempts: 2 });
  });

  it('fails the batch with the storage’s words when the outage outlasts every attempt; a resume finishes it', async () => {
    const imported = await onS3.uploaded(sheet, 'outlasted.csv');
    await s3.stop();
    try {
      // Every attempt (retries are due at once) fails on the store, then the task is given up.
      expect(await onS3.runJobs()).toBe(5);
      const failed = await onS3.currentBatch(imported.id);
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'File storage is unavailable. Try again in a moment.',
        rowsRead: 0,
      });
      expect(await onS3.storedRows(imported.batch.id)).toBe(0);
    } finally {
      await s3.start();
    }
    const resumed = await onS3.as('Seller', 'POST', `${API}/resumeBatch`, { batch: imported.batch.id });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(await onS3.runJobs()).toBe(1);
    const done = await onS3.currentBatch(imported.id);
    expect(done).toMatchObject({ status: 'ready', rowsRead: 7, error: null });
    expect(done.counts).toEqual(SHEET_COUNTS);
    expect(await onS3.storedRows(imported.batch.id)).toBe(7);
  });

  it('resumes a validation interrupted mid-sheet after a retry the outage failed, counting every row once', async () => {
    const rows = [HEADER];
    for (let index = 0; index < 20_000; index++)
      rows.push([`S3-BIG-${index}`, `Big ${index}`, 'Imp Gadgets', '5', '1', index % 7 ? 'Red' : 'Pink', '']);
    const imported = await onS3.uploaded(csv(rows), 'big.csv');
    const db = onS3.t.database.db;
    const rowsRead = async () =>
      (
        await db
          .select({ read: importBatches.rowsRead })
          .from(importBatches)
          .where(eq(importBatches.id, imported.batch.id))
      )[0]?.read ?? 0;
    // Interrupted by a worker shutdown once some chunks are stored (the task goes back to the queue).
    onS3.t.app.jobs.worker.start();
    while ((await rowsRead()) === 0) await new Promise((resolve) => setImmediate(resolve));
    await onS3.t.app.jobs.worker.stop();
    const checkpoint = await rowsRead();
    expect(checkpoint).toBeGreaterThan(0);
    expect(checkpoint).toBeLessThan(20_000);
    await s3.stop();
    try {
      expect(await onS3.t.app.jobs.worker.runOnce()).toBe(true);
    } finally {
      await s3.start();
    }
    // The failed retry wrote nothing: the stored rows are exactly the checkpoint's.
    expect(await rowsRead()).toBe(checkpoint);
    expect(await onS3.storedRows(imported.batch.id)).toBe(checkpoint);
    expect(await onS3.runJobs()).toBe(1);
    const batch = await onS3.currentBatch(imported.id);
    expect(batch).toMatchObject({ status: 'ready', rowsRead: 20_000 });
    expect(batch.counts).toEqual({
      total: 20_000,
      create: 17_142,
      update: 0,
      unchanged: 0,
      duplicate: 0,
      error: 2858,
    });
    expect(await onS3.storedRows(imported.batch.id)).toBe(20_000);
  }, 120_000);

  it('keeps a sheet named with ../ or an absolute path in its folder, under its plain name', async () => {
    const outside = async () =>
      (await onS3.keys('')).filter(
        (key) => !/^(uploads\/(imports|import-requests)|files\/exports)\/[^/]+$/.test(key),
      );
    const strayBefore = await outside();
    for (const name of ['../../../escape.csv', '/etc/cron.d/escape.csv', '..\\..\\escape.csv']) {
      const imported = await onS3.uploaded(csv([['SKU'], ['S3-ESC']]), name);
      expect(imported.fileName).toBe('escape.csv');
      const key = await onS3.storagePathOf(imported.id);
      expect(key).toMatch(/^uploads\/imports\/[0-9a-f-]{36}\.csv$/);
      expect(await onS3.t.app.storage.exists(key)).toBe(true);
    }
    expect(await outside()).toEqual(strayBefore);
  });

  it('refuses a crafted key with 404, even one naming an object in the bucket', async () => {
    const file = multipart([{ filename: 'mine.csv', type: 'text/csv', content: csv([['SKU'], ['S3-RQ']]) }]);
    const asked = await onS3.as('Seller', 'POST', `${API}/addImportProductsApi`, file.payload, file.headers);
    expect(asked.statusCode, asked.body).toBe(201);
    const requestId = json<{ id: string }>(asked).id;
    const download = () => onS3.as('Staff', 'GET', `${API}/downloadRequestFile/${requestId}`);
    const served = await download();
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('S3-RQ');

    // Another feature's object, which exists in the bucket.
    const imported = await onS3.uploaded(sheet, 'secret.csv');
    const otherKey = await onS3.storagePathOf(imported.id);
    expect(await onS3.t.app.storage.exists(otherKey)).toBe(true);
    const name = otherKey.split('/').at(-1) as string;
    for (const crafted of [
      otherKey,
      `${REQUEST_FOLDER}/../imports/${name}`,
      `${REQUEST_FOLDER}/./${name}`,
      `/${otherKey}`,
      `${REQUEST_FOLDER}/..\\imports\\${name}`,
      `${REQUEST_FOLDER}//${name}`,
    ]) {
      await onS3.t.database.db
        .update(importRequests)
        .set({ storagePath: crafted })
        .where(eq(importRequests.id, requestId));
      const refused = await download();
      expect(refused.statusCode, crafted).toBe(404);
      expect(refused.body).not.toContain('Gadget');
    }

    // Validation never reads a crafted key either: the batch fails, with no row from the other sheet.
    const victim = await onS3.uploaded(csv([['SKU'], ['S3-VICTIM']]), 'victim.csv');
    await onS3.t.database.db
      .update(catalogImports)
      .set({ storagePath: `${IMPORT_FOLDER}/../import-requests/${name}` })
      .where(eq(catalogImports.id, victim.id));
    await onS3.runJobs();
    expect(await onS3.currentBatch(victim.id)).toMatchObject({ status: 'failed', rowsRead: 0 });
    expect(await onS3.storedRows(victim.batch.id)).toBe(0);
  });

  it('answers 413 to an oversize sheet, storing nothing and writing no row', async () => {
    const imports = await onS3.importCount();
    const before = await onS3.keys('uploads/');
    const header = Buffer.from('SKU,Title\r\n');
    const oversize = Buffer.alloc(50 * 1024 * 1024 + 1, 'a');
    header.copy(oversize);
    const response = await onS3.upload(oversize, 'huge.csv');
    expect(response.statusCode, response.body).toBe(413);
    expect(json(response)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await onS3.keys('uploads/')).toEqual(before);
    expect(await onS3.importCount()).toBe(imports);
    expect(await scratchFiles(onS3.t)).toEqual([]);
    const requests = await onS3.t.database.db.select({ n: count() }).from(importRequests);
    const asked = multipart([{ filename: 'huge.csv', type: 'text/csv', content: oversize }]);
    const refused = await onS3.as(
      'Seller',
      'POST',
      `${API}/addImportProductsApi`,
      asked.payload,
      asked.headers,
    );
    expect(refused.statusCode).toBe(413);
    expect(await onS3.keys('uploads/')).toEqual(before);
    expect(await onS3.t.database.db.select({ n: count() }).from(importRequests)).toEqual(requests);
    expect(
      await onS3.t.database.db
        .select({ n: count() })
        .from(catalogImports)
        .where(eq(catalogImports.fileName, 'huge.csv')),
    ).toEqual([{ n: 0 }]);
  }, 60_000);
});
