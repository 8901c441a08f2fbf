// What a server-paged list with status tabs shares (offers, orders): its total and the shops' names.
// Narrowed by seller and status only, a list's total is a tab count (the maintained counters); any other
// filter counts its matches, but no further than the cap: nothing counts a whole table per request.
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { rowsOf } from '../db/rows';
import { sellers } from '../db/schema';

export const TOTAL_CAP = 1000;

/** How many rows match, counted no further than TOTAL_CAP + 1. */
export async function countUpToCap(db: Db | Tx, table: PgTable, where: SQL | undefined): Promise<number> {
  const result = await db.execute(
    sql`SELECT count(*)::integer AS n FROM (SELECT 1 FROM ${table} WHERE ${where ?? sql`true`} LIMIT ${TOTAL_CAP + 1}) capped`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** The list's total: what was counted, else the tab's count (or all tabs'), capped. */
export function tabbedTotal<Status extends string>(
  counted: number | null,
  tabs: Record<Status, number>,
  status: Status | undefined,
): { total: number; totalCapped: boolean } {
  const n =
    counted ??
    (status ? tabs[status] : (Object.values(tabs) as number[]).reduce((sum, count) => sum + count, 0));
  return { total: Math.min(n, TOTAL_CAP), totalCapped: n > TOTAL_CAP };
}

/** The shops' names by id, for the rows of a page. */
export async function sellerNames(db: Db | Tx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: sellers.id, name: sellers.sellerName })
    .from(sellers)
    .where(inArray(sellers.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.name]));
}
