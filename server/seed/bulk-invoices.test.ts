// `npm run seed -- --invoices N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is
// set): every issued status appears, each frozen document's totals are exact, the tab counters agree
// with the rows, and a seeded invoice reads through the API and renders its PDF with the e-invoice XML.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICES_API, type InvoiceDetail, type InvoiceList } from '../../contracts/invoices';
import { rowsOf } from '../db/rows';
import { checkTotals, parseBusinessDocument } from '../lib/documents/model';
import { apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { seedBulkInvoices } from './bulk-invoices';

describe.each(testBackends)('npm run seed -- --invoices on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    await seedBulkInvoices(t.database.db, 210, { batchSize: 100 });
  });
  afterAll(() => t?.close());

  it('writes issued invoices in every status whose documents add up', async () => {
    const rows = rowsOf<{ status: string; document: Record<string, unknown> }>(
      await t.database.db.execute(sql`SELECT status, document FROM invoices WHERE series = 'bulk'`),
    );
    expect(rows).toHaveLength(210);
    expect([...new Set(rows.map((row) => row.status))].sort()).toEqual(
      ['failed', 'overdue', 'paid', 'pending', 'unpaid'].sort(),
    );
    for (const row of rows.slice(0, 20)) {
      const { logoKey: _logo, ...document } = row.document;
      expect(checkTotals(parseBusinessDocument({ ...document, logo: null }))).toEqual([]);
    }
  });

  it('keeps the tab counters in step, and a seeded invoice reads and renders like any other', async () => {
    const as = await apiAs(t.app);
    const list = json<InvoiceList>(await as('Admin', 'GET', `${INVOICES_API}?limit=5`));
    const [counted] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`SELECT count(*)::integer AS n FROM invoices`),
    );
    expect(Object.values(list.tabs).reduce((sum, n) => sum + n, 0)).toBe(counted!.n);
    const id = list.result[0]!.id;
    const detail = await as('Admin', 'GET', `${INVOICES_API}/${id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(json<InvoiceDetail>(detail).lines).toHaveLength(2);
    const pdf = await as('Admin', 'GET', `${INVOICES_API}/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.includes(Buffer.from('factur-x.xml'))).toBe(true);
  });
});
