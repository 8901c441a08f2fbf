import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../app';
import { openDatabase } from '../db/client';
import { users } from '../db/schema';
import { createTestApp } from '../test-support';
import { serializeError } from './log-errors';

const SECRET = 'customer.secret@example.com';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA';

async function failedQuery(): Promise<Error> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    // A value the database quotes back in its own message, and another that ends up in `detail`.
    await database.db.execute(sql`select ${SECRET}::int, ${HASH}`);
  } catch (error) {
    return error as Error;
  } finally {
    await database.close();
  }
  throw new Error('the query did not fail');
}

describe('errors as they go to the log', () => {
  it('keep the statement and the reason of a failed query, never its parameters', async () => {
    const error = await failedQuery();
    // The raw error carries them (this is what used to be logged)…
    expect(`${error.message}${error.stack}`).toContain(SECRET);
    const logged = JSON.stringify(serializeError(error));
    // …the serialized one does not, anywhere (message, stack, cause, fields).
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(HASH);
    expect(logged).not.toContain('"params"');
    expect(logged).toContain('select $1::int, $2');
    expect(logged).toContain('invalid input syntax for type integer');
  });

  it('leaves other errors as they are', () => {
    const error = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    expect(serializeError(error)).toMatchObject({ type: 'Error', message: 'disk full', code: 'ENOSPC' });
  });

  it('a route whose insert fails logs the statement, not the row (an argon2 hash, an e-mail)', async () => {
    const t = await createTestApp({ jobs: { enabled: false } });
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({
      config: t.config,
      database: t.database,
      jobs: { enabled: false },
      logger: { ...(loggerOptions({ ...t.config, LOG_LEVEL: 'info' }) as object), stream },
    });
    // A duplicate e-mail: the unique index refuses it, and the database's `detail` quotes the value.
    app.post('/api/v1/test/failing-insert', { config: { public: true } }, async () => {
      await app.db.insert(users).values({ email: 'admin@demo.local', passwordHash: HASH, role: 'Staff' });
      return { ok: true };
    });
    await app.ready();
    try {
      const response = await app.inject({ method: 'POST', url: '/api/v1/test/failing-insert' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
      const log = lines.join('');
      expect(log).toContain('insert into \\"users\\"');
      expect(log).toContain('duplicate key value violates unique constraint');
      expect(log).not.toContain(HASH);
      expect(log).not.toContain('admin@demo.local');
    } finally {
      await app.close();
      await t.close();
    }
  });
});
