// For tag tests that need an empty tree: the demo seed publishes a tree of its own.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export async function clearTagTree(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM tag_nodes`);
    await tx.execute(sql`DELETE FROM tag_node_versions`);
    await tx.execute(sql`DELETE FROM tag_versions`);
    await tx.execute(sql`DELETE FROM audit_entries WHERE subject_type = 'tag'`);
    await tx.execute(
      sql`UPDATE tag_tree_state SET based_on = NULL, rolled_back_from = NULL, levels_calculated_at = NULL`,
    );
    await tx.execute(sql`UPDATE products SET tag_ids = '{}' WHERE tag_ids <> '{}'`);
  });
}
