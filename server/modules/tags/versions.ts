// Publishing the tag tree, its versions and rolling back (issue 16).
//
// - diffTrees compares any two trees (the draft, a version, or nothing before the first publish): nodes
//   added, removed, renamed, moved (to another parent), recoded, and the products tagged with any node
//   whose place or name changed. Between two versions it reads only the rows that changed between them.
// - publish turns the draft into version N in ONE transaction: it refuses a draft changed since the
//   diff was read, requires a destination for the products of every removed node, checks the tree's
//   integrity, then closes the version rows of the nodes that changed or went and opens rows for the
//   changed and added ones. The published read API sees version N whole, or N−1 whole.
// - rollback makes version K the draft again (the draft is replaced, in one transaction); publishing it
//   makes version N+1, so the history is never rewritten.
import { sql } from 'drizzle-orm';
import { plural } from '../../../contracts/domain/format';
import {
  type PublishBody,
  type PublishPreview,
  type RollbackBody,
  TAG_DIFF_LIST_MAX,
  type TagDiff,
  type TagDiffNode,
  type TagRemapNeed,
  type TagTreeState,
  type TagVersion,
  type TagVersionList,
} from '../../../contracts/tags';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { bumpRevision, lockTree, retagProducts } from './draft-writes';
import { pathText, seqsOf } from './tree-paths';
import {
  latestVersion,
  namesBySeq,
  type ResolvedSource,
  sourceLabel,
  type TreeRow,
  treeRows,
  validAt,
  versionNotFound,
} from './tree-source';

interface Side {
  id: string;
  seq: number;
  parent_id: string | null;
  path: string;
  level: number;
  name: string;
  code: string;
}
type Pair = { a: Side | null; b: Side | null };

const sideColumns = (alias: string) =>
  sql.raw(
    ['id', 'seq', 'parent_id', 'path', 'level', 'name', 'code']
      .map((column) => `${alias}.${column} AS ${alias}_${column}`)
      .join(', '),
  );

function sideOf(row: Record<string, unknown>, alias: 'a' | 'b'): Side | null {
  if (row[`${alias}_id`] === null) return null;
  return {
    id: row[`${alias}_id`] as string,
    seq: row[`${alias}_seq`] as number,
    parent_id: row[`${alias}_parent_id`] as string | null,
    path: row[`${alias}_path`] as string,
    level: row[`${alias}_level`] as number,
    name: row[`${alias}_name`] as string,
    code: row[`${alias}_code`] as string,
  };
}

/** The nodes that differ between two trees, paired by id. */
async function differingPairs(db: Db | Tx, from: ResolvedSource, to: ResolvedSource): Promise<Pair[]> {
  // Between two versions only the nodes with a row opened or closed in between can differ.
  const restrict =
    from.kind === 'version' && to.kind === 'version'
      ? sql`AND t.id IN (SELECT node_id FROM tag_node_versions
              WHERE (valid_from > ${Math.min(from.number, to.number)} AND valid_from <= ${Math.max(from.number, to.number)})
                 OR (valid_to > ${Math.min(from.number, to.number)} AND valid_to <= ${Math.max(from.number, to.number)}))`
      : sql``;
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      SELECT ${sideColumns('a')}, ${sideColumns('b')}
      FROM (SELECT * FROM ${treeRows(from)} t WHERE true ${restrict}) a
      FULL OUTER JOIN (SELECT * FROM ${treeRows(to)} t WHERE true ${restrict}) b ON a.id = b.id
      WHERE a.id IS NULL OR b.id IS NULL OR a.name <> b.name OR a.code <> b.code
         OR a.parent_id IS DISTINCT FROM b.parent_id OR a.path <> b.path`),
  );
  return rows.map((row) => ({ a: sideOf(row, 'a'), b: sideOf(row, 'b') }));
}

const byPlace = (x: Side, y: Side) => x.level - y.level || x.name.localeCompare(y.name) || x.seq - y.seq;

/** Diff nodes with their paths as names, read in the tree they belong to. */
async function diffNodes(db: Db | Tx, source: ResolvedSource, sides: Side[]): Promise<TagDiffNode[]> {
  const names = await namesBySeq(
    db,
    source,
    sides.flatMap((side) => seqsOf(side.path)),
  );
  return sides.map((side) => ({
    id: side.id,
    name: side.name,
    code: side.code,
    level: side.level,
    path: pathText(seqsOf(side.path).map((seq) => (seq === side.seq ? side.name : (names.get(seq) ?? '?')))),
  }));
}

/** Everything that differs from `from` to `to`, each list cut at TAG_DIFF_LIST_MAX. */
export async function diffTrees(db: Db | Tx, from: ResolvedSource, to: ResolvedSource): Promise<TagDiff> {
  const pairs = await differingPairs(db, from, to);
  const added = pairs.flatMap(({ a, b }) => (!a && b ? [b] : [])).sort(byPlace);
  const removed = pairs.flatMap(({ a, b }) => (a && !b ? [a] : [])).sort(byPlace);
  const both = pairs.flatMap(({ a, b }) => (a && b ? [{ a, b }] : [])).sort((x, y) => byPlace(x.b, y.b));
  const renamed = both.filter(({ a, b }) => a.name !== b.name);
  const moved = both.filter(({ a, b }) => a.parent_id !== b.parent_id);
  const recoded = both.filter(({ a, b }) => a.code !== b.code);
  const cut = <T>(list: T[]) => list.slice(0, TAG_DIFF_LIST_MAX);
  const truncated = [added, removed, renamed, moved, recoded].some((list) => list.length > TAG_DIFF_LIST_MAX);

  const [addedNodes, removedNodes, renamedNodes, movedNodes, movedFrom, recodedNodes] = await Promise.all([
    diffNodes(db, to, cut(added)),
    diffNodes(db, from, cut(removed)),
    diffNodes(
      db,
      to,
      cut(renamed).map(({ b }) => b),
    ),
    diffNodes(
      db,
      to,
      cut(moved).map(({ b }) => b),
    ),
    diffNodes(
      db,
      from,
      cut(moved).map(({ a }) => a),
    ),
    diffNodes(
      db,
      to,
      cut(recoded).map(({ b }) => b),
    ),
  ]);
  // Every node that differs in any way changes what the storefront shows for its products.
  const touched = pairs.map(({ a, b }) => (a ?? b)?.id as string);
  const [affected] = touched.length
    ? rowsOf<{ n: number }>(
        await db.execute(sql`
          SELECT count(*)::integer AS n FROM products WHERE tag_ids && ${`{${touched.join(',')}}`}::uuid[]`),
      )
    : [{ n: 0 }];
  return {
    from: sourceLabel(from),
    to: sourceLabel(to),
    counts: {
      added: added.length,
      removed: removed.length,
      renamed: renamed.length,
      moved: moved.length,
      recoded: recoded.length,
    },
    added: addedNodes,
    removed: removedNodes,
    renamed: renamedNodes.map((node, i) => ({ ...node, before: renamed[i]?.a.name ?? '' })),
    moved: movedNodes.map((node, i) => ({ ...node, fromPath: movedFrom[i]?.path ?? '' })),
    recoded: recodedNodes.map((node, i) => ({ ...node, before: recoded[i]?.a.code ?? '' })),
    affectedProducts: affected?.n ?? 0,
    truncated,
  };
}

const latestSource = (latest: number | null): ResolvedSource =>
  latest === null ? { kind: 'none' } : { kind: 'version', number: latest, latest: true };

/**
 * Tags that products carry but the draft no longer has (removed since the last publish, or gone with a
 * rollback): where each was last published, and how many products carry it.
 */
async function danglingTags(db: Db | Tx, latest: number | null): Promise<TagRemapNeed[]> {
  const rows = rowsOf<{ id: string; products: number }>(
    await db.execute(sql`
      SELECT t AS id, count(*)::integer AS products
      FROM products p, unnest(p.tag_ids) t
      WHERE p.tag_ids <> '{}' AND NOT EXISTS (SELECT 1 FROM tag_nodes n WHERE n.id = t)
      GROUP BY t ORDER BY 2 DESC, 1`),
  );
  if (rows.length === 0) return [];
  const known = rowsOf<TreeRow & { last: number }>(
    await db.execute(sql`
      SELECT DISTINCT ON (v.node_id) v.node_id AS id, v.seq, v.parent_id, v.path, v.level, v.name, v.name_key,
             v.code, coalesce(v.valid_to - 1, ${latest ?? 0}) AS last
      FROM tag_node_versions v WHERE v.node_id = ANY(${`{${rows.map((row) => row.id).join(',')}}`}::uuid[])
      ORDER BY v.node_id, v.valid_from DESC`),
  );
  const byId = new Map(known.map((row) => [row.id, row]));
  const needs: TagRemapNeed[] = [];
  for (const row of rows) {
    const node = byId.get(row.id);
    if (!node) {
      needs.push({
        node: { id: row.id, name: 'Unknown tag', code: '', path: 'Unknown tag', level: 1 },
        products: row.products,
      });
      continue;
    }
    const [described] = await diffNodes(
      db,
      { kind: 'version', number: node.last, latest: node.last === latest },
      [node],
    );
    needs.push({ node: described as TagDiffNode, products: row.products });
  }
  return needs;
}

/** What would make the draft an unsound tree: a path or level that disagrees with the parent links. */
async function integrityProblems(db: Db | Tx): Promise<string[]> {
  const [row] = rowsOf<{ paths: number; levels: number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE c.path <> coalesce(p.path, '/') || c.seq || '/')::integer AS paths,
             count(*) FILTER (WHERE c.level <> coalesce(p.level, 0) + 1)::integer AS levels
      FROM tag_nodes c LEFT JOIN tag_nodes p ON p.id = c.parent_id`),
  );
  const problems: string[] = [];
  if (row?.paths)
    problems.push(`${plural(row.paths, 'tag has', 'tags have')} a path that does not follow their parent.`);
  if (row?.levels)
    problems.push(`${plural(row.levels, 'tag has', 'tags have')} a level that is not their depth.`);
  if (problems.length) problems.push('Run “Calculate node levels” to repair the tree, then publish.');
  return problems;
}

async function treeState(db: Db | Tx) {
  const [state] = rowsOf<{
    revision: number;
    based_on: number | null;
    rolled_back_from: number | null;
    levels_calculated_at: Date | string | null;
    nodes: number;
  }>(
    await db.execute(sql`
      SELECT revision, based_on, rolled_back_from, levels_calculated_at,
             (SELECT count(*)::integer FROM tag_nodes) AS nodes
      FROM tag_tree_state WHERE id = 1`),
  );
  if (!state) throw new Error('the tag tree state row is missing');
  return state;
}

export async function readTreeState(db: Db): Promise<TagTreeState> {
  const [state, latest] = await Promise.all([treeState(db), latestVersion(db)]);
  return {
    draftRevision: state.revision,
    latest,
    basedOn: state.based_on,
    rolledBackFrom: state.rolled_back_from,
    nodeCount: state.nodes,
    levelsCalculatedAt: state.levels_calculated_at
      ? new Date(state.levels_calculated_at).toISOString()
      : null,
  };
}

export async function publishPreview(db: Db): Promise<PublishPreview> {
  const latest = await latestVersion(db);
  const [state, diff, remapNeeded, problems] = await Promise.all([
    treeState(db),
    diffTrees(db, latestSource(latest), { kind: 'draft' }),
    danglingTags(db, latest),
    integrityProblems(db),
  ]);
  return {
    draftRevision: state.revision,
    latest,
    rolledBackFrom: state.rolled_back_from,
    diff,
    nodeCount: state.nodes,
    remapNeeded,
    problems,
  };
}

interface VersionRow {
  number: number;
  note: string;
  published_by: string | null;
  published_by_name: string;
  published_at: Date | string;
  rolled_back_from: number | null;
  node_count: number;
  summary: Record<string, number>;
}

function versionDto(row: VersionRow): TagVersion {
  return {
    number: row.number,
    note: row.note,
    publishedBy: { id: row.published_by, name: row.published_by_name },
    publishedAt: new Date(row.published_at).toISOString(),
    rolledBackFrom: row.rolled_back_from,
    nodeCount: row.node_count,
    summary: {
      added: row.summary.added ?? 0,
      removed: row.summary.removed ?? 0,
      renamed: row.summary.renamed ?? 0,
      moved: row.summary.moved ?? 0,
    },
  };
}

export async function listVersions(db: Db, page: { skip: number; limit: number }): Promise<TagVersionList> {
  const [rows, [total]] = await Promise.all([
    db
      .execute(sql`SELECT * FROM tag_versions ORDER BY number DESC OFFSET ${page.skip} LIMIT ${page.limit}`)
      .then((r) => rowsOf<VersionRow>(r)),
    db.execute(sql`SELECT count(*)::integer AS n FROM tag_versions`).then((r) => rowsOf<{ n: number }>(r)),
  ]);
  return { result: rows.map(versionDto), count: total?.n ?? 0 };
}

export async function readVersion(db: Db | Tx, number: number): Promise<TagVersion> {
  const [row] = rowsOf<VersionRow>(
    await db.execute(sql`SELECT * FROM tag_versions WHERE number = ${number}`),
  );
  if (!row) throw versionNotFound();
  return versionDto(row);
}

const draftChanged = () =>
  new HttpError(
    409,
    'The draft changed after you read it. Read what publishing would change again, then confirm.',
    'DRAFT_CHANGED',
  );

export async function publish(db: Db, actor: Actor, body: Required<PublishBody>): Promise<TagVersion> {
  const number = await db.transaction(async (tx) => {
    const state = await lockTree(tx);
    if (state.revision !== body.draftRevision) throw draftChanged();
    const latest = await latestVersion(tx);

    // Products must not keep tags the published tree no longer has: each removed tag needs a destination.
    const needs = await danglingTags(tx, latest);
    const destinations = new Map(body.remap.map((entry) => [entry.nodeId, entry.to]));
    const missing = needs.filter((need) => !destinations.has(need.node.id));
    if (missing.length) {
      throw new HttpError(
        409,
        `Choose where the products of ${missing.length === 1 ? `“${missing[0]?.node.name}”` : `${missing.length} removed tags`} go before publishing.`,
        'REMAP_NEEDED',
      );
    }
    const targets = [...new Set([...destinations.values()].filter((to): to is string => to !== null))];
    if (targets.length) {
      const found = rowsOf<{ id: string }>(
        await tx.execute(sql`SELECT id FROM tag_nodes WHERE id = ANY(${`{${targets.join(',')}}`}::uuid[])`),
      );
      if (found.length !== targets.length) {
        throw new HttpError(400, 'A remap names a tag that is not in the draft.', 'UNKNOWN_REMAP_TARGET');
      }
    }
    const byTarget = new Map<string | null, string[]>();
    for (const need of needs) {
      const to = destinations.get(need.node.id) ?? null;
      byTarget.set(to, [...(byTarget.get(to) ?? []), need.node.id]);
    }
    for (const [to, removed] of byTarget) {
      await retagProducts(tx, actor, removed, to, 'Tags removed from the tag tree were remapped at publish.');
    }

    const problems = await integrityProblems(tx);
    if (problems.length) throw new HttpError(409, problems.join(' '), 'TREE_INTEGRITY');

    const diff = await diffTrees(tx, latestSource(latest), { kind: 'draft' });
    const next = (latest ?? 0) + 1;
    // Close the rows of nodes that went or changed, then open rows for every draft node without one.
    await tx.execute(sql`
      UPDATE tag_node_versions v SET valid_to = ${next}
      WHERE v.valid_to IS NULL AND NOT EXISTS (
        SELECT 1 FROM tag_nodes n
        WHERE n.id = v.node_id AND n.name = v.name AND n.code = v.code AND n.path = v.path
          AND n.parent_id IS NOT DISTINCT FROM v.parent_id)`);
    await tx.execute(sql`
      INSERT INTO tag_node_versions (node_id, valid_from, valid_to, seq, parent_id, path, level, name, name_key, code)
      SELECT n.id, ${next}, NULL, n.seq, n.parent_id, n.path, n.level, n.name, n.name_key, n.code
      FROM tag_nodes n
      WHERE NOT EXISTS (SELECT 1 FROM tag_node_versions v WHERE v.node_id = n.id AND v.valid_to IS NULL)`);
    const [count] = rowsOf<{ n: number }>(
      await tx.execute(sql`SELECT count(*)::integer AS n FROM tag_nodes`),
    );
    const summary = {
      added: diff.counts.added,
      removed: diff.counts.removed,
      renamed: diff.counts.renamed,
      moved: diff.counts.moved,
    };
    await tx.execute(sql`
      INSERT INTO tag_versions (number, note, published_by, published_by_name, draft_revision, rolled_back_from,
                                node_count, summary)
      VALUES (${next}, ${body.note}, ${actor.id}::uuid, ${actor.name}, ${state.revision}, ${state.rolledBackFrom},
              ${count?.n ?? 0}, ${JSON.stringify(summary)}::jsonb)`);
    await tx.execute(
      sql`UPDATE tag_tree_state SET based_on = ${next}, rolled_back_from = NULL, updated_at = now() WHERE id = 1`,
    );
    // The history's notes are the server's sentences; the publisher's own words are quoted inside, once.
    await recordAudit(tx, {
      subject: { type: 'tag', id: null },
      actor,
      action: 'published',
      note: `Version ${next}${state.rolledBackFrom ? ` (version ${state.rolledBackFrom} again)` : ''}: ${summary.added} added, ${summary.removed} removed, ${summary.renamed} renamed, ${summary.moved} moved.${body.note ? ` Note: “${body.note}”` : ''}`,
    });
    return next;
  });
  return readVersion(db, number);
}

/**
 * Makes version K the draft: the draft's nodes become K's (those K did not have are dropped; products
 * keep their tags until the next publish, which asks where they go). Nodes keep their product counts;
 * every node's version moves on, so an editor holding the old draft gets 409.
 */
export async function rollback(db: Db, actor: Actor, body: RollbackBody): Promise<TagTreeState> {
  await db.transaction(async (tx) => {
    const state = await lockTree(tx);
    if (state.revision !== body.draftRevision) throw draftChanged();
    const latest = await latestVersion(tx);
    if (latest === null || body.version > latest) throw versionNotFound();
    const source = { kind: 'version', number: body.version, latest: body.version === latest } as const;
    await tx.execute(sql`
      CREATE TEMP TABLE tag_rollback_before ON COMMIT DROP AS
      SELECT id, version, product_count, product_total FROM tag_nodes`);
    await tx.execute(sql`DELETE FROM tag_nodes`);
    await tx.execute(sql`
      INSERT INTO tag_nodes (id, seq, parent_id, path, level, name, name_key, code, product_count, product_total,
                             children_count, version, updated_by, updated_by_name)
      SELECT v.node_id, v.seq, v.parent_id, v.path, v.level, v.name, v.name_key, v.code,
             coalesce(o.product_count, 0), coalesce(o.product_total, 0),
             (SELECT count(*)::integer FROM tag_node_versions c WHERE c.parent_id = v.node_id AND ${validAt(source, 'c')}),
             coalesce(o.version, 0) + 1, ${actor.id}::uuid, ${actor.name}
      FROM tag_node_versions v LEFT JOIN tag_rollback_before o ON o.id = v.node_id
      WHERE ${validAt(source)}`);
    await bumpRevision(tx);
    await tx.execute(
      sql`UPDATE tag_tree_state SET rolled_back_from = ${body.version}, updated_at = now() WHERE id = 1`,
    );
    await recordAudit(tx, {
      subject: { type: 'tag', id: null },
      actor,
      action: 'rolled back',
      note: `The draft is version ${body.version} again; publish it to make it live.`,
    });
  });
  return readTreeState(db);
}
