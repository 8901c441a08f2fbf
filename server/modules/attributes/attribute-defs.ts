// Reading attribute definitions: only the ones a request needs (a category's set, the attributes a
// query or a grid column names), never the whole catalogue's metadata.
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { attributeOptions, attributes, categories, categoryAttributes } from '../../db/schema';
import type { AttributeDef } from './attribute-values';

type AttributeRow = typeof attributes.$inferSelect;

async function withOptions(db: Db | Tx, rows: AttributeRow[]): Promise<AttributeDef[]> {
  const enumerated = rows.filter((row) => row.dataType === 'ENUMERATED').map((row) => row.id);
  const options = enumerated.length
    ? await db
        .select()
        .from(attributeOptions)
        .where(inArray(attributeOptions.attributeId, enumerated))
        .orderBy(asc(attributeOptions.attributeId), asc(attributeOptions.sortOrder), asc(attributeOptions.id))
    : [];
  const byAttribute = new Map<number, Map<number, string>>();
  for (const option of options) {
    const map = byAttribute.get(option.attributeId) ?? new Map<number, string>();
    map.set(option.id, option.value);
    byAttribute.set(option.attributeId, map);
  }
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    label: row.label,
    dataType: row.dataType,
    attributeType: row.attributeType,
    isRequired: row.isRequired,
    unit: row.unit,
    groupName: row.groupName,
    options: byAttribute.get(row.id) ?? new Map(),
  }));
}

/** Every attribute with its options, in the order the query builder lists them (group, position). */
export async function allAttributes(db: Db | Tx): Promise<AttributeDef[]> {
  const rows = await db
    .select()
    .from(attributes)
    .orderBy(asc(attributes.groupName), asc(attributes.sortOrder), asc(attributes.label));
  return withOptions(db, rows);
}

/** The attributes with these codes (unknown codes are simply absent). */
export async function attributesByCode(db: Db | Tx, codes: readonly string[]): Promise<AttributeDef[]> {
  if (codes.length === 0) return [];
  const rows = await db
    .select()
    .from(attributes)
    .where(inArray(attributes.code, [...new Set(codes)]));
  return withOptions(db, rows);
}

/**
 * A category's attribute set: its own attributes and its parent's (subcategories inherit), in the
 * order the product page shows them (group, then position).
 */
export async function categoryAttributeSet(
  db: Db | Tx,
  categoryId: string,
): Promise<Map<number, AttributeDef>> {
  const parent = db.select({ id: categories.parentId }).from(categories).where(eq(categories.id, categoryId));
  const attached = db
    .select({ id: categoryAttributes.attributeId })
    .from(categoryAttributes)
    .where(or(eq(categoryAttributes.categoryId, categoryId), inArray(categoryAttributes.categoryId, parent)));
  const rows = await db
    .select()
    .from(attributes)
    .where(inArray(attributes.id, attached))
    .orderBy(asc(attributes.groupName), asc(attributes.sortOrder), asc(attributes.id));
  const defs = await withOptions(db, rows);
  return new Map(defs.map((def) => [def.id, def]));
}
