// The staging grid's page: the products a query selects, one page of them in the chosen order, and
// how many there are. Built for 200k products on PGlite and 1M on PostgreSQL (`npm run bench`):
// - the WHERE comes from the query compiler (parameterised), scoped to the seller's own products for
//   a seller: products_seller_updated_idx then holds every row a seller can see;
// - ordered by updated time (the default), the page walks products_updated_idx (or the status or
//   category variants) and stops after skip + limit matches; other orders sort the matches;
// - the total is exact up to EXACT_COUNT_LIMIT and estimated above it (`countExact: false`, shown as
//   "about 48,000"); how, and why it is cheap either way, is countMatches' comment. An exact count of
//   a million rows is the query that brings Medusa's admin down, and nobody pages to row 48,000;
// - the page's rows are joined to sellers and categories by primary key, after the page is chosen.
import { type SQL, sql } from 'drizzle-orm';
import {
  EXACT_COUNT_LIMIT,
  type ProductList,
  type ProductRow,
  type ProductSortField,
  type SearchProductsBody,
  searchProductsBodySchema,
} from '../../../contracts/catalog';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { categories, products, sellers } from '../../db/schema';
import { attributesByCode } from './attribute-defs';
import { type MediaSigner, mediaSigner } from './media-urls';
import { compileProductQuery, ownerScope } from './product-query';

const sortKeys: Record<ProductSortField, SQL> = {
  updatedAt: sql`${products.updatedAt}`,
  createdAt: sql`${products.createdAt}`,
  title: sql`${products.titleKey}`,
  sku: sql`${products.skuKey}`,
  price: sql`${products.priceMinor}`,
  inventory: sql`${products.inventory}`,
  completeness: sql`${products.completeness}`,
};

/**
 * The counting strategy's thresholds. `exactLimit` is the contract's (the grid shows "about" above
 * it); tests shrink the others to exercise every branch on a small table.
 */
export interface CountLimits {
  exactLimit: number;
  /** How many rows the block sample reads: about ±1.5 % at any table size. */
  sampleRows: number;
  /** Below this many rows in the table, counting (capped) is cheaper than sampling. */
  sampleAboveRows: number;
  /** A sample predicting more than this many matches is trusted without a count. */
  trustEstimateAbove: number;
}
export const defaultCountLimits: CountLimits = {
  exactLimit: EXACT_COUNT_LIMIT,
  sampleRows: 10_000,
  sampleAboveRows: 3 * EXACT_COUNT_LIMIT,
  trustEstimateAbove: 2 * EXACT_COUNT_LIMIT,
};

interface RawRow {
  id: string;
  title: string;
  sku: string;
  status: ProductRow['status'];
  seller_id: string;
  seller_name: string;
  category_id: string | null;
  category_name: string | null;
  price_minor: number;
  currency: string;
  inventory: number;
  completeness: number;
  image_count: number;
  main_image_id: string | null;
  updated_at: string | Date;
  created_at: string | Date;
  values: { keyId: number; value?: unknown; values?: { value: unknown }[] }[] | null;
}

/** Two significant figures: an estimate should not look more precise than it is. */
function roundEstimate(estimate: number, limits: CountLimits): number {
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(estimate, 1))) - 1);
  return Math.max(limits.exactLimit + 1, Math.round(estimate / magnitude) * magnitude);
}

/** How many matches, counted up to the limit + 1 and no further. */
async function cappedCount(db: Db, where: SQL, limit: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::integer AS n FROM (SELECT 1 FROM ${products} WHERE ${where} LIMIT ${limit + 1}) capped`,
    ),
  );
  return row?.n ?? 0;
}

/**
 * The total: exact up to EXACT_COUNT_LIMIT, else an estimate (never below the limit).
 * - A small table is simply counted, capped.
 * - A large one is first sampled: a block sample (TABLESAMPLE SYSTEM, ~10k rows whatever the table's
 *   size, so it costs the same at 200k and 1M) estimates the matches. When it predicts well above
 *   the limit, that estimate is the answer and no count runs: counting 10,001 matches of a broad
 *   query was most of a search's time. Otherwise the capped count runs; it is then cheap, because
 *   few rows match (or an index finds them), and if it still passes the limit the estimate stands.
 * - With no filter at all, the planner's row count (pg_class.reltuples, kept by autovacuum and
 *   ANALYZE) is the estimate.
 */
export async function countMatches(
  db: Db,
  where: SQL,
  unfiltered: boolean,
  limits: CountLimits = defaultCountLimits,
): Promise<{ count: number; countExact: boolean }> {
  const [stats] = rowsOf<{ rows: number }>(
    await db.execute(
      sql`SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'products'::regclass`,
    ),
  );
  const tableRows = stats?.rows ?? 0;
  const exact = (count: number) => ({ count, countExact: true });
  const about = (estimate: number) => ({ count: roundEstimate(estimate, limits), countExact: false });
  if (tableRows <= limits.sampleAboveRows) {
    const capped = await cappedCount(db, where, limits.exactLimit);
    return capped <= limits.exactLimit ? exact(capped) : about(Math.max(capped, tableRows));
  }
  if (unfiltered) return about(tableRows);
  const percent = Math.min(100, (100 * limits.sampleRows) / tableRows);
  const [sample] = rowsOf<{ matched: number; seen: number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE ${where})::integer AS matched, count(*)::integer AS seen
      FROM ${products} TABLESAMPLE SYSTEM (${sql.raw(percent.toFixed(4))}) REPEATABLE (7)`),
  );
  const estimate = sample?.seen ? (sample.matched / sample.seen) * tableRows : 0;
  if (estimate > limits.trustEstimateAbove) return about(estimate);
  const capped = await cappedCount(db, where, limits.exactLimit);
  return capped <= limits.exactLimit ? exact(capped) : about(estimate);
}

/** A grid row as the API answers it. */
function toRow(raw: RawRow, columns: Map<number, string>, signer: MediaSigner): ProductRow {
  const row: ProductRow = {
    id: raw.id,
    title: raw.title,
    sku: raw.sku,
    status: raw.status,
    sellerId: raw.seller_id,
    sellerName: raw.seller_name,
    categoryId: raw.category_id,
    categoryName: raw.category_name,
    price: raw.price_minor / 100,
    currency: raw.currency,
    inventory: raw.inventory,
    completeness: raw.completeness,
    imageCount: raw.image_count,
    thumbUrl: raw.main_image_id ? signer.link(raw.main_image_id, 'thumb') : null,
    updatedAt: new Date(raw.updated_at).toISOString(),
    createdAt: new Date(raw.created_at).toISOString(),
  };
  if (columns.size) {
    const attributes: Record<string, unknown> = {};
    for (const value of raw.values ?? []) {
      const code = columns.get(value.keyId);
      if (!code) continue;
      attributes[code] =
        'values' in value && value.values
          ? value.values.map((item) => signer.signStoredPath(item.value))
          : signer.signStoredPath(value.value);
    }
    row.attributes = attributes;
  }
  return row;
}

export async function searchProducts(
  db: Db,
  viewer: { sellerId: string | null },
  input: SearchProductsBody,
): Promise<ProductList> {
  const body = searchProductsBodySchema.parse(input);
  const compiled = await compileProductQuery(db, body.query, body.search);
  const where = sql`(${ownerScope(viewer.sellerId)} AND ${compiled.where})`;
  // Attribute columns: only the ones asked for, read from the page's rows.
  const columnDefs = await attributesByCode(db, body.attributeColumns);
  const columns = new Map(columnDefs.map((def) => [def.id, def.code]));
  const ids = [...columns.keys()];
  const direction = sql.raw(body.order === 'asc' ? 'ASC' : 'DESC');
  const key = sortKeys[body.sort];
  const valuesColumn = ids.length
    ? sql`(SELECT jsonb_agg(v) FROM jsonb_array_elements(page.attribute_values) v WHERE (v->>'keyId')::int IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : sql`NULL::jsonb`;
  const [count, page, signer] = await Promise.all([
    countMatches(db, where, viewer.sellerId === null && compiled.unfiltered),
    db.execute(sql`
      WITH page AS (
        SELECT id, title, sku, status, seller_id, category_id, price_minor, currency, inventory,
               completeness, image_count, main_image_id, updated_at, created_at, attribute_values, ${key} AS sort_key
        FROM ${products}
        WHERE ${where}
        ORDER BY ${key} ${direction}, ${products.id} ${direction}
        OFFSET ${body.skip} LIMIT ${body.limit}
      )
      SELECT page.*, s.seller_name, c.name AS category_name, ${valuesColumn} AS values
      FROM page
      JOIN ${sellers} s ON s.id = page.seller_id
      LEFT JOIN ${categories} c ON c.id = page.category_id
      ORDER BY page.sort_key ${direction}, page.id ${direction}`),
    mediaSigner(db),
  ]);
  return { result: rowsOf<RawRow>(page).map((raw) => toRow(raw, columns, signer)), ...count };
}
