import { readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDownloadPath } from '../../../contracts/exports';
import type { Task, TaskAccepted } from '../../../contracts/notifications';
import type { SellerList } from '../../../contracts/sellers';
import { formulaCells, parseCsv } from '../../../tests/csv';
import { jobs, notifications, sellers } from '../../db/schema';
import { startTestS3, type TestS3 } from '../../lib/storage/test-s3';
import { seedBulkSellers } from '../../seed/bulk-sellers';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { EXPORT_BATCH_SIZE, exportStorageKey, exportsFolder } from './export-job';

// A real XML parser (jsdom's, as in the browser) checks that every part is well-formed. jsdom ships no
// types of its own; the DOM's DOMParser type describes what is used.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new () => { window: { DOMParser: typeof DOMParser } };
};
const parseXml = (text: string) =>
  new new JSDOM().window.DOMParser().parseFromString(text, 'application/xml');

const tricky = [
  {
    sellerCode: 'XP-0001',
    sellerName: 'Acme, "Best" Traders',
    email: 'acme@export.test',
    phone: '+91 98765 43210',
  },
  {
    sellerCode: 'XP-0002',
    sellerName: '=HYPERLINK("http://evil.test","Click")',
    email: 'evil@export.test',
    phone: '',
  },
  { sellerCode: 'XP-0003', sellerName: '@SUM(A1:A9)', email: 'at@export.test', phone: '-2+3' },
  {
    sellerCode: 'XP-0004',
    sellerName: 'Line\r\nBreak & <Tags> Émile',
    email: 'line@export.test',
    phone: '\tTab',
  },
  // Read with ';' as the list separator (Excel in German, French, Spanish…), an unquoted cell would be
  // three cells, the middle one a formula.
  { sellerCode: 'XP-0005', sellerName: 'x;=1+1;y', email: 'semi@export.test', phone: '' },
];

/** Files on the disk under DATA_DIR on every database, and on S3 (s3rver) once. */
const fileCases: ['pglite' | 'postgres', 'disk' | 's3'][] = [
  ...testBackends.map((backend) => [backend, 'disk'] as ['pglite' | 'postgres', 'disk']),
  ['pglite', 's3'],
];

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3?.close());

describe.each(fileCases)('sellers export on %s, files on %s', (backend, files) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    // Jobs are run by hand (runOnce), so each test knows exactly when the export has happened.
    t = await createTestApp({ backend, jobs: { enabled: false }, env: files === 's3' ? s3.env : {} });
    expect(t.app.storage.driver).toBe(files);
    as = await apiAs(t.app);
    await t.app.db
      .insert(sellers)
      .values(tricky.map((s) => ({ ...s, isActive: true, isEmailVerified: true, isKycDone: true })));
    // More than two batches, all created by one statement: equal created_at, so keyset paging must use the id.
    await seedBulkSellers(t.app.db, EXPORT_BATCH_SIZE * 2 + 345);
  });
  afterAll(() => t.close());

  async function startExport(who: 'Admin', body: Record<string, unknown>) {
    const response = await as(who, 'POST', '/api/v1/exports/sellers', body);
    expect(response.statusCode, response.body).toBe(202);
    return json<TaskAccepted>(response).taskStatus;
  }
  async function runExport(who: 'Admin', body: Record<string, unknown>) {
    const task = await startExport(who, body);
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    const state = json<Task>(await as(who, 'GET', `/api/v1/tasks/${task.taskId}`));
    expect(state, state.error ?? '').toMatchObject({ status: 'Completed', progress: 100 });
    const download = await as(who, 'GET', exportDownloadPath(task.taskId));
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    return { taskId: task.taskId, download };
  }
  const listed = async (query: string) =>
    json<SellerList>(await as('Admin', 'GET', `/api/v1/sellers/${query}`));

  it('answers at once with the task, and the file only once it is written (409 before)', async () => {
    const task = await startExport('Admin', { format: 'csv' });
    expect(task).toMatchObject({ taskName: 'Sellers export', status: 'Queued' });
    const early = await as('Admin', 'GET', exportDownloadPath(task.taskId));
    expect(early.statusCode).toBe(409);
    expect(json(early)).toMatchObject({ code: 'EXPORT_NOT_READY' });
    expect(json<{ message: string }>(early).message).toMatch(/not finished yet/);
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    expect((await as('Admin', 'GET', exportDownloadPath(task.taskId))).statusCode).toBe(200);
  });

  it('writes every seller of the filter to CSV, in the list order, safe to open in a spreadsheet', async () => {
    const { taskId, download } = await runExport('Admin', {
      format: 'csv',
      isActive: 'true',
      sort: 'sellerCode',
      order: 'asc',
    });
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    const day = new Date().toISOString().slice(0, 10);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="sellers-${day}.csv"; filename*=UTF-8''sellers-${day}.csv`,
    );
    const body = download.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(body.slice(1));
    expect(header).toEqual([
      'Code',
      'Name',
      'E-mail',
      'Phone',
      'Status',
      'City',
      'Free',
      'Blocked',
      'Created at',
    ]);

    const active = await listed('listSellers?isActive=true&sort=sellerCode&order=asc&limit=100');
    expect(active.count).toBeGreaterThan(EXPORT_BATCH_SIZE);
    expect(rows).toHaveLength(active.count);
    expect(new Set(rows.map((row) => row[0])).size).toBe(rows.length);
    expect(rows.slice(0, 100).map((row) => row[0])).toEqual(active.result.map((seller) => seller.sellerCode));
    expect(rows.every((row) => row[4] === 'Active')).toBe(true);

    const byCode = new Map(rows.map((row) => [row[0], row]));
    expect(byCode.get('XP-0001')?.slice(1, 4)).toEqual([
      'Acme, "Best" Traders',
      'acme@export.test',
      "'+91 98765 43210",
    ]);
    expect(byCode.get('XP-0002')?.[1]).toBe(`'=HYPERLINK("http://evil.test","Click")`);
    expect(byCode.get('XP-0005')?.[1]).toBe('x;=1+1;y');
    expect(formulaCells(body)).toEqual([]);
    expect(byCode.get('XP-0003')?.slice(1, 4)).toEqual(["'@SUM(A1:A9)", 'at@export.test', "'-2+3"]);
    expect(byCode.get('XP-0004')?.slice(1, 4)).toEqual([
      'Line\r\nBreak & <Tags> Émile',
      'line@export.test',
      "'\tTab",
    ]);
    expect(byCode.get('XP-0004')?.[8]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // The owner is notified with the link; the message says what was written.
    const [note] = await t.app.db.select().from(notifications).where(eq(notifications.taskId, taskId));
    expect(note).toMatchObject({
      userId: as.ids.Admin,
      title: 'Sellers export is ready',
      body: `${active.count.toLocaleString('en-US')} sellers · CSV`,
      link: exportDownloadPath(taskId),
      taskName: 'Sellers export',
      status: 'Completed',
    });
  });

  it('walks every seller exactly once when many share a creation time (keyset on the key and id)', async () => {
    const all = await listed('listSellers?limit=100');
    const { download } = await runExport('Admin', { format: 'csv' }); // newest first, the list's default
    const rows = parseCsv(download.rawPayload.toString('utf8').slice(1)).slice(1);
    expect(rows).toHaveLength(all.count);
    expect(new Set(rows.map((row) => row[0])).size).toBe(all.count);
    expect(rows.slice(0, 100).map((row) => row[0])).toEqual(all.result.map((seller) => seller.sellerCode));
  });

  it('exports a search with the same matches as searchSellers', async () => {
    const found = await listed('searchSellers?query=saffron&sort=sellerName&order=desc&limit=100');
    expect(found.count).toBeGreaterThan(0);
    const { download } = await runExport('Admin', {
      format: 'csv',
      query: 'saffron',
      sort: 'sellerName',
      order: 'desc',
    });
    const rows = parseCsv(download.rawPayload.toString('utf8').slice(1)).slice(1);
    expect(rows).toHaveLength(found.count);
    expect(rows.slice(0, 100).map((row) => row[0])).toEqual(found.result.map((seller) => seller.sellerCode));
  });

  it('writes an XLSX that unzips to well-formed SpreadsheetML with every row', async () => {
    const pending = await listed('listSellers?isActive=false&isEmailVerified=false&limit=1');
    const { download } = await runExport('Admin', {
      format: 'xlsx',
      isActive: 'false',
      isEmailVerified: 'false',
    });
    expect(download.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="sellers-\d{4}-\d\d-\d\d\.xlsx"; filename\*=UTF-8''sellers-\d{4}-\d\d-\d\d\.xlsx$/,
    );
    const parts = unzipSync(new Uint8Array(download.rawPayload));
    expect(Object.keys(parts).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const documents = Object.fromEntries(
      Object.entries(parts).map(([name, bytes]) => [name, parseXml(strFromU8(bytes))]),
    );
    for (const [name, document] of Object.entries(documents)) {
      expect(document.getElementsByTagName('parsererror'), name).toHaveLength(0);
    }
    const sheet = documents['xl/worksheets/sheet1.xml'] as Document;
    const rows = [...sheet.getElementsByTagName('row')];
    expect(rows).toHaveLength(pending.count + 1);
    const texts = (row: Element) => [...row.getElementsByTagName('c')].map((cell) => cell.textContent);
    expect(texts(rows[0] as Element)).toEqual([
      'Code',
      'Name',
      'E-mail',
      'Phone',
      'Status',
      'City',
      'Free',
      'Blocked',
      'Created at',
    ]);
    const first = rows[1] as Element;
    expect(texts(first)[4]).toBe('Pending Verification');
    const created = first.querySelector('c[r="I2"]');
    expect(created?.getAttribute('s')).toBe('2');
    expect(Number(created?.textContent)).toBeGreaterThan(45_000); // a serial date after 2023
  });

  it('keeps the text of every cell in the XLSX exactly (no apostrophes, escaped markup)', async () => {
    const { download } = await runExport('Admin', {
      format: 'xlsx',
      query: 'export.test',
      sort: 'sellerCode',
      order: 'asc',
    });
    const sheet = parseXml(
      strFromU8(unzipSync(new Uint8Array(download.rawPayload))['xl/worksheets/sheet1.xml'] as Uint8Array),
    );
    const names = [...sheet.getElementsByTagName('row')]
      .slice(1)
      .map((row) => row.getElementsByTagName('c')[1]?.textContent);
    expect(names).toEqual(tricky.map((seller) => seller.sellerName));
  });

  it("needs Manage Sellers' export action, not only the right to list", async () => {
    // Staff may list sellers by default but not export them; sellers may do neither.
    expect((await as('Staff', 'GET', '/api/v1/sellers/listSellers')).statusCode).toBe(200);
    for (const who of ['Staff', 'Seller', 'Blocked', 'Kyc'] as const) {
      const response = await as(who, 'POST', '/api/v1/exports/sellers', { format: 'csv' });
      expect(response.statusCode, who).toBe(403);
      expect(json(response).code).toMatch(/FORBIDDEN|SELLER_BLOCKED/);
    }
    for (const body of [
      { format: 'pdf' },
      { sort: 'email' },
      { isActive: 'maybe' },
      { query: 'x'.repeat(101) },
    ]) {
      expect(
        (await as('Admin', 'POST', '/api/v1/exports/sellers', body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  it('downloads only for the user who started it', async () => {
    const { taskId } = await runExport('Admin', { format: 'csv', isKycDone: 'true', isActive: 'false' });
    for (const who of ['Staff', 'Seller'] as const) {
      const response = await as(who, 'GET', exportDownloadPath(taskId));
      expect(response.statusCode, who).toBe(404);
      expect(json(response).code).toBe('TASK_NOT_FOUND');
    }
    expect(
      (await as('Admin', 'GET', exportDownloadPath('00000000-0000-4000-8000-000000000000'))).statusCode,
    ).toBe(404);
    expect((await as('Admin', 'GET', '/api/v1/exports/nope/download')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: exportDownloadPath(taskId) })).statusCode).toBe(401);
  });

  it('leaves no temporary files, and says so when a finished file is gone', async () => {
    const { taskId } = await runExport('Admin', { format: 'csv', isActive: 'true' });
    // Nothing left in this instance's scratch space; the file is in the storage under its key.
    expect(await readdir(path.join(t.dataDir, 'tmp', 'exports')).catch(() => [])).toEqual([]);
    const keys: string[] = [];
    for await (const key of t.app.storage.list('files/exports/')) keys.push(key);
    expect(keys).toContain(exportStorageKey(taskId, 'csv'));
    if (files === 'disk') {
      const onDisk = await readdir(exportsFolder(t.dataDir));
      expect(onDisk.filter((name) => name.endsWith('.part'))).toEqual([]);
      await rm(path.join(exportsFolder(t.dataDir), `${taskId}.csv`));
    } else {
      expect(await readdir(exportsFolder(t.dataDir)).catch(() => [])).toEqual([]);
      await t.app.storage.delete(exportStorageKey(taskId, 'csv'));
    }
    const gone = await as('Admin', 'GET', exportDownloadPath(taskId));
    expect(gone.statusCode).toBe(404);
    expect(json(gone).code).toBe('EXPORT_GONE');
  });

  it('answers 409 for a failed export', async () => {
    const task = await startExport('Admin', { format: 'csv' });
    await t.app.db.update(jobs).set({ status: 'Failed', lastError: 'x' }).where(eq(jobs.id, task.taskId));
    const response = await as('Admin', 'GET', exportDownloadPath(task.taskId));
    expect(response.statusCode).toBe(409);
    expect(json(response).code).toBe('EXPORT_FAILED');
  });

  it.runIf(files === 's3')(
    'while the store is down the download answers 503 and the export attempt fails; both work once it is back',
    async () => {
      const { taskId, download } = await runExport('Admin', { format: 'csv', isActive: 'true' });
      const task = await startExport('Admin', { format: 'csv', isActive: 'false' });
      await s3.stop();
      try {
        const during = await as('Admin', 'GET', exportDownloadPath(taskId));
        expect(during.statusCode).toBe(503);
        expect(json(during)).toEqual({
          message: 'File storage is unavailable. Try again in a moment.',
          code: 'STORAGE_UNAVAILABLE',
        });
        expect(await t.app.jobs.worker.runOnce()).toBe(true);
        const state = json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${task.taskId}`));
        expect(state.status).not.toBe('Completed');
        expect(await readdir(path.join(t.dataDir, 'tmp', 'exports')).catch(() => [])).toEqual([]);
      } finally {
        await s3.start();
      }
      const after = await as('Admin', 'GET', exportDownloadPath(taskId));
      expect(after.statusCode).toBe(200);
      expect(after.rawPayload).toEqual(download.rawPayload);
      expect(await t.app.storage.exists(exportStorageKey(task.taskId, 'csv'))).toBe(false);
    },
  );
});

describe('sellers export with S3_PRESIGNED_DOWNLOADS', () => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false }, env: { ...s3.env, S3_PRESIGNED_DOWNLOADS: 'true' } });
    as = await apiAs(t.app);
  });
  afterAll(() => t?.close());

  it('the download redirects to a presigned link that serves the file under its dated name', async () => {
    const started = await as('Admin', 'POST', '/api/v1/exports/sellers', { format: 'csv', isActive: 'true' });
    const { taskId } = json<TaskAccepted>(started).taskStatus;
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    const response = await as('Admin', 'GET', exportDownloadPath(taskId));
    expect(response.statusCode).toBe(302);
    const link = response.headers.location as string;
    expect(link.startsWith(s3.endpoint)).toBe(true);
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(fetched.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(fetched.headers.get('content-disposition')).toBe(
      `attachment; filename="sellers-${day}.csv"; filename*=UTF-8''sellers-${day}.csv`,
    );
    const body = Buffer.from(await fetched.arrayBuffer()).toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(body.slice(1));
    expect(header?.length).toBeGreaterThan(3);
    expect(rows.length).toBeGreaterThan(0);
    // Still the owner's only: another user gets no link.
    expect((await as('Staff', 'GET', exportDownloadPath(taskId))).statusCode).toBe(404);
  });
});
