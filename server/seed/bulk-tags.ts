// A big tag tree at once, for the benchmark and load tests (`npm run seed -- --tags 50000`).
//
// The tree is shaped like a real marketplace navigation: a few tens of departments ("Apparel",
// "Electronics", …), a few very large and many small (sizes fall off as a power law, so some subtree
// holds about a tenth of the tree, as "Apparel" does on a real shop), then audiences or uses ("Men",
// "Office"), product types ("Shirts", "Headphones"), styles ("Formal"), variants ("Slim Fit"),
// materials, colours and price bands: leaves at depths 5 to 8, fan-out falling with depth. Sibling
// names are distinct by the server's own name key; codes are unique across the tree.
//
// Everything is computed here (seq, path, level, children count, name key, code) and inserted set-based
// (jsonb_to_recordset: one INSERT and one transaction per batch), parents before children. Each batch
// holds the tree as a draft write does and bumps the draft revision, so an editor's stale publish is
// refused. The seqs come from the identity sequence, reserved as one block first. The generated
// nodes go into the draft; then the draft is published once — through the server's own preview and
// publish, as an editor would — so the tree has a published version. A crash between batches keeps
// whole batches; "Calculate node levels" repairs the children counts of the last parents then.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { type Actor, SYSTEM_ACTOR } from '../lib/audit';
import { bumpRevision, lockTree } from '../modules/tags/draft-writes';
import { childPath, codeFromName, nameKeyOf } from '../modules/tags/tree-paths';
import { publish, publishPreview } from '../modules/tags/versions';
import { type Rng, rngOf } from './product-generator';

/** The deepest level a generated leaf sits at (a root is level 1). */
export const MAX_TAG_LEVEL = 8;
/** The shallowest level a department's deepest branch reaches. */
export const MIN_TAG_DEPTH = 5;

const words = (list: string) => list.split(',').map((word) => word.trim());

/** Departments: the roots. "people" departments split by audience, the others by use. */
const DEPARTMENTS: readonly (readonly [string, 'people' | 'use'])[] = [
  ['Apparel', 'people'],
  ['Electronics', 'use'],
  ['Home & Kitchen', 'use'],
  ['Footwear', 'people'],
  ['Beauty & Personal Care', 'people'],
  ['Sports & Outdoors', 'use'],
  ['Jewellery', 'people'],
  ['Toys & Games', 'people'],
  ['Books', 'use'],
  ['Furniture', 'use'],
  ['Grocery & Gourmet', 'use'],
  ['Health & Wellness', 'people'],
  ['Baby Care', 'use'],
  ['Handicrafts', 'use'],
  ['Computers', 'use'],
  ['Mobiles & Accessories', 'use'],
  ['Appliances', 'use'],
  ['Watches', 'people'],
  ['Bags & Luggage', 'people'],
  ['Eyewear', 'people'],
  ['Stationery & Office', 'use'],
  ['Garden & Outdoors', 'use'],
  ['Automotive', 'use'],
  ['Pet Supplies', 'use'],
  ['Musical Instruments', 'use'],
  ['Cameras', 'use'],
  ['Tools & Hardware', 'use'],
  ['Home Decor', 'use'],
  ['Bed & Bath', 'use'],
  ['Fragrances', 'people'],
  ['Art & Craft Supplies', 'use'],
  ['Party Supplies', 'use'],
  ['Video Games', 'use'],
  ['Ayurveda & Herbal', 'people'],
  ['Organic Store', 'use'],
  ['Lighting', 'use'],
  ['Collectibles', 'use'],
  ['Industrial & Scientific', 'use'],
  ['Gifts', 'people'],
  ['Festive Store', 'use'],
];
/** When every department name is taken (a second run, or the demo tree's own roots). */
const DEPARTMENT_QUALIFIERS = words('Outlet, Wholesale, Essentials, Bazaar, Exports, Store, Collection');

const AUDIENCES = words(
  'Men, Women, Kids, Boys, Girls, Infants, Teens, Unisex, Seniors, Maternity, Plus Size',
);
const USES = words(
  'Home, Office, Outdoor, Travel, Professional, Everyday, Premium, Budget, Festive, Gifting, Smart, ' +
    'Eco-friendly, Commercial, Compact, Heavy Duty',
);

/** Product types (level 3) by department; others use GENERIC_TYPES. */
const PRODUCT_TYPES = new Map<string, string[]>([
  [
    'Apparel',
    words(
      'Shirts, T-Shirts, Trousers, Jeans, Kurtas, Dresses, Tops, Jackets, Sweaters, Shorts, Skirts, ' +
        'Sarees, Ethnic Sets, Nightwear, Innerwear, Activewear, Blazers, Hoodies',
    ),
  ],
  [
    'Electronics',
    words(
      'Headphones, Speakers, Televisions, Smart Watches, Chargers, Power Banks, Cables, Projectors, ' +
        'Soundbars, Earbuds, Home Theatre, Streaming Devices',
    ),
  ],
  [
    'Home & Kitchen',
    words(
      'Cookware, Dinnerware, Storage, Cutlery, Bakeware, Drinkware, Kitchen Tools, Cleaning, Laundry, ' +
        'Tiffins, Water Bottles, Gas Stoves',
    ),
  ],
  [
    'Footwear',
    words(
      'Sneakers, Sandals, Formal Shoes, Boots, Slippers, Loafers, Sports Shoes, Flip Flops, Heels, Flats',
    ),
  ],
  [
    'Beauty & Personal Care',
    words('Skincare, Makeup, Hair Care, Bath & Body, Nail Care, Shaving, Oral Care, Sun Care, Tools'),
  ],
  [
    'Sports & Outdoors',
    words('Cricket, Football, Badminton, Fitness, Yoga, Cycling, Camping, Running, Swimming, Tennis, Hiking'),
  ],
  ['Jewellery', words('Necklaces, Earrings, Rings, Bangles, Bracelets, Anklets, Pendants, Nose Pins, Sets')],
  [
    'Toys & Games',
    words('Board Games, Puzzles, Soft Toys, Action Figures, Building Blocks, Dolls, Ride-ons, Learning Toys'),
  ],
  [
    'Books',
    words('Fiction, Non-fiction, Children’s Books, Textbooks, Comics, Biographies, Self-help, Cookbooks'),
  ],
  ['Furniture', words('Sofas, Beds, Tables, Chairs, Wardrobes, Shelves, TV Units, Desks, Mattresses')],
  ['Computers', words('Laptops, Desktops, Monitors, Keyboards, Mice, Printers, Storage Drives, Routers')],
  [
    'Mobiles & Accessories',
    words('Smartphones, Feature Phones, Cases & Covers, Screen Guards, Chargers, Holders, Tablets'),
  ],
]);
const GENERIC_TYPES = words(
  'Accessories, Essentials, Sets, Kits, Refills, Spares, Bundles, Gift Packs, Classics, New Arrivals, ' +
    'Bestsellers, Starter Packs, Care Products, Organisers',
);
/** Level 4 on: style, variant, material, colour or pattern, price band or pack. */
const LEVEL_WORDS: readonly string[][] = [
  words(
    'Formal, Casual, Sports, Party, Ethnic, Office, Travel, Lounge, Classic, Modern, Vintage, Minimal, ' +
      'Outdoor, Festive, Everyday, Designer',
  ),
  words(
    'Slim Fit, Regular Fit, Relaxed Fit, Oversized, Compact, Mini, Pro, Max, Lite, Standard, Large, ' +
      'Extra Large, Cropped, Long, Short, Wide',
  ),
  words(
    'Cotton, Linen, Silk, Wool, Denim, Leather, Polyester, Bamboo, Steel, Wood, Glass, Ceramic, ' +
      'Brass, Copper, Jute, Khadi, Rayon, Velvet',
  ),
  words(
    'Black, White, Navy, Grey, Beige, Red, Green, Mustard, Maroon, Pastel, Solid, Striped, Checked, ' +
      'Printed, Floral, Embroidered, Block Print, Ikat',
  ),
  words(
    'Under ₹499, ₹500 to ₹999, ₹1000 to ₹1999, Above ₹2000, Value Packs, Pack of 2, Pack of 3, ' +
      'Limited Edition, Bestsellers, New Arrivals, Clearance, Combo Offers',
  ),
];
/** Put in front of a level's word when a node needs more children than the level has words. */
const MODIFIERS = words(
  'Classic, Premium, Everyday, Handmade, Eco, Signature, Deluxe, Heritage, Urban, Summer, Winter, ' +
    'Monsoon, Essential, Smart, Royal, Artisan, Studio, Travel, Kids’, Organic',
);

/** Relative fan-out by the level of the parent: wide near the top, narrow near the leaves. */
const FANOUT_WEIGHT = [0, 1.6, 1.35, 1.15, 1, 0.9, 0.8, 0.7];
/** Children a generated node has at most, unless its budget allows nothing else (the deepest level). */
const MAX_FANOUT = 40;

export interface GeneratedTag {
  id: string;
  seq: number;
  parentId: string | null;
  path: string;
  level: number;
  name: string;
  nameKey: string;
  code: string;
  childrenCount: number;
}

/** `total` split into `weights.length` whole shares of at least 1 each (largest remainder). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const free = total - weights.length;
  if (free < 0) throw new Error(`cannot split ${total} into ${weights.length} non-empty parts`);
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  const exact = weights.map((weight) => (free * weight) / sum);
  const shares = exact.map((share) => 1 + Math.floor(share));
  let left = total - shares.reduce((acc, share) => acc + share, 0);
  const byRemainder = exact
    .map((share, i) => [share - Math.floor(share), i] as const)
    .sort((a, b) => b[0] - a[0]);
  for (const [, i] of byRemainder) {
    if (left-- <= 0) break;
    shares[i] = (shares[i] as number) + 1;
  }
  return shares;
}

/** Skewed weights for `count` siblings: a few big ones and a long tail of small ones (a power law, jittered). */
function skewedWeights(rng: Rng, count: number): number[] {
  return Array.from({ length: count }, (_, rank) => (0.5 + rng.next()) / (rank + 1) ** 0.9);
}

/**
 * How many children a node with `budget` nodes in its subtree (itself included) gets, when its
 * subtree should end around `deepest` (and never below MAX_TAG_LEVEL).
 */
function childCount(rng: Rng, budget: number, level: number, deepest: number): number {
  const below = budget - 1;
  if (below === 0) return 0;
  if (level >= MAX_TAG_LEVEL - 1) return below;
  // Levels left to spread the budget over: as planned, or more when the budget would be too wide.
  const planned = Math.max(1, deepest - level);
  const needed = Math.ceil(Math.log(below) / Math.log(MAX_FANOUT));
  const levels = Math.min(MAX_TAG_LEVEL - level, Math.max(planned, needed));
  const balanced = below ** (1 / levels) * (FANOUT_WEIGHT[level] ?? 0.7) * (0.75 + rng.next() / 2);
  return Math.max(1, Math.min(below, MAX_FANOUT, Math.round(balanced)));
}

/** `list` in a random order (Fisher–Yates). */
function shuffle<T>(rng: Rng, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** `count` distinct names for siblings from `pool`, then "<modifier> <word>", then numbered ones. */
function siblingNames(rng: Rng, pool: readonly string[], count: number): string[] {
  const names: string[] = [];
  const used = new Set<string>();
  const take = (name: string) => {
    const key = nameKeyOf(name);
    if (used.has(key)) return;
    used.add(key);
    names.push(name);
  };
  const shuffled = shuffle(rng, pool);
  for (const name of shuffled) {
    if (names.length === count) return names;
    take(name);
  }
  for (let round = 0; names.length < count; round++) {
    for (const modifier of MODIFIERS) {
      for (const name of shuffled) {
        if (names.length === count) return names;
        take(round === 0 ? `${modifier} ${name}` : `${modifier} ${name} ${round + 1}`);
      }
    }
  }
  return names;
}

/** What a node's children are named from: the department's audiences or uses, its product types, then by level. */
function poolFor(level: number, department: string, kind: 'people' | 'use'): readonly string[] {
  if (level === 2) return kind === 'people' ? AUDIENCES : USES;
  if (level === 3) return PRODUCT_TYPES.get(department) ?? GENERIC_TYPES;
  return LEVEL_WORDS[Math.min(level - 4, LEVEL_WORDS.length - 1)] as string[];
}

/** Unique codes made as the server makes them ("shirts-formal", then "shirts-formal-2", …). */
function codeMaker(taken: Set<string>) {
  const nextSuffix = new Map<string, number>();
  return (base: string): string => {
    if (!taken.has(base)) {
      taken.add(base);
      return base;
    }
    for (let n = nextSuffix.get(base) ?? 2; ; n++) {
      const candidate = `${base}-${n}`;
      if (!taken.has(candidate)) {
        nextSuffix.set(base, n + 1);
        taken.add(candidate);
        return candidate;
      }
    }
  };
}

export interface TagTreePlan {
  /** How many nodes. */
  total: number;
  /** The first seq; the nodes take `firstSeq` … `firstSeq + total - 1`. */
  firstSeq: number;
  /** Name keys of the roots already in the tree: new roots never share them. */
  takenRootKeys?: ReadonlySet<string>;
  /** Codes already in the tree. */
  takenCodes?: ReadonlySet<string>;
  /** Varies the tree (names, sizes); the same seed makes the same tree. */
  seed?: number;
}

/**
 * A tree of `plan.total` nodes, parents before children (the order to insert them in). Deterministic
 * for a seed. Ids are random UUIDs.
 */
export function generateTagTree(plan: TagTreePlan): GeneratedTag[] {
  const rng = rngOf(plan.seed ?? 16, 7);
  const makeCode = codeMaker(new Set(plan.takenCodes ?? []));
  const nodes: GeneratedTag[] = [];
  let nextSeq = plan.firstSeq;
  const add = (parent: GeneratedTag | null, name: string): GeneratedTag => {
    const seq = nextSeq++;
    const node: GeneratedTag = {
      id: crypto.randomUUID(),
      seq,
      parentId: parent?.id ?? null,
      path: childPath(parent?.path ?? null, seq),
      level: (parent?.level ?? 0) + 1,
      name,
      nameKey: nameKeyOf(name),
      code: makeCode(codeFromName(parent ? `${parent.name} ${name}` : name)),
      childrenCount: 0,
    };
    nodes.push(node);
    if (parent) parent.childrenCount++;
    return node;
  };

  // The roots: a few tens at 50k nodes (the cube root), their sizes falling off with rank.
  const rootCount = Math.max(1, Math.min(plan.total, DEPARTMENTS.length, Math.round(Math.cbrt(plan.total))));
  const rootBudgets = apportion(
    plan.total,
    Array.from({ length: rootCount }, (_, rank) => 1 / (rank + 1) ** 0.9),
  );
  const rootNames = departmentNames(rootCount, plan.takenRootKeys ?? new Set());
  // Each department's deepest branch ends at a level from MIN_TAG_DEPTH to MAX_TAG_LEVEL, in turn.
  const depthSpan = MAX_TAG_LEVEL - MIN_TAG_DEPTH + 1;
  const pending: {
    node: GeneratedTag;
    budget: number;
    deepest: number;
    department: (typeof DEPARTMENTS)[number];
  }[] = rootNames.map(([name, department], i) => ({
    node: add(null, name),
    budget: rootBudgets[i] as number,
    deepest: MIN_TAG_DEPTH + (i % depthSpan),
    department,
  }));
  // Breadth first: a level's nodes are all added before the next level's.
  for (let head = 0; head < pending.length; head++) {
    const { node, budget, deepest, department } = pending[head] as (typeof pending)[number];
    const count = childCount(rng, budget, node.level, deepest);
    if (count === 0) continue;
    const budgets = apportion(budget - 1, skewedWeights(rng, count));
    const names = siblingNames(rng, poolFor(node.level + 1, department[0], department[1]), count);
    for (const [i, name] of names.entries()) {
      pending.push({ node: add(node, name), budget: budgets[i] as number, deepest, department });
    }
  }
  return nodes;
}

/** `count` department names (with what splits them) whose keys are not taken yet. */
function departmentNames(
  count: number,
  taken: ReadonlySet<string>,
): [string, (typeof DEPARTMENTS)[number]][] {
  const names: [string, (typeof DEPARTMENTS)[number]][] = [];
  const used = new Set(taken);
  const candidates = function* () {
    for (const department of DEPARTMENTS) yield [department[0], department] as const;
    for (let round = 1; ; round++) {
      for (const qualifier of DEPARTMENT_QUALIFIERS) {
        for (const department of DEPARTMENTS) {
          const name = `${department[0]} ${qualifier}${round > 1 ? ` ${round}` : ''}`;
          yield [name, department] as const;
        }
      }
    }
  };
  for (const [name, department] of candidates()) {
    if (names.length === count) break;
    const key = nameKeyOf(name);
    if (used.has(key)) continue;
    used.add(key);
    names.push([name, department]);
  }
  return names;
}

// ── Into the database ─────────────────────────────────────────────────────────────────────────────

/** The columns a batch carries, as jsonb_to_recordset reads them. */
const RECORD_COLUMNS = sql.raw(`
  id uuid, seq integer, parent_id uuid, path text, level integer, name text, name_key text, code text,
  children_count integer`);

const recordOf = (node: GeneratedTag) => ({
  id: node.id,
  seq: node.seq,
  parent_id: node.parentId,
  path: node.path,
  level: node.level,
  name: node.name,
  name_key: node.nameKey,
  code: node.code,
  children_count: node.childrenCount,
});

/** The demo admin (who publishes, and whom the nodes name as their last editor), or System. */
async function seedActor(db: Db): Promise<Actor> {
  const [row] = rowsOf<{ id: string; name: string }>(
    await db.execute(sql`
      SELECT id, trim(first_name || ' ' || last_name) AS name FROM users WHERE email = 'admin@demo.local'`),
  );
  return row ? { id: row.id, name: row.name || 'Admin' } : SYSTEM_ACTOR;
}

/**
 * `count` seqs from the tag_nodes identity sequence, as one block (the tree held meanwhile, as
 * createTag holds it before its nextval): answers the first. Never below a seq already in the tree.
 */
async function reserveSeqs(db: Db, count: number): Promise<number> {
  return db.transaction(async (tx) => {
    await lockTree(tx);
    const [row] = rowsOf<{ first: number }>(
      await tx.execute(sql`
        SELECT greatest(nextval(pg_get_serial_sequence('tag_nodes', 'seq')),
                        (SELECT coalesce(max(seq), 0) + 1 FROM tag_nodes),
                        (SELECT coalesce(max(seq), 0) + 1 FROM tag_node_versions))::integer AS first`),
    );
    const first = row?.first as number;
    await tx.execute(sql`SELECT setval(pg_get_serial_sequence('tag_nodes', 'seq'), ${first + count - 1})`);
    return first;
  });
}

/** The root name keys and every code in the draft: what new roots and codes must not repeat. */
async function takenKeys(db: Db) {
  const roots = rowsOf<{ name_key: string }>(
    await db.execute(sql`SELECT name_key FROM tag_nodes WHERE parent_id IS NULL`),
  );
  const codes = rowsOf<{ code: string }>(await db.execute(sql`SELECT code FROM tag_nodes`));
  return {
    rootKeys: new Set(roots.map((row) => row.name_key)),
    codes: new Set(codes.map((row) => row.code)),
  };
}

/**
 * Publishes the draft as the next version, as an editor does: reads the preview (its draft revision),
 * sends the products of tags the draft removed (the demo's pending draft removes one) to the removed
 * tag's parent when it is still there, else untags them.
 */
async function publishDraft(db: Db, actor: Actor, note: string): Promise<number> {
  const preview = await publishPreview(db);
  if (preview.problems.length)
    throw new Error(`the tag tree cannot be published: ${preview.problems.join(' ')}`);
  const needs = preview.remapNeeded.map((need) => need.node.id);
  const parents = needs.length
    ? rowsOf<{ node_id: string; parent_id: string | null }>(
        await db.execute(sql`
          SELECT DISTINCT ON (v.node_id) v.node_id,
                 CASE WHEN EXISTS (SELECT 1 FROM tag_nodes n WHERE n.id = v.parent_id) THEN v.parent_id END
                   AS parent_id
          FROM tag_node_versions v WHERE v.node_id = ANY(${`{${needs.join(',')}}`}::uuid[])
          ORDER BY v.node_id, v.valid_from DESC`),
      )
    : [];
  const parentOf = new Map(parents.map((row) => [row.node_id, row.parent_id]));
  const version = await publish(db, actor, {
    draftRevision: preview.draftRevision,
    note,
    remap: needs.map((nodeId) => ({ nodeId, to: parentOf.get(nodeId) ?? null })),
  });
  return version.number;
}

export interface BulkTagsResult {
  inserted: number;
  firstSeq: number;
  roots: number;
  maxLevel: number;
  /** The version the publish made. */
  version: number;
  /** Of `ms`: the publish (with its preview). */
  publishMs: number;
  ms: number;
}

/**
 * Adds a generated tree of `total` tags to the draft beside whatever is there (new roots never share a
 * name with existing ones, codes never repeat, so it can run again), then publishes the draft once.
 * Refreshes the planner's statistics (and, for PGlite, which has no autovacuum, the visibility map).
 */
export async function seedBulkTags(
  db: Db,
  total: number,
  options: { batchSize?: number; onBatch?: (done: number) => void; seed?: number } = {},
): Promise<BulkTagsResult> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 5_000;
  const actor = await seedActor(db);
  const taken = await takenKeys(db);
  const firstSeq = await reserveSeqs(db, total);
  const nodes = generateTagTree({
    total,
    firstSeq,
    takenRootKeys: taken.rootKeys,
    takenCodes: taken.codes,
    seed: options.seed ?? firstSeq,
  });
  for (let from = 0; from < nodes.length; from += batchSize) {
    const batch = nodes.slice(from, from + batchSize);
    await db.transaction(async (tx) => {
      await lockTree(tx);
      await tx.execute(sql`
        INSERT INTO tag_nodes (id, seq, parent_id, path, level, name, name_key, code, children_count, updated_by,
                               updated_by_name)
        SELECT id, seq, parent_id, path, level, name, name_key, code, children_count, ${actor.id}::uuid,
               ${actor.name}
        FROM jsonb_to_recordset(CAST(${JSON.stringify(batch.map(recordOf))} AS jsonb)) AS r(${RECORD_COLUMNS})`);
      await bumpRevision(tx);
    });
    options.onBatch?.(from + batch.length);
  }
  // Fresh statistics and visibility map before the publish reads the whole draft.
  await db.execute(sql`VACUUM ANALYZE tag_nodes`);
  const publishStarted = Date.now();
  const version = await publishDraft(db, actor, `${total.toLocaleString('en-US')} generated tags`);
  const publishMs = Date.now() - publishStarted;
  await db.execute(sql`VACUUM ANALYZE tag_node_versions`);
  return {
    inserted: total,
    firstSeq,
    roots: nodes.filter((node) => node.parentId === null).length,
    maxLevel: nodes.reduce((max, node) => Math.max(max, node.level), 0),
    version,
    publishMs,
    ms: Date.now() - started,
  };
}
