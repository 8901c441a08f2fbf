// PostgreSQL (DATABASE_URL): a pool for queries, and a connection of its own per LISTEN. Loaded only
// when DATABASE_URL is set (server/db/client.ts), so the embedded setup does not hold the pg driver.
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { type Database, type Db, migrationsFolder } from './database';
import * as schema from './schema';

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that the server drops (a PostgreSQL restart, a failover) is an 'error' event on
  // the pool; without a listener Node would end the whole process. The pool replaces the connection.
  pool.on('error', (error) =>
    console.warn('PostgreSQL connection lost; the pool will reconnect:', error.message),
  );
  const db = drizzle(pool, { schema }) as unknown as Db;
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    migrate: () => migrate(db as never, { migrationsFolder }),
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
    async listen(channel, onNotify, onGap) {
      const stop = await listenOnPostgres(url, channel, onNotify, onGap);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
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
