// PGlite: the embedded database, in DATA_DIR/pglite (or in memory for tests). Loaded only without
// DATABASE_URL (server/db/client.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { type Database, type DatabaseOptions, type Db, migrationsFolder } from './database';
import { initialiseDataDir, pgliteStartParams } from './pglite-options';
import * as schema from './schema';

export async function openPglite(
  options: Pick<DatabaseOptions, 'dataDir' | 'loadDataDir'>,
): Promise<Database> {
  const inMemory = options.dataDir.startsWith('memory://');
  const pgliteDir = inMemory ? options.dataDir : path.join(options.dataDir, 'pglite');
  if (!inMemory) {
    await mkdir(pgliteDir, { recursive: true });
    await initialiseDataDir(pgliteDir);
  }
  // pg_trgm backs the seller search index (migration 0002).
  const client = await PGlite.create(pgliteDir, {
    // A dump is loaded into memory only: a data dir on disk is the database itself.
    loadDataDir: inMemory ? options.loadDataDir : undefined,
    extensions: { pg_trgm },
    startParams: pgliteStartParams(),
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(db as never, { migrationsFolder }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
    // One process holds a PGlite database, so its in-process notifications reach everyone; they are
    // delivered by the time the sending transaction's commit returns.
    async listen(channel, onNotify) {
      return client.listen(channel, onNotify);
    },
  };
}
