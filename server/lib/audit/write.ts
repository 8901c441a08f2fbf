// The audit trail's writers. Each writes in the caller's transaction (pass `tx`), so an entry is stored
// exactly when the change it records is; the bulk forms write any number of entries in one statement.
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { auditEntries, type FieldChange } from '../../db/schema';
import type { Actor } from './actor';
import type { AuditSubject, AuditSubjectType } from './subjects';

export interface AuditEntryInput {
  subject: AuditSubject;
  actor: Actor;
  /** created, updated, status, … */
  action: string;
  changes?: FieldChange[];
  note?: string | null;
  /** Another subject the entry concerns: the campaign of a contact's mail. */
  related?: { type: string; id: string } | null;
  /** When it happened, if not now (the demo seed dates its stories). */
  at?: Date;
}

/** One entry. */
export async function recordAudit(db: Db | Tx, entry: AuditEntryInput): Promise<void> {
  await recordAuditEntries(db, [entry]);
}

/** Many entries in one statement, in the given order (it is their write order, `seq`). */
export async function recordAuditEntries(db: Db | Tx, entries: readonly AuditEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    subject_type: entry.subject.type,
    subject_id: entry.subject.id,
    actor_id: entry.actor.id,
    actor_name: entry.actor.name,
    action: entry.action,
    changes: entry.changes ?? [],
    note: entry.note ?? null,
    related_type: entry.related?.type ?? null,
    related_id: entry.related?.id ?? null,
    created_at: entry.at?.toISOString() ?? null,
  }));
  await db.execute(sql`
    INSERT INTO ${auditEntries} (subject_type, subject_id, actor_id, actor_name, action, changes, note,
                                 related_type, related_id, created_at)
    SELECT x.subject_type, x.subject_id, x.actor_id, x.actor_name, x.action, x.changes, x.note,
           x.related_type, x.related_id, coalesce(x.created_at, now())
    FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(subject_type text, subject_id uuid,
      actor_id uuid, actor_name text, action text, changes jsonb, note text, related_type text,
      related_id uuid, created_at timestamptz)`);
}

/**
 * The set-based writer, for one statement that changes many rows and records each (a bulk status move,
 * a tag taken off every product that carries it): `INSERT … SELECT` one entry per row of `from`, whose
 * columns the expressions may name. Usable as a CTE step; it returns the subject ids (`subject_id`).
 */
export function auditInsertFrom(entry: {
  subjectType: AuditSubjectType;
  subjectId: SQL;
  from: SQL;
  actor: Actor;
  action: string | SQL;
  changes?: SQL;
  note?: string | SQL | null;
  /** A related id that is null on a row leaves that entry without a relation. */
  related?: { type: string; id: string | SQL };
  at?: Date | SQL;
}): SQL {
  const value = (given: string | SQL | null | undefined, type: string) =>
    given === undefined || given === null || typeof given === 'string'
      ? sql`${given ?? null}::${sql.raw(type)}`
      : given;
  const relatedId = value(entry.related?.id, 'uuid');
  const relatedType = entry.related
    ? sql`CASE WHEN ${relatedId} IS NULL THEN NULL ELSE ${entry.related.type}::text END`
    : sql`NULL::text`;
  const at =
    entry.at instanceof Date ? sql`${entry.at.toISOString()}::timestamptz` : (entry.at ?? sql`now()`);
  return sql`
    INSERT INTO ${auditEntries} (subject_type, subject_id, actor_id, actor_name, action, changes, note,
                                 related_type, related_id, created_at)
    SELECT ${entry.subjectType}::text, ${entry.subjectId}, ${entry.actor.id}::uuid, ${entry.actor.name}::text,
           ${value(entry.action, 'text')}, ${entry.changes ?? sql`'[]'::jsonb`}, ${value(entry.note, 'text')},
           ${relatedType}, ${relatedId}, ${at}
    FROM ${entry.from}
    RETURNING subject_id`;
}

/** Forgets the subjects' histories, with the subjects themselves (a deleted contact takes its timeline). */
export async function deleteAuditTrail(
  db: Db | Tx,
  type: AuditSubjectType,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    DELETE FROM ${auditEntries}
    WHERE subject_type = ${type} AND subject_id = ANY(${`{${ids.join(',')}}`}::uuid[])`);
}
