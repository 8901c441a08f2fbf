// The staging grid's page: the products a query selects, one page of them in the chosen order, and
// how many there are. Built for 200k products on PGlite and 1M on PostgreSQL (`npm run bench`, catalog):
// - the WHERE comes from the query compiler (parameterised), scoped to the seller's own products for
//   a seller;
// - few matches (≤ EXACT_COUNT_LIMIT): ONE read of the matches, through whichever index the planner
//   likes for the filter (the trigram index for a search, GIN for options), answers both the exact
//   total and the page's ids, sorted in memory (findPage);
// - many matches: the total is an estimate (`countExact: false`, shown as "about 48,000") and the page
//   walks the index that is already in the grid's order, stopping after skip + limit matches. An exact
//   count of a million rows is the query that brings Medusa's admin down, and nobody pages to 48,000;
// - the page's rows are then read by primary key, joined to sellers and categories.
// Plans (EXPLAIN ANALYZE, 200k products, bench figures in bench/results.json):
// - nested query "status any of live, approved AND (colour any of 2 OR screen ≥ 6)", ~32,000 matches:
//   estimate from the block sample, then `Index Scan Backward using products_updated_idx … Rows Removed
//   by Filter: 260` — 2 ms. (With the indexes in DESC order, which does not match
//   `ORDER BY updated_at DESC, id DESC`, it was a Seq Scan + top-N sort of 200k rows: 261 ms.)
// - search "terracotta", 1,835 matches: `Bitmap Index Scan on products_search_trgm_idx` inside the
//   MATERIALIZED matches, counted and sorted from memory — 4 ms on PGlite. Walking the ordered index
//   with the filter instead (what the planner picks from its far-off 20-row estimate) took 122 ms.
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

/** The planner's row estimate for a filter (EXPLAIN, well under a millisecond). */
async function plannedRows(db: Db, where: SQL): Promise<number> {
  const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(
    await db.execute(sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${products} WHERE ${where}`),
  );
  const plan = typeof row?.['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row?.['QUERY PLAN'];
  return Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** The matches estimated from a block sample of ~sampleRows rows, whatever the table's size. */
async function sampleEstimate(db: Db, where: SQL, tableRows: number, limits: CountLimits): Promise<number> {
  const percent = Math.min(100, (100 * limits.sampleRows) / tableRows);
  const [sample] = rowsOf<{ matched: number; seen: number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE ${where})::integer AS matched, count(*)::integer AS seen
      FROM ${products} TABLESAMPLE SYSTEM (${sql.raw(percent.toFixed(4))}) REPEATABLE (7)`),
  );
  return sample?.seen ? (sample.matched / sample.seen) * tableRows : 0;
}

export interface PageRequest {
  key: SQL;
  order: 'asc' | 'desc';
  skip: number;
  limit: number;
  /** No condition, no search, no seller scope: every product matches. */
  unfiltered: boolean;
}

/**
 * The page's ids in order and the total:
 * - a large table is first asked whether the filter is broad: with no filter, the planner's row count
 *   (pg_class.reltuples) is the estimate; when the planner expects many matches, a block sample
 *   estimates them, and above trustEstimateAbove that estimate stands;
 * - otherwise one read of at most exactLimit + 1 matches (MATERIALIZED, so it is read once) gives the
 *   exact total and the page. If it finds more than exactLimit, the total becomes an estimate.
 * With an estimate, the page walks the index in the grid's order and stops after skip + limit matches.
 */
export async function findPage(
  db: Db,
  where: SQL,
  page: PageRequest,
  limits: CountLimits = defaultCountLimits,
): Promise<{ ids: string[]; count: number; countExact: boolean }> {
  const [stats] = rowsOf<{ rows: number }>(
    await db.execute(
      sql`SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'products'::regclass`,
    ),
  );
  const tableRows = stats?.rows ?? 0;
  const large = tableRows > limits.sampleAboveRows;
  const direction = sql.raw(page.order === 'asc' ? 'ASC' : 'DESC');
  let estimate: number | null = null;
  if (large && page.unfiltered) estimate = tableRows;
  else if (large && (await plannedRows(db, where)) > limits.trustEstimateAbove) {
    const sampled = await sampleEstimate(db, where, tableRows, limits);
    if (sampled > limits.trustEstimateAbove) estimate = sampled;
  }
  if (estimate === null) {
    const [pass] = rowsOf<{ total: number; ids: string[] | null }>(
      await db.execute(sql`
        WITH matches AS MATERIALIZED (
          SELECT id, ${page.key} AS sort_key FROM ${products} WHERE ${where} LIMIT ${limits.exactLimit + 1}
        )
        SELECT (SELECT count(*)::integer FROM matches) AS total,
               ARRAY(SELECT id FROM matches ORDER BY sort_key ${direction}, id ${direction}
                     OFFSET ${page.skip} LIMIT ${page.limit}) AS ids`),
    );
    const total = pass?.total ?? 0;
    if (total <= limits.exactLimit) return { ids: pass?.ids ?? [], count: total, countExact: true };
    estimate = large
      ? Math.max(await sampleEstimate(db, where, tableRows, limits), total)
      : Math.max(total, tableRows);
  }
  const walked = rowsOf<{ id: string }>(
    await db.execute(sql`
      SELECT id FROM ${products} WHERE ${where}
      ORDER BY ${page.key} ${direction}, ${products.id} ${direction}
      OFFSET ${page.skip} LIMIT ${page.limit}`),
  );
  return { ids: walked.map((row) => row.id), count: roundEstimate(estimate, limits), countExact: false };
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
  const [found, signer] = await Promise.all([
    findPage(db, where, {
      key: sortKeys[body.sort],
      order: body.order,
      skip: body.skip,
      limit: body.limit,
      unfiltered: viewer.sellerId === null && compiled.unfiltered,
    }),
    mediaSigner(db),
  ]);
  if (found.ids.length === 0) return { result: [], count: found.count, countExact: found.countExact };
  const valuesColumn = ids.length
    ? sql`(SELECT jsonb_agg(v) FROM jsonb_array_elements(${products.attributeValues}) v WHERE (v->>'keyId')::int IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : sql`NULL::jsonb`;
  const rows = rowsOf<RawRow>(
    await db.execute(sql`
      SELECT ${products.id} AS id, ${products.title} AS title, ${products.sku} AS sku, ${products.status} AS status,
             ${products.sellerId} AS seller_id, ${sellers.sellerName} AS seller_name,
             ${products.categoryId} AS category_id, ${categories.name} AS category_name,
             ${products.priceMinor} AS price_minor, ${products.currency} AS currency,
             ${products.inventory} AS inventory, ${products.completeness} AS completeness,
             ${products.imageCount} AS image_count, ${products.mainImageId} AS main_image_id,
             ${products.updatedAt} AS updated_at, ${products.createdAt} AS created_at, ${valuesColumn} AS values
      FROM ${products}
      JOIN ${sellers} ON ${sellers.id} = ${products.sellerId}
      LEFT JOIN ${categories} ON ${categories.id} = ${products.categoryId}
      WHERE ${products.id} IN (${sql.join(
        found.ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`),
  );
  // Read by primary key, in no order: the page's order is the ids'.
  const byId = new Map(rows.map((row) => [row.id, row]));
  const result = found.ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toRow(row, columns, signer)] : [];
  });
  return { result, count: found.count, countExact: found.countExact };
}
