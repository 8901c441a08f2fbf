// The status overview: the draft's nodes by status against the latest published version (new,
// changed, published, and the published ones the draft no longer has: to be removed), how many sit at
// each depth, how many carry no products, and the largest subtrees — all in a handful of aggregates.
import { sql } from 'drizzle-orm';
import type { TagOverview } from '../../../contracts/tags';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { pathText, seqsOf } from './tree-paths';
import { namesBySeq } from './tree-source';

const LARGEST = 10;

export async function tagOverview(db: Db): Promise<TagOverview> {
  const [statusRows, depthRows, subtreeRows] = await Promise.all([
    db.execute(sql`
      SELECT
        count(*) FILTER (WHERE v.node_id IS NULL)::integer AS new,
        count(*) FILTER (WHERE v.node_id IS NOT NULL AND (v.name <> n.name OR v.code <> n.code
                         OR v.parent_id IS DISTINCT FROM n.parent_id))::integer AS changed,
        count(*) FILTER (WHERE v.node_id IS NOT NULL AND v.name = n.name AND v.code = n.code
                         AND v.parent_id IS NOT DISTINCT FROM n.parent_id)::integer AS published,
        (SELECT count(*)::integer FROM tag_node_versions r
         WHERE r.valid_to IS NULL AND NOT EXISTS (SELECT 1 FROM tag_nodes d WHERE d.id = r.node_id)) AS removed,
        count(*) FILTER (WHERE n.product_total = 0)::integer AS without_products,
        count(*)::integer AS nodes
      FROM tag_nodes n LEFT JOIN tag_node_versions v ON v.node_id = n.id AND v.valid_to IS NULL`),
    db.execute(sql`SELECT level, count(*)::integer AS count FROM tag_nodes GROUP BY level ORDER BY level`),
    // A subtree's size: the nodes whose path starts with the node's (one index range each, for the
    // few nodes with the most children below the top levels).
    db.execute(sql`
      SELECT n.id, n.seq, n.name, n.code, n.level, n.path, n.product_total,
             (SELECT count(*)::integer FROM tag_nodes d WHERE d.path LIKE n.path || '%') AS size
      FROM tag_nodes n WHERE n.level <= 2 AND n.children_count > 0
      ORDER BY size DESC, n.name_key LIMIT ${LARGEST}`),
  ]);
  const [status] = rowsOf<{
    new: number;
    changed: number;
    published: number;
    removed: number;
    without_products: number;
    nodes: number;
  }>(statusRows);
  const subtrees = rowsOf<{
    id: string;
    seq: number;
    name: string;
    code: string;
    level: number;
    path: string;
    product_total: number;
    size: number;
  }>(subtreeRows);
  const names = await namesBySeq(
    db,
    { kind: 'draft' },
    subtrees.flatMap((row) => seqsOf(row.path)),
  );
  return {
    byStatus: {
      published: status?.published ?? 0,
      new: status?.new ?? 0,
      changed: status?.changed ?? 0,
      removed: status?.removed ?? 0,
    },
    depth: rowsOf<{ level: number; count: number }>(depthRows),
    withoutProducts: status?.without_products ?? 0,
    largestSubtrees: subtrees.map((row) => ({
      id: row.id,
      name: row.name,
      code: row.code,
      level: row.level,
      path: pathText(seqsOf(row.path).map((seq) => names.get(seq) ?? '?')),
      size: row.size,
      products: row.product_total,
    })),
    nodeCount: status?.nodes ?? 0,
  };
}
