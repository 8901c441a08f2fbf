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
  type ProductList,
  type ProductRow,
  type ProductSortField,
  type SearchProductsBody,
  searchProductsBodySchema,
} from '../../../contracts/catalog';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { categories, products, sellers } from '../../db/schema';
import {
  type CountLimits,
  defaultCountLimits,
  findPage as findPageIn,
  type PageRequest,
} from '../../lib/paged-find';
import { uuidList } from '../../lib/sql-uuids';
import { attributesByCode } from '../attributes/attribute-defs';
import { type MediaSigner, mediaSigner } from '../media/media-urls';
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

// The counting strategy itself is shared (server/lib/paged-find.ts); the grid binds it to products.
export { type CountLimits, defaultCountLimits, type PageRequest } from '../../lib/paged-find';

export const findPage = (db: Db, where: SQL, page: PageRequest, limits: CountLimits = defaultCountLimits) =>
  findPageIn(db, products, where, page, limits);

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
      WHERE ${products.id} IN (${uuidList(found.ids)})`),
  );
  // Read by primary key, in no order: the page's order is the ids'.
  const byId = new Map(rows.map((row) => [row.id, row]));
  const result = found.ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toRow(row, columns, signer)] : [];
  });
  return { result, count: found.count, countExact: found.countExact };
}
