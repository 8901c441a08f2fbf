// Many realistic sellers at once, for load tests and the benchmark (`npm run seed -- --sellers 100000`).
// The rows are generated inside the database (generate_series), one INSERT and so one transaction
// per batch: 100k sellers take seconds, never hold one huge transaction, and a crash keeps whole batches.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

// Names are "<prefix> <trade>": a fragment such as "saffron" finds about one seller in fifty, like a
// real marketplace where many shops share a word. E-mails and phones are unique per seller.
const words = (list: string) => list.split(' ');
const prefixes = words(
  'Aurora Banyan Cedar Deccan Everleaf Fable Ganga Harbor Indigo Jaipur Kiran Lotus Monsoon Nilgiri ' +
    'Oakwood Peacock Quartz Riverstone Saffron Teal Umber Velvet Westwind Yarn Zenith Amber Bluebell ' +
    'Coral Dune Emerald Fern Granite Horizon Ivory Juniper Kestrel Lantern Marigold Neem Orchid Pebble ' +
    'Quill Rosewood Sandal Tamarind Urban Vermilion Willow Xylo Zephyr',
);
const trades = words(
  'Textiles Crafts Spices Organics Footwear Handloom Home Prints Gems Electronics Ceramics Tea ' +
    'Naturals Toys Apparel Kitchen Leather Foods Stationery Furniture Beauty Sports Audio Lighting ' +
    'Pottery Jewels Outdoor Gardens Baby Tools',
);
const firstNames = words(
  'aarav aditi arjun ananya dev diya farhan gauri ishaan kavya kabir lakshmi manav meera nikhil neha ' +
    'omkar pooja rahul riya sahil sana tanvi vikram yash zoya rohan priya karan isha',
);
const lastNames = words(
  'sharma iyer patel reddy nair gupta khan singh das mehta joshi rao menon kapoor bose pillai verma ' +
    'shah kulkarni chopra',
);
const domains = words('gmail.com outlook.com yahoo.in rediffmail.com shopmail.in proton.me');
const cities = [
  ['Mumbai', 'Maharashtra', '400001'],
  ['Bengaluru', 'Karnataka', '560001'],
  ['Jaipur', 'Rajasthan', '302001'],
  ['Kochi', 'Kerala', '682001'],
  ['Pune', 'Maharashtra', '411001'],
  ['Chennai', 'Tamil Nadu', '600001'],
  ['Kolkata', 'West Bengal', '700001'],
  ['Hyderabad', 'Telangana', '500001'],
];

/** A constant text[] literal (these lists are ours, not user input). */
const textArray = (list: string[]) =>
  sql.raw(`ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`);

/** Seller numbers of generated sellers: codes SEL-1000001 … (the demo seed uses SEL-0001 …). */
const CODE_BASE = 1_000_000;

export interface BulkSeedResult {
  inserted: number;
  firstNumber: number;
  ms: number;
}

/**
 * Adds `total` sellers numbered after any earlier bulk seed (so it can run again), spread over the
 * four tabs: about 55% Active, 15% Pending Verification, 15% Pending KYC, 15% Inactive.
 */
export async function seedBulkSellers(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<BulkSeedResult> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 10_000;
  const [last] = rowsOf<{ last: number }>(
    await db.execute(sql`
      SELECT coalesce(max(substring(seller_code FROM 5)::integer), ${CODE_BASE})::integer AS last
      FROM sellers WHERE seller_code ~ '^SEL-[0-9]{7}$'`),
  );
  const first = (last?.last ?? CODE_BASE) - CODE_BASE + 1;
  // h(salt): PostgreSQL's own hash of the seller number, seeded per column, so every run is
  // reproducible and the columns are independent of each other (a multiplicative hash is not).
  const h = (salt: number) => sql.raw(`(hashint8extended(n::bigint, ${salt}) & 2147483647)`);
  const pickFrom = (words: string[], salt: number) =>
    sql`(${textArray(words)})[1 + ${h(salt)} % ${sql.raw(String(words.length))}]`;
  const cityIndex = sql`(1 + ${h(7)} % ${sql.raw(String(cities.length))})`;
  const cityField = (field: number) =>
    sql`(${textArray(cities.map((city) => city[field] as string))})[${cityIndex}]`;
  for (let from = first; from < first + total; from += batchSize) {
    const to = Math.min(from + batchSize, first + total) - 1;
    await db.execute(sql`
      INSERT INTO sellers (
        seller_code, seller_name, email, phone, address, is_active, is_email_verified, is_kyc_done,
        is_new_seller, blocked, is_free, created_at, updated_at
      )
      SELECT code, name, email, phone,
        jsonb_build_object(
          'fullName', name, 'email', email, 'addressLine1', (1 + ${h(8)} % 400) || ' Market Road',
          'addressLine2', '', 'city', ${cityField(0)}, 'state', ${cityField(1)}, 'country', 'IN',
          'zipcode', ${cityField(2)}
        ),
        tab = 0, tab <> 1, tab IN (0, 3), ${h(9)} % 10 = 0, tab = 0 AND ${h(10)} % 25 = 0,
        ${h(11)} % 20 = 0, created, created
      FROM (
        SELECT n,
          'SEL-' || (${sql.raw(String(CODE_BASE))} + n) AS code,
          ${pickFrom(prefixes, 1)} || ' ' || ${pickFrom(trades, 2)} AS name,
          ${pickFrom(firstNames, 3)} || '.' || ${pickFrom(lastNames, 4)} || n || '@' || ${pickFrom(domains, 5)} AS email,
          '+91 9' || substr(lpad(((n::bigint * 7919) % 1000000000)::text, 9, '0'), 1, 4) || ' '
            || substr(lpad(((n::bigint * 7919) % 1000000000)::text, 9, '0'), 5) AS phone,
          CASE WHEN ${h(6)} % 100 < 55 THEN 0 WHEN ${h(6)} % 100 < 70 THEN 1
               WHEN ${h(6)} % 100 < 85 THEN 2 ELSE 3 END AS tab,
          now() - make_interval(secs => (${h(12)} % (3 * 365 * 86400))::double precision) AS created
        FROM generate_series(${from}::integer, ${to}::integer) AS n
      ) generated`);
    options.onBatch?.(to - first + 1);
  }
  // PGlite runs no autovacuum: without this the visibility map stays empty and every list page
  // would visit the table instead of reading the index alone. Fresh statistics pick the right plans.
  await db.execute(sql`VACUUM ANALYZE sellers`);
  return { inserted: total, firstNumber: first, ms: Date.now() - started };
}
