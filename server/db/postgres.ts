// PostgreSQL (DATABASE_URL): a pool for queries, and a connection of its own per LISTEN. Loaded only
// when DATABASE_URL is set (server/db/client.ts), so the embedded setup does not hold the pg driver.
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { type Database, type Db, migrationsFolder } from './database';
import { prepareRepeatedStatements } from './prepared-statements';
import * as schema from './schema';

export async function openPostgres(url: string, { preparedStatements = true } = {}): Promise<Database> {
  const pool = new OwnWritesPool({ connectionString: url, max: 10 });
  if (preparedStatements) pool.on('connect', (client) => prepareRepeatedStatements(client));
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
    async listen(channel, onNotify, onGap, options) {
      const stop = await listenOnPostgres(url, channel, onNotify, onGap);
      listeners.add(stop);
      const stopHearingOwn = options?.ownWritesAtOnce ? pool.hearOwnWrites(channel, onNotify) : null;
      return async () => {
        stopHearingOwn?.();
        listeners.delete(stop);
        await stop();
      };
    },
  };
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * A pool whose connections hear what their own transactions notify (`listen`'s `ownWritesAtOnce`).
 * PostgreSQL delivers a session's own notifications to it before the reply that ends the transaction
 * when the session LISTENs: so every connection is handed out LISTENing on the registered channels
 * (once per connection, before its first query after the registration), and passes on what its own
 * transactions sent. Other sessions' notifications are left to the LISTEN connection.
 */
class OwnWritesPool extends pg.Pool {
  private readonly ownWriteHandlers = new Map<string, Set<(payload: string) => void>>();
  private readonly listenedOn = new WeakMap<pg.PoolClient, Set<string>>();

  constructor(config: pg.PoolConfig) {
    super(config);
    this.on('connect', (client) => {
      this.listenedOn.set(client, new Set());
      client.on('notification', (message) => {
        if (message.processId !== (client as unknown as { processID: number | null }).processID) return;
        for (const handler of this.ownWriteHandlers.get(message.channel) ?? []) {
          handler(message.payload ?? '');
        }
      });
    });
  }

  /** Passes `onNotify` what this pool's connections notify on `channel`; answers how to stop. */
  hearOwnWrites(channel: string, onNotify: (payload: string) => void): () => void {
    const handler = (payload: string) => onNotify(payload);
    const handlers = this.ownWriteHandlers.get(channel) ?? new Set();
    this.ownWriteHandlers.set(channel, handlers);
    handlers.add(handler);
    return () => handlers.delete(handler);
  }

  /** LISTENs on the registered channels this connection does not listen on yet; null when none. */
  private listenOwn(client: pg.PoolClient): Promise<void> | null {
    const listened = this.listenedOn.get(client);
    if (!listened) return null;
    const missing = [...this.ownWriteHandlers.keys()].filter((channel) => !listened.has(channel));
    if (missing.length === 0) return null;
    return client
      .query(missing.map((channel) => `LISTEN ${quoteIdentifier(channel)}`).join('; '))
      .then(() => {
        for (const channel of missing) listened.add(channel);
      });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    if (!callback) {
      return super.connect().then(async (client) => {
        try {
          await this.listenOwn(client);
        } catch (error) {
          client.release(error as Error); // discarded by the pool
          throw error;
        }
        return client;
      });
    }
    super.connect((error, client, done) => {
      const listening = !error && client ? this.listenOwn(client) : null;
      if (!listening) return callback(error, client, done);
      listening.then(
        () => callback(undefined, client, done),
        (listenError: Error) => {
          done(listenError);
          callback(listenError, undefined, () => {});
        },
      );
    });
  }
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
  const quoted = quoteIdentifier(channel);

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

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
