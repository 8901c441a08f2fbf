// The tag tree API (issue 16) on PGlite and PostgreSQL: building the draft (add, rename, move, delete,
// each refused with a clear message when it would break the tree or overwrite a colleague's change),
// publishing with its diff and the remap of removed tags, versions and diffs between them, rolling
// back, the level calculation, exports, the overview, and who may do what.
import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskAccepted } from '../../../contracts/notifications';
import type {
  DeleteTagImpact,
  PublishPreview,
  TagDiff,
  TagNodeList,
  TagNodeWithPath,
  TagOverview,
  TagSearchResult,
  TagTreeState,
  TagVersion,
  TagVersionList,
} from '../../../contracts/tags';
import { formulaCells, parseCsv } from '../../../tests/csv';
import { rowsOf } from '../../db/rows';
import { products } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { exportFilePath } from '../exports/export-job';
import { clearTagTree } from './test-helpers';

const API = '/api/v1/tags';

describe.each(testBackends)('tag tree API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  const runJobs = async () => {
    while (await t.app.jobs.worker.runOnce()) {}
  };
  const add = async (name: string, parentId: string | null = null, who: 'Admin' | 'Staff' = 'Staff') => {
    const response = await as(who, 'POST', `${API}/draft/nodes`, { name, parentId });
    expect(response.statusCode, response.body).toBe(201);
    return json<TagNodeWithPath>(response);
  };
  const node = async (id: string, source = 'draft') =>
    json<TagNodeWithPath>(await as('Admin', 'GET', `${API}/trees/${source}/nodes/${id}`));
  const children = async (parent: string | null, source = 'draft') =>
    json<TagNodeList>(
      await as('Admin', 'GET', `${API}/trees/${source}/children${parent ? `?parent=${parent}` : ''}`),
    ).result;
  const state = async () => json<TagTreeState>(await as('Admin', 'GET', `${API}/state`));
  const preview = async () => json<PublishPreview>(await as('Admin', 'GET', `${API}/publishPreview`));
  const publishNow = async (body: Record<string, unknown> = {}) => {
    const { draftRevision } = await preview();
    const response = await as('Admin', 'POST', `${API}/publish`, { draftRevision, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return json<TagVersion>(response);
  };
  const tagProduct = async (sku: string, tagIds: string[]) => {
    const [product] = await t.database.db
      .update(products)
      .set({ tagIds })
      .where(eq(products.sku, sku))
      .returning({ id: products.id });
    return product?.id as string;
  };
  const anySku = async (offset: number) => {
    const [row] = rowsOf<{ sku: string }>(
      await t.database.db.execute(sql`SELECT sku FROM products ORDER BY sku OFFSET ${offset} LIMIT 1`),
    );
    return row?.sku as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    await clearTagTree(t.database.db);
  });
  afterAll(() => t?.close());

  let apparel: TagNodeWithPath;
  let men: TagNodeWithPath;
  let shirts: TagNodeWithPath;
  let formal: TagNodeWithPath;
  let women: TagNodeWithPath;

  it('builds a draft tree: paths, levels, codes, children counts; names unique among siblings', async () => {
    apparel = await add('Apparel');
    men = await add('Men', apparel.id);
    shirts = await add('Shirts & Tees', men.id);
    formal = await add('Formal', shirts.id);
    women = await add('Women', apparel.id);
    await add('Shirts & Tees', women.id); // the same name under another parent is fine
    expect(formal).toMatchObject({
      level: 4,
      code: 'formal',
      status: 'new',
      pathNames: ['Apparel', 'Men', 'Shirts & Tees', 'Formal'],
    });
    expect(shirts.code).toBe('shirts-tees');
    expect((await add('Shirts', women.id)).code).toBe('shirts');
    expect((await node(apparel.id)).childrenCount).toBe(2);
    expect((await children(null)).map((n) => n.name)).toEqual(['Apparel']);
    expect((await children(apparel.id)).map((n) => n.name)).toEqual(['Men', 'Women']);

    const twin = await as('Staff', 'POST', `${API}/draft/nodes`, { name: '  men ', parentId: apparel.id });
    expect(twin.statusCode).toBe(409);
    expect(json(twin).message).toBe('A tag named “Men” is already under “Apparel”.');
    const orphan = await as('Staff', 'POST', `${API}/draft/nodes`, {
      name: 'Lost',
      parentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(orphan.statusCode).toBe(400);
    expect(json(orphan).message).toBe('There is no such parent tag.');
    const code = await as('Staff', 'POST', `${API}/draft/nodes`, {
      name: 'Other',
      parentId: null,
      code: 'men',
    });
    expect(code.statusCode).toBe(409);
    expect(json(code).message).toBe('The code “men” belongs to “Men”.');
    for (const name of ['', 'a > b', 'two\nlines', 'x'.repeat(121)]) {
      const bad = await as('Staff', 'POST', `${API}/draft/nodes`, { name, parentId: null });
      expect(bad.statusCode, name).toBe(400);
      expect(json(bad).message).toBeTruthy();
    }
    // A 10 MB name is refused before it is read, with a message.
    const huge = await as('Staff', 'POST', `${API}/draft/nodes`, {
      name: 'x'.repeat(10 * 1024 * 1024),
      parentId: null,
    });
    expect(huge.statusCode).toBe(413);
    expect(json(huge).message).toBeTruthy();
  });

  it('searches by name or code, shallowest first, with each match’s path', async () => {
    const found = json<TagSearchResult>(await as('Staff', 'GET', `${API}/trees/draft/search?query=shirt`));
    // Shallowest first, then by name, then in the order they were made.
    expect(found.result.map((n) => n.pathNames.join(' > '))).toEqual([
      'Apparel > Women > Shirts',
      'Apparel > Men > Shirts & Tees',
      'Apparel > Women > Shirts & Tees',
    ]);
    expect(found.count).toBe(3);
  });

  it('renames with the version read; a stale version is refused naming who changed the tag', async () => {
    const renamed = await as('Staff', 'PATCH', `${API}/draft/nodes/${men.id}`, {
      version: men.version,
      name: 'Menswear',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json<TagNodeWithPath>(renamed)).toMatchObject({ name: 'Menswear', version: men.version + 1 });
    const stale = await as('Admin', 'PATCH', `${API}/draft/nodes/${men.id}`, {
      version: men.version,
      name: 'Gents',
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toMatch(/^Sam Staff changed “Menswear” after you opened it\./);
    men = await node(men.id);
  });

  it('moves a subtree: only its paths change, levels follow; never under its own descendant', async () => {
    const cycle = await as('Staff', 'POST', `${API}/draft/nodes/${men.id}/move`, {
      version: men.version,
      parentId: formal.id,
    });
    expect(cycle.statusCode).toBe(409);
    expect(json(cycle).message).toBe('“Menswear” cannot move under “Formal”, which is inside it.');
    const self = await as('Staff', 'POST', `${API}/draft/nodes/${men.id}/move`, {
      version: men.version,
      parentId: men.id,
    });
    expect(self.statusCode).toBe(409);

    const moved = await as('Staff', 'POST', `${API}/draft/nodes/${shirts.id}/move`, {
      version: shirts.version,
      parentId: null,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(json<TagNodeWithPath>(moved)).toMatchObject({ level: 1, pathNames: ['Shirts & Tees'] });
    expect(await node(formal.id)).toMatchObject({ level: 2, pathNames: ['Shirts & Tees', 'Formal'] });
    expect((await node(men.id)).childrenCount).toBe(0);
    // And back, under Menswear again: a sibling name clash would be refused.
    shirts = await node(shirts.id);
    const back = await as('Staff', 'POST', `${API}/draft/nodes/${shirts.id}/move`, {
      version: shirts.version,
      parentId: men.id,
    });
    expect(back.statusCode).toBe(200);
    expect(await node(formal.id)).toMatchObject({
      level: 4,
      pathNames: ['Apparel', 'Menswear', 'Shirts & Tees', 'Formal'],
    });
    shirts = await node(shirts.id);
    const clash = await as('Staff', 'POST', `${API}/draft/nodes/${shirts.id}/move`, {
      version: shirts.version,
      parentId: women.id,
    });
    expect(clash.statusCode).toBe(409);
    expect(json(clash).message).toBe('A tag named “Shirts & Tees” is already under “Women”.');
  });

  it('publishes the first version: the diff lists every tag as added; the storefront reads it', async () => {
    const first = await preview();
    expect(first.latest).toBeNull();
    expect(first.diff.counts).toMatchObject({ added: 7, removed: 0 });
    expect(first.problems).toEqual([]);
    const version = await publishNow({ note: 'First tree' });
    expect(version).toMatchObject({ number: 1, nodeCount: 7, note: 'First tree', summary: { added: 7 } });
    expect((await node(men.id)).status).toBe('published');
    expect((await children(apparel.id, 'latest')).map((n) => n.name)).toEqual(['Menswear', 'Women']);
    const seller = await as('Seller', 'GET', `${API}/trees/latest/children?parent=${apparel.id}`);
    expect(seller.statusCode).toBe(200);
    expect((await as('Seller', 'GET', `${API}/trees/draft/children`)).statusCode).toBe(403);
  });

  it('previews a publish: renamed, moved, added, removed, the products it touches, and where removed tags’ products go', async () => {
    const sku = await anySku(0);
    const productId = await tagProduct(sku, [formal.id]);
    shirts = await node(shirts.id);
    await as('Staff', 'PATCH', `${API}/draft/nodes/${women.id}`, {
      version: women.version,
      name: 'Womenswear',
    });
    await as('Staff', 'POST', `${API}/draft/nodes/${shirts.id}/move`, {
      version: shirts.version,
      parentId: apparel.id,
    });
    const kids = await add('Kids', apparel.id);
    formal = await node(formal.id);
    const impact = json<DeleteTagImpact>(
      await as('Staff', 'GET', `${API}/draft/nodes/${formal.id}/deleteImpact`),
    );
    expect(impact).toEqual({ children: 0, descendants: 0, products: 1, subtreeProducts: 1 });
    // The product keeps its tag until publish (it is still live): publish asks where it goes.
    const deleted = await as('Staff', 'POST', `${API}/draft/nodes/${formal.id}/delete`, {
      version: formal.version,
      products: 'untag',
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(json(deleted)).toMatchObject({ deleted: 1, productsChanged: 1 });
    await tagProduct(sku, [formal.id]); // as if it was tagged again meanwhile (an import, a rollback)

    const next = await preview();
    expect(next.diff.counts).toEqual({ added: 1, removed: 1, renamed: 1, moved: 1, recoded: 0 });
    expect(next.diff.added.map((n) => n.path)).toEqual(['Apparel > Kids']);
    expect(next.diff.removed.map((n) => n.path)).toEqual(['Apparel > Menswear > Shirts & Tees > Formal']);
    expect(next.diff.renamed).toEqual([expect.objectContaining({ name: 'Womenswear', before: 'Women' })]);
    expect(next.diff.moved).toEqual([
      expect.objectContaining({
        path: 'Apparel > Shirts & Tees',
        fromPath: 'Apparel > Menswear > Shirts & Tees',
      }),
    ]);
    expect(next.diff.affectedProducts).toBe(1);
    expect(next.remapNeeded).toEqual([
      { node: expect.objectContaining({ id: formal.id, name: 'Formal' }), products: 1 },
    ]);
    const refused = await as('Admin', 'POST', `${API}/publish`, { draftRevision: next.draftRevision });
    expect(refused.statusCode).toBe(409);
    expect(json(refused).message).toBe('Choose where the products of “Formal” go before publishing.');
    const stale = await as('Admin', 'POST', `${API}/publish`, {
      draftRevision: next.draftRevision - 1,
      remap: [{ nodeId: formal.id, to: kids.id }],
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).code).toBe('DRAFT_CHANGED');

    const version = await publishNow({ remap: [{ nodeId: formal.id, to: kids.id }] });
    expect(version).toMatchObject({ number: 2, summary: { added: 1, removed: 1, renamed: 1, moved: 1 } });
    const [product] = await t.database.db.select().from(products).where(eq(products.id, productId));
    expect(product?.tagIds).toEqual([kids.id]);
    // Version 1 is still there as it was; the diff between versions reads the same changes.
    expect((await children(apparel.id, '1')).map((n) => n.name)).toEqual(['Menswear', 'Women']);
    expect((await children(apparel.id, '2')).map((n) => n.name)).toEqual([
      'Kids',
      'Menswear',
      'Shirts & Tees',
      'Womenswear',
    ]);
    const between = json<TagDiff>(await as('Staff', 'GET', `${API}/diff?from=1&to=2`));
    expect(between.counts).toEqual({ added: 1, removed: 1, renamed: 1, moved: 1, recoded: 0 });
    const none = json<TagDiff>(await as('Staff', 'GET', `${API}/diff?from=2&to=draft`));
    expect(none.counts).toEqual({ added: 0, removed: 0, renamed: 0, moved: 0, recoded: 0 });
  });

  it('rolls back: the draft becomes version 1, and publishing it makes version 3', async () => {
    const before = await state();
    const stale = await as('Admin', 'POST', `${API}/rollback`, {
      version: 1,
      draftRevision: before.draftRevision - 1,
    });
    expect(stale.statusCode).toBe(409);
    const back = await as('Admin', 'POST', `${API}/rollback`, {
      version: 1,
      draftRevision: before.draftRevision,
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(json<TagTreeState>(back)).toMatchObject({ rolledBackFrom: 1, latest: 2 });
    expect((await children(apparel.id)).map((n) => n.name)).toEqual(['Menswear', 'Women']);
    expect(await node(formal.id)).toMatchObject({
      level: 4,
      pathNames: ['Apparel', 'Menswear', 'Shirts & Tees', 'Formal'],
    });
    const sameAsOne = json<TagDiff>(await as('Admin', 'GET', `${API}/diff?from=1&to=draft`));
    expect(sameAsOne.counts).toEqual({ added: 0, removed: 0, renamed: 0, moved: 0, recoded: 0 });
    // Kids is gone again and carries the product: publish asks where it goes.
    const next = await preview();
    expect(next.remapNeeded.map((need) => need.node.name)).toEqual(['Kids']);
    const kidsId = next.remapNeeded[0]?.node.id as string;
    const version = await publishNow({
      remap: [{ nodeId: kidsId, to: null }],
      note: 'Back to the first tree',
    });
    expect(version).toMatchObject({ number: 3, rolledBackFrom: 1 });
    const diff = json<TagDiff>(await as('Admin', 'GET', `${API}/diff?from=1&to=3`));
    expect(diff.counts).toEqual({ added: 0, removed: 0, renamed: 0, moved: 0, recoded: 0 });
    const versions = json<TagVersionList>(await as('Seller', 'GET', `${API}/versions`));
    expect(versions.result.map((v) => [v.number, v.rolledBackFrom])).toEqual([
      [3, 1],
      [2, null],
      [1, null],
    ]);
    expect((await state()).rolledBackFrom).toBeNull();
  });

  it('calculates levels and product counts as a task, and shows the status overview', async () => {
    const sku = await anySku(1);
    const other = await anySku(2);
    await tagProduct(sku, [formal.id]);
    await tagProduct(other, [women.id, shirts.id]);
    const started = await as('Staff', 'POST', `${API}/calculateLevels`);
    expect(started.statusCode).toBe(202);
    expect(json<TaskAccepted>(started).taskStatus.taskName).toBe('Calculate node levels');
    await runJobs();
    expect(await node(formal.id)).toMatchObject({ productCount: 1, productTotal: 1 });
    expect(await node(shirts.id)).toMatchObject({ productCount: 1, productTotal: 2 });
    expect(await node(apparel.id)).toMatchObject({ productCount: 0, productTotal: 3 });
    expect((await state()).levelsCalculatedAt).not.toBeNull();

    await add('Accessories');
    const overview = json<TagOverview>(await as('Staff', 'GET', `${API}/overview`));
    expect(overview.byStatus).toEqual({ published: 7, new: 1, changed: 0, removed: 0 });
    expect(overview.depth).toEqual([
      { level: 1, count: 2 },
      { level: 2, count: 2 },
      { level: 3, count: 3 },
      { level: 4, count: 1 },
    ]);
    expect(overview.withoutProducts).toBe(3);
    expect(overview.largestSubtrees[0]).toMatchObject({ name: 'Apparel', size: 7, products: 3 });
  });

  it('exports the draft as CSV with full paths and a version as nested JSON', async () => {
    // Read with ';' as the list separator, an unquoted name would be three cells, one a formula.
    const hostile = await add('x;=1+1;y');
    const csvTask = json<TaskAccepted>(
      await as('Staff', 'POST', `${API}/export`, { source: 'draft', format: 'csv' }),
    );
    const jsonTask = json<TaskAccepted>(
      await as('Staff', 'POST', `${API}/export`, { source: 1, format: 'json' }),
    );
    expect((await as('Staff', 'POST', `${API}/export`, { source: 9, format: 'csv' })).statusCode).toBe(404);
    await runJobs();
    const csvText = (
      await readFile(exportFilePath(t.dataDir, csvTask.taskStatus.taskId, 'csv'), 'utf8')
    ).replace(/^\uFEFF/, '');
    const [header, ...rows] = parseCsv(csvText);
    expect(header).toEqual(['Path', 'Name', 'Code', 'Level', 'Products', 'Products with subtree', 'Status']);
    expect(rows.map((row) => row[0])).toEqual([
      'Apparel',
      'Apparel > Menswear',
      'Apparel > Menswear > Shirts & Tees',
      'Apparel > Menswear > Shirts & Tees > Formal',
      'Apparel > Women',
      'Apparel > Women > Shirts & Tees',
      'Apparel > Women > Shirts',
      'Accessories',
      'x;=1+1;y',
    ]);
    expect(formulaCells(csvText)).toEqual([]);
    const removed = await as('Staff', 'POST', `${API}/draft/nodes/${hostile.id}/delete`, {
      version: hostile.version,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const tree = JSON.parse(
      await readFile(exportFilePath(t.dataDir, jsonTask.taskStatus.taskId, 'json'), 'utf8'),
    );
    expect(tree.source).toBe(1);
    const names = (list: { name: string; children: unknown[] }[]): unknown =>
      list.map((entry) => [entry.name, names(entry.children as { name: string; children: unknown[] }[])]);
    expect(names(tree.tags)).toEqual([
      [
        'Apparel',
        [
          ['Menswear', [['Shirts & Tees', [['Formal', []]]]]],
          [
            'Women',
            [
              ['Shirts & Tees', []],
              ['Shirts', []],
            ],
          ],
        ],
      ],
    ]);
  });

  it('deletes with its children lifted or with them, and moves products to the parent', async () => {
    const parent = await add('Footwear');
    const shoes = await add('Shoes', parent.id);
    const boots = await add('Boots', shoes.id);
    await add('Chelsea', boots.id);
    const sku = await anySku(3);
    const productId = await tagProduct(sku, [shoes.id]);
    const lifted = await as('Staff', 'POST', `${API}/draft/nodes/${shoes.id}/delete`, {
      version: shoes.version,
      children: 'lift',
      products: 'parent',
    });
    expect(json(lifted)).toEqual({ deleted: 1, lifted: 1, productsChanged: 1 });
    expect(await node(boots.id)).toMatchObject({ level: 2, pathNames: ['Footwear', 'Boots'] });
    const [product] = await t.database.db.select().from(products).where(eq(products.id, productId));
    expect(product?.tagIds).toEqual([parent.id]);
    const root = await node(parent.id);
    const topProducts = await as('Staff', 'POST', `${API}/draft/nodes/${root.id}/delete`, {
      version: root.version,
      children: 'delete',
      products: 'parent',
    });
    expect(topProducts.statusCode).toBe(400);
    const all = await as('Staff', 'POST', `${API}/draft/nodes/${root.id}/delete`, {
      version: root.version,
      children: 'delete',
    });
    expect(json(all)).toEqual({ deleted: 3, lifted: 0, productsChanged: 1 });
    expect((await as('Staff', 'GET', `${API}/trees/draft/nodes/${boots.id}`)).statusCode).toBe(404);

    // A child named like the deleted tag takes its place (found by the property test).
    const outer = await add('Bags');
    const inner = await add('Bags', outer.id);
    const lift = await as('Staff', 'POST', `${API}/draft/nodes/${outer.id}/delete`, {
      version: outer.version,
    });
    expect(lift.statusCode, lift.body).toBe(200);
    expect(await node(inner.id)).toMatchObject({ level: 1, pathNames: ['Bags'] });
  });

  it('lets admins publish and roll back, staff edit, sellers only read published versions', async () => {
    const { draftRevision } = await preview();
    expect((await as('Staff', 'POST', `${API}/publish`, { draftRevision })).statusCode).toBe(403);
    expect((await as('Staff', 'POST', `${API}/rollback`, { version: 1, draftRevision })).statusCode).toBe(
      403,
    );
    expect(
      (await as('Seller', 'POST', `${API}/draft/nodes`, { name: 'Nope', parentId: null })).statusCode,
    ).toBe(403);
    expect((await as('Seller', 'GET', `${API}/publishPreview`)).statusCode).toBe(403);
    expect((await as('Seller', 'GET', `${API}/diff?from=1&to=draft`)).statusCode).toBe(403);
    expect((await as('Seller', 'GET', `${API}/diff?from=1&to=3`)).statusCode).toBe(200);
    expect((await as('Seller', 'GET', `${API}/trees/latest/search?query=shirt`)).statusCode).toBe(200);
    expect((await as('Blocked', 'GET', `${API}/trees/latest/children`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${API}/trees/latest/children` })).statusCode).toBe(401);
    expect((await as('Seller', 'GET', `${API}/trees/9/children`)).statusCode).toBe(404);
  });
});
