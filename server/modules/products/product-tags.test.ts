// Tags on staging products (issue 16) on PGlite and PostgreSQL: a product's tags edited with its other
// fields (checked against the draft tree, named by their paths in the history), added and removed in
// bulk, and the query builder's "Tag is under X", which follows the draft tree as it changes.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import type { BulkResult, Product, ProductList } from '../../../contracts/catalog';
import type { QueryCondition, QueryField } from '../../../contracts/query-tree';
import type { SavedView } from '../../../contracts/saved-views';
import type { TagNodeWithPath } from '../../../contracts/tags';
import { categories, products, sellers } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';

const API = '/api/v1/stagingProducts';
const TAGS = '/api/v1/tags';

describe.each(testBackends)('tags on staging products on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let categoryId: string;
  let otherSellerId: string;
  /** The test's own tags, by name (Women's shirts are `shirtsW`). */
  const tag: Record<string, TagNodeWithPath> = {};

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [category] = await t.database.db
      .insert(categories)
      .values({ name: 'Tagged things', slug: 'tagged-things' })
      .returning();
    categoryId = category!.id;
    const [other] = await t.database.db
      .insert(sellers)
      .values({ sellerCode: 'TAG-OTHER', sellerName: 'Other tag seller', email: 'other@tags.test' })
      .returning();
    otherSellerId = other!.id;
    // Apparel › Men › Shirts › Linen, Apparel › Women › Shirts, Home (names unique to this test).
    const add = async (key: string, name: string, parent: string | null) => {
      const response = await as('Admin', 'POST', `${TAGS}/draft/nodes`, {
        name,
        parentId: parent ? tag[parent]!.id : null,
      });
      expect(response.statusCode, response.body).toBe(201);
      tag[key] = json<TagNodeWithPath>(response);
    };
    await add('apparel', 'PT Apparel', null);
    await add('men', 'PT Men', 'apparel');
    await add('shirtsM', 'PT Shirts', 'men');
    await add('linen', 'PT Linen', 'shirtsM');
    await add('women', 'PT Women', 'apparel');
    await add('shirtsW', 'PT Shirts', 'women');
    await add('home', 'PT Home', null);
  });
  afterAll(() => t.close());

  let skuCount = 0;
  /** A product of the demo seller (or, as the admin, of another seller) in the test's category. */
  async function newProduct(
    extra: Record<string, unknown> = {},
    who: DemoRole = 'Seller',
    prefix = 'PTAG',
  ): Promise<Product> {
    skuCount++;
    const response = await as(who, 'POST', `${API}/`, {
      title: `Tagged ${skuCount}`,
      sku: `${prefix}-${skuCount}`,
      categoryId,
      price: 10,
      inventory: 1,
      ...(who === 'Seller' ? {} : { sellerId: otherSellerId }),
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<Product>(response);
  }
  const product = async (id: string) => json<Product>(await as('Admin', 'GET', `${API}/${id}`));
  const history = async (id: string) =>
    json<AuditPage>(await as('Admin', 'GET', `${API}/${id}/history?limit=50`)).result;
  const edit = (who: DemoRole, id: string, body: Record<string, unknown>) =>
    as(who, 'PATCH', `${API}/${id}`, body);
  const path = (...keys: string[]) => keys.map((key) => tag[key]!.name).join(' › ');
  const bulk = (who: DemoRole, body: Record<string, unknown>) =>
    as(who, 'POST', `${API}/method/bulkTags`, body);
  /** SKUs of the filter tests' products a query matches (the demo catalogue carries tags of its own). */
  async function skusMatching(...conditions: QueryCondition[]): Promise<string[]> {
    const response = await as('Admin', 'POST', `${API}/method/search`, {
      query: { combinator: 'and', children: conditions },
      search: 'pflt-',
      sort: 'sku',
      order: 'asc',
      limit: 200,
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<ProductList>(response).result.map((row) => row.sku);
  }

  describe('on the product', () => {
    it('edits tags with the version read, without duplicates, and names them by path in the history', async () => {
      const made = await newProduct();
      expect(made.tagIds).toEqual([]);
      expect(made.tags).toEqual([]);
      const response = await edit('Admin', made.id, {
        version: made.version,
        tagIds: [tag.shirtsM!.id, tag.linen!.id, tag.shirtsM!.id, tag.linen!.id.toUpperCase()],
      });
      expect(response.statusCode, response.body).toBe(200);
      const tagged = json<Product>(response);
      expect(tagged.version).toBe(made.version + 1);
      expect(tagged.tagIds).toEqual([tag.shirtsM!.id, tag.linen!.id]);
      expect(tagged.tags).toEqual([
        {
          id: tag.shirtsM!.id,
          name: 'PT Shirts',
          pathNames: ['PT Apparel', 'PT Men', 'PT Shirts'],
          inTree: true,
        },
        {
          id: tag.linen!.id,
          name: 'PT Linen',
          pathNames: ['PT Apparel', 'PT Men', 'PT Shirts', 'PT Linen'],
          inTree: true,
        },
      ]);
      // Removing one and adding another: one history entry, paths before → after.
      const again = await edit('Admin', made.id, {
        version: tagged.version,
        tagIds: [tag.linen!.id, tag.shirtsW!.id],
      });
      expect(again.statusCode, again.body).toBe(200);
      const [last, first] = (await history(made.id)).filter((entry) => entry.action === 'updated');
      expect(first?.changes).toEqual([
        {
          field: 'tags',
          before: null,
          after: [path('apparel', 'men', 'shirtsM'), path('apparel', 'men', 'shirtsM', 'linen')],
        },
      ]);
      expect(last?.changes).toEqual([
        {
          field: 'tags',
          before: [path('apparel', 'men', 'shirtsM'), path('apparel', 'men', 'shirtsM', 'linen')],
          after: [path('apparel', 'men', 'shirtsM', 'linen'), path('apparel', 'women', 'shirtsW')],
        },
      ]);
      // The same tags in another order change nothing in the history.
      const current = await product(made.id);
      const reordered = await edit('Admin', made.id, {
        version: current.version,
        tagIds: [tag.shirtsW!.id, tag.linen!.id],
      });
      expect(reordered.statusCode).toBe(200);
      expect(json<Product>(reordered).tagIds).toEqual([tag.linen!.id, tag.shirtsW!.id]);
      expect((await history(made.id)).filter((entry) => entry.action === 'updated')).toHaveLength(2);
      // A stale version is refused.
      const stale = await edit('Admin', made.id, { version: made.version, tagIds: [] });
      expect(stale.statusCode).toBe(409);
      // Clearing them all.
      const cleared = await edit('Admin', made.id, { version: current.version + 1, tagIds: [] });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(json<Product>(cleared).tags).toEqual([]);
      const [newest] = await history(made.id);
      expect(newest?.changes).toEqual([
        {
          field: 'tags',
          before: [path('apparel', 'men', 'shirtsM', 'linen'), path('apparel', 'women', 'shirtsW')],
          after: null,
        },
      ]);
    });

    it('refuses a tag that is not in the draft tree, naming it, and more than 50 tags; nothing is written', async () => {
      const made = await newProduct();
      const ghost = randomUUID();
      const unknown = await edit('Admin', made.id, { version: made.version, tagIds: [tag.home!.id, ghost] });
      expect(unknown.statusCode).toBe(400);
      expect(json(unknown)).toMatchObject({
        code: 'UNKNOWN_TAG',
        message: `There is no tag ${ghost} in the tag tree.`,
      });
      const many = await edit('Admin', made.id, {
        version: made.version,
        tagIds: Array.from({ length: 51 }, () => randomUUID()),
      });
      expect(many.statusCode).toBe(400);
      expect(json<{ message: string }>(many).message).toMatch(/at most 50 tags/);
      const notIds = await edit('Admin', made.id, { version: made.version, tagIds: ['shirts'] });
      expect(notIds.statusCode).toBe(400);
      // A tag deleted from the draft cannot be attached any more.
      const doomed = json<TagNodeWithPath>(
        await as('Admin', 'POST', `${TAGS}/draft/nodes`, { name: 'PT Doomed', parentId: null }),
      );
      const deleted = await as('Admin', 'POST', `${TAGS}/draft/nodes/${doomed.id}/delete`, {
        version: doomed.version,
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      const gone = await edit('Admin', made.id, { version: made.version, tagIds: [doomed.id] });
      expect(gone.statusCode).toBe(400);
      const after = await product(made.id);
      expect(after.version).toBe(made.version);
      expect(after.tagIds).toEqual([]);
    });

    it('keeps, and names by its last published name, a tag the draft lost that the product still carries', async () => {
      const made = await newProduct();
      // What a rollback leaves: products carrying a tag the draft no longer has, known from a version.
      const ghost = randomUUID();
      await t.database.db.execute(sql`
        INSERT INTO tag_node_versions (node_id, valid_from, valid_to, seq, parent_id, path, level, name, name_key, code)
        VALUES (${ghost}::uuid, 1, 2, 999999, NULL, '/999999/', 1, 'PT Old Linen', 'pt old linen', 'pt-old-linen')`);
      await t.database.db
        .update(products)
        .set({ tagIds: [ghost] })
        .where(eq(products.id, made.id));
      const read = await product(made.id);
      expect(read.tags).toEqual([
        { id: ghost, name: 'PT Old Linen', pathNames: ['PT Old Linen'], inTree: false },
      ]);
      const kept = await edit('Seller', made.id, { version: read.version, tagIds: [ghost, tag.home!.id] });
      expect(kept.statusCode, kept.body).toBe(200);
      const [entry] = await history(made.id);
      expect(entry?.changes).toEqual([
        {
          field: 'tags',
          before: ['PT Old Linen (no longer in the tree)'],
          after: ['PT Old Linen (no longer in the tree)', 'PT Home'],
        },
      ]);
      // Attaching such a tag to another product is refused, by its name.
      const other = await newProduct();
      const refused = await edit('Seller', other.id, { version: other.version, tagIds: [ghost] });
      expect(refused.statusCode).toBe(400);
      expect(json<{ message: string }>(refused).message).toBe(
        '“PT Old Linen” is no longer in the tag tree: choose another tag.',
      );
    });

    it('never leaves a product carrying a tag deleted at the same moment it was attached', async () => {
      for (let round = 0; round < 6; round++) {
        const made = await newProduct();
        const doomed = json<TagNodeWithPath>(
          await as('Admin', 'POST', `${TAGS}/draft/nodes`, { name: `PT Race ${round}`, parentId: null }),
        );
        const [tagging, deleting] = await Promise.all([
          edit('Admin', made.id, { version: made.version, tagIds: [doomed.id] }),
          as('Admin', 'POST', `${TAGS}/draft/nodes/${doomed.id}/delete`, { version: doomed.version }),
        ]);
        // Either the tag was attached first (and the deletion took it off again) or it was gone first.
        expect([200, 400], tagging.body).toContain(tagging.statusCode);
        expect(deleting.statusCode, deleting.body).toBe(200);
        expect((await product(made.id)).tagIds).toEqual([]);
      }
    });

    it('lets a seller tag their own products, on creation too, and not another seller’s', async () => {
      const mine = await newProduct({ tagIds: [tag.home!.id, tag.home!.id] });
      expect(mine.tags.map((one) => one.name)).toEqual(['PT Home']);
      const theirs = await newProduct({}, 'Admin');
      const refused = await edit('Seller', theirs.id, { version: theirs.version, tagIds: [tag.home!.id] });
      expect(refused.statusCode).toBe(404);
      const unknownOnCreate = await as('Seller', 'POST', `${API}/`, {
        title: 'Ghostly',
        sku: 'PTAG-GHOST',
        categoryId,
        price: 1,
        inventory: 1,
        tagIds: [randomUUID()],
      });
      expect(unknownOnCreate.statusCode).toBe(400);
    });
  });

  describe('in bulk', () => {
    let a: Product;
    let b: Product;
    let c: Product;
    let theirs: Product;
    beforeAll(async () => {
      a = await newProduct({ tagIds: [tag.shirtsW!.id, tag.home!.id] });
      b = await newProduct({ tagIds: [tag.linen!.id] });
      c = await newProduct();
      theirs = await newProduct({}, 'Admin');
    });

    it('adds tags to the selected products after their own, reports those that had them, and records paths', async () => {
      const response = await bulk('Admin', {
        selection: { ids: [a.id, b.id, c.id] },
        mode: 'add',
        tagIds: [tag.home!.id, tag.shirtsW!.id, tag.home!.id],
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = json<BulkResult>(response);
      expect(result).toMatchObject({ changed: 2, skippedCount: 1 });
      expect(result.skipped).toEqual([{ id: a.id, sku: a.sku, reason: 'Already carries these tags.' }]);
      expect((await product(b.id)).tagIds).toEqual([tag.linen!.id, tag.home!.id, tag.shirtsW!.id]);
      expect((await product(c.id)).tagIds).toEqual([tag.home!.id, tag.shirtsW!.id]);
      expect((await product(a.id)).version).toBe(a.version);
      const [entry] = await history(b.id);
      expect(entry).toMatchObject({ action: 'updated', actor: { name: expect.any(String) } });
      expect(entry?.changes).toEqual([
        {
          field: 'tags',
          before: [path('apparel', 'men', 'shirtsM', 'linen')],
          after: [
            path('apparel', 'men', 'shirtsM', 'linen'),
            path('home'),
            path('apparel', 'women', 'shirtsW'),
          ],
        },
      ]);
    });

    it('removes tags from every product a query selects, and reports those without them', async () => {
      const response = await bulk('Admin', {
        selection: { query: { combinator: 'and', children: [] }, search: 'ptag-' },
        mode: 'remove',
        tagIds: [tag.home!.id],
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = json<BulkResult>(response);
      expect(result.changed).toBeGreaterThanOrEqual(3);
      expect(result.skipped.every((row) => row.reason === 'Carries none of these tags.')).toBe(true);
      for (const one of [a, b, c]) expect((await product(one.id)).tagIds).not.toContain(tag.home!.id);
      expect((await product(b.id)).tagIds).toEqual([tag.linen!.id, tag.shirtsW!.id]);
      const [entry] = await history(c.id);
      expect(entry?.changes).toEqual([
        {
          field: 'tags',
          before: [path('home'), path('apparel', 'women', 'shirtsW')],
          after: [path('apparel', 'women', 'shirtsW')],
        },
      ]);
    });

    it('scopes a seller to their own products', async () => {
      const response = await bulk('Seller', {
        selection: { ids: [c.id, theirs.id] },
        mode: 'add',
        tagIds: [tag.men!.id],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(json<BulkResult>(response)).toMatchObject({ changed: 1, skippedCount: 0 });
      expect((await product(theirs.id)).tagIds).toEqual([]);
      expect((await product(c.id)).tagIds).toContain(tag.men!.id);
    });

    it('refuses an unknown tag naming it, too many tags, no tag at all; nothing changes', async () => {
      const ghost = randomUUID();
      const before = await product(c.id);
      const unknown = await bulk('Admin', {
        selection: { ids: [c.id] },
        mode: 'add',
        tagIds: [tag.home!.id, ghost],
      });
      expect(unknown.statusCode).toBe(400);
      expect(json<{ message: string; code: string }>(unknown)).toMatchObject({
        code: 'UNKNOWN_TAG',
        message: `There is no tag ${ghost} in the tag tree.`,
      });
      const many = await bulk('Admin', {
        selection: { ids: [c.id] },
        mode: 'add',
        tagIds: Array.from({ length: 51 }, () => randomUUID()),
      });
      expect(many.statusCode).toBe(400);
      expect(json<{ message: string }>(many).message).toMatch(/at most 50 tags/);
      const none = await bulk('Admin', { selection: { ids: [c.id] }, mode: 'add', tagIds: [] });
      expect(none.statusCode).toBe(400);
      const badMode = await bulk('Admin', {
        selection: { ids: [c.id] },
        mode: 'swap',
        tagIds: [tag.home!.id],
      });
      expect(badMode.statusCode).toBe(400);
      expect(await product(c.id)).toMatchObject({ version: before.version, tagIds: before.tagIds });
      // Removing a tag the tree does not hold is allowed (a rollback's leftovers come off this way).
      const removeGhost = await bulk('Admin', {
        selection: { ids: [c.id] },
        mode: 'remove',
        tagIds: [ghost],
      });
      expect(removeGhost.statusCode, removeGhost.body).toBe(200);
      expect(json<BulkResult>(removeGhost)).toMatchObject({ changed: 0, skippedCount: 1 });
    });

    it('leaves a product that would carry more than 50 tags, and says why', async () => {
      const many: string[] = [];
      for (let n = 0; n < 50; n++) {
        const response = await as('Admin', 'POST', `${TAGS}/draft/nodes`, {
          name: `PT Many ${n}`,
          parentId: tag.home!.id,
        });
        many.push(json<TagNodeWithPath>(response).id);
      }
      const full = await newProduct({ tagIds: many });
      expect(full.tagIds).toHaveLength(50);
      const response = await bulk('Admin', {
        selection: { ids: [full.id, c.id] },
        mode: 'add',
        tagIds: [tag.women!.id],
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = json<BulkResult>(response);
      expect(result.changed).toBe(1);
      expect(result.skipped).toEqual([
        { id: full.id, sku: full.sku, reason: 'Would carry more than 50 tags (it has 50).' },
      ]);
      // The edit route refuses the 51st too.
      const refused = await edit('Admin', full.id, {
        version: full.version,
        tagIds: [...many, tag.women!.id],
      });
      expect(refused.statusCode).toBe(400);
    });
  });

  describe('in the query builder', () => {
    let skus: Record<string, string>;
    beforeAll(async () => {
      // Products under each branch, and one with two tags (SKUs of their own: PFLT-…).
      const tagged = (key: string, ...more: string[]) =>
        newProduct({ tagIds: [key, ...more].map((one) => tag[one]!.id) }, 'Seller', 'PFLT');
      const made = {
        linen: await tagged('linen'),
        men: await tagged('men'),
        women: await tagged('shirtsW'),
        home: await tagged('home'),
        both: await tagged('home', 'linen'),
      };
      skus = Object.fromEntries(Object.entries(made).map(([key, value]) => [key, value.sku]));
    });
    const under = (...keys: string[]): QueryCondition => ({
      field: 'tags',
      op: 'under',
      value: keys.map((key) => tag[key]!.id),
    });
    const sorted = (...keys: string[]) => keys.map((key) => skus[key]!).sort();

    it('offers the Tag field to every role', async () => {
      for (const who of ['Admin', 'Staff', 'Seller'] as const) {
        const fields = json<{ result: QueryField[] }>(
          await as(who, 'GET', `${API}/method/queryFields`),
        ).result;
        expect(fields.find((field) => field.key === 'tags')).toEqual({
          key: 'tags',
          label: 'Tag',
          kind: 'tree',
          group: 'Product',
          optionSource: 'tags',
        });
      }
    });

    it('finds the products carrying a tag or any tag of its subtree', async () => {
      expect(await skusMatching(under('apparel'))).toEqual(sorted('linen', 'men', 'women', 'both'));
      expect(await skusMatching(under('men'))).toEqual(sorted('linen', 'men', 'both'));
      expect(await skusMatching(under('shirtsM'))).toEqual(sorted('linen', 'both'));
      expect(await skusMatching(under('linen'))).toEqual(sorted('linen', 'both'));
      expect(await skusMatching(under('shirtsW', 'home'))).toEqual(sorted('women', 'home', 'both'));
      expect(await skusMatching({ ...under('men'), op: 'notUnder' })).toEqual(sorted('women', 'home'));
      expect(await skusMatching(under('men'), under('home'))).toEqual(sorted('both'));
      // An id the tree does not hold matches nothing (a saved view outliving its tag keeps working).
      expect(await skusMatching({ field: 'tags', op: 'under', value: [randomUUID()] })).toEqual([]);
      expect(await skusMatching({ field: 'tags', op: 'notUnder', value: [randomUUID()] })).toEqual(
        sorted('linen', 'men', 'women', 'home', 'both'),
      );
    });

    it('follows a subtree moved in the draft', async () => {
      const linen = json<TagNodeWithPath>(
        await as('Admin', 'GET', `${TAGS}/trees/draft/nodes/${tag.linen!.id}`),
      );
      const moved = await as('Admin', 'POST', `${TAGS}/draft/nodes/${tag.shirtsM!.id}/move`, {
        version: json<TagNodeWithPath>(
          await as('Admin', 'GET', `${TAGS}/trees/draft/nodes/${tag.shirtsM!.id}`),
        ).version,
        parentId: tag.home!.id,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(linen.pathNames).toEqual(['PT Apparel', 'PT Men', 'PT Shirts', 'PT Linen']);
      expect(await skusMatching(under('men'))).toEqual(sorted('men'));
      expect(await skusMatching(under('apparel'))).toEqual(sorted('men', 'women'));
      expect(await skusMatching(under('home'))).toEqual(sorted('linen', 'home', 'both'));
      expect((await product((await findBySku(skus.linen!)).id)).tags[0]?.pathNames).toEqual([
        'PT Home',
        'PT Shirts',
        'PT Linen',
      ]);
    });

    it('tells empty from tagged products, and refuses a condition without tags', async () => {
      const untagged = await newProduct({}, 'Seller', 'PFLT');
      expect(await skusMatching({ field: 'tags', op: 'isEmpty' })).toContain(untagged.sku);
      expect(await skusMatching({ field: 'tags', op: 'isNotEmpty' })).not.toContain(untagged.sku);
      const refused = await as('Admin', 'POST', `${API}/method/search`, {
        query: { combinator: 'and', children: [{ field: 'tags', op: 'under', value: 'PT Men' }] },
      });
      expect(refused.statusCode).toBe(400);
      expect(json<{ message: string }>(refused).message).toBe('"Tag is under" needs a list of tags.');
      const wrongOperator = await as('Admin', 'POST', `${API}/method/search`, {
        query: { combinator: 'and', children: [{ field: 'tags', op: 'anyOf', value: [tag.men!.id] }] },
      });
      expect(wrongOperator.statusCode).toBe(400);
    });

    it('round-trips a tag condition through a saved view, and counts and bulk-selects by it', async () => {
      const query = { combinator: 'and' as const, children: [under('women')] };
      const saved = await as('Admin', 'POST', '/api/v1/savedViews', {
        list: 'staging-products',
        name: 'Women’s shirts',
        state: { query, search: '', columns: ['title'], sort: 'updatedAt', order: 'desc', pageSize: 50 },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const views = json<{ result: SavedView[] }>(
        await as('Admin', 'GET', '/api/v1/savedViews?list=staging-products'),
      );
      expect(views.result.find((view) => view.name === 'Women’s shirts')?.state.query).toEqual(query);
      const count = await as('Admin', 'POST', `${API}/method/countSelection`, {
        selection: { query, search: 'pflt-' },
      });
      expect(json(count)).toEqual({ count: 1, overLimit: false, asJob: false });
    });
  });

  async function findBySku(sku: string) {
    const [row] = await t.database.db.select({ id: products.id }).from(products).where(eq(products.sku, sku));
    return row!;
  }
});
