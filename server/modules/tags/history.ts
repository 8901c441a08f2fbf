// What happened to the tag tree: each draft edit of a node, and the tree's publishes, rollbacks and
// level calculations (node null). The one audit timeline shape (sellers/history.ts), written in the
// same transaction as the change.
import { count, desc, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { type FieldChange, tagHistory } from '../../db/schema';
import { type Actor, historyEntryDto } from '../sellers/history';

export async function recordTagHistory(
  db: Db | Tx,
  entry: {
    nodeId: string | null;
    actor: Actor;
    action: string;
    changes?: FieldChange[];
    note?: string | null;
  },
): Promise<void> {
  await db.insert(tagHistory).values({
    nodeId: entry.nodeId,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    changes: entry.changes ?? [],
    note: entry.note ?? null,
  });
}

/** A node's history, or the tree's own (nodeId null), newest first; equal times latest-written first. */
export async function readTagHistory(db: Db, nodeId: string | null, page: { skip: number; limit: number }) {
  const where = nodeId ? eq(tagHistory.nodeId, nodeId) : isNull(tagHistory.nodeId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(tagHistory)
      .where(where)
      .orderBy(desc(tagHistory.createdAt), desc(tagHistory.seq))
      .offset(page.skip)
      .limit(page.limit),
    db.select({ n: count() }).from(tagHistory).where(where),
  ]);
  return { result: rows.map(historyEntryDto), count: total?.n ?? 0 };
}
