// The hot list and search queries keep their plans (issue 26: the catalogue's nested query went from
// p95 77 to 268 ms unnoticed when one of its variants changed path). Each list runs through its real
// repository function on a database seeded with a few thousand rows per list (the bulk seeders'
// realistic spreads) and ANALYZEd; every statement it sends is EXPLAINed with its own parameters
// (server/test-plans.ts), and the test asserts that the list reads the index meant for it and that no
// Sort has a sequential scan of a large table below it. Plans, not timings: the machine's load cannot
// make them flaky. The numbers are those at which the planner already chooses as at 200k products
// (checked against EXPLAIN of the bench's data: product-search.ts, bench/results.json).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db/client';
import { rowsOf } from './db/rows';
import { products } from './db/schema';
import { attributesByCode } from './modules/attributes/attribute-defs';
import { listCalls } from './modules/call-history/repository';
import { listContacts } from './modules/contacts/list';
import { listChats } from './modules/help-chats/repository';
import { listImports } from './modules/imports/imports';
import { compileProductQuery } from './modules/products/product-query';
import { type CountLimits, findPage, searchProducts } from './modules/products/product-search';
import { listSellers, searchSellers } from './modules/sellers/listing';
import { childrenOf } from './modules/tags/tree-reads';
import { seedBulkCalls } from './seed/bulk-calls';
import { seedBulkChats } from './seed/bulk-chats';
import { seedBulkContacts } from './seed/bulk-contacts';
import { seedBulkProducts } from './seed/bulk-products';
import { seedBulkSellers } from './seed/bulk-sellers';
import { seedBulkTags } from './seed/bulk-tags';
import {
  captureStatements,
  describePlan,
  indexesRead,
  type PlanNode,
  planOf,
  sortsOfScans,
  tablesScanned,
} from './test-plans';
import { createTestApp, type TestApp, testBackends } from './test-support';

/**
 * Rows per list: a few hundred from the bulk seeders (their realistic spreads), copied in SQL up to a few
 * thousand (seeding thousands through the generators takes minutes on a busy machine) — enough for the
 * planner to choose the indexes as it does at 100–200k.
 */
const SEEDED = 500;
const COPIES = 12;
const TAGS = 1_500;
/** The columns made unique in each copy (each table's unique keys); ids are new. */
const UNIQUE_COLUMNS: Record<string, string[]> = {
  products: ['sku', 'sku_key'],
  sellers: ['seller_code', 'email'],
  contacts: ['email'],
  chat_sessions: ['session_id'],
  call_logs: [],
};
/**
 * The grid's count limits scaled from 200k products to these few thousand (10,000 / 200k = 5 % exact
 * limit), so a broad filter takes here the branch it takes at 200k: estimated, and the page walked in
 * the grid's order. With the default limits a table this small is always counted exactly.
 */
const SCALED_LIMITS: CountLimits = {
  exactLimit: 300,
  sampleRows: 2_000,
  sampleAboveRows: 900,
  trustEstimateAbove: 600,
};
/** The tables the lists read; a sequential scan of one of these under a Sort is what must not come back. */
const LARGE = [
  'products',
  'sellers',
  'contacts',
  'chat_sessions',
  'call_logs',
  'tag_nodes',
  'catalog_imports',
];

type Plans = { text: string; plan: PlanNode }[];

/** Every row of `table` again `COPIES - 1` times: new ids, unique columns suffixed with the copy's number. */
async function copyRows(db: Db, table: string) {
  const columns = rowsOf<{ name: string }>(
    await db.execute(sql`
      SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ${table} AND is_generated = 'NEVER'
      ORDER BY ordinal_position`),
  ).map((row) => row.name);
  const unique = UNIQUE_COLUMNS[table] ?? [];
  const values = columns.map((column) =>
    column === 'id' ? 'gen_random_uuid()' : unique.includes(column) ? `${column} || '-' || copy` : column,
  );
  await db.execute(
    sql.raw(`INSERT INTO ${table} (${columns.join(', ')})
      SELECT ${values.join(', ')} FROM ${table} CROSS JOIN generate_series(2, ${COPIES}) AS copy`),
  );
}

/** The plans of every data statement `work` sends (the planner's own EXPLAINs and pg_class reads aside). */
async function plansOf(db: Db, work: () => Promise<unknown>): Promise<Plans> {
  const { statements } = await captureStatements(db, work);
  const reads = statements.filter(
    (statement) => !/^\s*EXPLAIN/i.test(statement.text) && !/FROM pg_class/i.test(statement.text),
  );
  return Promise.all(
    reads.map(async (statement) => ({ text: statement.text, plan: await planOf(db, statement) })),
  );
}

const shown = (plans: Plans) =>
  plans
    .map(({ text, plan }) => `${text.replace(/\s+/g, ' ').slice(0, 160)}\n${describePlan(plan)}`)
    .join('\n\n');

/** Every statement sorts no large table in memory; `index` is read by at least one of them. */
function expectIndexed(plans: Plans, index: string | RegExp) {
  const all = shown(plans);
  const read = plans.flatMap(({ plan }) => indexesRead(plan));
  expect(
    read.some((name) => (typeof index === 'string' ? name === index : index.test(name))),
    `expected ${index} in:\n${all}`,
  ).toBe(true);
  for (const { plan } of plans) {
    expect(sortsOfScans(plan, LARGE).map(describePlan), `a large table sorted in memory:\n${all}`).toEqual(
      [],
    );
  }
}

/** No statement reads `table` whole. */
function expectNoSeqScan(plans: Plans, table: string) {
  const scanned = plans.flatMap(({ plan }) => tablesScanned(plan));
  expect(scanned.includes(table), `a sequential scan of ${table}:\n${shown(plans)}`).toBe(false);
}

describe.each(testBackends)('the hot lists read their indexes on %s', (backend) => {
  let t: TestApp;
  let db: Db;
  let colour: ReadonlyMap<number, string>;
  let screenSizeId: number;
  let smallSeller: string;
  let agentId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    db = t.database.db;
  });
  // One step per hook: each seeder takes seconds, many more on a machine busy with other tests.
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(() => seedBulkSellers(db, SEEDED));
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(() => seedBulkProducts(db, SEEDED));
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(() => seedBulkContacts(db, SEEDED));
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(() => seedBulkChats(db, SEEDED));
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(() => seedBulkCalls(db, SEEDED));
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(() => seedBulkTags(db, TAGS));
  for (const table of Object.keys(UNIQUE_COLUMNS)) {
    // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
    beforeAll(async () => {
      await copyRows(db, table);
      // VACUUM as the seed command does: index-only scans need the visibility map.
      await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
    });
  }
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one seeding step per hook, each within hookTimeout
  beforeAll(async () => {
    await db.execute(sql`VACUUM ANALYZE tag_nodes`);
    const [colourDef] = await attributesByCode(db, ['colour']);
    colour = colourDef?.options ?? new Map();
    const [screen] = await attributesByCode(db, ['screen_size']);
    screenSizeId = screen?.id ?? 0;
    const [few] = rowsOf<{ seller_id: string }>(
      await db.execute(sql`SELECT seller_id FROM products GROUP BY seller_id ORDER BY count(*) LIMIT 1`),
    );
    smallSeller = few?.seller_id ?? '';
    const [agent] = rowsOf<{ owner_id: string }>(
      await db.execute(sql`SELECT owner_id FROM call_logs GROUP BY owner_id ORDER BY count(*) DESC LIMIT 1`),
    );
    agentId = agent?.owner_id ?? '';
  });
  afterAll(() => t?.close());

  const option = (label: string) => [...colour].find(([, value]) => value === label)?.[0] as number;
  const grid = (query: unknown, search = '', viewer: { sellerId: string | null } = { sellerId: null }) =>
    plansOf(db, () =>
      searchProducts(db, viewer, {
        query: query ?? { combinator: 'and', children: [] },
        search,
        sort: 'updatedAt',
        order: 'desc',
        skip: 0,
        limit: 50,
      } as never),
    );
  const and = (...children: unknown[]) => ({ combinator: 'and', children });
  /** A broad filter as at 200k: compiled by the grid's compiler, paged by its findPage (scaled limits). */
  const walk = (query: unknown) =>
    plansOf(db, async () => {
      const compiled = await compileProductQuery(db, query as never);
      const found = await findPage(
        db,
        compiled.where,
        { key: sql`${products.updatedAt}`, order: 'desc', skip: 0, limit: 50, unfiltered: false },
        SCALED_LIMITS,
      );
      expect(found.countExact, 'a broad filter is estimated at scale').toBe(false);
    });

  it('products: the bench nested query (enum + attribute OR group) walks the grid order index', async () => {
    expect(screenSizeId).toBeGreaterThan(0);
    for (const [first, second] of [
      ['Black', 'Blue'],
      ['Grey', 'Green'],
    ]) {
      const plans = await walk(
        and(
          { field: 'status', op: 'anyOf', value: ['live', 'approved'] },
          {
            combinator: 'or',
            children: [
              {
                field: 'attr.colour',
                op: 'anyOf',
                value: [option(first as string), option(second as string)],
              },
              { field: 'attr.screen_size', op: 'gte', value: 6 },
            ],
          },
        ),
      );
      expectIndexed(plans, /^products_(status_)?updated_idx$/);
    }
  });

  it('products: a number range and a date range walk the grid order index', async () => {
    expectIndexed(await walk(and({ field: 'price', op: 'between', value: [100, 5000] })), /updated_idx$/);
    expectIndexed(await walk(and({ field: 'createdAt', op: 'after', value: '2020-01-01' })), /updated_idx$/);
  });

  it('products: a rare option reads the attribute GIN index', async () => {
    const plans = await grid(
      and({ field: 'attr.colour', op: 'anyOf', value: [option('Gold') ?? option('Silver')] }),
    );
    expectIndexed(plans, 'products_attr_index_gin');
    expectNoSeqScan(plans, 'products');
  });

  it('products: a seller filter, and a seller viewing their own list, read the seller index', async () => {
    const filtered = await grid(and({ field: 'seller', op: 'anyOf', value: [smallSeller] }));
    expectIndexed(filtered, /^products_seller_/);
    expectNoSeqScan(filtered, 'products');
    const own = await grid(undefined, '', { sellerId: smallSeller });
    expectIndexed(own, /^products_seller_/);
    expectNoSeqScan(own, 'products');
  });

  it('products: the search box, and a title condition, read the trigram index', async () => {
    const searched = await grid(undefined, 'wireless');
    expectIndexed(searched, 'products_search_trgm_idx');
    expectNoSeqScan(searched, 'products');
    const titled = await grid(and({ field: 'title', op: 'contains', value: 'wireless' }));
    expectIndexed(titled, 'products_search_trgm_idx');
    expectNoSeqScan(titled, 'products');
  });

  it('products: a broad tag condition (a top-level tag) walks the grid order index', async () => {
    const [tag] = rowsOf<{ id: string }>(
      await db.execute(sql`SELECT id FROM tag_nodes WHERE parent_id IS NULL ORDER BY seq LIMIT 1`),
    );
    // The bulk products came before the tags: a third of them get this one (as the tags bench does).
    await db.execute(sql`UPDATE products SET tag_ids = ARRAY[${tag?.id}::uuid] WHERE inventory % 3 = 0`);
    await db.execute(sql`VACUUM ANALYZE products`);
    expectIndexed(await walk(and({ field: 'tags', op: 'under', value: [tag?.id] })), /updated_idx$/);
  });

  it('sellers: the list, a tab, a deep page and a search read their indexes', async () => {
    const list = (params: Record<string, unknown>) =>
      plansOf(db, () =>
        listSellers(db, { sort: 'createdAt', order: 'desc', skip: 0, limit: 10, ...params } as never),
      );
    expectIndexed(await list({}), /^sellers_created_idx$/);
    expectIndexed(await list({ isActive: true, sort: 'sellerName', order: 'asc' }), /^sellers_tab_name_idx$/);
    expectIndexed(await list({ skip: SEEDED * COPIES - 100 }), /^sellers_created_idx$/);
    const searched = await plansOf(db, () =>
      searchSellers(db, { query: 'seller', sort: 'createdAt', order: 'desc', skip: 0, limit: 10 } as never),
    );
    expectIndexed(searched, 'sellers_search_trgm_idx');
  });

  it('contacts: the list and a search read their indexes', async () => {
    const list = (query: Record<string, unknown>) =>
      plansOf(db, () =>
        listContacts(db, {
          sort: 'createdAt',
          order: 'desc',
          skip: 0,
          limit: 50,
          search: '',
          ...query,
        } as never),
      );
    expectIndexed(await list({}), 'contacts_created_idx');
    expectIndexed(await list({ search: 'kumar' }), 'contacts_search_trgm_idx');
  });

  it('help chats: everyone’s and a seller’s read their indexes, a search sorts no table', async () => {
    const [seller] = rowsOf<{ seller_id: string }>(
      await db.execute(
        sql`SELECT seller_id FROM chat_sessions GROUP BY seller_id ORDER BY count(*) DESC LIMIT 1`,
      ),
    );
    const reader = { kind: 'user' as const, userId: agentId };
    // One customer's e-mail: a dozen chats (the copies), as a search for a person finds.
    const [one] = rowsOf<{ email: string }>(
      await db.execute(sql`SELECT email FROM chat_sessions WHERE email <> '' ORDER BY id LIMIT 1`),
    );
    const rare = one?.email ?? '';
    expectIndexed(
      await plansOf(db, () => listChats(db, { reader, skip: 0, limit: 20 })),
      'chat_sessions_recent_idx',
    );
    expectIndexed(
      await plansOf(db, () => listChats(db, { reader, sellerId: seller?.seller_id, skip: 0, limit: 20 })),
      'chat_sessions_seller_idx',
    );
    // A search's count: at 6,000 chats both databases still prefer reading them all to the trigram
    // index (cheaper at this size), so only the page is held to its order here; the bench (50k) measures it.
    const searched = await plansOf(db, () => listChats(db, { reader, query: rare, skip: 0, limit: 20 }));
    for (const { plan } of searched) expect(sortsOfScans(plan, LARGE), shown(searched)).toEqual([]);
  });

  it('calls: everyone’s, a user’s and a number search read their indexes', async () => {
    // Seven digits of one call's number: what someone types to find a caller.
    const [call] = rowsOf<{ digits: string }>(
      await db.execute(sql`SELECT right(phone_digits, 7) AS digits FROM call_logs ORDER BY id LIMIT 1`),
    );
    const digits = call?.digits ?? '';
    expect(digits).toHaveLength(7);
    expectIndexed(await plansOf(db, () => listCalls(db, { skip: 0, limit: 20 })), 'call_logs_recent_idx');
    expectIndexed(
      await plansOf(db, () => listCalls(db, { ownerId: agentId, skip: 0, limit: 20 })),
      /^call_logs_owner/,
    );
    expectIndexed(
      await plansOf(db, () => listCalls(db, { number: digits, skip: 0, limit: 20 })),
      'call_logs_digits_trgm_idx',
    );
  });

  it('tags: the roots and a node’s children read the sibling index', async () => {
    const draft = { kind: 'draft' } as const;
    const roots = await plansOf(db, () => childrenOf(db, draft, { skip: 0, limit: 50 }));
    expectIndexed(roots, 'tag_nodes_sibling_name_uq');
    const [parent] = rowsOf<{ id: string }>(
      await db.execute(sql`SELECT id FROM tag_nodes WHERE parent_id IS NULL ORDER BY seq LIMIT 1`),
    );
    expectIndexed(
      await plansOf(db, () => childrenOf(db, draft, { parent: parent?.id, skip: 0, limit: 50 })),
      'tag_nodes_sibling_name_uq',
    );
  });

  it('imports: the list reads the import order index', async () => {
    const plans = await plansOf(db, () => listImports(db, { sellerId: null }, { skip: 0, limit: 20 }));
    for (const { plan } of plans) expect(sortsOfScans(plan, LARGE), shown(plans)).toEqual([]);
  });
});
