// Migration 0020 on PGlite and PostgreSQL: the five history tables of 0019 move into audit_entries.
// A database is migrated up to 0019 (a copy of the migrations folder whose journal stops there), given
// entries in all five tables — some sharing a timestamp, where only the old readers' tiebreak orders
// them — then migrated to the end. Every entry is counted before and after, and the histories read
// through the API (and the reader, for imports) list the same entries in the same order as before.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../contracts/audit';
import type { TimelineEntry } from '../../../contracts/contacts';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { type Database, openDatabase } from '../../db/client';
import { migrationsFolder } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { users } from '../../db/schema';
import { syncRolePermissions } from '../../modules/permissions/service';
import { createPostgresDatabase, type TestPostgresDatabase } from '../../test-databases';
import { json, signInAs, testBackends } from '../../test-support';
import { hashPassword } from '../passwords';
import { type AuditSqlRow, auditEntryOfSqlRow, readAuditPage } from './read';

const OLD_TABLES = ['seller_history', 'product_history', 'import_history', 'tag_history', 'contact_history'];

/** The migrations folder as it was before 0020. */
async function foldersUpTo0019(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'mp-migrations-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= 19);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

async function migrateTo(database: Database, folder: string) {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: folder });
  } else {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(database.db as never, { migrationsFolder: folder });
  }
}

const ids = {
  seller: '00000000-0000-4000-8000-000000000001',
  product: '00000000-0000-4000-8000-000000000002',
  contact: '00000000-0000-4000-8000-000000000003',
  node: '00000000-0000-4000-8000-000000000004',
  importId: '00000000-0000-4000-8000-000000000005',
  request: '00000000-0000-4000-8000-000000000006',
  campaign: '00000000-0000-4000-8000-000000000007',
  actor: '00000000-0000-4000-8000-000000000008',
};

/** Entries in every old table, written the way 0019's writers did (raw SQL against its schema). */
async function writeOldHistories(database: Database) {
  const run = (statement: ReturnType<typeof sql>) => database.db.execute(statement);
  await run(sql`INSERT INTO sellers (id, seller_code, seller_name, email)
                VALUES (${ids.seller}, 'S-MIG', 'Migration Traders', 'mig@example.com')`);
  await run(
    sql`INSERT INTO products (id, seller_id, title, sku) VALUES (${ids.product}, ${ids.seller}, 'Lamp', 'MIG-1')`,
  );
  await run(
    sql`INSERT INTO contacts (id, email, source) VALUES (${ids.contact}, 'ada@example.com', 'manual')`,
  );
  const at = '2026-03-01T10:00:00Z';
  const later = '2026-03-02T10:00:00Z';
  // Three seller entries, two sharing a time (the old reader broke the tie by id).
  for (const [index, time] of [at, later, later].entries()) {
    await run(sql`INSERT INTO seller_history (seller_id, actor_id, actor_name, action, changes, note, created_at)
      VALUES (${ids.seller}, ${index === 0 ? null : ids.actor}, ${index === 0 ? 'System' : 'Ann Admin'}, 'updated',
              ${JSON.stringify([{ field: 'phone', before: `${index}`, after: `${index + 1}` }])}::jsonb,
              ${index === 2 ? 'Called them' : null}, ${time}::timestamptz)`);
  }
  // Product entries of one transaction: the same time, ordered by seq.
  for (const note of ['First.', 'Second.', 'Third.']) {
    await run(sql`INSERT INTO product_history (product_id, actor_name, action, note, created_at)
      VALUES (${ids.product}, 'Sam Seller', 'status', ${note}, ${at}::timestamptz)`);
  }
  await run(sql`INSERT INTO import_history (subject_type, subject_id, actor_name, action, note, created_at)
    VALUES ('import', ${ids.importId}, 'System', 'validated', 'Valid', ${at}::timestamptz),
           ('request', ${ids.request}, 'Sam Seller', 'requested', 'Please', ${later}::timestamptz)`);
  await run(sql`INSERT INTO tag_history (node_id, actor_name, action, note, created_at)
    VALUES (${ids.node}, 'Ann Admin', 'created', 'Shoes', ${at}::timestamptz),
           (NULL, 'Ann Admin', 'published', 'Version 1', ${later}::timestamptz),
           (NULL, 'System', 'levels', 'Levels', ${later}::timestamptz)`);
  await run(sql`INSERT INTO contact_history (contact_id, action, campaign_id, actor_name, note, created_at)
    VALUES (${ids.contact}, 'created', NULL, '', 'Added by hand', ${at}::timestamptz),
           (${ids.contact}, 'mail_sent', ${ids.campaign}, '', 'Spring sale', ${later}::timestamptz)`);
}

async function countOf(database: Database, table: string, where = sql``): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(sql`SELECT count(*)::integer AS n FROM ${sql.identifier(table)} ${where}`),
  );
  return row?.n ?? 0;
}

/** A history as 0019's reader listed it, in the API's entry shape. */
async function oldHistory(
  database: Database,
  table: string,
  where: ReturnType<typeof sql>,
  tiebreak: string,
) {
  const rows = await database.db.execute(
    sql`SELECT *, created_at AS at FROM ${sql.identifier(table)} WHERE ${where}
        ORDER BY created_at DESC, ${sql.identifier(tiebreak)} DESC`,
  );
  return rowsOf<AuditSqlRow>(rows).map(auditEntryOfSqlRow);
}

describe.each(testBackends)('migration 0020 (one audit trail) on %s', (backend) => {
  let database: Database;
  let pgDatabase: TestPostgresDatabase | undefined;
  let app: FastifyInstance;
  let token: string;
  let dataDir: string;
  const before: Record<string, number> = {};
  const expected: Record<string, AuditEntry[]> = {};

  beforeAll(async () => {
    pgDatabase = backend === 'postgres' ? await createPostgresDatabase() : undefined;
    database = await openDatabase({ databaseUrl: pgDatabase?.url, dataDir: 'memory://' });
    const oldFolder = await foldersUpTo0019();
    await migrateTo(database, oldFolder);
    await rm(oldFolder, { recursive: true, force: true });
    await writeOldHistories(database);
    for (const table of OLD_TABLES) before[table] = await countOf(database, table);
    expected.seller = await oldHistory(database, 'seller_history', sql`seller_id = ${ids.seller}`, 'id');
    expected.product = await oldHistory(database, 'product_history', sql`product_id = ${ids.product}`, 'seq');
    expected.tree = await oldHistory(database, 'tag_history', sql`node_id IS NULL`, 'seq');
    expected.request = await oldHistory(database, 'import_history', sql`subject_id = ${ids.request}`, 'id');
    expected.contact = await oldHistory(database, 'contact_history', sql`contact_id = ${ids.contact}`, 'id');

    await database.migrate();
    await syncRolePermissions(database.db);
    await database.db
      .insert(users)
      .values({ email: 'ann@example.com', passwordHash: await hashPassword('Mig@12345'), role: 'Admin' });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-test-'));
    app = await buildApp({
      config: loadConfig({
        DATA_DIR: dataDir,
        STATIC_DIR: path.join(dataDir, 'no-spa'),
        LOG_LEVEL: 'silent',
      }),
      database,
      jobs: { enabled: false },
    });
    await app.ready();
    token = (await signInAs(app, 'ann@example.com', 'Mig@12345')).token;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await pgDatabase?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const get = async <T = AuditEntry>(url: string) => {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ result: T[]; count: number }>(response);
  };

  it('keeps every entry and drops the five tables', async () => {
    const counts = {
      seller: await countOf(database, 'audit_entries', sql`WHERE subject_type = 'seller'`),
      product: await countOf(database, 'audit_entries', sql`WHERE subject_type = 'product'`),
      import: await countOf(
        database,
        'audit_entries',
        sql`WHERE subject_type IN ('import', 'import_request')`,
      ),
      tag: await countOf(database, 'audit_entries', sql`WHERE subject_type = 'tag'`),
      contact: await countOf(database, 'audit_entries', sql`WHERE subject_type = 'contact'`),
    };
    expect(counts).toEqual({
      seller: before.seller_history,
      product: before.product_history,
      import: before.import_history,
      tag: before.tag_history,
      contact: before.contact_history,
    });
    expect(await countOf(database, 'audit_entries')).toBe(13);
    const [left] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`SELECT count(*)::integer AS n FROM information_schema.tables WHERE table_name IN ${OLD_TABLES}`,
      ),
    );
    expect(left?.n).toBe(0);
  });

  it('reads every history through the API as before, in the same order', async () => {
    expect((await get(`/api/v1/sellers/getUpdateHistory/${ids.seller}`)).result).toEqual(expected.seller);
    expect((await get(`/api/v1/stagingProducts/${ids.product}/history`)).result).toEqual(expected.product);
    expect((await get('/api/v1/tags/history')).result).toEqual(expected.tree);
    const contact = (await get<TimelineEntry>(`/api/v1/contacts/${ids.contact}/history`)).result;
    expect(contact.map(({ campaignId, link, ...entry }) => entry)).toEqual(expected.contact);
    expect(contact.map((entry) => entry.campaignId)).toEqual([ids.campaign, null]);
    const request = await readAuditPage(
      app.db,
      { type: 'import_request', id: ids.request },
      { skip: 0, limit: 20 },
    );
    expect(request.result).toEqual(expected.request);
  });

  it('numbers new entries after the copied ones', async () => {
    await database.db.execute(
      sql`INSERT INTO audit_entries (subject_type, subject_id, actor_name, action) VALUES ('seller', ${ids.seller}, 'X', 'updated')`,
    );
    const [row] = rowsOf<{ newest: boolean }>(
      await database.db.execute(
        sql`SELECT seq = (SELECT max(seq) FROM audit_entries) AND seq > 13 AS newest FROM audit_entries WHERE actor_name = 'X'`,
      ),
    );
    expect(row?.newest).toBe(true);
  });
});
