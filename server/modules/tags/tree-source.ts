// Which tree a read is of: the draft (tag_nodes) or a published version (tag_node_versions' rows valid
// at it). Every read — children, search, a node's path, a diff, an export — goes through treeRows(), so
// the draft and any version are read alike.
import { type SQL, sql } from 'drizzle-orm';
import type { TagTreeSource } from '../../../contracts/tags';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { HttpError } from '../../lib/http-error';

export type ResolvedSource =
  | { kind: 'draft' }
  | { kind: 'version'; number: number; latest: boolean }
  /** Before the first publish: the tree the first version is compared with. */
  | { kind: 'none' };

export interface TreeRow {
  id: string;
  seq: number;
  parent_id: string | null;
  path: string;
  level: number;
  name: string;
  name_key: string;
  code: string;
}

export const versionNotFound = () => new HttpError(404, 'There is no such version.', 'VERSION_NOT_FOUND');

/** The latest published version's number, or null before the first publish. */
export async function latestVersion(db: Db | Tx): Promise<number | null> {
  const [row] = rowsOf<{ latest: number | null }>(
    await db.execute(sql`SELECT max(number) AS latest FROM tag_versions`),
  );
  return row?.latest ?? null;
}

/** `draft`, `latest` or a version number, checked to exist. */
export async function resolveSource(db: Db | Tx, source: TagTreeSource): Promise<ResolvedSource> {
  if (source === 'draft') return { kind: 'draft' };
  const latest = await latestVersion(db);
  if (latest === null) {
    throw new HttpError(404, 'The tag tree has not been published yet.', 'NOT_PUBLISHED');
  }
  if (source === 'latest') return { kind: 'version', number: latest, latest: true };
  if (source > latest) throw versionNotFound();
  return { kind: 'version', number: source, latest: source === latest };
}

/** The validity test of a version's rows (the latest's is the partial indexes' own). */
export function validAt(source: Extract<ResolvedSource, { kind: 'version' }>, alias = 'v'): SQL {
  const v = sql.raw(alias);
  return source.latest
    ? sql`${v}.valid_to IS NULL`
    : sql`${v}.valid_from <= ${source.number} AND (${v}.valid_to IS NULL OR ${v}.valid_to > ${source.number})`;
}

/** The tree's nodes as rows (id, seq, parent_id, path, level, name, name_key, code), to select from. */
export function treeRows(source: ResolvedSource): SQL {
  if (source.kind === 'none') {
    return sql`(SELECT id, seq, parent_id, path, level, name, name_key, code FROM tag_nodes WHERE false)`;
  }
  if (source.kind === 'draft') {
    return sql`(SELECT id, seq, parent_id, path, level, name, name_key, code FROM tag_nodes)`;
  }
  return sql`(SELECT v.node_id AS id, v.seq, v.parent_id, v.path, v.level, v.name, v.name_key, v.code
              FROM tag_node_versions v WHERE ${validAt(source)})`;
}

export const sourceLabel = (source: ResolvedSource) =>
  source.kind === 'draft' ? 'the draft' : source.kind === 'none' ? 'nothing' : `version ${source.number}`;

/** The ids and names of the nodes with these seqs in the tree: for paths read as names. */
export async function nodesBySeq(
  db: Db | Tx,
  source: ResolvedSource,
  seqs: Iterable<number>,
): Promise<Map<number, { id: string; name: string }>> {
  const wanted = [...new Set(seqs)];
  if (wanted.length === 0) return new Map();
  const rows = rowsOf<{ seq: number; id: string; name: string }>(
    await db.execute(sql`
      SELECT t.seq, t.id, t.name FROM ${treeRows(source)} t
      WHERE t.seq = ANY(${`{${wanted.join(',')}}`}::integer[])`),
  );
  return new Map(rows.map((row) => [row.seq, { id: row.id, name: row.name }]));
}

/** The names of the nodes with these seqs in the tree. */
export async function namesBySeq(
  db: Db | Tx,
  source: ResolvedSource,
  seqs: Iterable<number>,
): Promise<Map<number, string>> {
  const nodes = await nodesBySeq(db, source, seqs);
  return new Map([...nodes].map(([seq, node]) => [seq, node.name]));
}
