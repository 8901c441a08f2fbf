// The demo tag tree (issue 16): a storefront navigation of a few hundred tags, four and five levels deep,
// published three times with real changes between (so the history and its diffs have something to
// show), then a draft with pending changes — a new tag, a rename, a move, a tag to be removed — and
// tags on the demo products. It goes through the server's own writes and publish, as a person would.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Actor } from '../lib/audit';
import { createTag, deleteTag, lockTree, moveTag, updateTag } from '../modules/tags/draft-writes';
import { calculateLevels } from '../modules/tags/levels-job';
import { publish } from '../modules/tags/versions';

/** Two spaces a level. */
const TAXONOMY = `
Apparel
  Men
    Shirts
      Formal
        Slim Fit
        Regular Fit
      Casual
        Checked
        Printed
      Linen
    T-Shirts
      Polos
      Crew Neck
      Graphic Tees
    Trousers
      Chinos
      Jeans
        Slim
        Straight
      Joggers
    Ethnic Wear
      Kurtas
        Cotton Kurtas
        Silk Kurtas
      Sherwanis
      Nehru Jackets
  Women
    Tops
      Blouses
      Tunics
      Crop Tops
    Dresses
      Maxi
      Midi
      Wrap
    Ethnic Wear
      Sarees
        Silk Sarees
        Cotton Sarees
        Handloom Sarees
      Kurtis
      Lehengas
      Salwar Suits
    Bottoms
      Palazzos
      Skirts
      Leggings
  Kids
    Boys
      Shirts
      Shorts
      Sets
    Girls
      Frocks
      Tops
      Ethnic
    Infants
      Rompers
      Bodysuits
Footwear
  Men
    Formal Shoes
      Oxfords
      Derbies
      Loafers
    Sports Shoes
      Running
      Training
      Walking
    Sandals
      Kolhapuris
      Floaters
  Women
    Heels
      Block Heels
      Stilettos
      Wedges
    Flats
      Ballerinas
      Juttis
    Sports Shoes
      Running
      Training
Home & Kitchen
  Cookware
    Pots & Pans
      Kadhais
      Tawas
      Pressure Cookers
    Bakeware
    Storage
      Jars
      Lunch Boxes
  Decor
    Wall Decor
      Paintings
      Mirrors
      Clocks
    Candles & Lamps
      Diyas
      Lanterns
    Vases
  Furnishing
    Bed Linen
      Bedsheets
      Quilts
      Pillow Covers
    Curtains
    Cushions
      Cushion Covers
      Fillers
  Lighting
    Ceiling Lights
    Table Lamps
    String Lights
Electronics
  Audio
    Headphones
      Over-Ear
      On-Ear
      In-Ear
    Speakers
      Bluetooth
      Smart
    Soundbars
  Wearables
    Smartwatches
    Fitness Bands
  Accessories
    Chargers
      Wall Chargers
      Power Banks
    Cables
    Cases & Covers
Beauty & Personal Care
  Skincare
    Face
      Cleansers
      Moisturisers
      Serums
      Sunscreen
    Body
      Lotions
      Body Wash
  Makeup
    Eyes
      Kajal
      Mascara
      Eyeliner
    Lips
      Lipsticks
      Lip Balms
    Face
      Foundation
      Compact
  Hair Care
    Shampoo
    Hair Oil
    Conditioner
Handicrafts
  Pottery
    Terracotta
    Blue Pottery
  Handloom
    Ikat
    Bandhani
    Block Print
  Woodwork
    Toys
    Boxes
Jewellery
  Gold
    Chains
    Rings
    Earrings
  Silver
    Anklets
    Toe Rings
  Fashion Jewellery
    Necklace Sets
    Bangles
    Jhumkas
Sports & Outdoors
  Fitness
    Yoga
      Mats
      Blocks
    Weights
      Dumbbells
      Kettlebells
  Cycling
    Bicycles
      Mountain Bikes
      City Bikes
    Helmets
  Camping
    Tents
    Sleeping Bags
Occasions
  Festive
    Diwali
      Gifts
      Decor
    Eid
    Christmas
  Wedding
    Bridal
    Guests
  Gifting
    For Him
    For Her
    Corporate
`;

interface Seeded {
  name: string;
  children: Seeded[];
}

function parseTaxonomy(text: string): Seeded[] {
  const roots: Seeded[] = [];
  const stack: { depth: number; node: Seeded }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const depth = (line.length - line.trimStart().length) / 2;
    const node: Seeded = { name: line.trim(), children: [] };
    while (stack.length && (stack.at(-1) as { depth: number }).depth >= depth) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.node.children.push(node);
    else roots.push(node);
    stack.push({ depth, node });
  }
  return roots;
}

/** Adds the nodes under `parentId`, depth first; answers ids by path ("Apparel > Men"). */
async function addAll(
  db: Db,
  actor: Actor,
  nodes: Seeded[],
  parentId: string | null,
  prefix: string,
  ids: Map<string, string>,
) {
  for (const node of nodes) {
    const path = prefix ? `${prefix} > ${node.name}` : node.name;
    const id = await createTag(db, actor, { parentId, name: node.name });
    ids.set(path, id);
    await addAll(db, actor, node.children, id, path, ids);
  }
}

async function versionOf(db: Db, id: string) {
  const [row] = rowsOf<{ version: number }>(
    await db.execute(sql`SELECT version FROM tag_nodes WHERE id = ${id}::uuid`),
  );
  return row?.version ?? 1;
}

async function revision(db: Db) {
  return db.transaction(async (tx) => (await lockTree(tx)).revision);
}

export async function seedDemoTags(db: Db, actors: { admin: Actor; staff: Actor }): Promise<void> {
  const { admin, staff } = actors;
  const ids = new Map<string, string>();
  const taxonomy = parseTaxonomy(TAXONOMY);
  // Version 1: the launch tree, without Occasions and the kids' infants range.
  const launch = taxonomy.filter((root) => root.name !== 'Occasions');
  await addAll(db, staff, launch, null, '', ids);
  const id = (path: string) => {
    const found = ids.get(path);
    if (!found) throw new Error(`demo tags: no ${path}`);
    return found;
  };
  await publish(db, admin, { draftRevision: await revision(db), note: 'Launch navigation', remap: [] });

  // Version 2: occasions for the festive season, T-Shirts renamed, Ethnic Wear's kurtas reorganised.
  await addAll(
    db,
    staff,
    taxonomy.filter((root) => root.name === 'Occasions'),
    null,
    '',
    ids,
  );
  const tees = id('Apparel > Men > T-Shirts');
  await updateTag(db, staff, tees, { version: await versionOf(db, tees), name: 'T-Shirts & Polos' });
  const nehru = id('Apparel > Men > Ethnic Wear > Nehru Jackets');
  await moveTag(db, staff, nehru, {
    version: await versionOf(db, nehru),
    parentId: id('Occasions > Wedding'),
  });
  await publish(db, admin, { draftRevision: await revision(db), note: 'Festive season', remap: [] });

  // Version 3: lighting joins decor; a thin range goes.
  const lighting = id('Home & Kitchen > Lighting');
  await moveTag(db, staff, lighting, {
    version: await versionOf(db, lighting),
    parentId: id('Home & Kitchen > Decor'),
  });
  const floaters = id('Footwear > Men > Sandals > Floaters');
  await deleteTag(db, staff, floaters, {
    version: await versionOf(db, floaters),
    children: 'lift',
    products: 'untag',
  });
  await publish(db, admin, {
    draftRevision: await revision(db),
    note: 'Decor and footwear tidy-up',
    remap: [],
  });

  // The draft: changes waiting for a publish.
  const winter = await createTag(db, staff, { parentId: id('Apparel > Men'), name: 'Winter Wear' });
  for (const name of ['Jackets', 'Sweaters', 'Thermals'])
    await createTag(db, staff, { parentId: winter, name });
  const sports = id('Footwear > Women > Sports Shoes');
  await updateTag(db, staff, sports, {
    version: await versionOf(db, sports),
    name: 'Sports & Running Shoes',
  });
  const soundbars = id('Electronics > Audio > Soundbars');
  await moveTag(db, staff, soundbars, {
    version: await versionOf(db, soundbars),
    parentId: id('Electronics > Audio > Speakers'),
  });
  const boxes = id('Handicrafts > Woodwork > Boxes');
  await deleteTag(db, staff, boxes, {
    version: await versionOf(db, boxes),
    children: 'lift',
    products: 'untag',
  });

  await tagDemoProducts(db, ids);
  // One product still carries the tag the draft removed (as after an import of an older sheet): the
  // next publish asks where its products go.
  await db.execute(sql`
    UPDATE products SET tag_ids = array_append(tag_ids, ${boxes}::uuid)
    WHERE id = (SELECT id FROM products WHERE tag_ids <> '{}' ORDER BY sku LIMIT 1)`);
  await calculateLevels(db);
}

/** Each product gets the tags of its category's department, chosen by its title's words. */
async function tagDemoProducts(db: Db, ids: Map<string, string>) {
  const rows = rowsOf<{ id: string; title: string; root: string | null }>(
    await db.execute(sql`
      SELECT p.id, p.title, coalesce(r.name, c.name) AS root
      FROM products p
      LEFT JOIN categories c ON c.id = p.category_id
      LEFT JOIN categories r ON r.id = c.parent_id
      ORDER BY p.sku`),
  );
  // The leaves of each top-level tag still in the draft, and the words of their names.
  const live = new Set(
    rowsOf<{ id: string }>(await db.execute(sql`SELECT id FROM tag_nodes`)).map((row) => row.id),
  );
  const leaves = new Map<string, { id: string; words: string[] }[]>();
  for (const [path, id] of ids) {
    if (!live.has(id)) continue;
    const [root] = path.split(' > ');
    if (!root) continue;
    const list = leaves.get(root) ?? [];
    list.push({
      id,
      words: path
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((word) => word.length > 3),
    });
    leaves.set(root, list);
  }
  const updates: { id: string; tags: string[] }[] = [];
  for (const [index, row] of rows.entries()) {
    const candidates = leaves.get(row.root ?? '') ?? [];
    if (candidates.length === 0) continue;
    const title = row.title.toLowerCase();
    const matching = candidates.filter((leaf) =>
      leaf.words.some((word) => title.includes(word.replace(/s$/, ''))),
    );
    const pool = matching.length ? matching : candidates;
    const chosen = new Set([pool[index % pool.length]?.id as string]);
    // Some products carry an occasion too.
    if (index % 5 === 0 && ids.has('Occasions > Gifting > For Her'))
      chosen.add(ids.get('Occasions > Gifting > For Her') as string);
    updates.push({ id: row.id, tags: [...chosen] });
  }
  if (updates.length === 0) return;
  await db.execute(sql`
    UPDATE products p SET tag_ids = x.tags
    FROM json_to_recordset(${JSON.stringify(updates)}::json) AS x(id uuid, tags uuid[])
    WHERE p.id = x.id`);
}
