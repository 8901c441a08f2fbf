// Lead imports on the S3 driver (s3rver on 127.0.0.1, port 4574): the uploaded sheet is stored in the
// bucket (nothing under DATA_DIR), the job imports the contacts from the sheet there, and the error sheet
// is written to and served from the bucket. A job whose store is down fails its attempt and is retried
// with no contact written, then imports everything once the store is back. A sheet named with `../` stays
// in the leads' folder; an oversize sheet answers 413 with nothing stored and no row written.
// Jobs run by hand (runOnce); retries are due at once (retryBaseMs 0), so no test waits for time.
import { readdir } from 'node:fs/promises';
import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadImport, LeadImportUpload, LeadRows } from '../../../contracts/contacts';
import { exportDownloadPath } from '../../../contracts/exports';
import type { TaskAccepted } from '../../../contracts/notifications';
import { parseCsv } from '../../../tests/csv';
import { contacts, jobs, leadImports } from '../../db/schema';
import { startTestS3, type TestS3 } from '../../lib/storage/test-s3';
import { type ApiAs, apiAs, createTestApp, json, type TestApp } from '../../test-support';
import { exportStorageKey, exportsFolder } from '../exports/export-job';
import { multipart } from '../sellers/test-helpers';
import { LEAD_FOLDER } from './lead-job';

const API = '/api/v1/contacts';

/** `good` leads at `<prefix><n>@s3.example`, then two rows with a bad address. */
const leadSheet = (prefix: string, good: number) => {
  const lines = ['E-mail Address,Full Name,Country,Opt-in'];
  for (let i = 1; i <= good; i++) lines.push(`${prefix}${i}@s3.example,Lead ${i},India,yes`);
  lines.push(`${prefix}-broken@,Bad One,India,yes`, 'not-an-address,Bad Two,India,yes');
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
};

describe('lead imports on S3', () => {
  let s3: TestS3;
  let t: TestApp;
  let as: ApiAs;

  const runJobs = async () => {
    let ran = 0;
    while (await t.app.jobs.worker.runOnce()) ran++;
    return ran;
  };
  const upload = (content: Buffer, name = 'leads.csv') => {
    const body = multipart([{ filename: name, type: 'text/csv', content }]);
    return as('Staff', 'POST', `${API}/leadImports`, body.payload, body.headers);
  };
  const uploaded = async (content: Buffer, name?: string) => {
    const response = await upload(content, name);
    expect(response.statusCode, response.body).toBe(201);
    return json<LeadImportUpload>(response).import;
  };
  const start = async (lead: LeadImport) => {
    const response = await as('Staff', 'POST', `${API}/leadImports/${lead.id}/start`, {
      mapping: lead.mapping,
      duplicates: 'skip',
    });
    expect(response.statusCode, response.body).toBe(202);
    return json<TaskAccepted>(response).taskStatus.taskId;
  };
  const leadImport = async (id: string) =>
    json<LeadImport>(await as('Staff', 'GET', `${API}/leadImports/${id}`));
  const storagePathOf = async (id: string) => {
    const [row] = await t.database.db
      .select({ storagePath: leadImports.storagePath })
      .from(leadImports)
      .where(eq(leadImports.id, id));
    return row?.storagePath as string;
  };
  const contactsLike = async (pattern: string) =>
    (await t.database.db.select({ n: count() }).from(contacts).where(like(contacts.email, pattern)))[0]?.n;
  const keys = async (prefix: string) => {
    const found: string[] = [];
    for await (const key of t.app.storage.list(prefix)) found.push(key);
    return found.sort();
  };
  const bytesOf = async (key: string) => {
    const object = await t.app.storage.get(key);
    expect(object).not.toBeNull();
    return Buffer.concat((await object?.body.toArray()) as Buffer[]);
  };

  beforeAll(async () => {
    s3 = await startTestS3({ port: 4574 });
    t = await createTestApp({ env: s3.env, jobs: { enabled: false, retryBaseMs: 0 } });
    expect(t.app.storage.driver).toBe('s3');
    as = await apiAs(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('stores the lead sheet in the bucket; the job imports its contacts from there; the error sheet too', async () => {
    const sheet = leadSheet('s3lead', 25);
    const lead = await uploaded(sheet);
    expect(lead.awaitingMapping).toBe(true);
    const key = await storagePathOf(lead.id);
    expect(key).toMatch(/^uploads\/leads\/[0-9a-f-]{36}\.csv$/);
    expect(await bytesOf(key)).toEqual(sheet);
    expect(await readdir(`${t.dataDir}/${LEAD_FOLDER}`).catch(() => [])).toEqual([]);

    expect(await contactsLike('s3lead%')).toBe(0);
    await start(lead);
    expect(await runJobs()).toBe(1);
    const done = await leadImport(lead.id);
    expect(done).toMatchObject({ status: 'done', rowsRead: 27, progress: 100, error: null });
    expect(done.counts).toEqual({ created: 25, updated: 0, skipped: 0, invalid: 2 });
    expect(await contactsLike('s3lead%@s3.example')).toBe(25);
    const [one] = await t.database.db.select().from(contacts).where(eq(contacts.email, 's3lead7@s3.example'));
    expect(one).toMatchObject({ firstName: 'Lead', lastName: '7', country: 'IN', source: 'lead_import' });

    const sheetTask = await as('Staff', 'POST', `${API}/leadImports/${lead.id}/errorSheet`, {
      format: 'csv',
    });
    expect(sheetTask.statusCode, sheetTask.body).toBe(202);
    const { taskId } = json<TaskAccepted>(sheetTask).taskStatus;
    expect(await runJobs()).toBe(1);
    expect(await t.app.storage.exists(exportStorageKey(taskId, 'csv'))).toBe(true);
    expect(await readdir(exportsFolder(t.dataDir)).catch(() => [])).toEqual([]);
    const file = await as('Staff', 'GET', exportDownloadPath(taskId));
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload).toEqual(await bytesOf(exportStorageKey(taskId, 'csv')));
    const rows = parseCsv(file.body.replace(/^\uFEFF/, ''));
    expect(rows.map((row) => row[0])).toEqual(['E-mail Address', 's3lead-broken@', 'not-an-address']);
    expect(rows[0]?.at(-1)).toBe('Errors');
  });

  it('retries an import whose store is down with no contact written, and imports it all once it is back', async () => {
    const lead = await uploaded(leadSheet('s3retry', 12), 'retry.csv');
    const taskId = await start(lead);
    await s3.stop();
    try {
      expect(await t.app.jobs.worker.runOnce()).toBe(true);
    } finally {
      await s3.start();
    }
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, taskId));
    expect(job).toMatchObject({ status: 'Queued', attempts: 1 });
    const waiting = await leadImport(lead.id);
    expect(waiting).toMatchObject({
      rowsRead: 0,
      counts: { created: 0, updated: 0, skipped: 0, invalid: 0 },
    });
    expect(waiting.status).not.toBe('failed');
    const reported = json<LeadRows>(await as('Staff', 'GET', `${API}/leadImports/${lead.id}/rows`));
    expect(reported.count).toBe(0);
    expect(await contactsLike('s3retry%')).toBe(0);

    expect(await runJobs()).toBe(1);
    const done = await leadImport(lead.id);
    expect(done).toMatchObject({ status: 'done', rowsRead: 14, error: null });
    expect(done.counts).toEqual({ created: 12, updated: 0, skipped: 0, invalid: 2 });
    expect(await contactsLike('s3retry%@s3.example')).toBe(12);
    const [finished] = await t.database.db.select().from(jobs).where(eq(jobs.id, taskId));
    expect(finished).toMatchObject({ status: 'Completed', attempts: 2 });
  });

  it('fails the import with the storage’s words when the outage outlasts every attempt', async () => {
    const lead = await uploaded(leadSheet('s3gone', 3), 'gone.csv');
    await start(lead);
    await s3.stop();
    try {
      expect(await runJobs()).toBe(5);
    } finally {
      await s3.start();
    }
    expect(await leadImport(lead.id)).toMatchObject({
      status: 'failed',
      error: 'File storage is unavailable. Try again in a moment.',
      rowsRead: 0,
    });
    expect(await contactsLike('s3gone%')).toBe(0);
  });

  it('keeps a lead sheet named with ../ in its folder; answers 413 to an oversize one, storing nothing', async () => {
    for (const name of ['../../../escape.csv', '/var/lib/escape.csv']) {
      const lead = await uploaded(leadSheet('s3esc', 1), name);
      expect(lead.fileName).toBe('escape.csv');
      expect(await storagePathOf(lead.id)).toMatch(/^uploads\/leads\/[0-9a-f-]{36}\.csv$/);
    }
    expect((await keys('')).filter((key) => !/^(uploads\/leads|files\/exports)\/[^/]+$/.test(key))).toEqual(
      [],
    );

    const before = await keys('uploads/');
    const [rows] = await t.database.db.select({ n: count() }).from(leadImports);
    const oversize = Buffer.alloc(50 * 1024 * 1024 + 1, 'a');
    Buffer.from('email,name\r\n').copy(oversize);
    const response = await upload(oversize, 'huge.csv');
    expect(response.statusCode, response.body).toBe(413);
    expect(json(response)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await keys('uploads/')).toEqual(before);
    expect(await t.database.db.select({ n: count() }).from(leadImports)).toEqual([rows]);
  }, 60_000);
});
