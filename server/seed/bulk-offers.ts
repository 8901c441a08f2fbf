// Many offers at once, for the benchmark (`npm run seed -- --offers 50000`). Rows are generated inside
// the database, one statement per batch (INSERT … SELECT generate_series with data-modifying CTEs for the
// versions and the customers' answers), spread over every seller (two thirds to the demo seller, so a
// seller's own list is large too) and every status: a requested offer has no version yet, every other
// one has one to three sent versions (the last one current), an accepted or declined one the customer's
// answer to it. The status counters follow through the statement triggers of migration 0024, as for
// any insert. Snapshots have the shape sendOffer writes; their hash is PostgreSQL's sha256 of the stored
// JSON text, not of the canonical JSON sendOffer hashes (bench data; the server only writes them).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

const products = [
  'Silk sari, hand-woven',
  'Brass diya (set of 12)',
  'Block-printed table runner',
  'Cotton kurta',
  'Terracotta lamp',
  'Pashmina shawl',
  'Jute shopping bag',
  'Sandalwood incense (box)',
];
const names =
  'Aarav Aditi Arjun Ananya Dev Diya Farhan Gauri Ishaan Kavya Kabir Lakshmi Manav Meera Nikhil Neha'.split(
    ' ',
  );
const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

export async function seedBulkOffers(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<{ ms: number }> {
  const started = Date.now();
  // Each offer writes up to three versions with their snapshots: 5k offers keep a statement small.
  const batchSize = options.batchSize ?? 5_000;
  const [demo] = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers WHERE seller_code = 'SEL-0001'`),
  );
  if (!demo) throw new Error('The demo seller SEL-0001 is missing: seed the demo marketplace first.');
  const sellerIds = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM sellers ORDER BY created_at LIMIT 50`),
  ).map((row) => row.id);
  const staff = rowsOf<{ id: string; name: string }>(
    await db.execute(
      sql`SELECT id, trim(first_name || ' ' || last_name) AS name FROM users WHERE role IN ('Admin', 'Staff') ORDER BY email`,
    ),
  );
  const sellerArray = sql.raw(`ARRAY[${sellerIds.map((id) => `'${id}'`).join(', ')}]::uuid[]`);
  const staffArray = sql.raw(`ARRAY[${staff.map((row) => `'${row.id}'`).join(', ')}]::uuid[]`);
  const staffNames = textArray(staff.length ? staff.map((row) => row.name || 'Staff') : ['Bulk seed']);
  const staffCount = Math.max(1, staff.length);
  for (let done = 0; done < total; done += batchSize) {
    const n = Math.min(batchSize, total - done);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        WITH made AS (
          INSERT INTO offers (seller_id, customer_name, email, phone, message, requested_items, status,
            current_version, currency, total_minor, expires_at, reminder_sent_at, assignee_id, created_at, updated_at)
          SELECT
            CASE WHEN g % 3 < 2 THEN ${demo.id}::uuid ELSE (${sellerArray})[1 + g % ${sellerIds.length}::integer] END,
            (${textArray(names)})[1 + g % ${names.length}::integer] || ' ' || (g % 997),
            'buyer' || g || '@bulk-offers.example.com',
            '',
            'Please quote ' || (10 + g % 490) || ' pieces of ' || lower((${textArray(products)})[1 + g % ${products.length}::integer])
              || ', request number ' || g || ' ',
            jsonb_build_array(jsonb_build_object('productId', '', 'name', (${textArray(products)})[1 + g % ${products.length}::integer],
              'quantity', 10 + g % 490, 'note', '')),
            s.status,
            CASE WHEN s.status = 'requested' THEN 0 ELSE 1 + g % 3 END,
            CASE WHEN s.status = 'requested' THEN NULL ELSE (ARRAY['INR','INR','EUR','USD'])[1 + g % 4] END,
            CASE WHEN s.status = 'requested' THEN NULL ELSE 1000 + (g::bigint * 7919) % 5000000 END,
            CASE s.status
              WHEN 'requested' THEN NULL
              WHEN 'offered' THEN now() + (1 + g % 14) * interval '1 day'
              ELSE now() - (g % 300) * interval '1 hour'
            END,
            -- The steady state: offers ending within the default reminder window (3 days) were reminded,
            -- so the server's first expiry sweep does not send thousands of mails during a bench.
            CASE WHEN s.status = 'offered' AND 1 + g % 14 <= 3 THEN now() - interval '1 hour' END,
            CASE WHEN g % 4 = 0 THEN NULL ELSE (${staffArray})[1 + g % ${staffCount}::integer] END,
            now() - (g % 500) * interval '1 hour' - (g % 3600) * interval '1 second' - interval '15 days',
            now() - (g % 300) * interval '1 hour'
          FROM generate_series(${done + 1}::integer, ${done + n}::integer) g,
            LATERAL (SELECT (ARRAY['requested','requested','requested','offered','offered','offered',
              'accepted','accepted','declined','expired'])[1 + g % 10] AS status) s
          RETURNING id, number, seller_id, customer_name, email, status, current_version, currency, total_minor,
            expires_at, created_at
        ),
        sent AS (
          SELECT made.*, v.version,
            made.created_at + v.version * interval '1 day' AS sent_at,
            CASE WHEN v.version = made.current_version THEN made.expires_at
              ELSE made.created_at + (v.version + 14) * interval '1 day' END AS version_expires,
            made.total_minor + (made.current_version - v.version) * 500 AS version_total
          FROM made CROSS JOIN LATERAL generate_series(1, made.current_version) AS v(version)
        ),
        snapshots AS (
          SELECT sent.*, jsonb_build_object(
            'number', number, 'reference', 'OFR-' || number, 'version', version,
            'seller', jsonb_build_object('id', seller_id, 'name', ''),
            'customer', jsonb_build_object('name', customer_name, 'email', email, 'phone', '', 'shippingAddress', NULL),
            'offer', jsonb_build_object(
              'currency', currency, 'shippingCountry', 'IN', 'validUntil', to_char(version_expires, 'YYYY-MM-DD'),
              'notes', '', 'pricingErrors', '[]'::jsonb,
              'lines', jsonb_build_array(jsonb_build_object(
                'productId', NULL, 'name', 'Quoted goods', 'sku', 'BULK-' || number, 'quantity', 1,
                'listUnitPriceMinor', version_total, 'unitPriceMinor', version_total, 'quantityBreaks', '[]'::jsonb,
                'discountPercent', NULL, 'discountMinor', NULL, 'grossMinor', version_total, 'discountTotalMinor', 0,
                'netMinor', version_total, 'taxOptionId', NULL, 'taxLabel', NULL, 'taxRate', 0, 'taxMinor', 0,
                'totalMinor', version_total)),
              'totals', jsonb_build_object('subtotalMinor', version_total, 'discountMinor', 0, 'taxMinor', 0,
                'shippingMinor', 0, 'totalMinor', version_total)),
            'timeZone', 'Asia/Kolkata', 'expiresAt', version_expires) AS snapshot
          FROM sent
        ),
        versions AS (
          INSERT INTO offer_versions (offer_id, version, snapshot, snapshot_sha256, currency, total_minor, valid_until,
            expires_at, sent_by, sent_by_name, sent_at, opened_at)
          SELECT id, version, snapshot, encode(sha256(convert_to(snapshot::text, 'UTF8')), 'hex'), currency,
            version_total, to_char(version_expires, 'YYYY-MM-DD'), version_expires,
            (${staffArray})[1 + (number % ${staffCount}::integer)::integer],
            (${staffNames})[1 + (number % ${staffCount}::integer)::integer],
            sent_at, CASE WHEN number % 2 = 0 THEN sent_at + interval '3 hours' END
          FROM snapshots
          RETURNING offer_id, version, snapshot_sha256, sent_at
        )
        INSERT INTO offer_responses (offer_id, version, decision, typed_name, comment, ip, user_agent, snapshot_sha256,
          created_at)
        SELECT v.offer_id, v.version, CASE made.status WHEN 'accepted' THEN 'accepted' ELSE 'declined' END,
          made.customer_name, '', '203.0.113.' || (made.number % 250), 'Bulk seed', v.snapshot_sha256,
          v.sent_at + interval '1 day'
        FROM versions v JOIN made ON made.id = v.offer_id AND made.current_version = v.version
        WHERE made.status IN ('accepted', 'declined')`);
    });
    options.onBatch?.(done + n);
  }
  await db.execute(sql`ANALYZE offers`);
  await db.execute(sql`ANALYZE offer_versions`);
  await db.execute(sql`ANALYZE offer_responses`);
  return { ms: Date.now() - started };
}
