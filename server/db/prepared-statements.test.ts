// The statements a connection repeats become named prepared statements; a schema change or a reset
// that invalidates one never fails a query outside a transaction. PostgreSQL only (TEST_DATABASE_URL).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestPostgresDatabase } from '../test-databases';
import {
  MAX_PREPARED_PER_CONNECTION,
  PREPARE_AFTER,
  prepareRepeatedStatements,
  searchesByPattern,
} from './prepared-statements';

const postgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!postgres)('prepared statements on PostgreSQL', () => {
  let database: TestPostgresDatabase;
  let client: pg.Client;
  let observer: pg.Client;

  const prepared = async () =>
    (await client.query('SELECT name, statement FROM pg_prepared_statements ORDER BY statement')).rows as {
      name: string;
      statement: string;
    }[];

  beforeAll(async () => {
    database = await createPostgresDatabase({ prefix: 'mp_prepared' });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    prepareRepeatedStatements(client);
    observer = new pg.Client({ connectionString: database.url });
    await observer.connect();
    await observer.query('CREATE TABLE items (id integer PRIMARY KEY, label text NOT NULL)');
    await observer.query("INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 20) g");
  });

  afterAll(async () => {
    await client?.end();
    await observer?.end();
    await database?.drop();
  });

  it('prepares a parameterised statement on its third run, and answers the same before and after', async () => {
    const text = 'SELECT id, label FROM items WHERE id <= $1 ORDER BY id';
    const answers: unknown[] = [];
    for (let run = 1; run <= PREPARE_AFTER + 2; run++) {
      answers.push((await client.query(text, [run])).rows);
      const names = (await prepared()).filter((row) => row.statement === text);
      expect(names.length).toBe(run >= PREPARE_AFTER ? 1 : 0);
    }
    expect(answers.map((rows) => (rows as unknown[]).length)).toEqual([1, 2, 3, 4, 5]);
  });

  it('leaves statements without parameters and one-off statements unnamed', async () => {
    for (let run = 0; run < PREPARE_AFTER + 1; run++) await client.query('SELECT count(*) FROM items');
    await client.query('SELECT label FROM items WHERE id = $1 AND label <> $2', [1, 'x']);
    const statements = (await prepared()).map((row) => row.statement);
    expect(statements).not.toContain('SELECT count(*) FROM items');
    expect(statements).not.toContain('SELECT label FROM items WHERE id = $1 AND label <> $2');
  });

  it('never names a search by a pattern parameter, so each pattern gets its own plan', async () => {
    const text = 'SELECT id FROM items WHERE lower(label) LIKE $1 ORDER BY id LIMIT 5';
    for (let run = 0; run < PREPARE_AFTER + 3; run++) await client.query(text, [`%${run}%`]);
    expect((await prepared()).map((row) => row.statement)).not.toContain(text);
    expect(searchesByPattern('WHERE "search_key" LIKE lower($12)')).toBe(true);
    expect(searchesByPattern('WHERE a ilike $3')).toBe(true);
    expect(searchesByPattern("WHERE a LIKE 'x%' AND b = $1")).toBe(false);
  });

  it('works through the callback form pg-pool uses, and keeps a name the caller chose', async () => {
    const text = 'SELECT label FROM items WHERE id = $1';
    for (let run = 0; run < PREPARE_AFTER; run++) {
      const rows = await new Promise<unknown[]>((resolve, reject) =>
        client.query(text, [2], (error, result) => (error ? reject(error) : resolve(result.rows))),
      );
      expect(rows).toEqual([{ label: 'item 2' }]);
    }
    expect((await prepared()).some((row) => row.statement === text)).toBe(true);
    await client.query({ name: 'caller_named', text: 'SELECT id FROM items WHERE id = $1', values: [3] });
    expect((await prepared()).some((row) => row.name === 'caller_named')).toBe(true);
  });

  it('runs a statement again unnamed when a schema change altered its result columns', async () => {
    const text = 'SELECT * FROM items WHERE id = $1';
    for (let run = 0; run < PREPARE_AFTER + 1; run++) await client.query(text, [4]);
    // Another instance migrates: the prepared "SELECT *" now has one column more.
    await observer.query('ALTER TABLE items ADD COLUMN price integer NOT NULL DEFAULT 7');
    const { rows } = await client.query(text, [4]);
    expect(rows).toEqual([{ id: 4, label: 'item 4', price: 7 }]);
    expect((await client.query(text, [5])).rows).toEqual([{ id: 5, label: 'item 5', price: 7 }]);
  });

  it('runs a statement again when the connection lost its prepared statements (DISCARD ALL)', async () => {
    const text = 'SELECT id FROM items WHERE label = $1';
    for (let run = 0; run < PREPARE_AFTER + 1; run++) await client.query(text, ['item 6']);
    await client.query('DISCARD ALL');
    expect((await client.query(text, ['item 6'])).rows).toEqual([{ id: 6 }]);
  });

  it('keeps the error a statement really has, named or not', async () => {
    const text = 'SELECT id / $1::integer AS x FROM items WHERE id = 1';
    for (let run = 0; run < PREPARE_AFTER; run++) await client.query(text, [1]);
    await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012' });
  });

  it('names at most MAX_PREPARED_PER_CONNECTION texts per connection', async () => {
    const own = new pg.Client({ connectionString: database.url });
    await own.connect();
    try {
      prepareRepeatedStatements(own);
      for (let i = 0; i < MAX_PREPARED_PER_CONNECTION + 5; i++) {
        for (let run = 0; run < PREPARE_AFTER; run++)
          await own.query(`SELECT ${i} + $1::integer AS n`, [run]);
      }
      const { rows } = await own.query('SELECT count(*)::int AS n FROM pg_prepared_statements');
      expect(rows[0].n).toBe(MAX_PREPARED_PER_CONNECTION);
    } finally {
      await own.end();
    }
  });
});
