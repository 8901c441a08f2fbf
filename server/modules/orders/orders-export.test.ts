// The orders export (issue 31): started by whoever may export the list (202 with its task), refused to
// those who may only view; the job reads exactly what the list selects, in its order, a seller's own only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { seedBulkOrders } from '../../seed/bulk-orders';
import { type ApiAs, apiAs, createTestApp, demoEmails, type TestApp, testBackends } from '../../test-support';
import { type OrdersExportPayload, ordersExport } from './orders-export';

describe.each(testBackends)('orders export (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    await seedBulkOrders(t.database.db, 120, { batchSize: 60 });
    const [seller] = await t.app.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
  });
  afterAll(() => t?.close());

  it('starts for admins, not for staff who only view', async () => {
    const started = await as('Admin', 'POST', '/api/v1/orders/export', { status: 'paid', format: 'xlsx' });
    expect(started.statusCode, started.body).toBe(202);
    expect((await as('Staff', 'POST', '/api/v1/orders/export', {})).statusCode).toBe(403);
  });

  it('reads what the list selects, newest first, in batches that neither skip nor repeat', async () => {
    const payload: OrdersExportPayload = { format: 'csv', query: '', status: 'delivered', scope: null };
    const all = await ordersExport.readBatch(t.app.db, payload, null, 1_000);
    const list = await as('Admin', 'GET', '/api/v1/orders?status=delivered&limit=100');
    expect(all.map((row) => row.cells[0])).toEqual(
      (JSON.parse(list.body) as { result: { reference: string }[] }).result.map((row) => row.reference),
    );
    const paged = [];
    let after = null;
    for (;;) {
      const batch = await ordersExport.readBatch(t.app.db, payload, after, 7);
      if (batch.length === 0) break;
      paged.push(...batch);
      const last = batch.at(-1)!;
      after = { key: last.cursorKey, id: last.id };
    }
    expect(paged.map((row) => row.id)).toEqual(all.map((row) => row.id));
    expect(await ordersExport.count(t.app.db, payload)).toBe(all.length);
    const own = await ordersExport.readBatch(t.app.db, { ...payload, scope: sellerId }, null, 1_000);
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThan(all.length);
    // One shop's rows only: one seller name in the Seller column.
    expect(new Set(own.map((row) => row.cells[2])).size).toBe(1);
  });
});
