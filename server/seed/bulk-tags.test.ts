// `npm run seed -- --tags N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is set):
// the generated tree holds the invariants every draft write keeps (a path is the parent's path and the
// node's seq, the level is the depth, children counts are right, sibling names and codes unique), it is
// 5 to 8 levels deep with fan-out falling with depth, it is published as a version the diff agrees with,
// the API reads it, and a second run beside the first (and beside the demo tree) clashes with nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishPreview, TagDiff, TagNodeList, TagTreeState } from '../../contracts/tags';
import { rowsOf } from '../db/rows';
import { clearTagTree } from '../modules/tags/test-helpers';
import { nameKeyOf } from '../modules/tags/tree-paths';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { apportion, generateTagTree, MAX_TAG_LEVEL, MIN_TAG_DEPTH, seedBulkTags } from './bulk-tags';

const TOTAL = 2_000;
const API = '/api/v1/tags';

interface Row {
  id: string;
  seq: number;
  parent_id: string | null;
  path: string;
  level: number;
  name: string;
  name_key: string;
  code: string;
  children_count: number;
  version: number;
}

describe('the tag tree generator', () => {
  it('splits a budget into non-empty whole shares', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(3, [5, 1, 1])).toEqual([1, 1, 1]);
    expect(apportion(100, [3, 1]).reduce((sum, share) => sum + share, 0)).toBe(100);
    expect(() => apportion(2, [1, 1, 1])).toThrow();
  });

  it('is the same tree for the same seed, and names roots apart from those already there', () => {
    const plan = { total: 300, firstSeq: 1, seed: 5 };
    const strip = (nodes: ReturnType<typeof generateTagTree>) =>
      nodes.map(({ id: _id, parentId: _parentId, ...node }) => node);
    expect(strip(generateTagTree(plan))).toEqual(strip(generateTagTree(plan)));
    const roots = generateTagTree({ ...plan, takenRootKeys: new Set(['apparel', 'electronics']) }).filter(
      (node) => node.level === 1,
    );
    expect(roots.map((node) => node.nameKey)).not.toContain('apparel');
    expect(roots.map((node) => node.nameKey)).not.toContain('electronics');
  });

  it('has fan-out falling with depth, a few tens of roots at 50k and a ~5,000-node subtree', () => {
    const nodes = generateTagTree({ total: 50_000, firstSeq: 1 });
    const fanout = (level: number) => {
      const parents = nodes.filter((node) => node.level === level && node.childrenCount > 0);
      return parents.reduce((sum, node) => sum + node.childrenCount, 0) / parents.length;
    };
    expect(fanout(1)).toBeGreaterThan(fanout(3));
    expect(fanout(3)).toBeGreaterThan(fanout(5));
    const roots = nodes.filter((node) => node.level === 1).length;
    expect(roots).toBeGreaterThanOrEqual(20);
    expect(roots).toBeLessThanOrEqual(50);
    const sizes = new Map<string, number>();
    for (const node of [...nodes].reverse()) {
      const size = (sizes.get(node.id) ?? 0) + 1;
      sizes.set(node.id, size);
      if (node.parentId) sizes.set(node.parentId, (sizes.get(node.parentId) ?? 0) + size);
    }
    expect([...sizes.values()].some((size) => size >= 4_000 && size <= 6_500)).toBe(true);
  });
});

describe.each(testBackends)('bulk tags on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let rows: Row[];
  let published: number;

  const readDraft = async () =>
    rowsOf<Row>(
      await t.database.db.execute(sql`
        SELECT id, seq, parent_id, path, level, name, name_key, code, children_count, version FROM tag_nodes`),
    );

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    await clearTagTree(t.database.db);
    // Batches of 600: four statements, the last one short.
    const result = await seedBulkTags(t.database.db, TOTAL, { batchSize: 600 });
    expect(result).toMatchObject({ inserted: TOTAL, version: 1, maxLevel: MAX_TAG_LEVEL });
    published = result.version;
    rows = await readDraft();
  }, 120_000);
  afterAll(() => t?.close());

  it('keeps the tree invariants: paths, levels, children counts, unique sibling names and codes', () => {
    expect(rows).toHaveLength(TOTAL);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const children = new Map<string, number>();
    for (const row of rows) {
      const parent = row.parent_id === null ? null : byId.get(row.parent_id);
      expect(parent, row.name).not.toBeUndefined();
      expect(row.path).toBe(`${parent?.path ?? '/'}${row.seq}/`);
      expect(row.level).toBe((parent?.level ?? 0) + 1);
      expect(row.name_key).toBe(nameKeyOf(row.name));
      expect(row.code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      if (row.parent_id) children.set(row.parent_id, (children.get(row.parent_id) ?? 0) + 1);
    }
    for (const row of rows) expect(row.children_count, row.name).toBe(children.get(row.id) ?? 0);
    const siblingKeys = new Set(rows.map((row) => `${row.parent_id} ${row.name_key}`));
    expect(siblingKeys.size).toBe(TOTAL);
    expect(new Set(rows.map((row) => row.code)).size).toBe(TOTAL);
    expect(new Set(rows.map((row) => row.seq)).size).toBe(TOTAL);
  });

  it('is 5 to 8 levels deep, with a few roots and realistic names', () => {
    const levels = new Set(rows.map((row) => row.level));
    for (let level = 1; level <= MAX_TAG_LEVEL; level++)
      expect(levels.has(level), `level ${level}`).toBe(true);
    expect(Math.max(...levels)).toBe(MAX_TAG_LEVEL);
    // Every department reaches at least MIN_TAG_DEPTH.
    const roots = rows.filter((row) => row.parent_id === null);
    expect(roots.length).toBeGreaterThanOrEqual(5);
    for (const root of roots) {
      const deepest = Math.max(
        ...rows.filter((row) => row.path.startsWith(root.path)).map((row) => row.level),
      );
      expect(deepest, root.name).toBeGreaterThanOrEqual(MIN_TAG_DEPTH);
    }
    expect(roots.map((row) => row.name)).toContain('Apparel');
    expect(rows.some((row) => row.level === 2 && row.name === 'Men')).toBe(true);
  });

  it('published the draft: nothing is pending, the version holds every node, the sequence moved on', async () => {
    const state = json<TagTreeState>(await as('Admin', 'GET', `${API}/state`));
    expect(state).toMatchObject({ latest: published, nodeCount: TOTAL });
    const preview = json<PublishPreview>(await as('Admin', 'GET', `${API}/publishPreview`));
    expect(preview.diff.counts).toEqual({ added: 0, removed: 0, renamed: 0, moved: 0, recoded: 0 });
    expect(preview.problems).toEqual([]);
    const diff = json<TagDiff>(await as('Admin', 'GET', `${API}/diff?from=draft&to=${published}`));
    expect(diff.counts.added + diff.counts.removed).toBe(0);
    const [live] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::integer AS n FROM tag_node_versions WHERE valid_to IS NULL`,
      ),
    );
    expect(live?.n).toBe(TOTAL);
    // A tag added through the API takes a seq after the generated ones.
    const added = await as('Staff', 'POST', `${API}/draft/nodes`, { parentId: null, name: 'Seasonal Picks' });
    expect(added.statusCode, added.body).toBe(201);
    const [row] = rowsOf<{ seq: number }>(
      await t.database.db.execute(sql`SELECT seq FROM tag_nodes WHERE name = 'Seasonal Picks'`),
    );
    expect(row?.seq).toBeGreaterThan(Math.max(...rows.map((node) => node.seq)));
  });

  it('is read by the API: roots, a deep node’s children and a search', async () => {
    const roots = json<TagNodeList>(await as('Admin', 'GET', `${API}/trees/draft/children?limit=1000`));
    expect(roots.count).toBe(rows.filter((row) => row.parent_id === null).length + 1);
    const apparel = roots.result.find((node) => node.name === 'Apparel');
    expect(apparel).toMatchObject({ level: 1, status: 'published' });
    const deep = rows.find((row) => row.level === MAX_TAG_LEVEL - 1 && row.children_count > 1) as Row;
    const page = json<TagNodeList>(
      await as('Admin', 'GET', `${API}/trees/draft/children?parent=${deep.id}&limit=1000`),
    );
    expect(page.count).toBe(deep.children_count);
    expect(page.result.every((node) => node.level === MAX_TAG_LEVEL && node.parentId === deep.id)).toBe(true);
    const published = json<TagNodeList>(
      await as('Admin', 'GET', `${API}/trees/latest/children?parent=${deep.id}&limit=1000`),
    );
    expect(published.result.map((node) => node.id).sort()).toEqual(page.result.map((node) => node.id).sort());
    const search = await as('Admin', 'GET', `${API}/trees/draft/search?query=slim%20fit`);
    expect(search.statusCode, search.body).toBe(200);
    expect(json<{ count: number }>(search).count).toBeGreaterThan(0);
  });

  it('runs again beside an existing tree (the demo’s included) without a clash', async () => {
    const result = await seedBulkTags(t.database.db, 300, { batchSize: 1000 });
    expect(result.version).toBe(published + 1);
    const after = await readDraft();
    expect(after).toHaveLength(TOTAL + 1 + 300);
    const roots = after.filter((row) => row.parent_id === null).map((row) => row.name_key);
    expect(new Set(roots).size).toBe(roots.length);
    expect(new Set(after.map((row) => row.code)).size).toBe(after.length);
  });
});

describe('bulk tags on the demo tree', () => {
  it('publishes the demo’s pending draft with its removed tag’s products sent to the parent', async () => {
    const t = await createTestApp({ jobs: { enabled: false } });
    try {
      const as = await apiAs(t.app);
      const before = json<TagTreeState>(await as('Admin', 'GET', `${API}/state`));
      const pending = json<PublishPreview>(await as('Admin', 'GET', `${API}/publishPreview`));
      const boxes = pending.remapNeeded.find((need) => need.node.name === 'Boxes');
      expect(boxes?.products).toBeGreaterThan(0);
      const woodwork = rowsOf<{ id: string }>(
        await t.database.db.execute(sql`SELECT id FROM tag_nodes WHERE name = 'Woodwork'`),
      )[0]?.id as string;
      const taggedWoodwork = async () =>
        rowsOf<{ n: number }>(
          await t.database.db.execute(
            sql`SELECT count(*)::integer AS n FROM products WHERE tag_ids @> ARRAY[${woodwork}::uuid]`,
          ),
        )[0]?.n ?? 0;
      const woodworkBefore = await taggedWoodwork();

      const result = await seedBulkTags(t.database.db, 500);
      expect(result.version).toBe((before.latest ?? 0) + 1);
      expect(await taggedWoodwork()).toBeGreaterThanOrEqual(woodworkBefore + (boxes?.products ?? 0));
      const preview = json<PublishPreview>(await as('Admin', 'GET', `${API}/publishPreview`));
      expect(preview.remapNeeded).toEqual([]);
      expect(preview.diff.counts).toEqual({ added: 0, removed: 0, renamed: 0, moved: 0, recoded: 0 });
      const roots = json<TagNodeList>(await as('Admin', 'GET', `${API}/trees/latest/children?limit=1000`));
      const names = roots.result.map((node) => node.name);
      expect(names).toContain('Apparel');
      expect(new Set(names.map(nameKeyOf)).size).toBe(names.length);
    } finally {
      await t.close();
    }
  }, 120_000);
});
