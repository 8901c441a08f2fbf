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
  /**
   * Hears `pg_notify(channel, payload)` from every connection to this database (delivered when the
   * sending transaction commits), so every instance sharing the database hears it. `onGap` is called
   * when notifications may have been missed: the listening connection was lost and is back.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onGap?: () => void,
  ): Promise<() => Promise<void>>;
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
    const listeners = new Set<() => Promise<void>>();
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db as never, { migrationsFolder }),
      async close() {
        await Promise.all([...listeners].map((stop) => stop()));
        await pool.end();
      },
      async listen(channel, onNotify, onGap) {
        const stop = await listenOnPostgres(options.databaseUrl as string, channel, onNotify, onGap);
        listeners.add(stop);
        return async () => {
          listeners.delete(stop);
          await stop();
        };
      },
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
    // One process holds a PGlite database, so its in-process notifications reach everyone; they are
    // delivered by the time the sending transaction's commit returns.
    async listen(channel, onNotify) {
      return client.listen(channel, onNotify);
    },
  };
}

const LISTEN_RETRY_MS = [100, 500, 1000, 2000, 5000];

/**
 * LISTEN needs a connection of its own (a pooled one goes back to the pool). When it is lost (a
 * PostgreSQL restart, a failover) it is made again, backing off, and `onGap` says that notifications
 * sent meanwhile were missed.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onGap?: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  const quoted = `"${channel.replaceAll('"', '""')}"`;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => {}); // 'end' follows; without a listener an error would end the process
    await next.connect();
    await next.query(`LISTEN ${quoted}`);
    next.on('end', () => {
      if (stopped || client !== next) return;
      client = null;
      reconnect(0);
    });
    client = next;
  };
  const reconnect = (attempt: number) => {
    if (stopped) return;
    retryTimer = setTimeout(
      () => {
        connect().then(
          () => onGap?.(),
          () => reconnect(attempt + 1),
        );
      },
      LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)],
    );
    retryTimer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };
}
