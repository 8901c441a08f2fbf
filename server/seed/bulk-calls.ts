// Many call logs at once, for the benchmark and load tests (`npm run seed -- --calls 100000`). Like the
// bulk chats, rows are generated inside the database, one INSERT … SELECT generate_series per batch.
// Owners are spread evenly over the demo accounts (admin, staff, sellers), so every one's own history
// and the admins' view of everyone's are large. About one call in twenty is between two demo accounts
// (the peer is set, as when a number belongs to a user); the rest go to customers' mobile numbers from
// a pool of 20,000, so a number search finds a realistic handful of calls.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/**
 * Outcome weights out of 100 (SPEC §4 call status values): most calls connect, many are not picked.
 * Each is [status, cumulative upper bound].
 */
const statusBands: [string, number][] = [
  ['Connected', 45],
  ['Not Picked', 65],
  ['Rejected', 75],
  ['Call Ignored', 83],
  ['Call Cancelled', 92],
  ['Call Disconnected', 100],
];
const feedbackTexts = [
  'Clear line, issue resolved.',
  'Customer wants a callback tomorrow.',
  'Asked about delivery dates.',
  'Bad audio at first, fine after.',
  'Refund explained, customer satisfied.',
  'Follow up with the invoice.',
];
const CUSTOMER_NUMBERS = 20_000;
const DAYS = 180;

const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

export async function seedBulkCalls(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<{ inserted: number; ms: number }> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 50_000;
  const owners = rowsOf<{ id: string; phone: string }>(
    await db.execute(
      sql`SELECT id::text AS id, phone FROM users WHERE email LIKE '%@demo.local' ORDER BY created_at, email`,
    ),
  );
  if (owners.length < 2) throw new Error('The demo accounts are missing: seed the demo marketplace first.');
  const ownerIds = sql.raw(`ARRAY[${owners.map((o) => `'${o.id}'`).join(', ')}]::uuid[]`);
  const ownerPhones = sql.raw(
    `ARRAY[${owners.map((o) => `'+${o.phone.replace(/[^0-9]/g, '')}'`).join(', ')}]::text[]`,
  );
  const n = owners.length;
  const h = (salt: number) => sql.raw(`(hashint8extended(n::bigint, ${salt}) & 2147483647)`);
  const statusCase = sql.raw(
    `CASE ${statusBands.map(([status, upTo]) => `WHEN b < ${upTo} THEN '${status}'`).join(' ')} END`,
  );
  const base = Math.floor(Date.now() / 1000);
  for (let from = 1; from <= total; from += batchSize) {
    const to = Math.min(from + batchSize - 1, total);
    await db.execute(sql`
      WITH generated AS (
        SELECT n,
          1 + ${h(1)} % ${sql.raw(String(n))} AS owner_at,
          ${h(2)} % 20 = 0 AS with_user,
          1 + ${h(3)} % ${sql.raw(String(n - 1))} AS peer_step,
          ${h(4)} % ${sql.raw(String(CUSTOMER_NUMBERS))} AS customer,
          ${h(5)} % 100 AS b,
          ${h(6)} % 2 = 0 AS incoming,
          to_timestamp(${base}::double precision - (${h(7)} % (${sql.raw(String(DAYS))} * 86400))) AS at,
          5 + ${h(8)} % 1200 AS talk,
          ${h(9)} % 3 = 0 AS rated,
          1 + ${h(10)} % 5 AS rating,
          (${textArray(feedbackTexts)})[1 + ${h(11)} % ${sql.raw(String(feedbackTexts.length))}] AS note
        FROM generate_series(${from}::integer, ${to}::integer) AS n
      ), shaped AS (
        SELECT g.*, ${statusCase} AS status,
          (${ownerIds})[owner_at] AS owner_id,
          CASE WHEN with_user THEN (${ownerIds})[1 + (owner_at - 1 + peer_step) % ${sql.raw(String(n))}] END AS peer_id,
          CASE WHEN with_user THEN (${ownerPhones})[1 + (owner_at - 1 + peer_step) % ${sql.raw(String(n))}]
            -- Customer numbers: Indian mobiles, +91 then ten digits starting 6-9, from a fixed pool.
            ELSE '+91' || (6000000000 + (hashint8extended(customer, 12) & 2147483647) % 3999999999)::text END AS phone
        FROM generated g
      ), timed AS (
        SELECT s.*,
          CASE WHEN status IN ('Connected', 'Call Disconnected') THEN at + interval '4 seconds' END AS started,
          CASE WHEN status IN ('Connected', 'Call Disconnected') THEN talk ELSE 0 END AS duration
        FROM shaped s
      )
      INSERT INTO call_logs (owner_id, phone_number, phone_digits, peer_user_id, reference_type, source,
        call_status, started_at, ended_at, duration_seconds, feedback_rating, feedback_text, timeline,
        created_at, updated_at)
      SELECT owner_id, phone, substr(phone, 2), peer_id, CASE WHEN incoming THEN 'INCOMING' ELSE 'OUTGOING' END,
        CASE WHEN peer_id IS NULL THEN 'TWILIO' ELSE 'LOCAL' END,
        status, started, started + make_interval(secs => duration), duration,
        CASE WHEN rated AND status = 'Connected' THEN rating END,
        CASE WHEN rated AND status = 'Connected' THEN note END,
        jsonb_build_array(
          jsonb_build_object('at', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'event', 'created'),
          jsonb_build_object('at', to_char((at + make_interval(secs => 4 + duration)) AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'event', 'status', 'callStatus', status)
        ) || CASE WHEN rated AND status = 'Connected' THEN jsonb_build_array(jsonb_build_object(
          'at', to_char((at + make_interval(secs => 30 + duration)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'event', 'feedback', 'note', rating || '/5: ' || note)) ELSE '[]'::jsonb END,
        at, at + make_interval(secs => 30 + duration)
      FROM timed`);
    options.onBatch?.(to);
  }
  await db.execute(sql`VACUUM ANALYZE call_logs`);
  return { inserted: total, ms: Date.now() - started };
}
