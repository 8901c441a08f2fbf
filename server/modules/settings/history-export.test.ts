// The settings history's export and its "Who" list on PGlite and PostgreSQL: one row per field change,
// each field named as the page names it (and by its key), with the list's filters, a seller's file holding only their shop, staff's only the marketplace's, a
// formula typed into a setting exported inert, and the keyset walking entries that share one time.
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDownloadPath } from '../../../contracts/exports';
import type { Task, TaskAccepted } from '../../../contracts/notifications';
import type { SectionState } from '../../../contracts/settings';
import type { SettingsHistoryActors } from '../../../contracts/settings-history';
import { formulaCells, parseCsv } from '../../../tests/csv';
import { auditEntries, sellers, users } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import type { ExportCursor } from '../exports/export-job';
import { settingsHistoryExport } from './history-export';

const API = '/api/v1/settings';
const EVIL = '=HYPERLINK("http://evil.test","Click")';
type Who = 'Admin' | 'Staff' | 'Seller';

describe.each(testBackends)('settings history export on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let shopName: string;

  const save = async (who: Who, section: string, set: Record<string, unknown>) => {
    const { version } = json<SectionState>(await as(who, 'GET', `${API}/${section}`));
    const saved = await as(who, 'PUT', `${API}/${section}`, { version, set });
    expect(saved.statusCode, saved.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [own] = await t.app.db
      .select({ sellerId: users.sellerId, shop: sellers.sellerName })
      .from(users)
      .innerJoin(sellers, eq(sellers.id, users.sellerId))
      .where(eq(users.id, as.ids.Seller));
    sellerId = own?.sellerId as string;
    shopName = own?.shop as string;
    await save('Admin', 'localization', { weekStart: 'sunday' });
    await save('Admin', 'company', { legalName: EVIL, invoiceFooter: 'Thank you' });
    await save('Seller', 'shipping', { divisor: 6000 });
  });
  afterAll(() => t.close());

  /** Runs every queued job: a finished export may queue its owner's notification mail. */
  async function runJobs() {
    while (await t.app.jobs.worker.runOnce()) {
      // one job at a time until none is left
    }
  }

  async function exportRows(who: Who, body: Record<string, unknown>) {
    const started = await as(who, 'POST', `${API}/history/export`, body);
    expect(started.statusCode, started.body).toBe(202);
    const { taskId, taskName } = json<TaskAccepted>(started).taskStatus;
    expect(taskName).toBe('Settings history export');
    await runJobs();
    const task = json<Task>(await as(who, 'GET', `/api/v1/tasks/${taskId}`));
    expect(task, task.error ?? '').toMatchObject({ status: 'Completed' });
    const download = await as(who, 'GET', exportDownloadPath(taskId));
    expect(download.statusCode).toBe(200);
    const text = download.rawPayload.toString('utf8');
    const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
    return { header, rows, text, download };
  }

  it('writes one row per field change, newest first, with who, scope, the field as the page names it, before and after', async () => {
    const { header, rows, text, download } = await exportRows('Admin', { format: 'csv' });
    expect(download.headers['content-disposition']).toMatch(
      /filename="settings-history-\d{4}-\d\d-\d\d\.csv"/,
    );
    expect(header).toEqual([
      'When',
      'Who',
      'Scope',
      'Section',
      'Field',
      'Field key',
      'Before',
      'After',
      'Request id',
    ]);
    // Newest first: the seller's divisor, then the admin's company save (two fields), then the week.
    expect(rows.map((row) => row.slice(2, 8))).toEqual([
      [shopName, 'Shipping', 'Volumetric divisor', 'divisor', '5000', '6000'],
      ['Marketplace', 'Company', 'Legal name', 'legalName', expect.any(String), `'${EVIL}`],
      ['Marketplace', 'Company', 'Invoice footer', 'invoiceFooter', expect.any(String), 'Thank you'],
      ['Marketplace', 'Localization', 'First day of the week', 'weekStart', 'monday', 'sunday'],
    ]);
    expect(rows[0]?.[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(rows[3]?.[1]).toBe(rows[1]?.[1]);
    expect(rows[3]?.[1]).not.toBe('');
    expect(rows[1]?.[8]).toBe(rows[2]?.[8]);
    expect(rows[1]?.[8]).not.toBe(rows[3]?.[8]);
    // The formula typed into a setting opens as text in any spreadsheet, with , or ; as separator.
    expect(formulaCells(text)).toEqual([]);
  });

  it('exports what the filters select: section, person, days', async () => {
    const company = await exportRows('Admin', { format: 'csv', section: 'company' });
    expect(company.rows.map((row) => row[5])).toEqual(['legalName', 'invoiceFooter']);
    const bySeller = await exportRows('Admin', { format: 'csv', userId: as.ids.Seller });
    expect(bySeller.rows.map((row) => row[5])).toEqual(['divisor']);
    const future = await exportRows('Admin', { format: 'csv', from: '2099-01-01' });
    expect(future.rows).toEqual([]);
    const around = await exportRows('Admin', { format: 'csv', from: '2000-01-01', to: '2098-12-31' });
    expect(around.rows).toHaveLength(4);
    const oneShop = await exportRows('Admin', { format: 'csv', sellerId });
    expect(oneShop.rows.map((row) => row[2])).toEqual([shopName]);
  });

  it("gives a seller their shop's changes only, and staff the marketplace's", async () => {
    const seller = await exportRows('Seller', { format: 'csv' });
    expect(seller.rows.map((row) => [row[2], row[5]])).toEqual([[shopName, 'divisor']]);
    const staff = await exportRows('Staff', { format: 'csv' });
    expect(staff.rows.map((row) => row[2])).toEqual(['Marketplace', 'Marketplace', 'Marketplace']);
    const [other] = await t.app.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(ne(sellers.id, sellerId))
      .limit(1);
    const refused = await as('Seller', 'POST', `${API}/history/export`, { sellerId: other?.id });
    expect(refused.statusCode).toBe(403);
    const bad = await as('Admin', 'POST', `${API}/history/export`, { section: 'nope', format: 'pdf' });
    expect(bad.statusCode).toBe(400);
    expect(json<{ message: string }>(bad).message).toBeTruthy();
  });

  it('writes XLSX too', async () => {
    const started = await as('Admin', 'POST', `${API}/history/export`, { format: 'xlsx' });
    expect(started.statusCode).toBe(202);
    await runJobs();
    const { taskId } = json<TaskAccepted>(started).taskStatus;
    const download = await as('Admin', 'GET', exportDownloadPath(taskId));
    expect(download.headers['content-type']).toMatch(/spreadsheetml/);
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('names the people and shops of the visible history, per role', async () => {
    const admin = json<SettingsHistoryActors>(await as('Admin', 'GET', `${API}/history/actors`));
    expect(admin.actors.map((actor) => actor.id).sort()).toEqual([as.ids.Admin, as.ids.Seller].sort());
    expect(admin.actors.every((actor) => actor.name.length > 0)).toBe(true);
    expect(admin.sellers).toEqual([{ id: sellerId, name: shopName }]);
    const seller = json<SettingsHistoryActors>(await as('Seller', 'GET', `${API}/history/actors`));
    expect(seller.actors.map((actor) => actor.id)).toEqual([as.ids.Seller]);
    expect(seller.sellers).toEqual([{ id: sellerId, name: shopName }]);
    const staff = json<SettingsHistoryActors>(await as('Staff', 'GET', `${API}/history/actors`));
    expect(staff.actors.map((actor) => actor.id)).toEqual([as.ids.Admin]);
    expect(staff.sellers).toEqual([]);
  });

  it('walks entries that share one time exactly once, in the list order, batch after batch', async () => {
    // One statement: one transaction, one created_at; only the write order tells them apart.
    await t.app.db.insert(auditEntries).values(
      Array.from({ length: 7 }, (_, i) => ({
        subjectType: 'settings',
        subjectId: null,
        actorId: as.ids.Admin,
        actorName: 'Batch',
        action: 'content',
        changes: [{ field: 'termsUrl', before: `${i}`, after: `${i + 1}` }],
        note: `req-${i}`,
      })),
    );
    const payload = { scope: 'all' as const, format: 'csv' as const, section: 'content' as const };
    const walked: string[] = [];
    let after: ExportCursor | null = null;
    for (;;) {
      const batch = await settingsHistoryExport.readBatch(t.app.db, payload, after, 3);
      walked.push(...batch.map((row) => row.requestId ?? ''));
      const last = batch.at(-1);
      if (!last || batch.length < 3) break;
      after = { key: last.cursorKey, id: last.id };
    }
    const listed = json<{ result: { requestId: string }[] }>(
      await as('Admin', 'GET', `${API}/history?section=content&limit=50`),
    );
    expect(walked).toEqual(listed.result.map((row) => row.requestId));
    expect(walked).toHaveLength(7);
    expect(await settingsHistoryExport.count(t.app.db, payload)).toBe(7);
  });
});
