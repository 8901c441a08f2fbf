// What validating a sheet needs to know about the catalogue, read once per job (not per row): every
// category with its attribute set (a subcategory inherits its parent's, in the order the product page
// shows them), the attributes by code with an index of their option labels, and the key attributes
// the title template names.
import { normalizeText } from '../../../contracts/query-tree';
import type { Db, Tx } from '../../db/client';
import { categories, categoryAttributes } from '../../db/schema';
import { allAttributes } from '../attributes/attribute-defs';
import type { AttributeDef } from '../attributes/attribute-values';
import { type OptionIndex, optionIndexOf } from './cell-values';

export interface CategoryRef {
  id: string;
  name: string;
  /** "Parent > Child" for a subcategory. */
  path: string;
}

export interface CatalogContext {
  attributeByCode: ReadonlyMap<string, AttributeDef>;
  attributeById: ReadonlyMap<number, AttributeDef>;
  options: OptionIndex;
  categoryById: ReadonlyMap<string, CategoryRef>;
  /** A category cell → the category, or why it names none (unknown, or ambiguous without its parent). */
  resolveCategory(text: string): CategoryRef | string;
  /** A category's attribute set, by attribute id, in the product page's order. */
  setOf(categoryId: string): ReadonlyMap<number, AttributeDef>;
}

export async function loadCatalogContext(db: Db | Tx): Promise<CatalogContext> {
  const [defs, categoryRows, links] = await Promise.all([
    allAttributes(db),
    db
      .select({
        id: categories.id,
        name: categories.name,
        slug: categories.slug,
        parentId: categories.parentId,
      })
      .from(categories),
    db
      .select({
        categoryId: categoryAttributes.categoryId,
        attributeId: categoryAttributes.attributeId,
      })
      .from(categoryAttributes),
  ]);
  const attributeById = new Map(defs.map((def) => [def.id, def]));
  // allAttributes answers group, position order: keep that rank for the sets.
  const rank = new Map(defs.map((def, index) => [def.id, index]));
  const nameOf = new Map(categoryRows.map((row) => [row.id, row.name]));
  const categoryById = new Map<string, CategoryRef>();
  const byName = new Map<string, CategoryRef[]>();
  for (const row of categoryRows) {
    const parent = row.parentId ? nameOf.get(row.parentId) : undefined;
    const ref = { id: row.id, name: row.name, path: parent ? `${parent} > ${row.name}` : row.name };
    categoryById.set(row.id, ref);
    for (const key of new Set([normalizeText(row.name), normalizeText(row.slug), normalizeText(ref.path)])) {
      const list = byName.get(key) ?? [];
      list.push(ref);
      byName.set(key, list);
    }
  }
  const own = new Map<string, number[]>();
  for (const link of links) {
    const list = own.get(link.categoryId) ?? [];
    list.push(link.attributeId);
    own.set(link.categoryId, list);
  }
  const parentOf = new Map(categoryRows.map((row) => [row.id, row.parentId]));
  const sets = new Map<string, Map<number, AttributeDef>>();
  return {
    attributeByCode: new Map(defs.map((def) => [def.code, def])),
    attributeById,
    options: optionIndexOf(defs),
    categoryById,
    resolveCategory(text) {
      const key = normalizeText(text.replace(/\s*(?:>|\/|»)\s*/g, ' > '));
      const found = byName.get(key) ?? [];
      if (found.length === 1) return found[0] as CategoryRef;
      if (found.length > 1)
        return `"${text.trim()}" names several categories: write it with its parent, e.g. "${found[0]?.path}".`;
      return `There is no category "${text.trim()}".`;
    },
    setOf(categoryId) {
      let set = sets.get(categoryId);
      if (!set) {
        const parent = parentOf.get(categoryId);
        const ids = new Set([...(own.get(categoryId) ?? []), ...(parent ? (own.get(parent) ?? []) : [])]);
        const members = [...ids]
          .map((id) => attributeById.get(id))
          .filter((def): def is AttributeDef => Boolean(def))
          .sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
        set = new Map(members.map((def) => [def.id, def]));
        sets.set(categoryId, set);
      }
      return set;
    },
  };
}
