// Tags on staging products (issue 16): a product carries nodes of the draft tag tree (products.tag_ids).
// Here: reading a product's tags with their paths, checking that tags being attached are in the draft,
// and naming tags in the product history by their paths (an id tells a reader nothing).
//
// Paths are read from the draft's materialized paths: "/4/17/230/" holds the seqs of the node's
// ancestors and its own, so its names are a few lookups by seq (a unique index), never a walk up the
// parents.
import { type SQL, sql } from 'drizzle-orm';
import type { ProductTag } from '../../../contracts/catalog';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { HttpError } from '../../lib/http-error';
import { uuidArray } from '../../lib/sql-uuids';

/** How the history and the UI join a path's names. */
export const TAG_PATH_SEPARATOR = ' › ';
/** What a tag the draft no longer holds is called when nothing else is known of it. */
const UNKNOWN_TAG = 'A tag no longer in the tree';
const GONE = ' (no longer in the tree)';

/** The names from the root down to the draft node `node` (an SQL alias of tag_nodes), as text[]. */
const pathNamesSql = (node: SQL) => sql`ARRAY(
  SELECT a.name FROM tag_nodes a
  WHERE a.seq = ANY(string_to_array(trim(both '/' from ${node}.path), '/')::integer[])
  ORDER BY a.level)`;

/** The name a tag had when it was last published (for a tag the draft no longer holds). */
const lastPublishedNameSql = (id: SQL) => sql`(
  SELECT v.name FROM tag_node_versions v WHERE v.node_id = ${id} ORDER BY v.valid_from DESC LIMIT 1)`;

/**
 * The label of the tag `id` in the history, in SQL: its path ("Apparel › Men › Shirts"), or for a tag
 * the draft no longer holds its last published name, marked as gone. The same words as tagLabel().
 */
export const tagLabelSql = (id: SQL) => sql`coalesce(
  (SELECT array_to_string(${pathNamesSql(sql`n`)}, ${TAG_PATH_SEPARATOR}) FROM tag_nodes n WHERE n.id = ${id}),
  ${lastPublishedNameSql(id)} || ${GONE},
  ${UNKNOWN_TAG})`;

/** The tags, in the order given, with their paths in the draft. */
export async function readProductTags(db: Db | Tx, ids: readonly string[]): Promise<ProductTag[]> {
  if (ids.length === 0) return [];
  const rows = rowsOf<{
    id: string;
    name: string | null;
    path_names: string[] | null;
    last_name: string | null;
  }>(
    await db.execute(sql`
      SELECT u.id, n.name, CASE WHEN n.id IS NULL THEN NULL ELSE ${pathNamesSql(sql`n`)} END AS path_names,
             CASE WHEN n.id IS NULL THEN ${lastPublishedNameSql(sql`u.id`)} END AS last_name
      FROM unnest(${uuidArray(ids)}) WITH ORDINALITY AS u(id, i)
      LEFT JOIN tag_nodes n ON n.id = u.id
      ORDER BY u.i`),
  );
  return rows.map((row) =>
    row.name !== null
      ? { id: row.id, name: row.name, pathNames: row.path_names ?? [row.name], inTree: true }
      : {
          id: row.id,
          name: row.last_name ?? UNKNOWN_TAG,
          pathNames: row.last_name ? [row.last_name] : [],
          inTree: false,
        },
  );
}

/** A tag as the history names it: its path, or what is known of a tag the draft no longer holds. */
export function tagLabel(tag: ProductTag): string {
  if (tag.inTree) return tag.pathNames.join(TAG_PATH_SEPARATOR);
  return tag.pathNames.length ? `${tag.name}${GONE}` : UNKNOWN_TAG;
}

/** A tag list as the history stores it: labels, or null for none (shown as "—"). */
export const tagLabels = (tags: readonly ProductTag[]) => (tags.length ? tags.map(tagLabel) : null);

/**
 * Holds the draft tree still until this transaction ends, so a tag checked here cannot be deleted
 * before the product carrying it is written. Draft writes take the tree's state row FOR UPDATE
 * (tags/draft-writes.ts lockTree); this takes it FOR SHARE, so product writes do not wait for each
 * other, only for a draft write in progress — which then sees the products this one tagged, and
 * retags them if it deletes the tag. Take it before locking any product row, as draft writes do.
 */
export async function holdTagTree(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM tag_tree_state WHERE id = 1 FOR SHARE`);
}

/**
 * The tags with their paths, each a node of the draft tree; otherwise 400 naming the first one that is
 * not (tags in `kept`, which the product already carries, may stay even if the draft lost them: keeping
 * is not attaching, and the next publish remaps them). Call inside the transaction that writes them.
 */
export async function draftTagsOrThrow(
  tx: Tx,
  ids: readonly string[],
  kept: readonly string[] = [],
): Promise<ProductTag[]> {
  await holdTagTree(tx);
  const tags = await readProductTags(tx, ids);
  const keptIds = new Set(kept);
  const missing = tags.find((tag) => !tag.inTree && !keptIds.has(tag.id));
  if (missing) {
    const message = missing.pathNames.length
      ? `“${missing.name}” is no longer in the tag tree: choose another tag.`
      : `There is no tag ${missing.id} in the tag tree.`;
    throw new HttpError(400, message, 'UNKNOWN_TAG', { tagIds: message });
  }
  return tags;
}

/** Whether two tag lists hold the same tags, whatever their order. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}
