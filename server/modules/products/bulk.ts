// Bulk actions on a selection (selection.ts): change status, assign a category, add or remove tags,
// delete. Each is one transaction of set-based statements (up to BULK_LIMIT rows), so 10,000 products
// change in one round trip each rather than 10,000, and either all the rows that may change do, or
// none. Every changed product gets its history entry in the same statement chain. Rows that may not
// change (a move the lifecycle forbids, an incomplete product sent for review, a product that already
// carries the tags) are left alone and reported with why.
//
// Larger selections run as a task (bulk-job.ts): the same functions, one id range of the selection at
// a time, each inside the job's own transaction (handed in as `db`: their own transaction is then a savepoint).
import { type SQL, sql } from 'drizzle-orm';
import {
  type BulkResult,
  type BulkTagMode,
  PRODUCT_LIMITS,
  type ProductStatus,
  productStatusLabels,
  statusTransitions,
} from '../../../contracts/catalog';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { attributes, categories, productMedia, products } from '../../db/schema';
import { type Actor, auditInsertFrom, deleteAuditTrail } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { uuidArray, uuidList } from '../../lib/sql-uuids';
import { categoryAttributeSet } from '../attributes/attribute-defs';
import { draftTagsOrThrow, holdTagTree, tagLabelSql } from './product-tags';
import { transitionActorOf, type Viewer } from './products';
import { assertBulkSize } from './selection';

/** How many skipped rows an answer lists (it counts them all). */
const SKIPPED_LISTED = 100;

const intArray = (ids: readonly number[]) =>
  ids.length
    ? sql`ARRAY[${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}]::integer[]`
    : sql`'{}'::integer[]`;

/** What a skipped row's reason may depend on. */
interface SkippedRow {
  status: ProductStatus;
  completeness: number;
  tag_ids: string[];
}

/** The selected rows the action left alone, up to SKIPPED_LISTED, and how many there are. */
async function skippedRows(
  tx: Tx,
  where: SQL,
  changedIds: readonly string[],
  reasonOf: (row: SkippedRow) => string,
): Promise<Pick<BulkResult, 'skipped' | 'skippedCount'>> {
  const notChanged = changedIds.length ? sql`${products.id} NOT IN (${uuidList(changedIds)})` : sql`true`;
  const [rows, [total]] = await Promise.all([
    tx.execute(
      // Tags as JSON: both drivers read it alike, where uuid[] would need a parser of its own.
      sql`SELECT id, sku, status, completeness, to_jsonb(tag_ids) AS tag_ids FROM ${products} WHERE ${where} AND ${notChanged} ORDER BY sku LIMIT ${SKIPPED_LISTED}`,
    ),
    tx.execute(sql`SELECT count(*)::integer AS n FROM ${products} WHERE ${where} AND ${notChanged}`),
  ]).then(
    ([listed, counted]) =>
      [rowsOf<{ id: string; sku: string } & SkippedRow>(listed), rowsOf<{ n: number }>(counted)] as const,
  );
  return {
    skipped: rows.map((row) => ({ id: row.id, sku: row.sku, reason: reasonOf(row) })),
    skippedCount: total?.n ?? 0,
  };
}

/** Moves every selected product the lifecycle allows to `status`; the others are reported. */
export async function bulkChangeStatus(
  db: Db,
  viewer: Viewer,
  actor: Actor,
  where: SQL,
  body: { status: ProductStatus; reason?: string },
): Promise<BulkResult> {
  const actorKind = transitionActorOf(viewer);
  const moves = statusTransitions.filter((move) => move.to === body.status && move.by.includes(actorKind));
  if (moves.some((move) => move.needsReason) && !body.reason) {
    throw new HttpError(400, 'Say why the products are rejected: their sellers read it.', 'REASON_REQUIRED', {
      reason: 'Say why the products are rejected.',
    });
  }
  const target = productStatusLabels[body.status];
  return db.transaction(async (tx) => {
    await assertBulkSize(tx, where);
    const allowed = moves.map((move) =>
      move.needsComplete
        ? sql`(${products.status} = ${move.from} AND ${products.completeness} = 100)`
        : sql`${products.status} = ${move.from}`,
    );
    const movable = allowed.length ? sql.join(allowed, sql` OR `) : sql`false`;
    const reason = moves.some((move) => move.needsReason) ? (body.reason ?? null) : null;
    const changed = rowsOf<{ subject_id: string }>(
      await tx.execute(sql`
        WITH target AS (
          SELECT id, status AS before FROM ${products} WHERE ${where} AND (${movable}) FOR UPDATE
        ), moved AS (
          UPDATE ${products} SET status = ${body.status}, status_reason = ${reason},
                 version = version + 1, updated_at = now()
          FROM target WHERE ${products.id} = target.id
          RETURNING ${products.id} AS id, target.before
        )
        ${auditInsertFrom({
          subjectType: 'product',
          subjectId: sql`id`,
          from: sql`moved`,
          actor,
          action: 'status',
          changes: sql`jsonb_build_array(jsonb_build_object('field', 'status', 'before', before, 'after', ${body.status}::text))`,
          note: body.reason ?? null,
        })}`),
    );
    const skipped = await skippedRows(
      tx,
      where,
      changed.map((row) => row.subject_id),
      (row) => {
        if (row.status === body.status) return `Already ${target.toLowerCase()}.`;
        const move = moves.find((candidate) => candidate.from === row.status);
        if (move?.needsComplete && row.completeness < 100) return 'Required attributes are missing.';
        return `A product that is ${productStatusLabels[row.status].toLowerCase()} cannot become ${target.toLowerCase()}${viewer.sellerId ? ' by its seller' : ''}.`;
      },
    );
    return { changed: changed.length, ...skipped };
  });
}

/**
 * Moves the selected products to a category. As when one product changes category, values of
 * attributes outside the new category's set are dropped (and named in each product's history), and
 * completeness is recomputed against the new set's required attributes.
 */
export async function bulkAssignCategory(
  db: Db,
  actor: Actor,
  where: SQL,
  categoryId: string,
): Promise<BulkResult> {
  return db.transaction(async (tx) => {
    const [category] = rowsOf<{ id: string }>(
      await tx.execute(sql`SELECT id FROM ${categories} WHERE id = ${categoryId}`),
    );
    if (!category) {
      throw new HttpError(400, 'There is no such category.', 'UNKNOWN_CATEGORY', {
        categoryId: 'Choose a category that exists.',
      });
    }
    await assertBulkSize(tx, where);
    const defs = await categoryAttributeSet(tx, categoryId);
    const kept = intArray([...defs.keys()]);
    const required = intArray([...defs.values()].filter((def) => def.isRequired).map((def) => def.id));
    const requiredCount = [...defs.values()].filter((def) => def.isRequired).length;
    const changed = rowsOf<{ subject_id: string }>(
      await tx.execute(sql`
        WITH target AS (
          SELECT id, category_id AS before, attribute_values AS old_values,
                 ARRAY(SELECT unnest(${required})
                       EXCEPT SELECT (v->>'keyId')::integer FROM jsonb_array_elements(attribute_values) v
                       ORDER BY 1) AS missing
          FROM ${products} WHERE ${where} AND category_id IS DISTINCT FROM ${categoryId}::uuid FOR UPDATE
        ), moved AS (
          UPDATE ${products} SET
            category_id = ${categoryId}::uuid,
            attribute_values = (SELECT coalesce(jsonb_agg(v), '[]'::jsonb)
                                FROM jsonb_array_elements(target.old_values) v
                                WHERE (v->>'keyId')::integer = ANY(${kept})),
            attr_index = (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
                          FROM jsonb_each(${products.attrIndex}) AS e(k, v)
                          WHERE k::integer = ANY(${kept})),
            missing_attributes = target.missing,
            completeness = CASE WHEN ${requiredCount}::integer = 0 THEN 100
              ELSE floor(100.0 * (${requiredCount}::integer - cardinality(target.missing)) / ${requiredCount}::integer)::integer END,
            version = version + 1, updated_at = now()
          FROM target WHERE ${products.id} = target.id
          RETURNING ${products.id} AS id
        )
        ${auditInsertFrom({
          subjectType: 'product',
          subjectId: sql`target.id`,
          from: sql`target JOIN moved ON moved.id = target.id`,
          actor,
          action: 'updated',
          changes: sql`jsonb_build_array(jsonb_build_object('field', 'categoryId', 'before', target.before, 'after', ${categoryId}::text))
          || (SELECT coalesce(jsonb_agg(jsonb_build_object(
                'field', a.label,
                'before', CASE WHEN v ? 'values' THEN (SELECT jsonb_agg(x->'value') FROM jsonb_array_elements(v->'values') x) ELSE v->'value' END,
                'after', NULL)), '[]'::jsonb)
              FROM jsonb_array_elements(target.old_values) v
              JOIN ${attributes} a ON a.id = (v->>'keyId')::integer
              WHERE NOT ((v->>'keyId')::integer = ANY(${kept})))`,
        })}`),
    );
    const skipped = await skippedRows(
      tx,
      where,
      changed.map((row) => row.subject_id),
      () => 'Already in this category.',
    );
    return { changed: changed.length, ...skipped };
  });
}

/**
 * Adds tags to the selected products (after their own, each once), or removes them. Tags added must be
 * nodes of the draft tree (400 naming the first that is not); a tag removed need not be (a tag a
 * rollback left behind can be taken off). Products that already carry every tag (or none of the tags
 * to remove), or that would carry more than PRODUCT_LIMITS.tags, are left alone and reported. Each
 * changed product's history names its tags by their paths, before → after.
 */
export async function bulkTags(
  db: Db,
  actor: Actor,
  where: SQL,
  body: { mode: BulkTagMode; tagIds: string[] },
): Promise<BulkResult> {
  const limit = PRODUCT_LIMITS.tags;
  const ids = uuidArray(body.tagIds);
  return db.transaction(async (tx) => {
    if (body.mode === 'add') await draftTagsOrThrow(tx, body.tagIds);
    else await holdTagTree(tx);
    await assertBulkSize(tx, where);
    // Both keep the product's order of tags: what it had first, then the new ones as chosen.
    const target =
      body.mode === 'add'
        ? sql`SELECT id, tag_ids AS before,
                     tag_ids || ARRAY(SELECT t FROM unnest(${ids}) WITH ORDINALITY AS u(t, i)
                                      WHERE t <> ALL(tag_ids) ORDER BY i) AS after
              FROM ${products} WHERE ${where} AND NOT (tag_ids @> ${ids}) FOR UPDATE`
        : sql`SELECT id, tag_ids AS before,
                     ARRAY(SELECT t FROM unnest(tag_ids) WITH ORDINALITY AS u(t, i)
                           WHERE t <> ALL(${ids}) ORDER BY i) AS after
              FROM ${products} WHERE ${where} AND tag_ids && ${ids} FOR UPDATE`;
    // Each tag's label is worked out once, however many products carry it.
    const labelsOf = (column: SQL) => sql`(
      SELECT jsonb_agg(l.label ORDER BY u.i)
      FROM unnest(${column}) WITH ORDINALITY AS u(id, i) JOIN labels l ON l.id = u.id)`;
    const changed = rowsOf<{ subject_id: string }>(
      await tx.execute(sql`
        WITH target AS (${target}),
        fitting AS (SELECT * FROM target WHERE cardinality(after) <= ${limit}),
        labels AS (
          SELECT t.id, ${tagLabelSql(sql`t.id`)} AS label
          FROM (SELECT unnest(before) FROM fitting UNION SELECT unnest(${ids})) AS t(id)
        ),
        moved AS (
          UPDATE ${products} SET tag_ids = fitting.after, version = version + 1, updated_at = now()
          FROM fitting WHERE ${products.id} = fitting.id
          RETURNING ${products.id} AS id
        )
        ${auditInsertFrom({
          subjectType: 'product',
          subjectId: sql`fitting.id`,
          from: sql`fitting JOIN moved ON moved.id = fitting.id`,
          actor,
          action: 'updated',
          changes: sql`jsonb_build_array(jsonb_build_object(
                 'field', 'tags', 'before', ${labelsOf(sql`fitting.before`)}, 'after', ${labelsOf(sql`fitting.after`)}))`,
        })}`),
    );
    const skipped = await skippedRows(
      tx,
      where,
      changed.map((row) => row.subject_id),
      (row) => {
        if (body.mode === 'remove') return 'Carries none of these tags.';
        const missing = body.tagIds.filter((id) => !row.tag_ids.includes(id));
        if (missing.length === 0) return 'Already carries these tags.';
        return `Would carry more than ${limit} tags (it has ${row.tag_ids.length}).`;
      },
    );
    return { changed: changed.length, ...skipped };
  });
}

/** Deletes the selected products; their media rows go with them and their files are returned to remove. */
export async function bulkDelete(
  db: Db,
  where: SQL,
): Promise<{ result: BulkResult; files: { storagePath: string; derivatives: Record<string, string> }[] }> {
  return db.transaction(async (tx) => {
    await assertBulkSize(tx, where);
    const files = rowsOf<{ storage_path: string; derivatives: Record<string, string> }>(
      await tx.execute(sql`
        SELECT storage_path, derivatives FROM ${productMedia}
        WHERE product_id IN (SELECT id FROM ${products} WHERE ${where})`),
    );
    const deleted = rowsOf<{ id: string }>(
      await tx.execute(sql`DELETE FROM ${products} WHERE ${where} RETURNING id`),
    );
    await deleteAuditTrail(
      tx,
      'product',
      deleted.map((row) => row.id),
    );
    return {
      result: { changed: deleted.length, skipped: [], skippedCount: 0 },
      files: files.map((file) => ({ storagePath: file.storage_path, derivatives: file.derivatives ?? {} })),
    };
  });
}
