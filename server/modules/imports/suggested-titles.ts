// Suggested titles for a batch's rows (getSuggestedTitles) and applying them (applySuggestedTitles).
// A suggestion is the admin's template filled from the row (title-template.ts). Applying stores the
// chosen titles on the import by line and validates the sheet again as a new batch, so the new titles
// go through every check (duplicates included) and the preview shows them before anything moves.
import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { attributeCodeOfTarget, type ColumnMapping } from '../../../contracts/imports';
import type { Db } from '../../db/client';
import { catalogImports, importRows } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { type Viewer, viewerOf } from '../products/products';
import { reprocessBatch } from './batch-actions';
import { assertIdle, findBatch } from './imports';
import { headerKey } from './mapping';
import { fillTemplate, titleTemplate } from './title-template';

const SCAN_PAGE = 2000;

/** Rows a title can help: usable ones, and those whose only problem is a missing title. */
function candidates(batchId: string, options: { onlyMissing: boolean; lines?: number[] }): SQL | undefined {
  return and(
    eq(importRows.batchId, batchId),
    or(
      sql`${importRows.outcome} <> 'error'`,
      sql`(${importRows.errors} @> '[{"code":"TITLE_REQUIRED"}]'::jsonb AND jsonb_array_length(${importRows.errors}) = 1)`,
    ),
    options.onlyMissing ? eq(importRows.title, '') : undefined,
    options.lines ? inArray(importRows.line, options.lines) : undefined,
  );
}

/** What the template's placeholders read in a row: its fields, its attribute columns, any column by header. */
function suggester(template: string, mapping: readonly ColumnMapping[]) {
  const byName = new Map<string, number>();
  for (const column of mapping) {
    if (column.target) {
      const code = attributeCodeOfTarget(column.target);
      byName.set(code ?? column.target.toLowerCase(), column.index);
    }
  }
  for (const column of mapping) {
    const key = headerKey(column.header);
    if (key && !byName.has(key)) byName.set(key, column.index);
  }
  return (row: { title: string; sku: string; cells: string[] }) =>
    fillTemplate(template, (name) => {
      const lower = name.toLowerCase();
      if (lower === 'title') return row.title;
      if (lower === 'sku') return row.sku;
      const index = byName.get(lower) ?? byName.get(headerKey(name));
      return index === undefined ? null : (row.cells[index] ?? '').replaceAll('|', ', ');
    });
}

export async function suggestedTitles(
  db: Db,
  viewer: Pick<Viewer, 'sellerId'>,
  body: { batch: string; lines?: number[]; onlyMissing: boolean; skip: number; limit: number },
) {
  const { batch } = await findBatch(db, viewer, body.batch);
  const template = await titleTemplate(db);
  const suggest = suggester(template, batch.mapping);
  const where = candidates(batch.id, body);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        line: importRows.line,
        sku: importRows.sku,
        title: importRows.title,
        cells: importRows.cells,
      })
      .from(importRows)
      .where(where)
      .orderBy(asc(importRows.line))
      .offset(body.skip)
      .limit(body.limit),
    db.select({ n: count() }).from(importRows).where(where),
  ]);
  return {
    template,
    result: rows.map((row) => ({
      line: row.line,
      sku: row.sku,
      current: row.title,
      suggested: suggest(row),
    })),
    count: total?.n ?? 0,
  };
}

export async function applySuggestedTitles(
  app: FastifyInstance,
  request: FastifyRequest,
  body: { batch: string; lines?: number[]; all: boolean; onlyMissing: boolean },
) {
  if (!body.all && !body.lines?.length) {
    throw new HttpError(400, 'Choose the rows to retitle, or apply to all.', 'NO_ROWS');
  }
  const { batch, upload } = await findBatch(app.db, viewerOf(request), body.batch);
  assertIdle(batch);
  const suggest = suggester(await titleTemplate(app.db), batch.mapping);
  const where = candidates(batch.id, {
    onlyMissing: body.onlyMissing,
    lines: body.all ? undefined : body.lines,
  });
  const overrides: Record<string, string> = {};
  for (let after = 0; ; ) {
    const page = await app.db
      .select({
        line: importRows.line,
        sku: importRows.sku,
        title: importRows.title,
        cells: importRows.cells,
      })
      .from(importRows)
      .where(and(where, sql`${importRows.line} > ${after}`))
      .orderBy(asc(importRows.line))
      .limit(SCAN_PAGE);
    for (const row of page) {
      const title = suggest(row);
      if (title && title !== row.title) overrides[String(row.line)] = title;
    }
    if (page.length < SCAN_PAGE) break;
    after = page[page.length - 1]?.line ?? after;
  }
  const applied = Object.keys(overrides).length;
  if (applied === 0)
    throw new HttpError(409, 'Every chosen row already has its suggested title.', 'NOTHING_TO_APPLY');
  await app.db
    .update(catalogImports)
    .set({ titleOverrides: sql`${catalogImports.titleOverrides} || ${JSON.stringify(overrides)}::jsonb` })
    .where(eq(catalogImports.id, upload.id));
  const answer = await reprocessBatch(app, request, { batch: batch.id, saveMapping: false });
  return { applied, ...answer };
}
