// The staging report: what the grid's query selects, counted by status, category, seller and
// completeness band, the required attributes most often missing, and products without images.
// Two scans of the matches whatever the catalogue's size: one GROUPING SETS pass for every count, one
// over the missing-attribute arrays. The goal is ≤ 1 s for a query matching half of 200k products
// (`npm run bench`, catalog.report).
import { inArray, type SQL, sql } from 'drizzle-orm';
import { type ProductStatus, productStatuses } from '../../../contracts/catalog';
import {
  type CatalogReport,
  completenessBands,
  REPORT_TOP,
  type ReportBucket,
} from '../../../contracts/catalog-actions';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { attributes, categories, products, sellers } from '../../db/schema';

interface GroupRow {
  status: ProductStatus | null;
  category_id: string | null;
  seller_id: string | null;
  band: number | null;
  no_images: boolean | null;
  /** Which grouping set the row belongs to: 0 status, 1 category, 2 seller, 3 band, 4 images. */
  grouping_set: number;
  n: number;
}

/** The largest buckets by count, then one "Other" bucket with the rest. */
function topBuckets(
  counts: { id: string | null; count: number }[],
  names: ReadonlyMap<string, string>,
  none: string,
): ReportBucket[] {
  const sorted = [...counts].sort((a, b) => b.count - a.count);
  const top = sorted.slice(0, REPORT_TOP).map((entry) => ({
    id: entry.id,
    label: entry.id ? (names.get(entry.id) ?? 'Unknown') : none,
    count: entry.count,
  }));
  const rest = sorted.slice(REPORT_TOP).reduce((sum, entry) => sum + entry.count, 0);
  return rest ? [...top, { id: null, label: 'Other', count: rest }] : top;
}

export async function catalogReport(db: Db, where: SQL): Promise<CatalogReport> {
  const [grouped, missing] = await Promise.all([
    db.execute(sql`
      SELECT status, category_id, seller_id, band, no_images, count(*)::integer AS n,
             CASE WHEN grouping(status) = 0 THEN 0 WHEN grouping(category_id) = 0 THEN 1
                  WHEN grouping(seller_id) = 0 THEN 2 WHEN grouping(band) = 0 THEN 3 ELSE 4 END AS grouping_set
      FROM (
        SELECT status, category_id, seller_id, image_count = 0 AS no_images,
               CASE WHEN completeness >= 100 THEN 5 ELSE least(completeness / 20, 4) END AS band
        FROM ${products} WHERE ${where}
      ) matches
      GROUP BY GROUPING SETS ((status), (category_id), (seller_id), (band), (no_images))`),
    db.execute(sql`
      SELECT m AS id, count(*)::integer AS n
      FROM ${products}, unnest(${products.missingAttributes}) AS m
      WHERE ${where}
      GROUP BY m ORDER BY n DESC, m LIMIT 10`),
  ]);
  const rows = rowsOf<GroupRow>(grouped);
  const setOf = (set: number) => rows.filter((row) => row.grouping_set === set);
  const statusCounts = new Map(setOf(0).map((row) => [row.status, row.n]));
  const categoryCounts = setOf(1).map((row) => ({ id: row.category_id, count: row.n }));
  const sellerCounts = setOf(2).map((row) => ({ id: row.seller_id, count: row.n }));
  const bandCounts = new Map(setOf(3).map((row) => [row.band, row.n]));
  const withoutImages = setOf(4).find((row) => row.no_images)?.n ?? 0;
  const missingRows = rowsOf<{ id: number; n: number }>(missing);

  const topIds = (counts: { id: string | null; count: number }[]) =>
    [...counts]
      .sort((a, b) => b.count - a.count)
      .slice(0, REPORT_TOP)
      .map((entry) => entry.id)
      .filter((id): id is string => id !== null);
  const [categoryNames, sellerNames, attributeRows] = await Promise.all([
    topIds(categoryCounts).length
      ? db
          .select({ id: categories.id, name: categories.name })
          .from(categories)
          .where(inArray(categories.id, topIds(categoryCounts)))
      : [],
    topIds(sellerCounts).length
      ? db
          .select({ id: sellers.id, name: sellers.sellerName })
          .from(sellers)
          .where(inArray(sellers.id, topIds(sellerCounts)))
      : [],
    missingRows.length
      ? db
          .select({ id: attributes.id, code: attributes.code, label: attributes.label })
          .from(attributes)
          .where(
            inArray(
              attributes.id,
              missingRows.map((row) => row.id),
            ),
          )
      : [],
  ]);
  const attributeById = new Map(attributeRows.map((row) => [row.id, row]));
  return {
    total: [...statusCounts.values()].reduce((sum, n) => sum + n, 0),
    byStatus: productStatuses.map((status) => ({ status, count: statusCounts.get(status) ?? 0 })),
    byCategory: topBuckets(
      categoryCounts,
      new Map(categoryNames.map((row) => [row.id, row.name])),
      'No category',
    ),
    bySeller: topBuckets(sellerCounts, new Map(sellerNames.map((row) => [row.id, row.name])), 'No seller'),
    completeness: completenessBands.map((band, index) => ({ band, count: bandCounts.get(index) ?? 0 })),
    missingAttributes: missingRows.flatMap((row) => {
      const attribute = attributeById.get(row.id);
      return attribute ? [{ ...attribute, count: row.n }] : [];
    }),
    withoutImages,
    generatedAt: new Date().toISOString(),
  };
}
