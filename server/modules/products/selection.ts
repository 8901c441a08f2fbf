// A selection of products for a bulk action, a report or an export: the rows a person ticked, or every
// row of the grid's query. Either way it is scoped to what the viewer may see, so a seller's "select
// all" can never reach another seller's products.
import { inArray, type SQL, sql } from 'drizzle-orm';
import { type ProductSelection, productSelectionSchema } from '../../../contracts/catalog';
import { BULK_JOB_LIMIT, BULK_LIMIT, type SelectionCount } from '../../../contracts/catalog-actions';
import { plural } from '../../../contracts/domain/format';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { products } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { compileProductQuery, ownerScope } from './product-query';
import type { Viewer } from './products';

/** The WHERE of a selection, owner scope included. */
export async function selectionWhere(
  db: Db | Tx,
  viewer: Pick<Viewer, 'sellerId'>,
  input: ProductSelection,
): Promise<SQL> {
  const selection = productSelectionSchema.parse(input);
  const chosen =
    'ids' in selection
      ? inArray(products.id, selection.ids)
      : (await compileProductQuery(db, selection.query, selection.search)).where;
  return sql`(${ownerScope(viewer.sellerId)} AND ${chosen})`;
}

/** How many products match, counted exactly up to `cap` + 1 and no further. */
async function countUpTo(db: Db | Tx, where: SQL, cap: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::integer AS n FROM (SELECT 1 FROM ${products} WHERE ${where} LIMIT ${cap + 1}) capped`,
    ),
  );
  return row?.n ?? 0;
}

/** How many products a selection holds, exactly up to BULK_JOB_LIMIT, and how a bulk action takes it. */
export async function countSelection(db: Db | Tx, where: SQL): Promise<SelectionCount> {
  const count = await countUpTo(db, where, BULK_JOB_LIMIT);
  return {
    count: Math.min(count, BULK_JOB_LIMIT),
    overLimit: count > BULK_JOB_LIMIT,
    asJob: count > BULK_LIMIT,
  };
}

/**
 * The size of a bulk action's selection, refused above BULK_JOB_LIMIT (the person narrows the query
 * first). The route runs it in the request up to BULK_LIMIT, as a task above.
 */
export async function bulkSelectionSize(db: Db | Tx, where: SQL): Promise<SelectionCount> {
  const size = await countSelection(db, where);
  if (size.overLimit) {
    throw new HttpError(
      400,
      `A bulk action changes at most ${plural(BULK_JOB_LIMIT, 'product')}. Narrow the query and try again.`,
      'SELECTION_TOO_LARGE',
    );
  }
  return size;
}

/**
 * Refuses to run more than BULK_LIMIT products in one transaction (checked again inside it: the
 * selection may have grown since the route chose to run it in the request).
 */
export async function assertBulkSize(db: Db | Tx, where: SQL): Promise<void> {
  if ((await countUpTo(db, where, BULK_LIMIT)) > BULK_LIMIT) {
    throw new HttpError(
      400,
      `A bulk action changes at most ${plural(BULK_LIMIT, 'product')} at once. Try again: a larger selection runs as a background task.`,
      'SELECTION_TOO_LARGE',
    );
  }
}
