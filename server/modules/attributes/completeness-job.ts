// Completeness recompute as a background job (issue 26). A change to what a category requires (an
// attribute made required, a set changed, a required attribute deleted) commits at once, with a
// "Completeness recompute" job stored in the same transaction; the job then rewrites the figures of the
// categories' products (and their subcategories') in batches of id ranges, reporting progress, and its
// owner gets the task toast when it is done. At 200k products the inline UPDATE held the request (and
// its locks) for about 21 s.
//
// Always a job, however small the category: one path means one behaviour to reason about and to test
// (the answer never depends on the size of a category), and a small recompute costs a row in `jobs`
// and runs within a moment of the commit.
//
// The recompute is a pure function of the current data (recomputeCompleteness), so a retry after a
// crash simply starts again from the first batch: a batch done twice rewrites nothing the second time.
// Until the job has run, the figures are those of before the change (a product may still read 100 %
// for a moment after an attribute became required).
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { attributes, categories, categoryAttributes, jobs, products } from '../../db/schema';
import { insertJob, type JobRow } from '../../jobs/queue';
import { type JobHandler, yieldToEventLoop } from '../../jobs/worker';
import { uuidList } from '../../lib/sql-uuids';

export const COMPLETENESS_JOB_KIND = 'catalog.recomputeCompleteness';
export const COMPLETENESS_TASK_NAME = 'Completeness recompute';
/** Products per statement: short enough that no statement holds many row locks for long. */
export const COMPLETENESS_BATCH = 2_000;

const payloadSchema = z.object({ categoryIds: z.array(z.string().uuid()) });

/** A range of product ids, `(after, upTo]`; null ends are open. */
export interface IdRange {
  after: string | null;
  upTo: string | null;
}

/**
 * Recomputes `completeness` and `missing_attributes` of the products filed under these categories or
 * their subcategories (within `range` when given), in one set-based UPDATE that rewrites only the rows
 * whose figures change; answers how many. The same rule as completenessOf (attribute-values.ts): the
 * share, rounded down, of the required attributes of the category's set (its own and its parent's)
 * that hold a value (a key in attr_index), 100 when none is required; the missing ones in the order of
 * categoryAttributeSet (group, position, id). Products' versions and update times stay: nobody edited
 * them.
 */
export async function recomputeCompleteness(
  tx: Db | Tx,
  categoryIds: readonly string[],
  range: IdRange = { after: null, upTo: null },
): Promise<number> {
  const ids = [...new Set(categoryIds)];
  if (ids.length === 0) return 0;
  const inRange = sql.join(
    [
      sql`true`,
      ...(range.after ? [sql`p.id > ${range.after}::uuid`] : []),
      ...(range.upTo ? [sql`p.id <= ${range.upTo}::uuid`] : []),
    ],
    sql` AND `,
  );
  const result = await tx.execute(sql`
    WITH target AS (
      SELECT c.id, c.parent_id FROM ${categories} AS c
      WHERE c.id IN (${uuidList(ids)}) OR c.parent_id IN (${uuidList(ids)})
    ),
    required AS (
      SELECT DISTINCT t.id AS category_id, a.id AS attribute_id, a.group_name, a.sort_order
      FROM target AS t
      JOIN ${categoryAttributes} AS ca ON ca.category_id = t.id OR ca.category_id = t.parent_id
      JOIN ${attributes} AS a ON a.id = ca.attribute_id AND a.is_required
    ),
    figures AS (
      SELECT p.id,
        count(r.attribute_id)::int AS required_count,
        coalesce(
          array_agg(r.attribute_id ORDER BY r.group_name, r.sort_order, r.attribute_id)
            FILTER (WHERE r.attribute_id IS NOT NULL AND (p.attr_index -> r.attribute_id::text) IS NULL),
          '{}'::integer[]
        ) AS missing
      FROM ${products} AS p
      LEFT JOIN required AS r ON r.category_id = p.category_id
      WHERE p.category_id IN (SELECT id FROM target) AND ${inRange}
      GROUP BY p.id
    ),
    next AS (
      SELECT id, missing,
        CASE WHEN required_count = 0 THEN 100
          ELSE (100 * (required_count - cardinality(missing))) / required_count END AS completeness
      FROM figures
    )
    UPDATE ${products} AS p
    SET completeness = next.completeness, missing_attributes = next.missing
    FROM next
    WHERE p.id = next.id
      AND (p.completeness <> next.completeness OR p.missing_attributes <> next.missing)`);
  return (result as { rowCount?: number; affectedRows?: number }).rowCount ?? 0;
}

/**
 * Queues the recompute of these categories' products in the caller's transaction, so the job exists
 * only if the change commits (and cannot start before it does).
 *
 * Deduplication: a job of the same owner that is still Queued (not yet claimed) takes these categories
 * into its own list instead of a second job being stored. It will read the data as it is when it runs,
 * which is after this change commits, so the change is reflected and nothing runs twice. The queued row
 * is locked until this transaction ends, and the worker skips locked rows, so it cannot be claimed with
 * the old list. A job already Running is left alone and a new one is queued: it may have passed these
 * products before the change committed. A queued row another transaction is merging into is skipped
 * too (SKIP LOCKED: never wait), at worst costing one extra, harmless run. Jobs of other owners are not
 * merged: each person follows the task their own change started.
 */
export async function queueCompletenessRecompute(
  tx: Tx,
  ownerId: string | null,
  categoryIds: readonly string[],
): Promise<JobRow | null> {
  const ids = [...new Set(categoryIds)];
  if (ids.length === 0) return null;
  const [queued] = await tx
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, COMPLETENESS_JOB_KIND),
        eq(jobs.status, 'Queued'),
        ownerId ? eq(jobs.ownerId, ownerId) : isNull(jobs.ownerId),
      ),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  if (queued) {
    const before = payloadSchema.safeParse(queued.payload);
    const merged = [...new Set([...(before.success ? before.data.categoryIds : []), ...ids])];
    const [row] = await tx
      .update(jobs)
      .set({ payload: { categoryIds: merged }, updatedAt: sql`now()` })
      .where(eq(jobs.id, queued.id))
      .returning();
    if (row) return row;
  }
  return insertJob(tx, {
    kind: COMPLETENESS_JOB_KIND,
    name: COMPLETENESS_TASK_NAME,
    ownerId,
    payload: { categoryIds: ids },
  });
}

/** The categories and their subcategories, as the recompute's own CTE reads them. */
const inScope = (ids: readonly string[]) =>
  sql`${products.categoryId} IN (SELECT id FROM ${categories} WHERE id IN (${uuidList(ids)}) OR parent_id IN (${uuidList(ids)}))`;

/** Recomputes in id ranges of COMPLETENESS_BATCH products, each its own statement, with progress. */
export function completenessRecomputeHandler(db: Db, batchSize = COMPLETENESS_BATCH): JobHandler {
  return async ({ payload, setProgress, signal }) => {
    const { categoryIds } = payloadSchema.parse(payload);
    if (categoryIds.length === 0) return { checked: 0, changed: 0, body: 'Nothing to recompute.' };
    const scope = inScope(categoryIds);
    const [total] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::integer AS n FROM ${products} WHERE ${scope}`),
    );
    const expected = total?.n ?? 0;
    let after: string | null = null;
    let checked = 0;
    let changed = 0;
    for (;;) {
      const from: SQL = after === null ? sql`true` : sql`${products.id} > ${after}::uuid`;
      // The last id of this batch: the range (after, upTo] holds batchSize products (null: the rest).
      const [bound] = rowsOf<{ id: string }>(
        await db.execute(
          sql`SELECT id FROM ${products} WHERE ${scope} AND ${from} ORDER BY id OFFSET ${batchSize - 1} LIMIT 1`,
        ),
      );
      const upTo: string | null = bound?.id ?? null;
      changed += await recomputeCompleteness(db, categoryIds, { after, upTo });
      checked = upTo ? checked + batchSize : expected;
      await setProgress(expected ? (100 * Math.min(checked, expected)) / expected : 100);
      if (!upTo) break;
      after = upTo;
      await yieldToEventLoop();
      if (signal.aborted) throw signal.reason;
    }
    return {
      checked,
      changed,
      body: `${plural(checked, 'product')} checked, ${formatNumber(changed)} updated.`,
    };
  };
}
