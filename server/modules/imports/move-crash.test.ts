// FAULT test (issue 15): kill the real server with SIGKILL in the middle of a move to staging, start it
// again on the same data dir, and the move resumes: the staging products are exactly those of an
// uninterrupted run — every row once, none missing, none twice. 127.0.0.1 only, temporary DATA_DIR.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchReport, Import, UploadAnswer } from '../../../contracts/imports';
import { openDatabase } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { api, childEnv, run, type Server, signIn, startServer, stop, until } from '../../test-process';

// Enough rows that the move takes a few seconds on PGlite, so it can be caught half-way.
const ROWS = 40_000;

function sheet(): string {
  const lines = ['SKU,Title,Category,Price,Stock'];
  for (let index = 0; index < ROWS; index++)
    lines.push(`CRASH-${index},Crash product ${index},Apparel > Men,${100 + (index % 50)}.50,${index % 9}`);
  return `${lines.join('\r\n')}\r\n`;
}

describe('a move to staging survives a server crash', () => {
  let dataDir: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-import-crash-'));
    // Prepares the data dir as a first start would (migrations, the demo marketplace).
    await run(['server/seed/cli.ts', '--sellers', '1'], childEnv(dataDir));
  }, 80_000);

  afterAll(async () => {
    for (const server of servers) await stop(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('resumes after the restart and creates every product exactly once', async () => {
    const first = await startServer(dataDir);
    servers.push(first);
    const seller = await signIn(first.base, 'seller@demo.local');
    const form = new FormData();
    form.append('file', new Blob([sheet()], { type: 'text/csv' }), 'crash.csv');
    const uploaded = await fetch(`${first.base}/api/v1/imports/uploadCatalogSheet`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seller.token}` },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const { import: created } = (await uploaded.json()) as UploadAnswer;
    const batchId = created.batch.id;
    const importOf = (base: string, token: string) =>
      api<Import>(base, token, `/api/v1/imports/getImport/${created.id}`);
    await until(
      'the validation to finish',
      async () => ((await importOf(first.base, seller.token)).batch.status === 'ready' ? true : undefined),
      60_000,
    );
    await api(first.base, seller.token, `/api/v1/imports/moveToStaging?batch=${batchId}`, {
      method: 'POST',
      body: '{}',
    });
    const halfway = await until(
      'the move to be under way',
      async () => {
        const { batch } = await importOf(first.base, seller.token);
        if (batch.status === 'moved') throw new Error('the move finished before it could be interrupted');
        return batch.rowsMoved > 0 ? batch : undefined;
      },
      30_000,
    );
    await stop(first, 'SIGKILL');
    expect(halfway.rowsMoved).toBeLessThan(ROWS);

    const second = await startServer(dataDir);
    servers.push(second);
    const again = await signIn(second.base, 'seller@demo.local');
    const done = await until(
      'the move to finish after the restart',
      async () => {
        const { batch } = await importOf(second.base, again.token);
        if (batch.status === 'failed') throw new Error(`the move failed: ${batch.error}`);
        return batch.status === 'moved' ? batch : undefined;
      },
      60_000,
    );
    expect(done.results).toMatchObject({ created: ROWS, conflict: 0 });
    expect(done.rowsMoved).toBe(ROWS);
    const report = await api<BatchReport>(
      second.base,
      again.token,
      `/api/v1/imports/getBatchReport?batch=${batchId}&result=created&limit=1`,
    );
    expect(report.count).toBe(ROWS);
    // The staging grid holds each SKU once (the rows' products are distinct), with the sheet's values.
    const search = (text: string) =>
      api<{ count: number; result: { sku: string; title: string; price: number; inventory: number }[] }>(
        second.base,
        again.token,
        '/api/v1/stagingProducts/method/search',
        { method: 'POST', body: JSON.stringify({ search: text, limit: 100 }) },
      );
    for (const index of [0, Math.floor(ROWS / 2), ROWS - 1]) {
      const found = (await search(`CRASH-${index}`)).result.filter((row) => row.sku === `CRASH-${index}`);
      expect(found).toEqual([
        expect.objectContaining({
          title: `Crash product ${index}`,
          price: 100 + (index % 50) + 0.5,
          inventory: index % 9,
        }),
      ]);
    }

    // Every product, read from the database itself: exactly what an uninterrupted run writes, one per
    // row, each with its row's title, price and stock, and one "created" history entry each.
    await stop(second, 'SIGTERM');
    const database = await openDatabase({ dataDir });
    try {
      const stored = rowsOf<{ sku: string; title: string; price_minor: number; inventory: number }>(
        await database.db.execute(sql`
          SELECT p.sku, p.title, p.price_minor, p.inventory FROM products p
          WHERE p.sku LIKE 'CRASH-%' ORDER BY p.sku`),
      );
      const expected = Array.from({ length: ROWS }, (_, index) => ({
        sku: `CRASH-${index}`,
        title: `Crash product ${index}`,
        price_minor: (100 + (index % 50)) * 100 + 50,
        inventory: index % 9,
      })).sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
      expect(stored.length).toBe(ROWS);
      expect(stored).toEqual(expected);
      const [history] = rowsOf<{ entries: number; products: number }>(
        await database.db.execute(sql`
          SELECT count(*)::int AS entries, count(DISTINCT h.subject_id)::int AS products
          FROM audit_entries h JOIN products p ON p.id = h.subject_id
          WHERE h.subject_type = 'product' AND p.sku LIKE 'CRASH-%' AND h.action = 'created'`),
      );
      expect(history).toEqual({ entries: ROWS, products: ROWS });
    } finally {
      await database.close();
    }
  }, 180_000);
});
