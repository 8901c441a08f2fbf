import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountHash, type SellerList, searchFilterOf, sellerTabs } from '../../../contracts/sellers';
import { sellers } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';

type Row = typeof sellers.$inferSelect;
type FlagKey = 'isActive' | 'isEmailVerified' | 'isKycDone';
type Flags = Partial<Record<FlagKey, boolean>>;

const flagKeys: FlagKey[] = ['isActive', 'isEmailVerified', 'isKycDone'];
const bools = [false, true];

/** Every filter the API accepts: each flag absent, true or false (27 combinations). */
const allFilters: Flags[] = [undefined, false, true].flatMap((isActive) =>
  [undefined, false, true].flatMap((isEmailVerified) =>
    [undefined, false, true].map((isKycDone) => {
      const flags: Flags = {};
      if (isActive !== undefined) flags.isActive = isActive;
      if (isEmailVerified !== undefined) flags.isEmailVerified = isEmailVerified;
      if (isKycDone !== undefined) flags.isKycDone = isKycDone;
      return flags;
    }),
  ),
);

const base = Date.UTC(2026, 0, 1);
const at = (minutes: number) => new Date(base + minutes * 60_000);

/**
 * Sellers in all eight flag combinations (also ones the lifecycle never produces, such as active but
 * unverified: the filters must still be exact), with shared creation times so that paging depends on
 * the id tie-break, mixed-case names, and the odd characters search must take literally.
 */
function fixtures() {
  const rows: (typeof sellers.$inferInsert)[] = [];
  let n = 0;
  for (const isActive of bools)
    for (const isEmailVerified of bools)
      for (const isKycDone of bools)
        for (let copy = 0; copy < 4; copy++) {
          n++;
          rows.push({
            sellerCode: `FX-${String(n).padStart(3, '0')}`,
            sellerName: `${copy % 2 ? 'fixture' : 'Fixture'} ${['Mango', 'apple', 'Zest', 'banana'][copy]} ${n}`,
            email: `fixture${n}@listing.test`,
            phone: `+44 7700 ${String(900_000 + n)}`,
            isActive,
            isEmailVerified,
            isKycDone,
            // Three sellers share each minute: only the id orders them.
            createdAt: at(Math.floor(n / 3)),
          });
        }
  rows.push(
    {
      sellerCode: 'QX-9931',
      sellerName: 'Quokka Quilts',
      email: 'harriet.vane@mystery.example',
      phone: '+61 491 570 156',
      isActive: true,
      isEmailVerified: true,
      isKycDone: true,
      createdAt: at(500),
    },
    {
      sellerCode: 'PC-0100',
      sellerName: '100% Cotton_Mills',
      email: 'under_score@cotton.example',
      phone: '+91 80000 11111',
      isActive: false,
      isEmailVerified: true,
      isKycDone: true,
      createdAt: at(501),
    },
    {
      // Pending KYC by the search reading (isActive false, isKycDone false) but Pending Verification by
      // the list reading (its e-mail is not verified): SPEC §4 says both readings hold.
      sellerCode: 'KR-0001',
      sellerName: 'Kyc Reading Unverified',
      email: 'kyc.reading@two.example',
      phone: '+91 70000 22222',
      isActive: false,
      isEmailVerified: false,
      isKycDone: false,
      createdAt: at(502),
    },
    {
      sellerCode: 'KR-0002',
      sellerName: 'Kyc Reading Verified',
      email: 'kyc.verified@two.example',
      phone: '+91 70000 33333',
      isActive: false,
      isEmailVerified: true,
      isKycDone: false,
      createdAt: at(503),
    },
  );
  return rows;
}

const satisfies = (row: Row, flags: Flags) =>
  flagKeys.every((key) => flags[key] === undefined || flags[key] === row[key]);

type Sort = 'createdAt' | 'sellerName' | 'sellerCode';
type Order = 'asc' | 'desc';

/** The order the API promises: the key (names and codes case-insensitive, by code point), then id. */
function compare(sort: Sort, order: Order) {
  const key = (row: Row) =>
    sort === 'createdAt'
      ? row.createdAt.getTime()
      : (sort === 'sellerName' ? row.sellerName : row.sellerCode).toLowerCase();
  const sign = order === 'asc' ? 1 : -1;
  return (a: Row, b: Row) => {
    const [ka, kb] = [key(a), key(b)];
    if (ka !== kb) return ka < kb ? -sign : sign;
    return a.id < b.id ? -sign : a.id > b.id ? sign : 0;
  };
}

const searchText = (row: Row) =>
  `${row.sellerName} ${row.sellerCode} ${row.email} ${row.phone}`.toLowerCase();

function expectedCountHash(rows: Row[]): CountHash {
  const hash = { isActive: 0, isEmailVerified: 0, isKycDone: 0, isInActive: 0 };
  for (const tab of sellerTabs) hash[tab.countKey] = rows.filter((row) => satisfies(row, tab.filter)).length;
  return hash;
}

const query = (params: Record<string, string | number | boolean | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  ).toString();

describe.each(testBackends)('seller list and search on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    await t.database.db.insert(sellers).values(fixtures());
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const get = (
    path: string,
    params: Record<string, string | number | boolean | undefined>,
    who: DemoRole = 'Staff',
  ) => as(who, 'GET', `/api/v1/sellers/${path}?${query(params)}`);
  const list = async (
    params: Record<string, string | number | boolean | undefined>,
    path = 'listSellers',
  ) => {
    const response = await get(path, params);
    expect(response.statusCode, response.body).toBe(200);
    return json<SellerList>(response);
  };
  const allRows = () => t.database.db.select().from(sellers);

  /** Every page of a list or search, limit rows at a time, checking count and countHash on each. */
  async function everyPage(
    params: Record<string, string | number | boolean | undefined>,
    limit: number,
    path = 'listSellers',
  ) {
    const first = await list({ ...params, skip: 0, limit }, path);
    const ids = first.result.map((row) => row.id);
    for (let skip = limit; skip < first.count; skip += limit) {
      const page = await list({ ...params, skip, limit }, path);
      expect(page.count).toBe(first.count);
      expect(page.countHash).toEqual(first.countHash);
      expect(page.result.length).toBe(Math.min(limit, first.count - skip));
      ids.push(...page.result.map((row) => row.id));
    }
    return { ids, count: first.count };
  }

  it('answers every combination of the three flags with exactly its sellers, their count and the tab counts', async () => {
    const rows = await allRows();
    const countHash = expectedCountHash(rows);
    expect(Object.values(countHash).every((count) => count > 0)).toBe(true);
    for (const flags of allFilters) {
      const body = await list({ ...flags, limit: 100 });
      const expected = rows.filter((row) => satisfies(row, flags)).sort(compare('createdAt', 'desc'));
      expect(body.count, JSON.stringify(flags)).toBe(expected.length);
      expect(
        body.result.map((row) => row.id),
        JSON.stringify(flags),
      ).toEqual(expected.slice(0, 100).map((row) => row.id));
      expect(body.result.every((row) => satisfies(row as unknown as Row, flags))).toBe(true);
      expect(body.countHash).toEqual(countHash);
    }
  });

  it('answers each tab with its own rows and the count its tab shows', async () => {
    const rows = await allRows();
    for (const tab of sellerTabs) {
      const body = await list({ ...tab.filter, limit: 100 });
      expect(body.count).toBe(body.countHash[tab.countKey]);
      const statuses = new Set(body.result.map((row) => row.status));
      expect(statuses.size, tab.key).toBe(1);
      expect(body.count).toBe(rows.filter((row) => satisfies(row, tab.filter)).length);
    }
  });

  const orders: [Sort, Order][] = [
    ['createdAt', 'desc'],
    ['createdAt', 'asc'],
    ['sellerName', 'asc'],
    ['sellerName', 'desc'],
    ['sellerCode', 'asc'],
    ['sellerCode', 'desc'],
  ];
  const filters: Flags[] = [{}, ...sellerTabs.map((tab) => tab.filter), { isKycDone: true }];

  it('pages through every tab in every order without repeating or skipping a row', async () => {
    const rows = await allRows();
    for (const flags of filters)
      for (const [sort, order] of orders) {
        const expected = rows.filter((row) => satisfies(row, flags)).sort(compare(sort, order));
        const { ids, count } = await everyPage({ ...flags, sort, order }, 7);
        const label = `${JSON.stringify(flags)} ${sort} ${order}`;
        expect(count, label).toBe(expected.length);
        expect(new Set(ids).size, label).toBe(ids.length);
        expect(ids, label).toEqual(expected.map((row) => row.id));
      }
  });

  it('answers a page past the end with no rows and the right count', async () => {
    const body = await list({ isActive: true, skip: 10_000, limit: 10 });
    expect(body.result).toEqual([]);
    expect(body.count).toBe(body.countHash.isActive);
  });

  it('defaults to the newest first, ten at a time', async () => {
    const rows = (await allRows()).sort(compare('createdAt', 'desc'));
    const body = await list({});
    expect(body.result.map((row) => row.id)).toEqual(rows.slice(0, 10).map((row) => row.id));
  });

  it('finds sellers by a fragment of the name, code, e-mail or phone, in any case', async () => {
    const rows = await allRows();
    const cases: [string, string][] = [
      ['okka QUI', 'Quokka Quilts'],
      ['qx-99', 'Quokka Quilts'],
      ['VANE@myst', 'Quokka Quilts'],
      ['491 570', 'Quokka Quilts'],
      ['kyc.verified@', 'Kyc Reading Verified'],
      ['80000 111', '100% Cotton_Mills'],
    ];
    for (const [text, name] of cases) {
      const body = await list({ query: text }, 'searchSellers');
      expect(
        body.result.map((row) => row.sellerName),
        text,
      ).toEqual([name]);
      expect(body.count).toBe(1);
      expect(body.countHash).toEqual(expectedCountHash(rows));
    }
  });

  it('counts and pages every match of a search, with filters and in every order', async () => {
    const rows = await allRows();
    for (const flags of filters)
      for (const [sort, order] of orders) {
        const expected = rows
          .filter((row) => satisfies(row, flags) && searchText(row).includes('fixture'))
          .sort(compare(sort, order));
        const { ids, count } = await everyPage(
          { ...flags, sort, order, query: ' FIXTURE ' },
          5,
          'searchSellers',
        );
        const label = `${JSON.stringify(flags)} ${sort} ${order}`;
        expect(count, label).toBe(expected.length);
        expect(ids, label).toEqual(expected.map((row) => row.id));
      }
  });

  it('takes %, _ and \\ in a search literally', async () => {
    const rows = await allRows();
    for (const text of ['%', '_', '0% c', 'n_m', '\\']) {
      const body = await list({ query: text, limit: 100 }, 'searchSellers');
      const expected = rows.filter((row) => searchText(row).includes(text.toLowerCase()));
      expect(body.count, text).toBe(expected.length);
      expect(body.result.map((row) => row.id).sort(), text).toEqual(expected.map((row) => row.id).sort());
    }
    expect((await list({ query: '%' }, 'searchSellers')).count).toBe(1);
  });

  it('applies both Pending KYC readings: the search filter and the list filter (SPEC §4)', async () => {
    const unverified = 'Kyc Reading Unverified';
    const verified = 'Kyc Reading Verified';
    const search = await list({ ...searchFilterOf['pending-kyc'], query: 'kyc reading' }, 'searchSellers');
    expect(search.result.map((row) => row.sellerName).sort()).toEqual([unverified, verified]);
    const kycTab = sellerTabs.find((tab) => tab.key === 'pending-kyc')!;
    const listed = await everyPage({ ...kycTab.filter }, 50);
    const names = new Set(
      (await t.database.db.select().from(sellers).where(inArray(sellers.id, listed.ids))).map(
        (row) => row.sellerName,
      ),
    );
    expect(names.has(verified)).toBe(true);
    expect(names.has(unverified)).toBe(false);
    // The same search with the list's filter drops the unverified seller.
    const strict = await list({ ...kycTab.filter, query: 'kyc reading' }, 'searchSellers');
    expect(strict.result.map((row) => row.sellerName)).toEqual([verified]);
  });

  it('keeps the tab counts right through inserts, flag changes (one or many rows at once) and deletes', async () => {
    const db = t.database.db;
    const check = async () => {
      const body = await list({ limit: 1 });
      const rows = await allRows();
      expect(body.countHash).toEqual(expectedCountHash(rows));
      expect(body.count).toBe(rows.length);
    };
    const [added] = await db
      .insert(sellers)
      .values({ sellerCode: 'CNT-1', sellerName: 'Counted Seller', email: 'counted@listing.test' })
      .returning();
    await check();
    await db.update(sellers).set({ isEmailVerified: true }).where(eq(sellers.id, added!.id));
    await check();
    await db.update(sellers).set({ sellerName: 'Renamed Counted Seller' }).where(eq(sellers.id, added!.id));
    await check();
    // One statement moving rows between several tabs in both directions.
    const moved = await db
      .update(sellers)
      .set({ isActive: true })
      .where(inArray(sellers.sellerCode, ['FX-001', 'FX-005', 'FX-013', 'CNT-1']))
      .returning({ id: sellers.id });
    expect(moved).toHaveLength(4);
    await check();
    await db
      .update(sellers)
      .set({ isActive: false })
      .where(inArray(sellers.sellerCode, ['FX-001', 'FX-005', 'FX-013']));
    await check();
    await db.delete(sellers).where(eq(sellers.id, added!.id));
    await check();
  });

  it('refuses bad input with 400 and a message naming the problem', async () => {
    const bad: [string, Record<string, string | number>, RegExp][] = [
      ['listSellers', { limit: 101 }, /limit/],
      ['listSellers', { limit: 0 }, /limit/],
      ['listSellers', { skip: -1 }, /skip/],
      ['listSellers', { skip: 'x' }, /skip/],
      ['listSellers', { sort: 'price' }, /sort/],
      ['listSellers', { order: 'up' }, /order/],
      ['listSellers', { isActive: 'maybe' }, /isActive/],
      ['searchSellers', {}, /query/],
      ['searchSellers', { query: '   ' }, /Enter something to search for/],
      ['searchSellers', { query: 'x'.repeat(101) }, /query/],
      ['searchSellers', { query: 'a', limit: 500 }, /limit/],
    ];
    for (const [path, params, message] of bad) {
      const response = await get(path, params);
      expect(response.statusCode, `${path} ${JSON.stringify(params)}`).toBe(400);
      const body = json<{ message: string; code: string }>(response);
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.message).toMatch(message);
    }
  });

  it('lets staff and admins view sellers, and refuses sellers and anonymous callers', async () => {
    for (const path of ['listSellers', 'searchSellers']) {
      const params = { query: 'fixture' };
      expect((await get(path, params, 'Admin')).statusCode).toBe(200);
      expect((await get(path, params, 'Staff')).statusCode).toBe(200);
      for (const who of ['Seller', 'Blocked'] as const) {
        const response = await get(path, params, who);
        expect(response.statusCode, `${who} ${path}`).toBe(403);
        expect(json(response).code).toBe('FORBIDDEN');
      }
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/sellers/${path}?query=x` });
      expect(anonymous.statusCode).toBe(401);
    }
  });
});
