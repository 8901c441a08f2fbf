// Vitest global setup of the server tests: the demo data is seeded once per run, not once per test
// app. Seeding takes seconds (users with password hashes, the catalogue, chats, tags, thousands of
// contacts) and about a hundred test apps start from it, so each app now starts from a copy: a PGlite
// dump loaded into memory, or a PostgreSQL database made from a template. A copy behaves exactly like a
// fresh seed; only its timestamps are as old as the run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type Database, openDatabase } from './db/client';
import { syncRolePermissions } from './modules/permissions/service';
import { seedDemo } from './seed';
import { createPostgresDatabase, dropPostgresDatabase } from './test-databases';

/** What createTestApp starts from: `seeded` has the demo data, `empty` only the schema and roles. */
export interface TestSnapshots {
  pglite: { seeded: string; empty: string };
  postgres?: { seeded: string; empty: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    testSnapshots: TestSnapshots;
  }
}

async function prepare(database: Database, seed: boolean): Promise<void> {
  await database.migrate();
  await syncRolePermissions(database.db);
  if (seed) await seedDemo(database.db);
}

async function pgliteSnapshot(dir: string, name: string, seed: boolean): Promise<string> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await prepare(database, seed);
    const dump = await database.dumpDataDir?.();
    if (!dump) throw new Error('PGlite cannot dump its data dir');
    const file = path.join(dir, `${name}.tar`);
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await database.close();
  }
}

async function postgresTemplate(seed: boolean): Promise<string> {
  const created = await createPostgresDatabase({ prefix: 'mp_tpl' });
  const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  try {
    await prepare(database, seed);
  } finally {
    await database.close(); // a template takes copies only while nobody is connected to it
  }
  return created.name;
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mp-test-snapshots-'));
  const templates: string[] = [];
  const [seeded, empty] = await Promise.all([
    pgliteSnapshot(dir, 'seeded', true),
    pgliteSnapshot(dir, 'empty', false),
  ]);
  const snapshots: TestSnapshots = { pglite: { seeded, empty } };
  if (process.env.TEST_DATABASE_URL) {
    const [seededTemplate, emptyTemplate] = await Promise.all([
      postgresTemplate(true),
      postgresTemplate(false),
    ]);
    templates.push(seededTemplate, emptyTemplate);
    snapshots.postgres = { seeded: seededTemplate, empty: emptyTemplate };
  }
  project.provide('testSnapshots', snapshots);
  return async () => {
    await Promise.all(templates.map((name) => dropPostgresDatabase(name)));
    await rm(dir, { recursive: true, force: true });
  };
}
