// The batch report (getBatchReport): the exact counts, the commonest errors, the columns not imported,
// and the rows a page at a time with their verdict, their cell errors, the preview of their changes
// and, after a move, what it did with them.
import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { BatchReport, batchReportQuerySchema, CellError, ReportRow } from '../../../contracts/imports';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { importRows } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import type { Viewer } from '../products/products';
import { loadCatalogContext } from './catalog-context';
import { findBatch, getBatch } from './imports';
import { type DuplicateRef, type Planned, previewChanges } from './row-verdict';

type Query = z.infer<typeof batchReportQuerySchema>;

export async function batchReport(
  db: Db,
  viewer: Pick<Viewer, 'sellerId'>,
  query: Query,
): Promise<BatchReport> {
  const { batch } = await findBatch(db, viewer, query.batch);
  const pattern = query.search ? containsPattern(query.search) : null;
  const where = and(
    eq(importRows.batchId, batch.id),
    query.outcome ? eq(importRows.outcome, query.outcome) : undefined,
    query.result ? eq(importRows.result, query.result) : undefined,
    pattern ? or(ilike(importRows.sku, pattern), ilike(importRows.title, pattern)) : undefined,
  );
  const [rows, [total], topErrors, catalog] = await Promise.all([
    db
      .select({
        line: importRows.line,
        outcome: importRows.outcome,
        sku: importRows.sku,
        title: importRows.title,
        errors: importRows.errors,
        duplicateOf: importRows.duplicateOf,
        productId: importRows.productId,
        planned: importRows.planned,
        result: importRows.result,
        resultMessage: importRows.resultMessage,
      })
      .from(importRows)
      .where(where)
      .orderBy(asc(importRows.line))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: count() }).from(importRows).where(where),
    db.execute(sql`
      SELECT e->>'code' AS code, e->>'header' AS header, min(e->>'message') AS message, count(*)::integer AS count
      FROM ${importRows}, jsonb_array_elements(${importRows.errors}) AS e
      WHERE ${importRows.batchId} = ${batch.id} AND ${importRows.outcome} = 'error'
      GROUP BY 1, 2 ORDER BY 4 DESC, 1 LIMIT 8`),
    loadCatalogContext(db),
  ]);
  return {
    batch: await getBatch(db, batch.id),
    unmappedColumns: batch.mapping
      .filter((column) => column.target === null)
      .map((column) => ({ index: column.index, header: column.header })),
    topErrors: rowsOf<{ code: string; header: string | null; message: string; count: number }>(topErrors),
    rows: rows.map(
      ({ planned, ...row }): ReportRow => ({
        ...row,
        errors: row.errors as CellError[],
        changes: previewChanges(planned as Planned | null, catalog),
        duplicateOf: (row.duplicateOf as DuplicateRef | null) ?? null,
      }),
    ),
    count: total?.n ?? 0,
  };
}
