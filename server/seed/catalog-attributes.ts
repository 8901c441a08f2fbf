// The catalogue's attributes as the demo and the bulk seed use them: about thirty typed attributes
// (every SPEC §3 data type) in three groups, attached to the demo categories — a few to every
// top-level category (brand, origin, description, keywords), most to one branch, some to a single
// subcategory (RAM only for mobiles, occasion only for ethnic wear). `ensureSeedCatalog` creates what
// is missing and answers every leaf category with its attribute set, so the demo seed and
// `npm run seed -- --products N` (run later, on a database that has the demo) share one definition.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AttributeDataType, AttributeType } from '../../contracts/catalog';
import { slugify } from '../../contracts/categories';
import type { Db, Tx } from '../db/client';
import { attributeOptions, attributes, categories, categoryAttributes } from '../db/schema';
import type { AttributeDef } from '../modules/attributes/attribute-values';

export interface SeedAttribute {
  code: string;
  label: string;
  dataType: AttributeDataType;
  attributeType?: AttributeType;
  isRequired?: boolean;
  unit?: string;
  groupName: 'General' | 'Technical' | 'Marketing';
  /** ENUMERATED: the labels, in the order the picker shows them. */
  options?: string[];
}

const COLOURS = [
  'Black',
  'White',
  'Blue',
  'Grey',
  'Red',
  'Green',
  'Beige',
  'Brown',
  'Pink',
  'Navy',
  'Silver',
  'Gold',
  'Maroon',
  'Mustard',
  'Teal',
  'Multicolour',
];

/** Every brand a generated product may carry; each top-level category draws from its own few. */
export const BRANDS = {
  electronics: ['Zenith', 'Kiran', 'Orbit', 'Lumio', 'Tarang', 'Vayu', 'Nexa', 'Pulse'],
  apparel: ['Peacock', 'Aurora', 'Indigo Lane', 'Fabric Story', 'Urban Loom', 'Khadi Kraft'],
  'home-and-kitchen': ['Harbor Home', 'Quartz', 'Umber', 'Amber', 'Prestige Craft', 'Cedar & Co'],
  'beauty-and-personal-care': ['Velvet', 'Nilgiri Naturals', 'Everleaf', 'Kesar Glow'],
  'food-and-beverages': ['Monsoon Tea', 'Deccan Spices', 'Saffron Foods', 'Everleaf'],
  handicrafts: ['Banyan Crafts', 'Blue Pottery House', 'Ganga Handloom', 'Yarn & Loom'],
  jewellery: ['Jaipur Gems', 'Coral Jewels', 'Tanishka', 'Silver Lane'],
  'sports-and-outdoors': ['Westwind', 'Kestrel', 'Dune Outdoor', 'Stride'],
  stationery: ['Teal', 'Quill & Co', 'Papermill'],
  'toys-and-baby': ['Oak Street', 'Fern Baby', 'Little Loom', 'Tinker'],
} as const satisfies Record<string, readonly string[]>;

/** The attributes, in the order the product page lists them within a group. */
export const SEED_ATTRIBUTES: SeedAttribute[] = [
  // General
  {
    code: 'brand',
    label: 'Brand',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: [...new Set(Object.values(BRANDS).flat())],
  },
  {
    code: 'colour',
    label: 'Colour',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: COLOURS,
  },
  {
    code: 'country_of_origin',
    label: 'Country of origin',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: ['India', 'China', 'Vietnam', 'Bangladesh', 'Sri Lanka', 'Thailand', 'Japan', 'Germany'],
  },
  {
    code: 'material',
    label: 'Material',
    dataType: 'ENUMERATED',
    attributeType: 'MULTI',
    isRequired: true,
    groupName: 'General',
    options: [
      'Cotton',
      'Silk',
      'Linen',
      'Wool',
      'Polyester',
      'Rayon',
      'Denim',
      'Leather',
      'Sheesham wood',
      'Mango wood',
      'Bamboo',
      'Jute',
      'Stainless steel',
      'Cast iron',
      'Aluminium',
      'Brass',
      'Copper',
      'Ceramic',
      'Terracotta',
      'Glass',
      'Plastic',
    ],
  },
  {
    code: 'size',
    label: 'Size',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'Free size'],
  },
  {
    code: 'gender',
    label: 'Gender',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: ['Men', 'Women', 'Unisex', 'Boys', 'Girls'],
  },
  {
    code: 'pattern',
    label: 'Pattern',
    dataType: 'ENUMERATED',
    groupName: 'General',
    options: ['Solid', 'Striped', 'Checked', 'Floral', 'Block print', 'Embroidered', 'Ikat', 'Bandhani'],
  },
  {
    code: 'occasion',
    label: 'Occasion',
    dataType: 'ENUMERATED',
    attributeType: 'MULTI',
    groupName: 'General',
    options: ['Festive', 'Wedding', 'Casual', 'Office', 'Party'],
  },
  {
    code: 'metal',
    label: 'Metal',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: ['22K gold', '18K gold', 'Sterling silver', 'Oxidised silver', 'Brass', 'Alloy'],
  },
  {
    code: 'age_group',
    label: 'Age group',
    dataType: 'ENUMERATED',
    isRequired: true,
    groupName: 'General',
    options: ['0–2 years', '3–5 years', '6–8 years', '9–12 years', '12+ years'],
  },
  {
    code: 'skin_type',
    label: 'Skin type',
    dataType: 'ENUMERATED',
    attributeType: 'MULTI',
    groupName: 'General',
    options: ['All', 'Dry', 'Oily', 'Combination', 'Sensitive'],
  },
  { code: 'veg', label: 'Vegetarian', dataType: 'BOOLEAN', isRequired: true, groupName: 'General' },
  { code: 'care_instructions', label: 'Care instructions', dataType: 'STRING', groupName: 'General' },
  // Technical
  {
    code: 'screen_size',
    label: 'Screen size',
    dataType: 'FLOAT',
    unit: 'in',
    isRequired: true,
    groupName: 'Technical',
  },
  { code: 'ram_gb', label: 'RAM', dataType: 'NUMBER', unit: 'GB', isRequired: true, groupName: 'Technical' },
  {
    code: 'storage_gb',
    label: 'Storage',
    dataType: 'NUMBER',
    unit: 'GB',
    isRequired: true,
    groupName: 'Technical',
  },
  { code: 'battery_mah', label: 'Battery', dataType: 'NUMBER', unit: 'mAh', groupName: 'Technical' },
  { code: 'five_g', label: '5G', dataType: 'BOOLEAN', groupName: 'Technical' },
  {
    code: 'connectivity',
    label: 'Connectivity',
    dataType: 'ENUMERATED',
    attributeType: 'MULTI',
    groupName: 'Technical',
    options: ['Bluetooth', 'Wi-Fi', 'USB-C', 'NFC', '3.5 mm jack', 'Wireless charging'],
  },
  { code: 'waterproof', label: 'Water resistant', dataType: 'BOOLEAN', groupName: 'Technical' },
  { code: 'noise_cancelling', label: 'Noise cancelling', dataType: 'BOOLEAN', groupName: 'Technical' },
  { code: 'warranty_months', label: 'Warranty', dataType: 'NUMBER', unit: 'months', groupName: 'Technical' },
  { code: 'power_w', label: 'Power', dataType: 'NUMBER', unit: 'W', groupName: 'Technical' },
  { code: 'capacity_l', label: 'Capacity', dataType: 'FLOAT', unit: 'L', groupName: 'Technical' },
  {
    code: 'net_quantity_ml',
    label: 'Net quantity',
    dataType: 'NUMBER',
    unit: 'ml',
    isRequired: true,
    groupName: 'Technical',
  },
  {
    code: 'net_weight_g',
    label: 'Net weight',
    dataType: 'FLOAT',
    unit: 'g',
    isRequired: true,
    groupName: 'Technical',
  },
  {
    code: 'shelf_life_months',
    label: 'Shelf life',
    dataType: 'NUMBER',
    unit: 'months',
    groupName: 'Technical',
  },
  { code: 'pages', label: 'Pages', dataType: 'NUMBER', groupName: 'Technical' },
  { code: 'specs', label: 'Specifications', dataType: 'OBJECT', groupName: 'Technical' },
  { code: 'size_chart', label: 'Size chart', dataType: 'IMAGE', groupName: 'Technical' },
  // Marketing
  {
    code: 'description',
    label: 'Description',
    dataType: 'WYSIWYG',
    isRequired: true,
    groupName: 'Marketing',
  },
  { code: 'keywords', label: 'Keywords', dataType: 'STRING', attributeType: 'MULTI', groupName: 'Marketing' },
  { code: 'launch_date', label: 'Launch date', dataType: 'DATETIME', groupName: 'Marketing' },
  { code: 'product_video', label: 'Product video', dataType: 'VIDEO', groupName: 'Marketing' },
];

export type SeedAttributeCode = (typeof SEED_ATTRIBUTES)[number]['code'];

/** Subcategories the demo tree (catalogue.ts) lacks and the catalogue needs: phones are most of a marketplace. */
const EXTRA_SUBCATEGORIES = [{ parent: 'electronics', name: 'Mobiles', sortOrder: 5 }];

const EVERY_PARENT = ['brand', 'country_of_origin', 'description', 'keywords'];

/**
 * Each category's own attributes: a top-level category by its slug, a subcategory as "parent/child".
 * A subcategory's set is its own and its parent's.
 */
export const CATEGORY_SETS: Record<string, string[]> = {
  apparel: [
    ...EVERY_PARENT,
    'colour',
    'size',
    'material',
    'gender',
    'pattern',
    'care_instructions',
    'size_chart',
  ],
  'apparel/ethnic-wear': ['occasion'],
  electronics: [
    ...EVERY_PARENT,
    'colour',
    'warranty_months',
    'battery_mah',
    'connectivity',
    'waterproof',
    'specs',
    'launch_date',
    'product_video',
  ],
  'electronics/mobiles': ['screen_size', 'ram_gb', 'storage_gb', 'five_g'],
  'electronics/wearables': ['screen_size'],
  'electronics/audio': ['noise_cancelling'],
  'home-and-kitchen': [...EVERY_PARENT, 'colour', 'material', 'warranty_months'],
  'home-and-kitchen/cookware': ['capacity_l'],
  'home-and-kitchen/lighting': ['power_w'],
  'beauty-and-personal-care': [...EVERY_PARENT, 'net_quantity_ml', 'skin_type', 'shelf_life_months'],
  'food-and-beverages': [...EVERY_PARENT, 'net_weight_g', 'veg', 'shelf_life_months'],
  handicrafts: [...EVERY_PARENT, 'material', 'colour', 'care_instructions'],
  'handicrafts/handloom': ['pattern'],
  jewellery: [...EVERY_PARENT, 'metal', 'net_weight_g', 'occasion'],
  'sports-and-outdoors': [...EVERY_PARENT, 'colour', 'material', 'warranty_months'],
  'sports-and-outdoors/fitness': ['net_weight_g'],
  stationery: [...EVERY_PARENT, 'colour', 'pages'],
  'toys-and-baby': [...EVERY_PARENT, 'age_group', 'material', 'colour'],
};

export interface SeedCategory {
  id: string;
  /** "parent/child" (slugs). */
  path: string;
  name: string;
  /** The category's attribute set, in the order the server lists it (group, position, id). */
  set: Map<number, AttributeDef>;
}

export interface SeedCatalog {
  defs: Map<string, AttributeDef>;
  /** Every active subcategory of the demo tree, by path. */
  leaves: Map<string, SeedCategory>;
}

/** Orders attribute definitions as categoryAttributeSet (server/modules/attributes/attribute-defs.ts) does. */
const byGroupAndPosition = (
  a: AttributeDef & { sortOrder: number },
  b: AttributeDef & { sortOrder: number },
) =>
  a.groupName === b.groupName ? a.sortOrder - b.sortOrder || a.id - b.id : a.groupName < b.groupName ? -1 : 1;

/**
 * Creates whatever of the seed catalogue is missing (the Mobiles subcategory, the attributes with
 * their options, the category sets) and reads it back. Idempotent: the demo seed runs it, and the
 * bulk seed runs it again on a database the demo already holds (or one seeded without the demo,
 * where only categories that exist get attributes). Refuses to build on an attribute an admin made
 * with the same code and another type: every generated value would be wrong.
 */
export async function ensureSeedCatalog(db: Db | Tx): Promise<SeedCatalog> {
  const parents = await db.select().from(categories).where(isNull(categories.parentId));
  const parentBySlug = new Map(parents.map((row) => [row.slug, row]));
  for (const extra of EXTRA_SUBCATEGORIES) {
    const parent = parentBySlug.get(extra.parent);
    if (!parent) continue;
    await db
      .insert(categories)
      .values({
        name: extra.name,
        slug: slugify(extra.name),
        parentId: parent.id,
        sortOrder: extra.sortOrder,
      })
      .onConflictDoNothing();
  }

  await db
    .insert(attributes)
    .values(
      SEED_ATTRIBUTES.map((attribute, index) => ({
        code: attribute.code,
        label: attribute.label,
        dataType: attribute.dataType,
        attributeType: attribute.attributeType ?? 'SINGLE',
        isRequired: attribute.isRequired ?? false,
        unit: attribute.unit ?? null,
        groupName: attribute.groupName,
        sortOrder: (index + 1) * 10,
      })),
    )
    .onConflictDoNothing();
  const rows = await db
    .select()
    .from(attributes)
    .where(
      inArray(
        attributes.code,
        SEED_ATTRIBUTES.map((attribute) => attribute.code),
      ),
    );
  const rowByCode = new Map(rows.map((row) => [row.code, row]));
  for (const attribute of SEED_ATTRIBUTES) {
    const row = rowByCode.get(attribute.code);
    if (row?.dataType !== attribute.dataType || row.attributeType !== (attribute.attributeType ?? 'SINGLE')) {
      throw new Error(
        `The attribute "${attribute.code}" exists as ${row?.attributeType} ${row?.dataType}; the seed needs ` +
          `${attribute.attributeType ?? 'SINGLE'} ${attribute.dataType}. Rename it, or seed another database.`,
      );
    }
  }
  const optionRows = SEED_ATTRIBUTES.flatMap((attribute) =>
    (attribute.options ?? []).map((value, sortOrder) => ({
      attributeId: rowByCode.get(attribute.code)!.id,
      value,
      sortOrder,
    })),
  );
  await db.insert(attributeOptions).values(optionRows).onConflictDoNothing();
  const options = await db
    .select()
    .from(attributeOptions)
    .where(
      inArray(
        attributeOptions.attributeId,
        rows.map((row) => row.id),
      ),
    );
  const defs = new Map<string, AttributeDef & { sortOrder: number }>();
  for (const row of rows) {
    const own = options
      .filter((option) => option.attributeId === row.id)
      .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
    defs.set(row.code, {
      id: row.id,
      code: row.code,
      label: row.label,
      dataType: row.dataType,
      attributeType: row.attributeType,
      isRequired: row.isRequired,
      unit: row.unit,
      groupName: row.groupName,
      sortOrder: row.sortOrder,
      options: new Map(own.map((option) => [option.id, option.value])),
    });
  }

  const children = await db
    .select()
    .from(categories)
    .where(
      and(
        inArray(
          categories.parentId,
          parents.map((row) => row.id),
        ),
        eq(categories.isActive, true),
      ),
    );
  const pathOf = new Map<string, string>();
  for (const parent of parents) pathOf.set(parent.id, parent.slug);
  for (const child of children) pathOf.set(child.id, `${pathOf.get(child.parentId!)}/${child.slug}`);
  const idOfPath = new Map([...pathOf].map(([id, path]) => [path, id]));
  const links = Object.entries(CATEGORY_SETS).flatMap(([path, codes]) => {
    const categoryId = idOfPath.get(path);
    return categoryId
      ? codes.map((code, index) => ({ categoryId, attributeId: defs.get(code)!.id, sortOrder: index }))
      : [];
  });
  if (links.length) await db.insert(categoryAttributes).values(links).onConflictDoNothing();
  const attached = await db.select().from(categoryAttributes);
  const codesOf = new Map<string, Set<number>>();
  for (const link of attached) {
    const set = codesOf.get(link.categoryId) ?? new Set<number>();
    set.add(link.attributeId);
    codesOf.set(link.categoryId, set);
  }
  const defById = new Map([...defs.values()].map((def) => [def.id, def]));

  const leaves = new Map<string, SeedCategory>();
  for (const child of children) {
    const parent = parents.find((row) => row.id === child.parentId);
    if (!parent?.isActive || !(parent.slug in CATEGORY_SETS)) continue;
    // The set as the server reads it: the child's own attributes and its parent's. Attributes an
    // admin attached that the seed does not know are left out: the generator has no values for them.
    const ids = new Set([...(codesOf.get(child.id) ?? []), ...(codesOf.get(parent.id) ?? [])]);
    const set = [...ids]
      .map((id) => defById.get(id))
      .filter((def) => def !== undefined)
      .sort(byGroupAndPosition);
    const path = pathOf.get(child.id)!;
    leaves.set(path, { id: child.id, path, name: child.name, set: new Map(set.map((def) => [def.id, def])) });
  }
  return { defs, leaves };
}
