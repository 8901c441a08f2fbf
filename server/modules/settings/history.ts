// The settings history: every saved change, newest first, from the one audit trail (subject type
// `settings`, id = the seller for a seller's scope, null for the marketplace's; action = the section;
// note = the request id). Paged on the server, no row cap; filters by section, user and days (the
// marketplace's time zone decides where a day starts).
import { and, eq, gte, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { SettingsHistoryRow, StoredSection } from '../../../contracts/settings';
import type { Db } from '../../db/client';
import { auditEntries } from '../../db/schema';
import { readAuditPageOfType } from '../../lib/audit';
import { readEffectiveSettings } from './read';

export interface HistoryFilters {
  section?: StoredSection;
  userId?: string;
  /** First and last day included, YYYY-MM-DD. */
  from?: string;
  to?: string;
  skip: number;
  limit: number;
  /** One scope's history; undefined: every scope (admins). */
  scope?: { sellerId: string | null };
}

export async function historyConditions(
  db: Db,
  filters: Omit<HistoryFilters, 'skip' | 'limit'>,
): Promise<SQL[]> {
  const conditions: SQL[] = [];
  if (filters.scope) {
    const { sellerId } = filters.scope;
    conditions.push(
      sellerId === null ? isNull(auditEntries.subjectId) : eq(auditEntries.subjectId, sellerId),
    );
  }
  if (filters.section) conditions.push(eq(auditEntries.action, filters.section));
  if (filters.userId) conditions.push(eq(auditEntries.actorId, filters.userId));
  if (filters.from || filters.to) {
    const { timeZone } = (await readEffectiveSettings(db, null)).localization;
    const dayStart = (day: string) => sql`(${day}::date::timestamp AT TIME ZONE ${timeZone})`;
    if (filters.from) conditions.push(gte(auditEntries.createdAt, dayStart(filters.from)));
    if (filters.to)
      conditions.push(lt(auditEntries.createdAt, sql`${dayStart(filters.to)} + interval '1 day'`));
  }
  return conditions;
}

export async function readSettingsHistory(
  db: Db,
  filters: HistoryFilters,
): Promise<{ result: SettingsHistoryRow[]; count: number }> {
  const conditions = await historyConditions(db, filters);
  const page = await readAuditPageOfType(
    db,
    'settings',
    { skip: filters.skip, limit: filters.limit },
    conditions.length > 0 ? and(...conditions) : undefined,
  );
  return {
    count: page.count,
    result: page.result.map((entry) => ({
      id: entry.id,
      at: entry.at,
      actor: entry.actor,
      section: entry.action,
      sellerId: entry.subjectId,
      requestId: entry.note,
      changes: entry.changes,
    })),
  };
}
