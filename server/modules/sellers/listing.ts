// Seller list and search for /sellers/manage-sellers (SPEC §3, §4, §7), built to stay fast at 100k+
// sellers on PGlite and PostgreSQL alike (`npm run bench` measures it):
// - every count but a search's comes from seller_tab_counts (eight rows kept by triggers), never from
//   counting sellers;
// - a page is a deferred join: the ids come from an index-only scan (ORDER BY key, id OFFSET … LIMIT …
//   over an index that holds every column the scan reads), then those rows by primary key. A page past
//   the middle is read from the other end, so no page walks more than half of its filter's rows;
// - a search matches with the trigram index on exactly its expression, then counts and pages the
//   matches of that one scan.
// Each answer is found by one statement, so its count, its page and its tab counts always agree.
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type CountHash,
  type listSellersQuerySchema,
  type SellerList,
  type searchSellersQuerySchema,
  sellerTabs,
} from '../../../contracts/sellers';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { sellerSortKey, sellers, sellerTabCounts, sellerTabOf } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import { toSellerDto } from './dto';

export type ListSellersParams = z.output<typeof listSellersQuerySchema>;
export type SearchSellersParams = z.output<typeof searchSellersQuerySchema>;

const flagKeys = ['isActive', 'isEmailVerified', 'isKycDone'] as const;
type FlagKey = (typeof flagKeys)[number];
type Flags = Partial<Record<FlagKey, boolean>>;
type FlagCount = Record<FlagKey, boolean> & { sellers: number };

const pick = (params: Flags): Flags =>
  Object.fromEntries(flagKeys.filter((key) => params[key] !== undefined).map((key) => [key, params[key]]));

const satisfies = (row: Record<FlagKey, boolean>, flags: Flags) =>
  flagKeys.every((key) => flags[key] === undefined || flags[key] === row[key]);

/** Sellers matching `flags`: the sum of the flag combinations they allow. */
const countOf = (counts: FlagCount[], flags: Flags) =>
  counts.reduce((sum, row) => (satisfies(row, flags) ? sum + row.sellers : sum), 0);

/** The four tab counts (SPEC §4), whatever the request filters on. */
function countHashOf(counts: FlagCount[]): CountHash {
  const hash = { isActive: 0, isEmailVerified: 0, isKycDone: 0, isInActive: 0 };
  for (const tab of sellerTabs) hash[tab.countKey] = countOf(counts, tab.filter);
  return hash;
}

/** The four tab counts now (the seed command reports them). */
export async function readCountHash(db: Db): Promise<CountHash> {
  return countHashOf(await db.select().from(sellerTabCounts));
}

const allCombinations: Record<FlagKey, boolean>[] = [false, true].flatMap((isActive) =>
  [false, true].flatMap((isEmailVerified) =>
    [false, true].map((isKycDone) => ({ isActive, isEmailVerified, isKycDone })),
  ),
);

/** Which tab (index into sellerTabs, as sellerTabOf numbers them) a flag combination belongs to. */
const tabIndexOf = (row: Record<FlagKey, boolean>) =>
  sellerTabs.findIndex((tab) => satisfies(row, tab.filter));

const tabIs = (index: number) => sql`${sellerTabOf(sellers)} = ${sql.raw(String(index))}`;

/**
 * The WHERE for a flag filter. A tab's own filter becomes "tab = n", the leading column of the tab
 * indexes; a filter inside one tab adds the tab too, so its pages still use those indexes; any other
 * filter reads the sort index and checks the flags it holds.
 */
function flagCondition(flags: Flags): SQL | undefined {
  const keys = flagKeys.filter((key) => flags[key] !== undefined);
  if (keys.length === 0) return undefined;
  const exact = sellerTabs.findIndex(
    (tab) =>
      Object.keys(tab.filter).length === keys.length &&
      keys.every((key) => (tab.filter as Flags)[key] === flags[key]),
  );
  if (exact >= 0) return tabIs(exact);
  const conditions = keys.map((key) => eq(sellers[key], flags[key] as boolean));
  const tabs = new Set(allCombinations.filter((row) => satisfies(row, flags)).map(tabIndexOf));
  if (tabs.size === 1) conditions.unshift(tabIs([...tabs][0] as number));
  return and(...conditions);
}

/** Sort keys, the same expressions as the indexes in schema.ts (names and codes case-insensitive). */
const sortKeys = {
  createdAt: sql`${sellers.createdAt}`,
  sellerName: sellerSortKey(sellers.sellerName),
  sellerCode: sellerSortKey(sellers.sellerCode),
} as const;

type Order = 'asc' | 'desc';

const direction = (order: Order) => sql.raw(order === 'asc' ? 'ASC' : 'DESC');
const opposite = (order: Order): Order => (order === 'asc' ? 'desc' : 'asc');

/** The flag combinations of seller_tab_counts, as one statement's snapshot saw them. */
const countsCte = sql`counts AS MATERIALIZED (
  SELECT ${sellerTabCounts.isActive} AS "isActive", ${sellerTabCounts.isEmailVerified} AS "isEmailVerified",
         ${sellerTabCounts.isKycDone} AS "isKycDone", ${sellerTabCounts.sellers} AS sellers
  FROM ${sellerTabCounts})`;

/** The flag filter over the counts CTE: which combinations a filter adds up. */
function countsCondition(flags: Flags): SQL {
  const conditions = flagKeys
    .filter((key) => flags[key] !== undefined)
    .map((key) => sql`${sql.identifier(key)} = ${flags[key]}`);
  return conditions.length ? sql.join(conditions, sql` AND `) : sql`true`;
}

type SellerRow = typeof sellers.$inferSelect;
const sellerColumns = Object.entries(getTableColumns(sellers));

/** A sellers row as the driver returned it (column names), mapped the way Drizzle maps its selects. */
function sellerFromDriver(raw: Record<string, unknown>): SellerRow {
  return Object.fromEntries(
    sellerColumns.map(([key, column]) => {
      const value = raw[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as SellerRow;
}

/**
 * The end of both statements: the tab counts, the total and the page's rows, joined by primary key.
 * The one-row `meta` side keeps the counts when the page is empty (a page past the end).
 */
const pageWithCounts = (order: SQL) => sql`
  SELECT meta.counts AS "__counts", meta.total AS "__total", s.*
  FROM (SELECT (SELECT json_agg(counts) FROM counts) AS counts, (SELECT n FROM total) AS total) meta
  LEFT JOIN (page JOIN ${sellers} s ON s.id = page.id) ON true
  ORDER BY page.sort_key ${order}, page.id ${order}`;

/** One statement, one snapshot: its count, its rows and its tab counts always agree. */
function answer(found: unknown): SellerList {
  const rows = rowsOf<Record<string, unknown>>(found);
  const meta = rows[0];
  return {
    result: rows.filter((raw) => raw.id != null).map((raw) => toSellerDto(sellerFromDriver(raw))),
    count: Number(meta?.__total ?? 0),
    countHash: countHashOf((meta?.__counts ?? []) as FlagCount[]),
  };
}

/**
 * GET listSellers: a page of the sellers matching the flags, their count, and the four tab counts,
 * in one statement. The count comes from seller_tab_counts; the page ids from an index-only scan,
 * from the front (OFFSET skip) when the page lies in the first half, else from the back in the
 * opposite order (OFFSET count - skip - limit): the branch not taken is switched off by a one-time
 * filter, so a deep page walks no further than a middle one.
 */
export async function listSellers(db: Db, params: ListSellersParams): Promise<SellerList> {
  const flags = pick(params);
  const where = flagCondition(flags) ?? sql`true`;
  const key = sortKeys[params.sort];
  const { skip, limit } = params;
  const forward = direction(params.order);
  const backward = direction(opposite(params.order));
  const n = sql`(SELECT n FROM total)`;
  // Rows after the page; the page lies in the first half when they are at least as many as before it.
  const after = sql`greatest(0, ${n} - ${skip}::integer - ${limit}::integer)`;
  const found = await db.execute(sql`
    WITH ${countsCte},
    total AS MATERIALIZED (SELECT coalesce(sum(sellers), 0)::integer AS n FROM counts WHERE ${countsCondition(flags)}),
    front AS (
      SELECT ${sellers.id} AS id, ${key} AS sort_key FROM ${sellers} WHERE ${where}
      ORDER BY ${key} ${forward}, ${sellers.id} ${forward}
      OFFSET ${skip} LIMIT ${limit}
    ),
    back AS (
      SELECT ${sellers.id} AS id, ${key} AS sort_key FROM ${sellers} WHERE ${where}
      ORDER BY ${key} ${backward}, ${sellers.id} ${backward}
      OFFSET ${after} LIMIT greatest(0, least(${limit}::integer, ${n} - ${skip}::integer))
    ),
    -- The conditions on the branches hold no column: each becomes a one-time filter above its LIMIT,
    -- and the branch not taken never starts. Never more than limit rows; saying so (a constant)
    -- lets the planner join them to sellers by primary key.
    page AS (
      SELECT id, sort_key FROM front WHERE ${after} >= ${skip}::integer
      UNION ALL
      SELECT id, sort_key FROM back WHERE ${after} < ${skip}::integer
      LIMIT ${limit}
    )
    ${pageWithCounts(forward)}`);
  return answer(found);
}

/**
 * Exactly the expression of the trigram index sellers_search_trgm_idx (schema.ts): any other spelling,
 * even an equivalent one, and PostgreSQL would scan every seller instead.
 */
const searchText = sql`lower(${sellers.sellerName} || ' ' || ${sellers.sellerCode} || ' ' || ${sellers.email} || ' ' || ${sellers.phone})`;

/** Name, code, e-mail or phone contain `query` (case-insensitive, `%` and `_` literal). */
const matchesQuery = (query: string) => sql`${searchText} LIKE lower(${containsPattern(query)})`;

/**
 * GET searchSellers: like listSellers, over the sellers whose name, code, e-mail or phone contain the
 * query. One statement: the matches are found once (trigram index), then counted and paged; the sort
 * key travels with the id, so paging never goes back to the table.
 */
export async function searchSellers(db: Db, params: SearchSellersParams): Promise<SellerList> {
  const flags = pick(params);
  const order = direction(params.order);
  const conditions = [matchesQuery(params.query)];
  const flagFilter = flagCondition(flags);
  if (flagFilter) conditions.push(flagFilter);
  const found = await db.execute(sql`
    WITH ${countsCte},
    matches AS MATERIALIZED (
      SELECT ${sellers.id} AS id, ${sortKeys[params.sort]} AS sort_key
      FROM ${sellers} WHERE ${and(...conditions)}
    ),
    total AS (SELECT count(*)::integer AS n FROM matches),
    page AS (
      SELECT id, sort_key FROM matches ORDER BY sort_key ${order}, id ${order}
      OFFSET ${params.skip} LIMIT ${params.limit}
    )
    ${pageWithCounts(order)}`);
  return answer(found);
}

/**
 * The sellers a list (or, with `query`, a search) selects and the key it orders them by: the same
 * filter, search and sort as listSellers and searchSellers, for readers that walk every one of them in
 * keyset-paged batches instead of pages (exports). Rows are ordered by the key, then by id.
 */
export function sellerSelection(params: Flags & { sort: ListSellersParams['sort']; query?: string }): {
  where: SQL;
  sortKey: SQL;
} {
  const conditions: SQL[] = [];
  if (params.query) conditions.push(matchesQuery(params.query));
  const flagFilter = flagCondition(pick(params));
  if (flagFilter) conditions.push(flagFilter);
  return { where: and(...conditions) ?? sql`true`, sortKey: sortKeys[params.sort] };
}
