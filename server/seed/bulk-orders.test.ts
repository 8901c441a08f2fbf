// `npm run seed -- --orders N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is
// set): every status appears, each payment state agrees with the sums, paid orders have their payments,
// the status counters the tabs read agree with the rows, and a seeded order reads through the API.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStatuses, paymentStateOf } from '../../contracts/domain/order-state';
import { ORDERS_API, type OrderDetail, type OrderList } from '../../contracts/orders';
import { rowsOf } from '../db/rows';
import { apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { seedBulkOrders } from './bulk-orders';

describe.each(testBackends)('npm run seed -- --orders on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    await seedBulkOrders(t.database.db, 550, { batchSize: 200 });
  });
  afterAll(() => t?.close());

  it('spreads the orders over every status, with payment states and payments that agree with the sums', async () => {
    const rows = rowsOf<{
      status: string;
      payment_state: string;
      total_minor: number;
      paid_minor: number;
      refunded_minor: number;
      payments: number;
    }>(
      await t.database.db.execute(sql`
        SELECT status, payment_state, total_minor::float8 AS total_minor, paid_minor::float8 AS paid_minor,
          refunded_minor::float8 AS refunded_minor,
          (SELECT coalesce(sum(amount_minor), 0)::float8 FROM order_payments p WHERE p.order_id = o.id) AS payments
        FROM orders o WHERE email LIKE '%@bulk-orders.example.com'`),
    );
    expect(rows).toHaveLength(550);
    expect([...new Set(rows.map((row) => row.status))].sort()).toEqual([...orderStatuses].sort());
    for (const row of rows) {
      expect(row.payment_state).toBe(
        paymentStateOf({
          totalMinor: row.total_minor,
          paidMinor: row.paid_minor,
          refundedMinor: row.refunded_minor,
        }),
      );
      expect(row.payments).toBe(row.paid_minor);
    }
  });

  it('keeps the tab counters in step, and a seeded order reads like any other', async () => {
    const as = await apiAs(t.app);
    const list = json<OrderList>(await as('Admin', 'GET', `${ORDERS_API}?limit=5`));
    const [counted] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`SELECT count(*)::integer AS n FROM orders`),
    );
    expect(Object.values(list.tabs).reduce((sum, n) => sum + n, 0)).toBe(counted!.n);
    const detail = await as('Admin', 'GET', `${ORDERS_API}/${list.result[0]!.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(json<OrderDetail>(detail).pricing.lines).toHaveLength(1);
  });
});
