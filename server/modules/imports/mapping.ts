// Column mapping: which product field or attribute each sheet column fills. Headers are matched to
// targets by name and label, ignoring case, accents, spaces and punctuation ("Country of origin",
// "country_of_origin" and "COUNTRY-OF-ORIGIN" are one name); a seller's remembered mapping wins over
// the guess. A column that matches nothing keeps a null target: the report lists it as not imported.
import { eq, sql } from 'drizzle-orm';
import type { AttributeDataType } from '../../../contracts/catalog';
import { currencyCodes } from '../../../contracts/domain/currency';
import {
  attributeCodeOfTarget,
  attributeTarget,
  type ColumnMapping,
  type ImportField,
  importFields,
  type MappingTargetOption,
} from '../../../contracts/imports';
import type { Db, Tx } from '../../db/client';
import { importMappings } from '../../db/schema';
import { guessColumns, headerKey, mappingShapeProblem } from '../../lib/sheet-import/mapping';
import type { AttributeDef } from '../attributes/attribute-values';

// The matching itself is the sheet pipeline's (server/lib/sheet-import/mapping.ts).
export { headerKey };

const fieldLabels: Record<ImportField, string> = {
  sku: 'SKU',
  title: 'Title',
  category: 'Category',
  price: 'Price',
  currency: 'Currency',
  inventory: 'Inventory',
  weight: 'Weight',
  weightUnit: 'Weight unit',
};

/** Other names sheets give the fields (matched like headers). */
const fieldSynonyms: Record<ImportField, string[]> = {
  sku: ['sku', 'seller sku', 'sku code', 'item code', 'product code', 'article number', 'item sku'],
  title: ['title', 'name', 'product name', 'product title', 'item name'],
  category: ['category', 'category name', 'subcategory', 'sub category', 'category path'],
  price: ['price', 'selling price', 'unit price', 'sale price', 'mrp'],
  currency: ['currency', 'currency code'],
  inventory: ['inventory', 'stock', 'quantity', 'qty', 'stock quantity', 'available quantity'],
  weight: ['weight', 'shipping weight'],
  weightUnit: ['weight unit', 'weight uom'],
};

const fieldHints: Record<ImportField, string> = {
  sku: 'Letters, digits and . _ / - (no spaces); identifies the product within the seller’s catalogue.',
  title: 'Text, up to 200 characters.',
  category: 'The category’s name, or "Parent > Child".',
  price: 'A number like 1299.50 (no currency symbol).',
  currency: `A currency code: ${currencyCodes.join(', ')}.`,
  inventory: 'A whole number of units, 0 or more.',
  weight: 'A number, in the weight unit.',
  weightUnit: 'g, kg or lb.',
};

/** Needed to create a product (an update only needs the SKU). */
export const requiredToCreate: readonly ImportField[] = ['sku', 'title', 'category', 'price'];

/** Attribute types a sheet cannot carry: media must be uploaded in the product page. */
export const unimportableTypes: ReadonlySet<AttributeDataType> = new Set(['IMAGE', 'VIDEO']);

function attributeHint(def: AttributeDef): string {
  const many = def.attributeType === 'MULTI' ? ' Several values are separated by |.' : '';
  switch (def.dataType) {
    case 'ENUMERATED': {
      const options = [...def.options.values()];
      const shown = options.slice(0, 8).join(', ');
      return `One of: ${shown}${options.length > 8 ? ', …' : ''}.${many}`;
    }
    case 'NUMBER':
      return `A whole number${def.unit ? ` (${def.unit})` : ''}.${many}`;
    case 'FLOAT':
      return `A number${def.unit ? ` (${def.unit})` : ''}.${many}`;
    case 'BOOLEAN':
      return 'Yes or no (also true/false, 1/0).';
    case 'DATETIME':
      return 'A date, e.g. 2026-01-31 or 2026-01-31T09:30:00Z.';
    case 'OBJECT':
      return 'A JSON object, e.g. {"key": "value"}.';
    case 'WYSIWYG':
      return 'Text or HTML (sanitised).';
    default:
      return `Text.${many}`;
  }
}

/** Everything a column may be mapped to: the fields, then every attribute a sheet can carry. */
export function mappingTargets(defs: readonly AttributeDef[]): MappingTargetOption[] {
  return [
    ...importFields.map((field) => ({
      target: field,
      label: fieldLabels[field],
      kind: 'field' as const,
      dataType: null,
      requiredToCreate: requiredToCreate.includes(field),
      hint: fieldHints[field],
    })),
    ...defs
      .filter((def) => !unimportableTypes.has(def.dataType))
      .map((def) => ({
        target: attributeTarget(def.code),
        label: def.label,
        kind: 'attribute' as const,
        dataType: def.dataType,
        requiredToCreate: false,
        hint: attributeHint(def),
      })),
  ];
}

export const targetLabel = (target: string, defs: ReadonlyMap<string, AttributeDef>) => {
  const code = attributeCodeOfTarget(target);
  if (code) return defs.get(code)?.label ?? code;
  return fieldLabels[target as ImportField] ?? target;
};

/**
 * The mapping for a sheet's headers: the seller's remembered choice for a header if there is one,
 * else the field or attribute whose name or label matches; each target is used by one column at most
 * (the first), so a duplicate header never fills a field twice.
 */
export function guessMapping(
  headers: readonly string[],
  defs: readonly AttributeDef[],
  remembered: Readonly<Record<string, string | null>> = {},
): ColumnMapping[] {
  // Fields first: they win over attributes of the same name.
  const targets = [
    ...importFields.map((field) => ({
      target: field as string,
      names: [field, fieldLabels[field], ...fieldSynonyms[field]],
    })),
    ...defs
      .filter((def) => !unimportableTypes.has(def.dataType))
      .map((def) => ({ target: attributeTarget(def.code), names: [def.code, def.label] })),
  ];
  return guessColumns(headers, targets, remembered) as ColumnMapping[];
}

export async function rememberedMapping(db: Db | Tx, sellerId: string) {
  const [row] = await db
    .select({ targets: importMappings.targets })
    .from(importMappings)
    .where(eq(importMappings.sellerId, sellerId));
  return row?.targets ?? {};
}

/** Remembers the seller's choice for each of these headers (others they mapped before are kept). */
export async function rememberMapping(db: Db | Tx, sellerId: string, mapping: readonly ColumnMapping[]) {
  const targets = Object.fromEntries(
    mapping
      .filter((column) => headerKey(column.header))
      .map((column) => [headerKey(column.header), column.target]),
  );
  await db
    .insert(importMappings)
    .values({ sellerId, targets })
    .onConflictDoUpdate({
      target: importMappings.sellerId,
      set: { targets: sql`${importMappings.targets} || excluded.targets`, updatedAt: sql`now()` },
    });
}

/** Problems of a mapping the user sent, as a sentence (null when it can be used). */
export function mappingProblem(
  mapping: readonly ColumnMapping[],
  headers: readonly string[],
  defs: ReadonlyMap<string, AttributeDef>,
): string | null {
  const shape = mappingShapeProblem(mapping, headers, (target) => targetLabel(target, defs));
  if (shape) return shape;
  for (const column of mapping) {
    if (!column.target) continue;
    const code = attributeCodeOfTarget(column.target);
    if (code) {
      const def = defs.get(code);
      if (!def) return `There is no attribute with the code ${code}.`;
      if (unimportableTypes.has(def.dataType))
        return `${def.label} holds uploaded media and cannot be imported from a sheet.`;
    }
  }
  if (!mapping.some((column) => column.target === 'sku'))
    return 'Map a column to SKU: it is how rows find their products.';
  return null;
}
