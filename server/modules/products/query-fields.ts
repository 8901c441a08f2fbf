// What the staging query builder may filter on, read when the builder or the column chooser opens:
// the built-in fields and every attribute (an ENUMERATED one with its options), and
// the searched option sources (sellers, categories) that are too long to send whole.
import { and, asc, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { attributeQueryField, productBuiltinFields } from '../../../contracts/catalog';
import { intParam } from '../../../contracts/int-param';
import { fieldKinds, type QueryField } from '../../../contracts/query-tree';
import type { Db } from '../../db/client';
import { categories, sellers } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import { allAttributes } from '../attributes/attribute-defs';
import type { Viewer } from './products';

const fieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(fieldKinds),
  group: z.string().optional(),
  unit: z.string().optional(),
  options: z.array(z.object({ value: z.union([z.string(), z.number()]), label: z.string() })).optional(),
  optionSource: z.string().optional(),
});
export const queryFieldListSchema = z.object({ result: z.array(fieldSchema) });

export const optionQuerySchema = z.object({
  q: z.string().trim().max(100).default(''),
  /** Labels of these ids (chosen values shown as chips before any search). */
  ids: z
    .string()
    .max(2000)
    .optional()
    .transform((text) => (text ? text.split(',').filter((id) => /^[0-9a-f-]{36}$/i.test(id)) : [])),
  /** A form's category select wants every category; a search wants the first few. */
  limit: intParam.min(1).max(500).default(50),
});
export const queryOptionListSchema = z.object({
  result: z.array(z.object({ value: z.string(), label: z.string() })),
});

export async function queryFields(db: Db, viewer: Pick<Viewer, 'sellerId'>): Promise<QueryField[]> {
  const defs = await allAttributes(db);
  // A seller filters their own products: the seller field would have one choice.
  const builtins = productBuiltinFields.filter((field) => !(viewer.sellerId && field.key === 'seller'));
  return [
    ...builtins,
    ...defs.map((def) =>
      attributeQueryField({
        ...def,
        options: [...def.options].map(([valueId, value]) => ({ valueId, value })),
      }),
    ),
  ];
}

/** Sellers or categories whose name contains the text (a seller sees only their own seller). */
export async function searchOptions(
  db: Db,
  viewer: Pick<Viewer, 'sellerId'>,
  source: 'sellers' | 'categories',
  query: { q: string; ids: string[]; limit: number },
): Promise<{ value: string; label: string }[]> {
  if (source === 'categories') {
    const where: SQL | undefined = query.ids.length
      ? inArray(categories.id, query.ids)
      : query.q
        ? ilike(categories.name, containsPattern(query.q))
        : undefined;
    const rows = await db
      .select({ value: categories.id, label: categories.name, parentId: categories.parentId })
      .from(categories)
      .where(where)
      .orderBy(asc(categories.name))
      .limit(query.limit);
    // A subcategory is shown under its parent's name ("Phones › Smartphones").
    const parentIds = [...new Set(rows.flatMap((row) => (row.parentId ? [row.parentId] : [])))];
    const parents = parentIds.length
      ? await db
          .select({ id: categories.id, name: categories.name })
          .from(categories)
          .where(inArray(categories.id, parentIds))
      : [];
    const parentName = new Map(parents.map((parent) => [parent.id, parent.name]));
    return rows.map((row) => ({
      value: row.value,
      label: row.parentId ? `${parentName.get(row.parentId) ?? '…'} › ${row.label}` : row.label,
    }));
  }
  const scope = viewer.sellerId ? inArray(sellers.id, [viewer.sellerId]) : undefined;
  const where = query.ids.length
    ? inArray(sellers.id, query.ids)
    : query.q
      ? or(
          ilike(sellers.sellerName, containsPattern(query.q)),
          ilike(sellers.sellerCode, containsPattern(query.q)),
        )
      : undefined;
  return db
    .select({ value: sellers.id, label: sellers.sellerName })
    .from(sellers)
    .where(and(scope, where))
    .orderBy(asc(sellers.sellerName))
    .limit(query.limit);
}
