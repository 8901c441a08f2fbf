// The staging grid's page: the products a query selects, one page of them in the chosen order, and
// how many there are. Built for 200k products on PGlite and 1M on PostgreSQL (`npm run bench`):
// - the WHERE comes from the query compiler (parameterised), scoped to the seller's own products for
//   a seller: products_seller_updated_idx then holds every row a seller can see;
// - ordered by updated time (the default), the page walks products_updated_idx (or the status or
//   category variants) and stops after skip + limit matches; other orders sort the matches;
// - the total counts matches up to EXACT_COUNT_LIMIT + 1 and stops there; above it the total is
//   estimated from a block sample of the table (TABLESAMPLE SYSTEM) and the answer says so
//   (`countExact: false`, shown as "about 48,000"): an exact count of a million rows is the query
//   that brings Medusa's admin down, and nobody pages to row 48,000;
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
import { mediaUrls } from './media-urls';
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

/** How many rows the block sample reads for an estimate: enough for about ±1 % at 1M rows. */
const SAMPLE_ROWS = 20_000;

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
  values: { keyId: number; value?: unknown; values?: { value: unknown }[] }[] | null;
}

/** The total: exact up to EXACT_COUNT_LIMIT, else a sample's estimate (never below the limit). */
async function countMatches(db: Db, where: SQL): Promise<{ count: number; countExact: boolean }> {
  const capped = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::integer AS n FROM (SELECT 1 FROM ${products} WHERE ${where} LIMIT ${EXACT_COUNT_LIMIT + 1}) capped`,
    ),
  )[0]?.n;
  if ((capped ?? 0) <= EXACT_COUNT_LIMIT) return { count: capped ?? 0, countExact: true };
  const [stats] = rowsOf<{ rows: number }>(
    await db.execute(
      sql`SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'products'::regclass`,
    ),
  );
  const tableRows = Math.max(stats?.rows ?? 0, EXACT_COUNT_LIMIT + 1);
  const percent = Math.min(100, (100 * SAMPLE_ROWS) / tableRows);
  const [sample] = rowsOf<{ matched: number; seen: number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE ${where})::integer AS matched, count(*)::integer AS seen
      FROM ${products} TABLESAMPLE SYSTEM (${sql.raw(percent.toFixed(4))}) REPEATABLE (7)`),
  );
  const estimate = sample?.seen ? (sample.matched / sample.seen) * tableRows : EXACT_COUNT_LIMIT + 1;
  // Two significant figures: an estimate should not look more precise than it is.
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(estimate, 1))) - 1);
  return {
    count: Math.max(EXACT_COUNT_LIMIT + 1, Math.round(estimate / magnitude) * magnitude),
    countExact: false,
  };
}

/** A grid row as the API answers it. */
function toRow(raw: RawRow, columns: Map<number, string>): ProductRow {
  const urls = raw.main_image_id ? mediaUrls(raw.main_image_id) : null;
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
    thumbUrl: urls ? urls.thumbUrl : null,
    updatedAt: new Date(raw.updated_at).toISOString(),
  };
  if (columns.size) {
    const attributes: Record<string, unknown> = {};
    for (const value of raw.values ?? []) {
      const code = columns.get(value.keyId);
      if (!code) continue;
      attributes[code] =
        'values' in value && value.values ? value.values.map((item) => item.value) : value.value;
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
  const [count, page] = await Promise.all([
    countMatches(db, where),
    db.execute(sql`
      WITH page AS (
        SELECT id, title, sku, status, seller_id, category_id, price_minor, currency, inventory,
               completeness, image_count, main_image_id, updated_at, attribute_values, ${key} AS sort_key
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
  ]);
  return { result: rowsOf<RawRow>(page).map((raw) => toRow(raw, columns)), ...count };
}
