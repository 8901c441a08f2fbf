// The update history of imports and import requests (getImportUpdateHistory, getRequestUpdateHistory):
// the one audit timeline shape (sellers/history.ts), written in the same transaction as the change.
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { type FieldChange, importHistory } from '../../db/schema';
import { type Actor, historyEntryDto } from '../sellers/history';

export type HistorySubject = 'import' | 'request';

export async function recordImportHistory(
  db: Db | Tx,
  entry: {
    subject: HistorySubject;
    id: string;
    actor: Actor;
    action: string;
    changes?: FieldChange[];
    note?: string | null;
  },
): Promise<void> {
  await db.insert(importHistory).values({
    subjectType: entry.subject,
    subjectId: entry.id,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    changes: entry.changes ?? [],
    note: entry.note ?? null,
  });
}

export async function readImportHistory(
  db: Db,
  subject: HistorySubject,
  id: string,
  page: { skip: number; limit: number },
) {
  const where = and(eq(importHistory.subjectType, subject), eq(importHistory.subjectId, id));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(importHistory)
      .where(where)
      .orderBy(desc(importHistory.createdAt), desc(importHistory.id))
      .offset(page.skip)
      .limit(page.limit),
    db.select({ n: count() }).from(importHistory).where(where),
  ]);
  return { result: rows.map(historyEntryDto), count: total?.n ?? 0 };
}
