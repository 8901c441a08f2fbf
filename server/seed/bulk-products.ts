// Many realistic staging products at once, for the benchmark and load tests
// (`npm run seed -- --products 200000`). The products are those of the demo catalogue's generator
// (product-generator.ts): ~30 attributes over 33 subcategories, skewed options, real numeric spreads,
// every status with the completeness it implies, keys, search index and completeness computed by the
// server's own functions. Rows travel as one JSON document per batch and are inserted set-based
// (jsonb_to_recordset: one INSERT, one transaction per batch), so a crash keeps whole batches and no
// transaction grows with N. While the database inserts a batch, the next one is generated (on
// PostgreSQL the two overlap; PGlite runs in this thread, so there they simply alternate).
//
// The products spread over the marketplace's sellers (200 generated ones are added first when there
// are fewer), big shops holding most of them, as on a real marketplace; never the demo accounts'
// sellers, whose figures the demo shows. Bulk products have no photos (files for 200k products would
// be the benchmark's whole disk) and no history.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { seedBulkSellers } from './bulk-sellers';
import { ensureSeedCatalog } from './catalog-attributes';
import { type GeneratedProduct, generateProduct, leafPicker, profilesFor, rngOf } from './product-generator';

/** With fewer sellers than this, bulk sellers are added first: a catalogue needs many shops. */
export const MIN_BULK_SELLERS = 200;
/** The shops the products spread over, at most (the first by code): a 100k-seller database keeps a realistic skew. */
const MAX_BULK_SELLERS = 5_000;
/** SKUs are `<3 letters of the subcategory>-<7 digits>`, numbered across runs. */
const SKU_PATTERN = '^[A-Z]{3}-[0-9]{7,}$';

export interface BulkProductsResult {
  inserted: number;
  /** The number of the first product (SKUs go on from earlier runs). */
  firstNumber: number;
  sellers: number;
  ms: number;
}

/** The columns a batch carries, as jsonb_to_recordset reads them. */
const RECORD_COLUMNS = sql.raw(`
  seller_id uuid, category_id uuid, title text, sku text, title_key text, sku_key text, status text,
  status_reason text, price_minor integer, currency text, inventory integer, weight double precision,
  weight_unit text, dimensions jsonb, attribute_values jsonb, attr_index jsonb, completeness integer,
  missing_attributes integer[], created_at timestamptz, updated_at timestamptz`);

function recordOf(product: GeneratedProduct, sellerId: string) {
  return {
    seller_id: sellerId,
    category_id: product.categoryId,
    title: product.title,
    sku: product.sku,
    title_key: product.titleKey,
    sku_key: product.skuKey,
    status: product.status,
    status_reason: product.statusReason,
    price_minor: product.priceMinor,
    currency: product.currency,
    inventory: product.inventory,
    weight: product.weight,
    weight_unit: product.weightUnit,
    dimensions: product.dimensions,
    attribute_values: product.attributeValues,
    attr_index: product.attrIndex,
    completeness: product.completeness,
    missing_attributes: product.missingAttributes,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}

/** The sellers products go to: every seller but the demo accounts' ones, topped up to MIN_BULK_SELLERS. */
async function bulkSellerIds(db: Db): Promise<string[]> {
  const read = async () =>
    rowsOf<{ id: string }>(
      await db.execute(sql`
        SELECT s.id FROM sellers s
        WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.seller_id = s.id AND u.email LIKE '%@demo.local')
        ORDER BY s.seller_code LIMIT ${MAX_BULK_SELLERS}`),
    ).map((row) => row.id);
  const ids = await read();
  if (ids.length >= MIN_BULK_SELLERS) return ids;
  await seedBulkSellers(db, MIN_BULK_SELLERS - ids.length);
  return read();
}

/**
 * Adds `total` products numbered after any earlier bulk seed (so it can run again), then refreshes
 * the planner's statistics (and, for PGlite, which has no autovacuum, the visibility map).
 */
export async function seedBulkProducts(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void; now?: number } = {},
): Promise<BulkProductsResult> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 5_000;
  const now = options.now ?? Date.now();
  const catalog = await ensureSeedCatalog(db);
  const choices = profilesFor(catalog.leaves);
  if (choices.length === 0) {
    throw new Error('There are no demo categories to put products in: seed the demo first (SEED_DEMO=true).');
  }
  const pickLeaf = leafPicker(choices);
  const sellerIds = await bulkSellerIds(db);
  const [last] = rowsOf<{ last: number }>(
    await db.execute(sql`
      SELECT coalesce(max(substring(sku FROM 5)::integer), 0)::integer AS last
      FROM products WHERE sku ~ ${SKU_PATTERN}`),
  );
  const first = (last?.last ?? 0) + 1;

  const batchOf = (from: number, to: number) => {
    const records = [];
    for (let n = from; n <= to; n++) {
      const rng = rngOf(n, 1);
      const { leaf, profile } = pickLeaf(rng);
      const code = leaf.path
        .split('/')[1]!
        .replace(/[^a-z]/g, '')
        .slice(0, 3)
        .toUpperCase();
      const product = generateProduct(rng, leaf, profile, {
        sku: `${code}-${String(n).padStart(7, '0')}`,
        now,
      });
      // Big shops hold most of the catalogue: the seller's rank is skewed towards the first ones.
      const seller = sellerIds[Math.floor(sellerIds.length * rng.next() ** 2.5)]!;
      records.push(recordOf(product, seller));
    }
    return JSON.stringify(records);
  };
  const insert = (json: string) =>
    db.execute(sql`
      INSERT INTO products (
        seller_id, category_id, title, sku, title_key, sku_key, status, status_reason, price_minor,
        currency, inventory, weight, weight_unit, dimensions, attribute_values, attr_index, completeness,
        missing_attributes, created_at, updated_at
      )
      SELECT seller_id, category_id, title, sku, title_key, sku_key, status, status_reason, price_minor,
        currency, inventory, weight, weight_unit, dimensions, attribute_values, attr_index, completeness,
        missing_attributes, created_at, updated_at
      FROM jsonb_to_recordset(CAST(${json} AS jsonb)) AS r(${RECORD_COLUMNS})`);

  let pending: Promise<unknown> = Promise.resolve();
  for (let from = first; from < first + total; from += batchSize) {
    const to = Math.min(from + batchSize, first + total) - 1;
    const json = batchOf(from, to);
    await pending;
    pending = insert(json).then(() => options.onBatch?.(to - first + 1));
  }
  await pending;
  // PGlite runs no autovacuum: without VACUUM the visibility map stays empty (no index-only scans) and
  // the trigram index keeps its pending list. Fresh statistics pick the plans bench-catalog.mjs shows.
  await db.execute(sql`VACUUM ANALYZE products`);
  return { inserted: total, firstNumber: first, sellers: sellerIds.length, ms: Date.now() - started };
}
