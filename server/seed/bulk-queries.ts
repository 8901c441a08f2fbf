// Many customer queries at once, for the benchmark (`npm run seed -- --queries 100000`). Rows are
// generated inside the database, one INSERT … SELECT generate_series per batch, spread over every
// seller (two thirds to the demo seller, so a seller's own inbox is large too), every status,
// priority and channel, some assigned, some with overdue follow-ups or breached SLAs, each with two
// events (the customer's message and a status move). The status counters follow through the
// statement triggers of migration 0024, as for any insert.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

const subjects = [
  'Bulk order of saris',
  'Delivery to Pune',
  'Return of a damaged lamp',
  'Invoice with GST number',
  'Colour of the table runner',
  'Wholesale price for 200 diyas',
  'Where is my order',
  'Gift wrapping for Diwali',
  'Size chart for kurtas',
  'Cash on delivery',
];
const names =
  'Aarav Aditi Arjun Ananya Dev Diya Farhan Gauri Ishaan Kavya Kabir Lakshmi Manav Meera Nikhil Neha'.split(
    ' ',
  );
const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

export async function seedBulkQueries(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<{ ms: number }> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 10_000;
  const [demo] = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers WHERE seller_code = 'SEL-0001'`),
  );
  const sellerIds = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers ORDER BY created_at LIMIT 50`),
  ).map((row) => row.id);
  const staff = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM users WHERE role IN ('Admin', 'Staff') ORDER BY email`),
  ).map((row) => row.id);
  const sellerArray = sql.raw(`ARRAY[${sellerIds.map((id) => `'${id}'`).join(', ')}]::uuid[]`);
  const staffArray = sql.raw(`ARRAY[${staff.map((id) => `'${id}'`).join(', ')}]::uuid[]`);
  for (let done = 0; done < total; done += batchSize) {
    const n = Math.min(batchSize, total - done);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        WITH made AS (
          INSERT INTO customer_queries (seller_id, customer_name, email, phone, subject, message, status, priority,
            channel, assignee_id, next_follow_up_at, follow_up_notified_at, follow_up_note, sla_breached, first_response_met, resolution_met,
            first_response_at, resolved_at, last_activity_at, created_at, updated_at)
          SELECT
            CASE WHEN g % 3 < 2 THEN ${demo!.id}::uuid ELSE (${sellerArray})[1 + g % ${sellerIds.length}::integer] END,
            (${textArray(names)})[1 + g % ${names.length}::integer] || ' ' || (g % 997),
            'buyer' || g || '@bulk-queries.example.com',
            '',
            (${textArray(subjects)})[1 + g % ${subjects.length}::integer],
            'Hello, question number ' || g || ' about ' || lower((${textArray(subjects)})[1 + (g * 7) % ${subjects.length}::integer]) || '. Please call me back.',
            (ARRAY['new','open','open','waiting','resolved','resolved','closed'])[1 + g % 7],
            (ARRAY['low','normal','normal','high','urgent'])[1 + g % 5],
            (ARRAY['form','form','chat','call','manual','email'])[1 + g % 6],
            CASE WHEN g % 4 = 0 THEN NULL ELSE (${staffArray})[1 + g % ${Math.max(1, staff.length)}::integer] END,
            CASE WHEN g % 11 = 0 THEN now() - (g % 50) * interval '1 hour' WHEN g % 13 = 0 THEN now() + interval '2 days' END,
            -- Past follow-ups were announced when they fell due: the first sweep sends no notification burst.
            CASE WHEN g % 11 = 0 THEN now() END,
            '',
            g % 17 = 0,
            CASE WHEN g % 7 IN (4, 5, 6) THEN g % 17 <> 0 END,
            CASE WHEN g % 7 IN (4, 5, 6) THEN g % 19 <> 0 END,
            CASE WHEN g % 7 >= 3 THEN now() - (g % 400) * interval '1 hour' END,
            CASE WHEN g % 7 IN (4, 5, 6) THEN now() - (g % 300) * interval '1 hour' END,
            now() - (g % 400) * interval '1 hour',
            now() - (g % 500) * interval '1 hour' - (g % 3600) * interval '1 second',
            now()
          FROM generate_series(${done + 1}::integer, ${done + n}::integer) g
          RETURNING id, customer_name, message, status, created_at
        )
        INSERT INTO query_events (query_id, kind, actor_name, body, data, created_at)
        SELECT id, 'message_in', customer_name, message, '{}'::jsonb, created_at FROM made
        UNION ALL
        SELECT id, 'status', 'Bulk seed', '', jsonb_build_object('from', 'new', 'to', status), created_at + interval '1 minute'
        FROM made WHERE status <> 'new'`);
    });
    options.onBatch?.(done + n);
  }
  await db.execute(sql`ANALYZE customer_queries`);
  await db.execute(sql`ANALYZE query_events`);
  return { ms: Date.now() - started };
}
