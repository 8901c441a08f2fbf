// PostgreSQL databases for tests (TEST_DATABASE_URL): one per test app, made empty or as a copy of a
// template that the test run seeded once (server/test-snapshots.ts).
import pg from 'pg';

export interface TestPostgresDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

const adminUrl = () => process.env.TEST_DATABASE_URL as string;

function urlOf(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new database, empty or copied from `template` (which nobody may be connected to). */
export async function createPostgresDatabase(
  options: { prefix?: string; template?: string } = {},
): Promise<TestPostgresDatabase> {
  const name = `${options.prefix ?? 'mp_test'}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await withAdmin(async (client) => {
    const from = options.template ? ` TEMPLATE ${options.template}` : '';
    // Two copies of one template at the same moment may meet each other's brief connection to it.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}${from}`);
        return;
      } catch (error) {
        const busy = (error as { code?: string }).code === '55006';
        if (!busy || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 50));
      }
    }
  });
  return { name, url: urlOf(name), drop: () => dropPostgresDatabase(name) };
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdmin(async (client) => {
    // pool.end() resolves before its connections are gone; dropping WITH (FORCE) right away would kill
    // them mid-goodbye (57P01 on a client that no longer listens). Wait for them to leave first.
    for (let attempt = 0; attempt < 50; attempt++) {
      const { rows } = await client.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}
