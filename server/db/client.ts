import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The database handle every module uses; the same type over PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending SQL migrations from server/db/migrations. Idempotent. */
  migrate(): Promise<void>;
  /** Flushes and closes: PGlite writes its files, the pg pool ends its connections. */
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite in `dataDir`. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  dataDir: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that the server drops (a PostgreSQL restart, a failover) is an 'error' event on
    // the pool; without a listener Node would end the whole process. The pool replaces the connection.
    pool.on('error', (error) =>
      console.warn('PostgreSQL connection lost; the pool will reconnect:', error.message),
    );
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const inMemory = options.dataDir.startsWith('memory://');
  const pgliteDir = inMemory ? options.dataDir : path.join(options.dataDir, 'pglite');
  if (!inMemory) await mkdir(pgliteDir, { recursive: true });
  // pg_trgm backs the seller search index (migration 0002).
  const client = await PGlite.create(pgliteDir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => client.close(),
  };
}
