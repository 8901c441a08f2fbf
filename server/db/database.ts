// What a database is to the rest of the server, whichever driver opens it: the types and the migrations
// folder that client.ts (which picks the driver) and each driver (pglite.ts, postgres.ts) share.
import { fileURLToPath } from 'node:url';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

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
  /** PGlite only: the whole database as one tarball, for `loadDataDir` (tests start from a seeded copy). */
  dumpDataDir?(): Promise<Blob>;
  /**
   * Hears `pg_notify(channel, payload)` from every connection to this database (delivered when the
   * sending transaction commits), so every instance sharing the database hears it. `onGap` is called
   * when notifications may have been missed: the listening connection was lost and is back.
   *
   * With `ownWritesAtOnce`, what this instance's own connections send is heard before the sending
   * commit returns, so the code that wrote (a route, or a test writing to the database directly) never
   * reads a stale cache on this instance right after. PGlite always does; on PostgreSQL every pooled
   * connection also LISTENs and passes on its own transactions' notifications, which the LISTEN
   * connection then hears a second time: only for handlers to which hearing twice does no harm.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onGap?: () => void,
    options?: { ownWritesAtOnce?: boolean },
  ): Promise<() => Promise<void>>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PostgreSQL: name the statements a connection repeats (server/db/prepared-statements.ts). */
  preparedStatements?: boolean;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  dataDir: string;
  /** PGlite in memory only: start from this dump (`dumpDataDir`) instead of an empty database. */
  loadDataDir?: Blob;
}
