// A selection of products for a bulk action, a report or an export: the rows a person ticked, or every
// row of the grid's query. Either way it is scoped to what the viewer may see, so a seller's "select
// all" can never reach another seller's products.
import { inArray, type SQL, sql } from 'drizzle-orm';
import { type ProductSelection, productSelectionSchema } from '../../../contracts/catalog';
import { BULK_LIMIT, type SelectionCount } from '../../../contracts/catalog-actions';
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

/** How many products a selection holds, counted exactly up to BULK_LIMIT + 1 and no further. */
export async function countSelection(db: Db | Tx, where: SQL): Promise<SelectionCount> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::integer AS n FROM (SELECT 1 FROM ${products} WHERE ${where} LIMIT ${BULK_LIMIT + 1}) capped`,
    ),
  );
  const count = row?.n ?? 0;
  return { count: Math.min(count, BULK_LIMIT), overLimit: count > BULK_LIMIT };
}

/** Refuses a bulk action over more than BULK_LIMIT products (the person narrows the query first). */
export async function assertBulkSize(db: Db | Tx, where: SQL): Promise<void> {
  const { overLimit } = await countSelection(db, where);
  if (overLimit) {
    throw new HttpError(
      400,
      `A bulk action changes at most ${BULK_LIMIT.toLocaleString('en-US')} products. Narrow the query and try again.`,
      'SELECTION_TOO_LARGE',
    );
  }
}
