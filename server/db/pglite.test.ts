// The embedded database as the server opens it: a new data dir is initialised (in a child process),
// runs with the settings sized for one process, and keeps what was committed across a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { PGLITE_SETTINGS } from './pglite-options';

describe('PGlite as the server opens it', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('initialises a new data dir, runs with the embedded settings and keeps committed rows', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-pglite-'));
    dirs.push(dataDir);
    const first = await openDatabase({ dataDir });
    const setting = async (name: string) =>
      ((await first.db.execute(sql.raw(`SHOW ${name}`))) as unknown as { rows: Record<string, string>[] })
        .rows[0]?.[name];
    for (const [name, value] of Object.entries(PGLITE_SETTINGS)) expect(await setting(name)).toBe(value);
    await first.db.execute(sql`CREATE TABLE kept (note text)`);
    await first.db.execute(sql`INSERT INTO kept VALUES ('committed')`);
    await first.close();

    const again = await openDatabase({ dataDir });
    const rows = (await again.db.execute(sql`SELECT note FROM kept`)) as unknown as {
      rows: { note: string }[];
    };
    expect(rows.rows).toEqual([{ note: 'committed' }]);
    await again.close();
  });
});
