import { type AnyColumn, asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/** Which rows a page reads from a list ordered newest first. */
export interface PageWindow {
  /** How many rows the page holds (0: past the end). */
  size: number;
  /** Read from the oldest end: past the middle that skips fewer rows. */
  fromEnd: boolean;
  offset: number;
}

/**
 * The rows of `{ skip, limit }` in a list of `total` rows. When the total is exact and the list may be
 * read backwards, a page past the middle is read from the other end of the index, so a deep page costs
 * what a shallow one does. An inexact total (a capped count) reads `limit` rows from the top.
 */
export function pageWindow(options: {
  total: number;
  skip: number;
  limit: number;
  exact?: boolean;
  reversible?: boolean;
}): PageWindow {
  const { total, skip, limit, exact = true, reversible = true } = options;
  if (!exact) return { size: limit, fromEnd: false, offset: skip };
  const size = Math.min(limit, Math.max(0, total - skip));
  const fromEnd = reversible && skip > total / 2;
  return { size, fromEnd, offset: fromEnd ? total - skip - size : skip };
}

/** The order a window reads in: newest first, or oldest first from the end. */
export const windowOrder = (window: PageWindow, ...columns: AnyColumn[]): SQL[] =>
  columns.map((column) => (window.fromEnd ? asc(column) : desc(column)));

/**
 * The ids of a window's rows, as the subquery `page`: the first half of a deferred join, which scans
 * only the index of `order`; the caller joins the full rows to `page.id` by primary key.
 */
export function windowIds<Id extends AnyPgColumn>(
  db: Db,
  window: PageWindow,
  from: { table: PgTable; id: Id; where: SQL | undefined; order: AnyColumn[] },
) {
  return db
    .select({ id: from.id })
    .from(from.table)
    .where(from.where)
    .orderBy(...windowOrder(window, ...from.order))
    .limit(window.size)
    .offset(window.offset)
    .as('page');
}
