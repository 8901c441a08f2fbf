// Differential property test of the query compiler (issue 14): for random nested AND/OR queries over
// every kind of field, the rows the compiled SQL returns are exactly the rows the plain in-memory
// evaluator (server/lib/query-tree/evaluate.ts) accepts, on PGlite and on PostgreSQL. A deliberately
// broken compiler is caught by the same property.
//
// Tags (issue 16): the products carry tags of the demo tag tree (and a few a rollback would leave
// behind). The SQL finds a subtree by its materialized paths; the evaluator walks each tag's parents,
// read from the draft as it stands, so the two agree only if the paths are right — also after a move.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AttributeDataType,
  AttributeType,
  AttributeValueInput,
  ProductStatus,
} from '../../../contracts/catalog';
import { attributeFieldKey, productStatuses } from '../../../contracts/catalog';
import type { QueryCondition, QueryNode, QueryTree } from '../../../contracts/query-tree';
import { findQueryProblem, QUERY_LIMITS } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { attributeOptions, attributes, categories, productMedia, products, sellers } from '../../db/schema';
import {
  type ConditionCompiler,
  compileQuery,
  enumColumn,
  treeArrayColumn,
} from '../../lib/query-tree/compile';
import { evaluateQuery, type PlainValue } from '../../lib/query-tree/evaluate';
import { createTestApp, type TestApp, testBackends } from '../../test-support';
import {
  type AttributeDef,
  attributeIndexOf,
  checkAttributeValues,
  completenessOf,
  type MediaRef,
} from '../attributes/attribute-values';
import { moveTag } from '../tags/draft-writes';
import { productKeys } from './product-keys';
import { productFields } from './product-query';

/** A small PRNG so the seeded catalogue is the same on every run and backend. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const TEXTS = ['Café', 'cafe', 'TEA', 'tea-pot', 'Teapot', '50%_off', 'back\\slash', 'Crème brûlée', 'zz'];
const NUMBERS = [-5, -1.5, 0, 1, 2.5, 3, 10];
const DATES = [
  '2025-01-01T00:00:00.000Z',
  '2025-06-15T12:30:00.000Z',
  '2026-01-01T00:00:00.000Z',
  '2026-03-31T23:59:59.999Z',
];
const PRICES = [0, 99.5, 100, 250, 1000];
const OPTION_LABELS = ['Red', 'Green', 'Blue', 'Black'];

const spec: { code: string; dataType: AttributeDataType; attributeType: AttributeType }[] = [
  { code: 'qc_colour', dataType: 'ENUMERATED', attributeType: 'SINGLE' },
  { code: 'qc_materials', dataType: 'ENUMERATED', attributeType: 'MULTI' },
  { code: 'qc_keywords', dataType: 'STRING', attributeType: 'MULTI' },
  { code: 'qc_brand', dataType: 'STRING', attributeType: 'SINGLE' },
  { code: 'qc_description', dataType: 'WYSIWYG', attributeType: 'SINGLE' },
  { code: 'qc_pieces', dataType: 'NUMBER', attributeType: 'SINGLE' },
  { code: 'qc_screen', dataType: 'FLOAT', attributeType: 'SINGLE' },
  { code: 'qc_released', dataType: 'DATETIME', attributeType: 'SINGLE' },
  { code: 'qc_waterproof', dataType: 'BOOLEAN', attributeType: 'SINGLE' },
  { code: 'qc_gallery', dataType: 'IMAGE', attributeType: 'MULTI' },
  { code: 'qc_specs', dataType: 'OBJECT', attributeType: 'SINGLE' },
];

interface Seeded {
  defs: AttributeDef[];
  categoryIds: string[];
  /** Parent → subcategories. */
  children: Map<string, string[]>;
  sellerIds: string[];
  /** The draft tag tree: each node's parent (null for a root), re-read after the tree changes. */
  tagParents: Map<string, string | null>;
  /** Tags the conditions name: roots, inner nodes, leaves, one products carry that the tree lost, one nobody has. */
  tagChoices: string[];
}

/** The draft tag tree as the evaluator sees it: parent links, nothing derived from the paths. */
async function readTagParents(db: Db): Promise<Map<string, string | null>> {
  const rows = rowsOf<{ id: string; parent_id: string | null }>(
    await db.execute(sql`SELECT id, parent_id FROM tag_nodes`),
  );
  return new Map(rows.map((row) => [row.id, row.parent_id]));
}

/** A tag that is not in the tree (what a rollback leaves on products until a publish remaps it). */
const LOST_TAG = '00000000-0000-4000-8000-00000000f00d';
const NOBODYS_TAG = '00000000-0000-4000-8000-00000000beef';

async function seedCatalogue(db: Db): Promise<Seeded> {
  const next = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const sellerIds = (await db.select({ id: sellers.id }).from(sellers).limit(3)).map((row) => row.id);
  const [parent] = await db.insert(categories).values({ name: 'Prop', slug: 'prop' }).returning();
  const subs = await db
    .insert(categories)
    .values([
      { name: 'Prop A', slug: 'prop-a', parentId: parent!.id },
      { name: 'Prop B', slug: 'prop-b', parentId: parent!.id },
    ])
    .returning();
  const categoryIds = [parent!.id, ...subs.map((row) => row.id)];
  const defs: AttributeDef[] = [];
  for (const [index, attribute] of spec.entries()) {
    const [row] = await db
      .insert(attributes)
      .values({ ...attribute, label: attribute.code, isRequired: index % 3 === 0 })
      .returning();
    const options = new Map<number, string>();
    if (attribute.dataType === 'ENUMERATED') {
      const inserted = await db
        .insert(attributeOptions)
        .values(OPTION_LABELS.map((value, sortOrder) => ({ attributeId: row!.id, value, sortOrder })))
        .returning();
      for (const option of inserted) options.set(option.id, option.value);
    }
    defs.push({
      ...attribute,
      id: row!.id,
      label: row!.label,
      isRequired: row!.isRequired,
      unit: null,
      groupName: 'Test',
      options,
    });
  }
  const defMap = new Map(defs.map((def) => [def.id, def]));
  const tagParents = await readTagParents(db);
  const tagIds = [...tagParents.keys()].sort();
  expect(tagIds.length).toBeGreaterThan(20);
  const parentsOfSome = new Set([...tagParents.values()].filter((id): id is string => id !== null));
  const roots = tagIds.filter((id) => tagParents.get(id) === null);
  const inner = tagIds.filter((id) => parentsOfSome.has(id) && tagParents.get(id) !== null);
  const leaves = tagIds.filter((id) => !parentsOfSome.has(id));
  const tagChoices = [
    ...roots.slice(0, 3),
    ...inner.filter((_, i) => i % Math.max(1, Math.floor(inner.length / 6)) === 0).slice(0, 6),
    ...leaves.slice(0, 3),
    LOST_TAG,
    NOBODYS_TAG,
  ];

  for (let n = 0; n < 240; n++) {
    const sellerId = pick(sellerIds);
    const mediaCount = pick([0, 0, 1, 2]);
    const media = mediaCount
      ? await db
          .insert(productMedia)
          .values(
            Array.from({ length: mediaCount }, (_, i) => ({
              sellerId,
              kind: 'image' as const,
              fileName: `m${n}-${i}.png`,
              mimeType: 'image/png',
              size: 1,
              storagePath: `test/${n}-${i}.png`,
            })),
          )
          .returning()
      : [];
    const mediaRefs = new Map<string, MediaRef>(
      media.map((m) => [m.id, { id: m.id, kind: 'image', url: `/m/${m.id}` }]),
    );
    const inputs: AttributeValueInput[] = [];
    for (const def of defs) {
      if (next() < 0.3) continue; // about a third of the values are missing
      const optionIds = [...def.options.keys()];
      switch (def.dataType) {
        case 'ENUMERATED':
          inputs.push(
            def.attributeType === 'MULTI'
              ? {
                  keyId: def.id,
                  values: optionIds.filter(() => next() < 0.4).map((valueId) => ({ valueId })),
                }
              : { keyId: def.id, valueId: pick(optionIds) },
          );
          break;
        case 'STRING':
          inputs.push(
            def.attributeType === 'MULTI'
              ? { keyId: def.id, values: [pick(TEXTS), pick(TEXTS)].map((value) => ({ value })) }
              : { keyId: def.id, value: pick(TEXTS) },
          );
          break;
        case 'WYSIWYG':
          inputs.push({ keyId: def.id, value: `<p>${pick(TEXTS)} <strong>${pick(TEXTS)}</strong></p>` });
          break;
        case 'NUMBER':
          inputs.push({ keyId: def.id, value: Math.round(pick(NUMBERS)) });
          break;
        case 'FLOAT':
          inputs.push({ keyId: def.id, value: pick(NUMBERS) });
          break;
        case 'DATETIME':
          inputs.push({ keyId: def.id, value: pick(DATES) });
          break;
        case 'BOOLEAN':
          inputs.push({ keyId: def.id, value: next() < 0.5 });
          break;
        case 'IMAGE':
          inputs.push({ keyId: def.id, values: media.map((m) => ({ valueId: m.id })) });
          break;
        case 'OBJECT':
          inputs.push({ keyId: def.id, value: next() < 0.8 ? { ports: Math.round(next() * 4) } : {} });
          break;
        default:
          break;
      }
    }
    const { values, problems } = checkAttributeValues(inputs, defMap, mediaRefs);
    expect(problems).toEqual([]);
    const title = `${pick(TEXTS)} ${pick(TEXTS)}`;
    // Up to three tags: any node, or one the conditions name (so their subtrees are well populated).
    const tags = new Set<string>();
    for (let count = Math.floor(next() * 4); tags.size < count; ) {
      const roll = next();
      tags.add(roll < 0.05 ? LOST_TAG : roll < 0.35 ? pick(tagChoices.slice(0, -2)) : pick(tagIds));
    }
    await db.insert(products).values({
      sellerId,
      ...productKeys(title, `SKU-${n}-${pick(['A', 'b', 'Ç'])}`.replace('Ç', 'C')),
      categoryId: next() < 0.15 ? null : pick(categoryIds),
      status: pick(productStatuses) as ProductStatus,
      priceMinor: Math.round(pick(PRICES) * 100),
      currency: pick(['INR', 'USD', 'EUR']),
      inventory: Math.round(pick(NUMBERS)),
      imageCount: mediaCount,
      attributeValues: values,
      attrIndex: attributeIndexOf(values, defMap),
      ...completenessOf(values, defMap),
      tagIds: [...tags],
      createdAt: new Date(pick(DATES)),
      updatedAt: new Date(pick(DATES)),
    });
  }
  return {
    defs,
    categoryIds,
    children: new Map([[parent!.id, subs.map((row) => row.id)]]),
    sellerIds,
    tagParents,
    tagChoices,
  };
}

type StoredProduct = typeof products.$inferSelect;

/** How the evaluator reads a field of a stored product: from the canonical values, not the index. */
function reader(product: StoredProduct, seeded: Seeded) {
  const parentOf = new Map<string, string>();
  for (const [parent, subs] of seeded.children) for (const sub of subs) parentOf.set(sub, parent);
  // A tag's ancestors, nearest first, by walking its parents; undefined for a tag the tree lacks.
  const ancestorsOf = (node: string): string[] | undefined => {
    if (!seeded.tagParents.has(node)) return undefined;
    const ancestors: string[] = [];
    for (let up = seeded.tagParents.get(node); up; up = seeded.tagParents.get(up)) ancestors.push(up);
    return ancestors;
  };
  return (field: string): PlainValue => {
    switch (field) {
      case 'title':
        return { kind: 'text', texts: [product.title] };
      case 'sku':
        return { kind: 'text', texts: [product.sku] };
      case 'status':
        return { kind: 'enum', values: [product.status] };
      case 'category': {
        // A product in a subcategory is also in its parent.
        const id = product.categoryId;
        const parent = id ? parentOf.get(id) : undefined;
        return { kind: 'enum', values: id ? [id, ...(parent ? [parent] : [])] : [] };
      }
      case 'seller':
        return { kind: 'enum', values: [product.sellerId] };
      case 'price':
        return { kind: 'number', value: product.priceMinor / 100 };
      case 'currency':
        return { kind: 'enum', values: [product.currency] };
      case 'inventory':
        return { kind: 'number', value: product.inventory };
      case 'completeness':
        return { kind: 'number', value: product.completeness };
      case 'images':
        return { kind: 'media', count: product.imageCount };
      case 'tags':
        return { kind: 'tree', nodes: product.tagIds, ancestorsOf };
      case 'createdAt':
        return { kind: 'date', ms: product.createdAt.getTime() };
      case 'updatedAt':
        return { kind: 'date', ms: product.updatedAt.getTime() };
      default:
        break;
    }
    const def = seeded.defs.find((candidate) => attributeFieldKey(candidate.code) === field);
    if (!def) throw new Error(`unknown field ${field}`);
    const stored = product.attributeValues.find((value) => value.keyId === def.id);
    const items = stored ? ('values' in stored ? stored.values : [stored]) : [];
    switch (def.dataType) {
      case 'ENUMERATED':
        return { kind: 'enum', values: items.map((item) => item.valueId as number) };
      case 'STRING':
        return { kind: 'text', texts: items.map((item) => String(item.value)) };
      case 'WYSIWYG':
        return { kind: 'text', texts: items.map((item) => String(item.value).replace(/<[^>]+>/g, '')) };
      case 'NUMBER':
      case 'FLOAT':
        return { kind: 'number', value: items.length ? (items[0]?.value as number) : null };
      case 'DATETIME':
        return { kind: 'date', ms: items.length ? Date.parse(String(items[0]?.value)) : null };
      case 'BOOLEAN':
        return { kind: 'boolean', value: items.length ? (items[0]?.value as boolean) : null };
      case 'IMAGE':
      case 'VIDEO':
        return { kind: 'media', count: items.length };
      case 'OBJECT':
        return { kind: 'object', present: items.length > 0 };
      default:
        throw new Error(def.dataType);
    }
  };
}

/** Conditions that fit each field, with values drawn from (and around) the seeded data. */
function conditionArbitrary(seeded: Seeded): fc.Arbitrary<QueryCondition> {
  const text = fc.constantFrom(
    'caf',
    'CAFÉ',
    'tea',
    'pot',
    '%',
    '_',
    '\\',
    'brûlée',
    'cafe',
    'zz',
    'Crème brûlée',
    'sku-1',
  );
  const number = fc.constantFrom(...NUMBERS, 2, 99.5, 100, 250, 33, 50, 66, 100);
  const date = fc.constantFrom(...DATES, '2025-06-15', '2026-01-01');
  const textOps = (field: string) =>
    fc.oneof(
      fc.record({
        field: fc.constant(field),
        op: fc.constantFrom('contains', 'equals', 'startsWith' as const),
        value: text,
      }),
      fc.record({ field: fc.constant(field), op: fc.constantFrom('isEmpty', 'isNotEmpty' as const) }),
    );
  const numberOps = (field: string) =>
    fc.oneof(
      fc.record({
        field: fc.constant(field),
        op: fc.constantFrom('eq', 'neq', 'lt', 'lte', 'gt', 'gte' as const),
        value: number,
      }),
      fc
        .tuple(number, number)
        .map(([a, b]) => ({ field, op: 'between' as const, value: [Math.min(a, b), Math.max(a, b)] })),
      fc.record({ field: fc.constant(field), op: fc.constantFrom('isEmpty', 'isNotEmpty' as const) }),
    );
  const dateOps = (field: string) =>
    fc.oneof(
      fc.record({ field: fc.constant(field), op: fc.constantFrom('before', 'after' as const), value: date }),
      fc.tuple(date, date).map(([a, b]) => ({
        field,
        op: 'between' as const,
        value: Date.parse(a) <= Date.parse(b) ? [a, b] : [b, a],
      })),
      fc.record({ field: fc.constant(field), op: fc.constantFrom('isEmpty', 'isNotEmpty' as const) }),
    );
  const enumOps = (field: string, choices: readonly (string | number)[]) =>
    fc.oneof(
      fc.record({
        field: fc.constant(field),
        op: fc.constantFrom('anyOf', 'noneOf' as const),
        value: fc.uniqueArray(fc.constantFrom(...choices), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ field: fc.constant(field), op: fc.constantFrom('isEmpty', 'isNotEmpty' as const) }),
    );
  const treeOps = (field: string, choices: readonly string[]) =>
    fc.oneof(
      fc.record({
        field: fc.constant(field),
        op: fc.constantFrom('under', 'notUnder' as const),
        value: fc.uniqueArray(fc.constantFrom(...choices), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ field: fc.constant(field), op: fc.constantFrom('isEmpty', 'isNotEmpty' as const) }),
    );
  const presence = (field: string) =>
    fc.record({ field: fc.constant(field), op: fc.constantFrom('isEmpty', 'isNotEmpty' as const) });
  const attributeConditions = seeded.defs.map((def) => {
    const key = attributeFieldKey(def.code);
    switch (def.dataType) {
      case 'ENUMERATED':
        return enumOps(key, [...def.options.keys()]);
      case 'STRING':
      case 'WYSIWYG':
        return textOps(key);
      case 'NUMBER':
      case 'FLOAT':
        return numberOps(key);
      case 'DATETIME':
        return dateOps(key);
      case 'BOOLEAN':
        return fc.record({
          field: fc.constant(key),
          op: fc.constantFrom('isTrue', 'isFalse', 'isEmpty', 'isNotEmpty' as const),
        });
      default:
        return presence(key);
    }
  });
  return fc.oneof(
    textOps('title'),
    textOps('sku'),
    enumOps('status', productStatuses),
    enumOps('category', seeded.categoryIds),
    enumOps('seller', seeded.sellerIds),
    numberOps('price'),
    enumOps('currency', ['INR', 'USD', 'EUR', 'GBP']),
    numberOps('inventory'),
    numberOps('completeness'),
    presence('images'),
    treeOps('tags', seeded.tagChoices),
    dateOps('createdAt'),
    dateOps('updatedAt'),
    ...attributeConditions,
  ) as fc.Arbitrary<QueryCondition>;
}

/** Nested AND/OR trees within the limits (depth ≤ 5 counting the root, ≤ 50 conditions). */
function treeArbitrary(seeded: Seeded): fc.Arbitrary<QueryTree> {
  const condition = conditionArbitrary(seeded);
  const { node } = fc.letrec<{ node: QueryNode; group: QueryTree }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, condition, tie('group')),
    group: fc.record({
      combinator: fc.constantFrom('and', 'or' as const),
      children: fc.array(tie('node'), { minLength: 0, maxLength: 4 }),
    }),
  }));
  return fc
    .record({ combinator: fc.constantFrom('and', 'or' as const), children: fc.array(node, { maxLength: 4 }) })
    .filter((tree) => {
      const measure = (n: QueryNode): [number, number] =>
        'combinator' in n
          ? n.children
              .map(measure)
              .reduce(([d, c], [d2, c2]) => [Math.max(d, d2 + 1), c + c2], [1, 0] as [number, number])
          : [0, 1];
      const [depth, count] = measure(tree);
      return depth <= QUERY_LIMITS.maxDepth && count <= QUERY_LIMITS.maxConditions;
    });
}

describe.each(testBackends)('the query compiler against the reference evaluator on %s', (backend) => {
  let t: TestApp;
  let seeded: Seeded;
  let all: StoredProduct[];
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    const db = t.database.db;
    seeded = await seedCatalogue(db);
    all = await db.select().from(products);
  }, 120_000);
  afterAll(() => t.close());

  async function sqlIds(tree: QueryTree, fieldOf: (key: string) => ConditionCompiler | undefined) {
    const where = compileQuery(tree, fieldOf);
    const found = await t.database.db.execute(
      sql`SELECT ${products.id} AS id FROM ${products} WHERE ${where}`,
    );
    return rowsOf<{ id: string }>(found)
      .map((row) => row.id)
      .sort();
  }
  const expectedIds = (tree: QueryTree) =>
    all
      .filter((product) => evaluateQuery(tree, reader(product, seeded)))
      .map((product) => product.id)
      .sort();

  function property(fieldOf: (key: string) => ConditionCompiler | undefined) {
    return fc.asyncProperty(treeArbitrary(seeded), async (tree) => {
      const [got, want] = [await sqlIds(tree, fieldOf), expectedIds(tree)];
      return JSON.stringify(got) === JSON.stringify(want);
    });
  }

  it('returns exactly the rows the evaluator accepts, for random nested AND/OR queries', async () => {
    const { fields, compilerOf } = productFields(seeded.defs, seeded.children);
    // The generated trees are valid queries (the same check the API makes passes), and most of them
    // split the catalogue: a property over queries that match everything or nothing would prove little.
    let splitting = 0;
    const runs = 300;
    await fc.assert(
      fc.asyncProperty(treeArbitrary(seeded), async (tree) => {
        expect(findQueryProblem(tree, fields)).toBeNull();
        const want = expectedIds(tree);
        expect(await sqlIds(tree, compilerOf)).toEqual(want);
        if (want.length > 0 && want.length < all.length) splitting++;
      }),
      { numRuns: runs, seed: 1414 },
    );
    expect(splitting).toBeGreaterThan(runs * 0.4);
  }, 120_000);

  it('catches a compiler that forgets products without a category in "is none of"', async () => {
    const { compilerOf } = productFields(seeded.defs, seeded.children);
    // The classic SQL slip: NOT (category_id IN …) is NULL, hence false, where category_id is NULL.
    const careless = enumColumn(sql`${products.categoryId}`);
    const broken = (key: string): ConditionCompiler | undefined =>
      key === 'category'
        ? (condition) =>
            condition.op === 'noneOf'
              ? sql`NOT (${products.categoryId} IN (${sql.join(
                  (condition.value as string[])
                    .flatMap((id) => [id, ...(seeded.children.get(id) ?? [])])
                    .map((id) => sql`${id}`),
                  sql`, `,
                )}))`
              : careless(condition)
        : compilerOf(key);
    const result = await fc.check(property(broken), { numRuns: 1000, seed: 7 });
    expect(result.failed).toBe(true);
  }, 120_000);

  it('catches a compiler that reads ≥ as >', async () => {
    const { compilerOf } = productFields(seeded.defs, seeded.children);
    const broken = (key: string): ConditionCompiler | undefined => {
      const real = compilerOf(key);
      return real && ((condition) => real(condition.op === 'gte' ? { ...condition, op: 'gt' } : condition));
    };
    const result = await fc.check(property(broken), { numRuns: 1000, seed: 7 });
    expect(result.failed).toBe(true);
  }, 120_000);

  it('has tag conditions that split the catalogue: each chosen tree tag matches some products, not all', async () => {
    const { compilerOf } = productFields(seeded.defs, seeded.children);
    for (const id of seeded.tagChoices.slice(0, -2)) {
      const tree: QueryTree = { combinator: 'and', children: [{ field: 'tags', op: 'under', value: [id] }] };
      const got = await sqlIds(tree, compilerOf);
      expect(got).toEqual(expectedIds(tree));
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(all.length);
    }
  });

  it('catches a compiler that matches a tag itself but not its subtree', async () => {
    const { compilerOf } = productFields(seeded.defs, seeded.children);
    const itselfOnly = treeArrayColumn(
      sql`${products.tagIds}`,
      (ids) => sql`SELECT id FROM tag_nodes WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
    );
    const broken = (key: string) => (key === 'tags' ? itselfOnly : compilerOf(key));
    const result = await fc.check(property(broken), { numRuns: 1000, seed: 7 });
    expect(result.failed).toBe(true);
  }, 120_000);

  it('still agrees after subtrees move in the draft (the SQL reads paths, the evaluator parents)', async () => {
    const db = t.database.db;
    const { compilerOf } = productFields(seeded.defs, seeded.children);
    // Each chosen inner tag moves under a root that is not above it (so never under itself).
    const roots = [...seeded.tagParents].filter(([, parent]) => parent === null).map(([id]) => id);
    const rootOf = (id: string) => {
      let node = id;
      for (let up = seeded.tagParents.get(node); up; up = seeded.tagParents.get(node)) node = up;
      return node;
    };
    const inner = seeded.tagChoices.filter((id) => seeded.tagParents.get(id));
    let moved = 0;
    for (const id of inner.slice(0, 4)) {
      const target = roots.find((root) => root !== rootOf(id));
      if (!target) continue;
      const [node] = rowsOf<{ version: number; name: string }>(
        await db.execute(sql`SELECT version, name FROM tag_nodes WHERE id = ${id}::uuid`),
      );
      const clash = rowsOf<{ n: number }>(
        await db.execute(sql`
          SELECT count(*)::integer AS n FROM tag_nodes WHERE parent_id = ${target}::uuid AND name = ${node!.name}`),
      );
      if (clash[0]?.n) continue;
      const before: QueryTree = {
        combinator: 'and',
        children: [{ field: 'tags', op: 'under', value: [target] }],
      };
      const countBefore = (await sqlIds(before, compilerOf)).length;
      await moveTag(db, { id: null, name: 'Property test' }, id, {
        version: node!.version,
        parentId: target,
      });
      seeded.tagParents = await readTagParents(db);
      moved++;
      // The target's subtree now holds the moved one: it matches at least as many products.
      expect((await sqlIds(before, compilerOf)).length).toBeGreaterThanOrEqual(countBefore);
      expect(await sqlIds(before, compilerOf)).toEqual(expectedIds(before));
    }
    expect(moved).toBeGreaterThan(0);
    await fc.assert(property(compilerOf), { numRuns: 150, seed: 2026 });
  }, 120_000);

  it('has a product without a category, so the first broken compiler has something to miss', async () => {
    const [row] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(sql`${products.categoryId} IS NULL`);
    expect(row?.n).toBeGreaterThan(0);
  });
});
