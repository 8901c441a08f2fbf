// The audit trail's reader: a subject's history, newest first (entries of one transaction share their
// time, and `seq` keeps them latest-written first), a page at a time, in the API's one entry shape.
import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { AuditEntry, AuditPage } from '../../../contracts/audit';
import type { Db, Tx } from '../../db/client';
import { auditEntries, type FieldChange } from '../../db/schema';
import type { AuditSubject } from './subjects';

const newestFirst = [desc(auditEntries.createdAt), desc(auditEntries.seq)];

function ofSubject(subject: AuditSubject): SQL {
  return and(
    eq(auditEntries.subjectType, subject.type),
    subject.id === null ? isNull(auditEntries.subjectId) : eq(auditEntries.subjectId, subject.id),
  ) as SQL;
}

/** A stored entry as the API answers it. */
export function auditEntryDto(row: typeof auditEntries.$inferSelect): AuditEntry {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actor: { id: row.actorId, name: row.actorName },
    action: row.action,
    changes: row.changes,
    note: row.note,
  };
}

/** A page of the subject's history; `where` leaves out entries the module does not list. */
export async function readAuditPage(
  db: Db,
  subject: AuditSubject,
  page: { skip: number; limit: number },
  where?: SQL,
): Promise<AuditPage> {
  const condition = where ? and(ofSubject(subject), where) : ofSubject(subject);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(condition)
      .orderBy(...newestFirst)
      .offset(page.skip)
      .limit(page.limit),
    db.select({ n: count() }).from(auditEntries).where(condition),
  ]);
  return { result: rows.map(auditEntryDto), count: total?.n ?? 0 };
}

/**
 * A page of every entry of one subject type (all scopes' settings changes), narrowed by `where`, with
 * each entry's subject id: a history across subjects names which one each entry is about.
 */
export async function readAuditPageOfType(
  db: Db,
  type: AuditSubject['type'],
  page: { skip: number; limit: number },
  where?: SQL,
): Promise<{ result: (AuditEntry & { subjectId: string | null })[]; count: number }> {
  const condition = and(eq(auditEntries.subjectType, type), where) as SQL;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(condition)
      .orderBy(...newestFirst)
      .offset(page.skip)
      .limit(page.limit),
    db.select({ n: count() }).from(auditEntries).where(condition),
  ]);
  return {
    result: rows.map((row) => ({ ...auditEntryDto(row), subjectId: row.subjectId })),
    count: total?.n ?? 0,
  };
}

/** Who changed the subject last, and when (a stale edit's 409 names them). */
export async function latestAuditEntry(
  db: Db | Tx,
  subject: AuditSubject,
): Promise<{ actorName: string; at: Date } | undefined> {
  const [last] = await db
    .select({ actorName: auditEntries.actorName, at: auditEntries.createdAt })
    .from(auditEntries)
    .where(ofSubject(subject))
    .orderBy(...newestFirst)
    .limit(1);
  return last;
}

/**
 * The subject's entries as SQL rows (id, at, actor_id, actor_name, action, changes, note, related_id),
 * for a timeline that pages them together with rows of its own (a contact's chats and queries).
 */
export function auditRowsSql(subject: AuditSubject): SQL {
  return sql`
    SELECT id::text AS id, created_at AS at, actor_id::text AS actor_id, actor_name, action, changes, note,
           related_id::text AS related_id
    FROM ${auditEntries} WHERE ${ofSubject(subject)}`;
}

/** A row of `auditRowsSql` (or of a union shaped like it), as either driver returns it. */
export interface AuditSqlRow {
  id: string;
  at: string | Date;
  actor_id: string | null;
  actor_name: string;
  action: string;
  changes: FieldChange[] | string;
  note: string | null;
}

/** Such a row as the API answers it. */
export function auditEntryOfSqlRow(row: AuditSqlRow): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor: { id: row.actor_id, name: row.actor_name },
    action: row.action,
    changes: typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
    note: row.note,
  };
}
