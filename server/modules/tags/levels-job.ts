// "Calculate node levels" (SPEC §2): a job that recomputes, for the whole draft tree, every node's
// level (its depth) and path from the parent links, its children count, and its product counts — the
// products tagged with it, and with any node of its subtree. Draft writes keep levels, paths and
// children counts right as they go, so this mostly refreshes the product counts (which product edits
// change without touching the tree) and repairs whatever a failure left inconsistent.
//
// It reads the tree once (three numbers a node), computes in memory, then writes only the nodes whose
// figures changed, in chunks, each chunk in a transaction that holds the tree: if an editor changed the
// draft since the read, the job reads it again and starts over (a few times at most), so it never
// writes a figure computed from a tree that is no longer there.
import { sql } from 'drizzle-orm';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { JobFailure, type JobHandler, yieldToEventLoop } from '../../jobs/worker';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit';
import { lockTree } from './draft-writes';
import { childPath } from './tree-paths';

export const LEVELS_KIND = 'tags.levels';
export const LEVELS_TASK_NAME = 'Calculate node levels';
const WRITE_CHUNK = 2000;
const ATTEMPTS = 5;

interface NodeFigures {
  id: string;
  seq: number;
  parent_id: string | null;
  path: string;
  level: number;
  children_count: number;
  product_count: number;
  product_total: number;
}

interface Computed {
  revision: number;
  nodes: number;
  changed: NodeFigures[];
  maxLevel: number;
}

/** Reads the draft and computes every node's figures; answers the nodes whose stored figures differ. */
async function compute(db: Db): Promise<Computed> {
  const [state] = rowsOf<{ revision: number }>(
    await db.execute(sql`SELECT revision FROM tag_tree_state WHERE id = 1`),
  );
  const nodes = rowsOf<NodeFigures>(
    await db.execute(sql`
      SELECT id, seq, parent_id, path, level, children_count, product_count, product_total FROM tag_nodes`),
  );
  const own = new Map(
    rowsOf<{ id: string; n: number }>(
      await db.execute(sql`
        SELECT t AS id, count(*)::integer AS n FROM products p, unnest(p.tag_ids) t
        WHERE p.tag_ids <> '{}' GROUP BY t`),
    ).map((row) => [row.id, row.n]),
  );
  const children = new Map<string | null, NodeFigures[]>();
  for (const node of nodes) {
    const list = children.get(node.parent_id) ?? [];
    list.push(node);
    children.set(node.parent_id, list);
  }
  // Top down from the roots: paths and levels; the order visited, reversed, is bottom up for totals.
  const next = new Map<string, { path: string; level: number; childrenCount: number; total: number }>();
  const order: NodeFigures[] = [];
  const stack: { node: NodeFigures; parentPath: string | null; level: number }[] = (
    children.get(null) ?? []
  ).map((node) => ({ node, parentPath: null, level: 1 }));
  let maxLevel = 0;
  while (stack.length) {
    const { node, parentPath, level } = stack.pop() as (typeof stack)[number];
    const path = childPath(parentPath, node.seq);
    const kids = children.get(node.id) ?? [];
    next.set(node.id, { path, level, childrenCount: kids.length, total: own.get(node.id) ?? 0 });
    order.push(node);
    maxLevel = Math.max(maxLevel, level);
    for (const kid of kids) stack.push({ node: kid, parentPath: path, level: level + 1 });
  }
  if (order.length !== nodes.length) {
    // Parent links that never reach a root: a cycle. Writes refuse to make one; this would be damage.
    throw new JobFailure(
      `${plural(nodes.length - order.length, 'tag is', 'tags are')} not under any top-level tag (a loop in the tree). Nothing was changed.`,
      true,
    );
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i] as NodeFigures;
    const figures = next.get(node.id) as { total: number };
    if (node.parent_id) (next.get(node.parent_id) as { total: number }).total += figures.total;
  }
  const changed: NodeFigures[] = [];
  for (const node of nodes) {
    const figures = next.get(node.id) as {
      path: string;
      level: number;
      childrenCount: number;
      total: number;
    };
    const productCount = own.get(node.id) ?? 0;
    if (
      node.path !== figures.path ||
      node.level !== figures.level ||
      node.children_count !== figures.childrenCount ||
      node.product_count !== productCount ||
      node.product_total !== figures.total
    ) {
      changed.push({
        ...node,
        path: figures.path,
        level: figures.level,
        children_count: figures.childrenCount,
        product_count: productCount,
        product_total: figures.total,
      });
    }
  }
  return { revision: state?.revision ?? 0, nodes: nodes.length, changed, maxLevel };
}

class TreeChanged extends Error {}

export interface LevelsResult {
  nodes: number;
  updated: number;
  maxLevel: number;
}

/**
 * Recomputes and writes every node's figures (see the top of this file); `onProgress` hears 0–100.
 * The job runs it; so does the demo seed.
 */
export async function calculateLevels(
  db: Db,
  options: { onProgress?: (percent: number) => Promise<void>; signal?: AbortSignal } = {},
): Promise<LevelsResult> {
  const { onProgress = async () => {}, signal } = options;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const computed = await compute(db);
    await onProgress(20);
    try {
      for (let start = 0; start < computed.changed.length; start += WRITE_CHUNK) {
        signal?.throwIfAborted();
        const chunk = computed.changed.slice(start, start + WRITE_CHUNK);
        await db.transaction(async (tx) => {
          const state = await lockTree(tx);
          if (state.revision !== computed.revision) throw new TreeChanged();
          await tx.execute(sql`
            UPDATE tag_nodes n SET path = x.path, level = x.level, children_count = x.children_count,
                   product_count = x.product_count, product_total = x.product_total
            FROM json_to_recordset(${JSON.stringify(chunk)}::json)
              AS x(id uuid, path text, level integer, children_count integer, product_count integer,
                   product_total integer)
            WHERE n.id = x.id`);
        });
        await onProgress(20 + (80 * (start + chunk.length)) / computed.changed.length);
        await yieldToEventLoop();
      }
    } catch (error) {
      if (error instanceof TreeChanged) continue;
      throw error;
    }
    const result = { nodes: computed.nodes, updated: computed.changed.length, maxLevel: computed.maxLevel };
    await db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE tag_tree_state SET levels_calculated_at = now() WHERE id = 1`);
      await recordAudit(tx, {
        subject: { type: 'tag', id: null },
        actor: SYSTEM_ACTOR,
        action: 'levels',
        note: levelsNote(result),
      });
    });
    return result;
  }
  throw new JobFailure('The tag tree kept changing while its levels were calculated. Try again.', false);
}

const levelsNote = (result: LevelsResult) =>
  `${plural(result.nodes, 'tag')}, ${plural(result.maxLevel, 'level')} deep; ${formatNumber(result.updated)} updated.`;

export function levelsHandler(options: { db: Db }): JobHandler {
  return async ({ setProgress, signal }) => {
    const result = await calculateLevels(options.db, { onProgress: setProgress, signal });
    return {
      ...result,
      title: 'Node levels are calculated',
      body: levelsNote(result),
      link: '/tags/manage-tags',
    };
  };
}
