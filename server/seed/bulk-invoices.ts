// Many invoices at once, for the benchmark (`npm run seed -- --invoices 200000`). Issued invoices are
// generated inside the database, one statement per batch, spread over every seller (two thirds to the
// demo seller) and every issued status, each with a frozen document of two lines (18 % and 5 %) whose
// sums are exact. Their numbers come from a series of their own (`BULK/…`), so the real counters are
// untouched; their PDFs are rendered on first read, as for any invoice whose files were not stored yet.
// The status counters follow through the statement triggers of migration 0028.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

export async function seedBulkInvoices(
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
  const [offset] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::integer AS n FROM invoices WHERE series = 'bulk'`),
  );
  const first = offset?.n ?? 0;
  for (let done = 0; done < total; done += batchSize) {
    const n = Math.min(batchSize, total - done);
    await db.execute(sql`
      INSERT INTO invoices (kind, status, issuer, seller_id, source, number, series, period, sequence, currency,
        buyer_name, buyer_email, document, document_sha256, total_minor, tax_minor, paid_minor, issue_date,
        due_date, created_at, updated_at, issued_at)
      SELECT 'invoice', x.status, x.seller::text, x.seller, 'manual', 'BULK/' || lpad(g::text, 7, '0'), 'bulk',
        'all', g, x.currency, x.buyer, 'buyer' || g || '@bulk-invoices.example.com',
        jsonb_build_object('kind', 'invoice', 'number', 'BULK/' || lpad(g::text, 7, '0'),
          'issueDate', x.issued, 'dueDate', x.due, 'currency', x.currency,
          'seller', jsonb_build_object('name', 'Bulk seller', 'taxId', '29ABCDE1234F1Z5', 'email', '',
            'addressLine1', '1 MG Road', 'addressLine2', '', 'city', 'Bengaluru', 'state', 'KA',
            'zipcode', '560001', 'country', 'IN'),
          'buyer', jsonb_build_object('name', x.buyer, 'taxId', '', 'email', 'buyer' || g || '@bulk-invoices.example.com',
            'addressLine1', g || ' Brigade Road', 'addressLine2', '', 'city', 'Bengaluru', 'state', 'KA',
            'zipcode', '560025', 'country', 'IN'),
          'shipTo', NULL,
          'lines', jsonb_build_array(
            jsonb_build_object('name', 'Handloom cotton saree', 'sku', '5208', 'quantity', x.quantity,
              'unitPriceMinor', x.unit, 'discountMinor', 0, 'netMinor', x.quantity * x.unit, 'taxRate', 18,
              'taxMinor', x.tax18, 'totalMinor', x.quantity * x.unit + x.tax18),
            jsonb_build_object('name', 'Packing', 'sku', '4819', 'quantity', 1, 'unitPriceMinor', 5000,
              'discountMinor', 0, 'netMinor', 5000, 'taxRate', 5, 'taxMinor', 250, 'totalMinor', 5250)),
          'shippingMinor', 0,
          'totals', jsonb_build_object('netMinor', x.quantity * x.unit + 5000, 'taxMinor', x.tax18 + 250,
            'shippingMinor', 0, 'totalMinor', x.total, 'paidMinor', 0, 'dueMinor', x.total),
          'precedingInvoice', NULL, 'reference', '', 'notes', '', 'footer', '', 'paymentTerms', '',
          'bank', NULL, 'logoKey', NULL),
        md5(g::text) || md5((g + 1)::text),
        x.total, x.tax18 + 250,
        CASE x.status WHEN 'paid' THEN x.total WHEN 'pending' THEN x.total / 2 ELSE 0 END,
        x.issued, x.due, x.created, x.created, x.created
      FROM generate_series(${first + done + 1}::integer, ${first + done + n}::integer) g,
        LATERAL (SELECT
          CASE WHEN g % 3 < 2 THEN ${demo.id}::uuid ELSE (${sellerArray})[1 + g % ${sellerIds.length}::integer] END AS seller,
          (ARRAY['unpaid','pending','paid','paid','paid','overdue','failed'])[1 + g % 7] AS status,
          (ARRAY['INR','INR','EUR'])[1 + g % 3] AS currency,
          'Customer ' || (ARRAY['Kavya','Arjun','Meera','Dev','Ishaan','Gauri'])[1 + g % 6] || ' ' || (g % 997) AS buyer,
          1 + g % 4 AS quantity,
          1000 + (g::bigint * 7919) % 400000 AS unit,
          ((1 + g % 4) * (1000 + (g::bigint * 7919) % 400000) * 18 + 50) / 100 AS tax18,
          (1 + g % 4) * (1000 + (g::bigint * 7919) % 400000) + ((1 + g % 4) * (1000 + (g::bigint * 7919) % 400000) * 18 + 50) / 100 + 5250 AS total,
          to_char(now() - (g % 700) * interval '1 hour' - interval '1 day', 'YYYY-MM-DD') AS issued,
          to_char(now() - (g % 700) * interval '1 hour' + interval '13 days', 'YYYY-MM-DD') AS due,
          now() - (g % 700) * interval '1 hour' - (g % 3600) * interval '1 second' - interval '1 day' AS created
        ) x`);
    options.onBatch?.(done + n);
  }
  await db.execute(sql`ANALYZE invoices`);
  return { ms: Date.now() - started };
}
