// Many orders at once, for the benchmark (`npm run seed -- --orders 200000`). Rows are generated inside
// the database, one statement per batch (INSERT … SELECT generate_series, with a data-modifying CTE for
// the payments of the orders that were paid), spread over every seller (two thirds to the demo seller,
// so a seller's own list is large too) and every status. Lines are priced goods without a catalog
// product, so they hold no stock. The status counters follow through the statement triggers of
// migration 0027, as for any insert.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

const goods = [
  'Silk sari, hand-woven',
  'Brass diya (set of 12)',
  'Block-printed table runner',
  'Cotton kurta',
  'Terracotta lamp',
  'Pashmina shawl',
];
const names = 'Aarav Aditi Arjun Ananya Dev Diya Farhan Gauri Ishaan Kavya Kabir Lakshmi Manav Meera'.split(
  ' ',
);
const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

export async function seedBulkOrders(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<{ ms: number }> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 10_000;
  const [demo] = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers WHERE seller_code = 'SEL-0001'`),
  );
  if (!demo) throw new Error('The demo seller SEL-0001 is missing: seed the demo marketplace first.');
  const sellerIds = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers ORDER BY created_at LIMIT 50`),
  ).map((row) => row.id);
  const sellerArray = sql.raw(`ARRAY[${sellerIds.map((id) => `'${id}'`).join(', ')}]::uuid[]`);
  for (let done = 0; done < total; done += batchSize) {
    const n = Math.min(batchSize, total - done);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        WITH made AS (
          INSERT INTO orders (seller_id, customer_name, email, phone, billing_address, shipping_address, currency,
            status, payment_state, pricing, total_minor, paid_minor, refunded_minor, created_at, updated_at,
            shipped_at, delivered_at, cancelled_at)
          SELECT
            CASE WHEN g % 3 < 2 THEN ${demo.id}::uuid ELSE (${sellerArray})[1 + g % ${sellerIds.length}::integer] END,
            x.name, 'buyer' || g || '@bulk-orders.example.com', '',
            x.address, x.address, x.currency, x.status,
            CASE x.status WHEN 'pending' THEN 'unpaid' WHEN 'cancelled' THEN 'unpaid' WHEN 'refunded' THEN 'refunded'
              ELSE CASE WHEN g % 9 = 0 THEN 'partly_refunded' ELSE 'paid' END END,
            jsonb_build_object('currency', x.currency, 'shippingCountry', 'IN', 'validUntil', '', 'notes', '',
              'pricingErrors', '[]'::jsonb,
              'lines', jsonb_build_array(jsonb_build_object('productId', NULL, 'name', x.goods, 'sku', 'BULK-' || g,
                'quantity', x.quantity, 'listUnitPriceMinor', x.unit, 'unitPriceMinor', x.unit,
                'quantityBreaks', '[]'::jsonb, 'discountPercent', NULL, 'discountMinor', NULL,
                'grossMinor', x.quantity * x.unit, 'discountTotalMinor', 0, 'netMinor', x.quantity * x.unit,
                'taxOptionId', 'IN-standard', 'taxLabel', 'IN GST 18%', 'taxRate', 18, 'taxMinor', x.tax,
                'totalMinor', x.quantity * x.unit + x.tax)),
              'totals', jsonb_build_object('subtotalMinor', x.quantity * x.unit, 'discountMinor', 0, 'taxMinor', x.tax,
                'shippingMinor', 0, 'totalMinor', x.quantity * x.unit + x.tax)),
            x.quantity * x.unit + x.tax,
            CASE WHEN x.status IN ('pending', 'cancelled') THEN 0 ELSE x.quantity * x.unit + x.tax END,
            CASE WHEN x.status = 'refunded' THEN x.quantity * x.unit + x.tax
              WHEN x.status IN ('pending', 'cancelled') THEN 0 WHEN g % 9 = 0 THEN 100 ELSE 0 END,
            x.created, x.created + interval '2 days',
            CASE WHEN x.status IN ('shipped', 'delivered') THEN x.created + interval '1 day' END,
            CASE WHEN x.status = 'delivered' THEN x.created + interval '4 days' END,
            CASE WHEN x.status = 'cancelled' THEN x.created + interval '3 hours' END
          FROM generate_series(${done + 1}::integer, ${done + n}::integer) g,
            LATERAL (SELECT
              (${textArray(names)})[1 + g % ${names.length}::integer] || ' ' || (g % 997) AS name,
              (${textArray(goods)})[1 + g % ${goods.length}::integer] AS goods,
              (ARRAY['INR','INR','EUR','USD'])[1 + g % 4] AS currency,
              (ARRAY['pending','pending','paid','paid','shipped','shipped','delivered','delivered','delivered',
                'cancelled','refunded'])[1 + g % 11] AS status,
              1 + g % 5 AS quantity,
              1000 + (g::bigint * 7919) % 500000 AS unit,
              ((1 + g % 5) * (1000 + (g::bigint * 7919) % 500000) * 18 + 50) / 100 AS tax,
              jsonb_build_object('fullName', 'Customer ' || g, 'email', '', 'addressLine1', g || ' MG Road',
                'addressLine2', '', 'city', 'Bengaluru', 'state', 'KA', 'country', 'IN', 'zipcode', '560001') AS address,
              now() - (g % 700) * interval '1 hour' - (g % 3600) * interval '1 second' - interval '1 day' AS created
            ) x
          RETURNING id, paid_minor, created_at
        )
        INSERT INTO order_payments (order_id, amount_minor, method, paid_on, reference, actor_name, created_at)
        SELECT id, paid_minor, 'bank_transfer', to_char(created_at, 'YYYY-MM-DD'), 'BULK', 'Bulk seed', created_at
        FROM made WHERE paid_minor > 0`);
    });
    options.onBatch?.(done + n);
  }
  await db.execute(sql`ANALYZE orders`);
  await db.execute(sql`ANALYZE order_payments`);
  return { ms: Date.now() - started };
}
