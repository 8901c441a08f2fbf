// One sheet row's verdict: what moving it to staging would do, decided before anything is written.
// - error: a cell (named like "D17") or the row cannot be used; nothing is written for it.
// - duplicate: an earlier row has the same SKU, or a new product has the same normalised title and
//   key attributes as an earlier row or a staging product with another SKU.
// - create: no staging product of the seller has this SKU.
// - update: one has, and the row changes some of its fields (each kept as stored value before → after).
// - unchanged: one has, and the row would change nothing.
// Blank cells of an existing product keep the stored value, or with the "clear" rule clear it — except
// SKU, title, category, price and currency, which a blank never clears.
import type { AttributeValue, AttributeValueInput, WeightUnit } from '../../../contracts/catalog';
import {
  attributeCodeOfTarget,
  type BlankPolicy,
  type CellError,
  type ColumnMapping,
  type ImportFieldChange,
  type RowOutcome,
} from '../../../contracts/imports';
import { normalizeText } from '../../../contracts/query-tree';
import type { SheetRow } from '../../lib/sheets';
import { type AttributeDef, checkAttributeValues, plainTextOf } from '../attributes/attribute-values';
import { columnName } from '../exports/xlsx';
import type { CatalogContext } from './catalog-context';
import {
  clip,
  type Read,
  readAttribute,
  readCurrency,
  readInventory,
  readPrice,
  readSku,
  readTitle,
  readWeight,
  readWeightUnit,
} from './cell-values';

/** A staging product as validation compares it. */
export interface ExistingProduct {
  id: string;
  sku: string;
  skuKey: string;
  title: string;
  titleKey: string;
  categoryId: string | null;
  priceMinor: number;
  currency: string;
  inventory: number;
  weight: number | null;
  weightUnit: WeightUnit;
  attributeValues: AttributeValue[];
}

/** The product fields a row sets, by their stored names. */
export interface ProductFields {
  title: string;
  categoryId: string | null;
  priceMinor: number;
  currency: string;
  inventory: number;
  weight: number | null;
  weightUnit: WeightUnit;
}
type FieldName = keyof ProductFields;

/** One stored value a move changes: `field` is a ProductFields name or `attr:<attribute id>`. */
export interface PlannedChange {
  field: string;
  before: unknown;
  after: unknown;
}

export type Planned =
  | { kind: 'create'; sku: string; fields: ProductFields; attributeValues: AttributeValue[] }
  | { kind: 'update'; productId: string; changes: PlannedChange[] }
  | { kind: 'none'; productId: string }
  /** A duplicate row's own values: a merge fills the product's empty fields with them. */
  | { kind: 'merge'; weight: number | null; weightUnit: WeightUnit; attributeValues: AttributeValue[] };

export interface DuplicateRef {
  line: number | null;
  productId: string | null;
  sku: string;
  title: string;
  reason: string;
}

export interface RowVerdict {
  line: number;
  outcome: RowOutcome;
  sku: string;
  skuKey: string;
  title: string;
  dupKey: string | null;
  cells: string[];
  errors: CellError[];
  duplicateOf: DuplicateRef | null;
  productId: string | null;
  planned: Planned | null;
}

/** A row that claimed a SKU or a duplicate key earlier in the batch. */
export interface SeenRow {
  line: number;
  sku: string;
  title: string;
}

export interface BatchState {
  /** skuKey → the first usable row with it. */
  seenSku: Map<string, SeenRow>;
  /** dupKey → the first new product row with it. */
  seenDup: Map<string, SeenRow>;
}

export interface ChunkLookups {
  /** The seller's staging products with a SKU of the chunk, by skuKey. */
  bySku: ReadonlyMap<string, ExistingProduct>;
  /** The seller's staging products with a title of the chunk, by titleKey. */
  byTitle: ReadonlyMap<string, readonly ExistingProduct[]>;
}

export interface VerdictOptions {
  mapping: readonly ColumnMapping[];
  blankPolicy: BlankPolicy;
  catalog: CatalogContext;
  /** Attribute ids that, with the title, identify a product (the title template's attributes). */
  keyAttributeIds: readonly number[];
  /** Titles applied from suggestions, by line (they win over the title cell). */
  titleOverrides?: ReadonlyMap<number, string>;
}

const NO_MEDIA = new Map();

const FIELD_LABELS: Record<FieldName, string> = {
  title: 'Title',
  categoryId: 'Category',
  priceMinor: 'Price',
  currency: 'Currency',
  inventory: 'Inventory',
  weight: 'Weight',
  weightUnit: 'Weight unit',
};
const FIELD_ORDER: FieldName[] = [
  'title',
  'categoryId',
  'priceMinor',
  'currency',
  'inventory',
  'weight',
  'weightUnit',
];

/** A value of an attribute as a person reads it. */
export function attributeText(
  value: AttributeValue | null | undefined,
  def: AttributeDef | undefined,
): string | null {
  if (!value) return null;
  const items = 'values' in value ? value.values : [value];
  const shown = items.map((item) => {
    if (typeof item.value === 'boolean') return item.value ? 'Yes' : 'No';
    if (item.value !== null && typeof item.value === 'object') return JSON.stringify(item.value);
    if (def?.dataType === 'WYSIWYG') return clip(plainTextOf(String(item.value)));
    return `${String(item.value)}${def?.unit && typeof item.value === 'number' ? ` ${def.unit}` : ''}`;
  });
  return shown.join(' | ');
}

/** A product field as a person reads it. */
export function fieldText(field: FieldName, value: unknown, catalog: CatalogContext): string | null {
  if (value === null || value === undefined) return null;
  if (field === 'categoryId') return catalog.categoryById.get(String(value))?.path ?? 'Unknown category';
  if (field === 'priceMinor') return (Number(value) / 100).toFixed(2);
  return String(value);
}

/** What a change looks like in the preview. */
export function changeText(change: PlannedChange, catalog: CatalogContext): ImportFieldChange {
  const attributeId = change.field.startsWith('attr:') ? Number(change.field.slice(5)) : null;
  if (attributeId !== null) {
    const def = catalog.attributeById.get(attributeId);
    return {
      field: change.field,
      label: def?.label ?? `Attribute ${attributeId}`,
      before: attributeText(change.before as AttributeValue | null, def),
      after: attributeText(change.after as AttributeValue | null, def),
    };
  }
  const field = change.field as FieldName;
  return {
    field,
    label: FIELD_LABELS[field],
    before: fieldText(field, change.before, catalog),
    after: fieldText(field, change.after, catalog),
  };
}

/**
 * What a row's move would write, as the preview shows it: every value of a new product, each changed
 * field of an update (before → after); nothing for other rows. Read from the stored plan, so the
 * preview is exactly what the move commits.
 */
export function previewChanges(planned: Planned | null, catalog: CatalogContext): ImportFieldChange[] {
  if (planned?.kind === 'update') return planned.changes.map((change) => changeText(change, catalog));
  if (planned?.kind !== 'create') return [];
  return [
    ...FIELD_ORDER.map((field) => changeText({ field, before: null, after: planned.fields[field] }, catalog)),
    ...planned.attributeValues.map((value) =>
      changeText({ field: `attr:${value.keyId}`, before: null, after: value }, catalog),
    ),
  ].filter((change) => change.after !== null);
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A product's duplicate key: normalised title and its key attributes' values. */
export function dupKeyOf(
  title: string,
  values: readonly AttributeValue[],
  keyAttributeIds: readonly number[],
): string | null {
  const titleKey = normalizeText(title);
  if (!titleKey) return null;
  const parts = keyAttributeIds.map((id) => {
    const value = values.find((candidate) => candidate.keyId === id);
    const items = value ? ('values' in value ? value.values : [value]) : [];
    return items.map((item) => normalizeText(String(item.valueId ?? item.value))).join(',');
  });
  return [titleKey, ...parts].join('|');
}

/** The verdict of one row. Mutates `state` (the batch's seen SKUs and keys) for rows that claim them. */
export function rowVerdict(
  row: SheetRow,
  options: VerdictOptions,
  lookups: ChunkLookups,
  state: BatchState,
): RowVerdict {
  const { mapping, catalog } = options;
  const errors: CellError[] = [];
  const columnOf = new Map<string, ColumnMapping>();
  for (const column of mapping) if (column.target) columnOf.set(column.target, column);

  const cellError = (column: ColumnMapping | undefined, code: string, message: string) =>
    errors.push({
      column: column ? column.index : null,
      header: column ? column.header : null,
      cell: column ? `${columnName(column.index)}${row.line}` : null,
      code,
      message,
    });
  const textOf = (target: string) => {
    const column = columnOf.get(target);
    return column ? (row.cells[column.index] ?? '').trim() : '';
  };
  /** A field's cell read, or undefined when blank or unmapped; a bad cell records its error. */
  const read = <T>(target: string, reader: (text: string) => Read<T>): T | undefined => {
    const text = textOf(target);
    if (!text) return undefined;
    const result = reader(text);
    if ('problem' in result) {
      cellError(columnOf.get(target), `INVALID_${target.toUpperCase()}`, result.problem);
      return undefined;
    }
    return result.value;
  };

  const rawSku = textOf('sku');
  const sku = read('sku', readSku);
  const skuKey = sku ? normalizeText(sku) : '';
  if (!rawSku) cellError(columnOf.get('sku'), 'SKU_REQUIRED', 'Every row needs a SKU.');
  const existing = skuKey ? lookups.bySku.get(skuKey) : undefined;

  const override = options.titleOverrides?.get(row.line);
  const title = override !== undefined ? override : read('title', readTitle);
  const categoryText = textOf('category');
  let categoryId: string | null | undefined;
  if (categoryText) {
    const found = catalog.resolveCategory(categoryText);
    if (typeof found === 'string') cellError(columnOf.get('category'), 'UNKNOWN_CATEGORY', found);
    else categoryId = found.id;
  }
  const priceMinor = read('price', readPrice);
  const currency = read('currency', readCurrency);
  const inventory = read('inventory', readInventory);
  const weight = read('weight', readWeight);
  const weightUnit = read('weightUnit', readWeightUnit);

  if (!existing && sku) {
    const needs: [string, unknown, string][] = [
      ['title', title, 'A new product needs a title.'],
      ['category', categoryText ? true : undefined, 'A new product needs a category.'],
      ['price', textOf('price') ? true : undefined, 'A new product needs a price.'],
    ];
    for (const [target, value, message] of needs) {
      if (value === undefined && !textOf(target))
        cellError(columnOf.get(target), `${target.toUpperCase()}_REQUIRED`, message);
    }
  }

  // The fields after the move: what the row says, else (blank) what is stored or the default.
  const clear = options.blankPolicy === 'clear' && existing !== undefined;
  const fields: ProductFields = {
    title: title ?? existing?.title ?? '',
    categoryId: categoryId ?? existing?.categoryId ?? null,
    priceMinor: priceMinor ?? existing?.priceMinor ?? 0,
    currency: currency ?? existing?.currency ?? 'INR',
    inventory: inventory ?? (clear && columnOf.has('inventory') ? 0 : (existing?.inventory ?? 0)),
    weight: weight ?? (clear && columnOf.has('weight') ? null : (existing?.weight ?? null)),
    weightUnit: weightUnit ?? existing?.weightUnit ?? 'kg',
  };

  // Attributes: checked against the set of the category the product will have.
  const set = fields.categoryId ? catalog.setOf(fields.categoryId) : new Map<number, AttributeDef>();
  const categoryName = fields.categoryId ? (catalog.categoryById.get(fields.categoryId)?.name ?? '') : '';
  const inputs: AttributeValueInput[] = [];
  const columnOfAttribute = new Map<number, ColumnMapping>();
  const blanks = new Set<number>();
  for (const column of mapping) {
    const code = column.target ? attributeCodeOfTarget(column.target) : null;
    if (!code) continue;
    const def = catalog.attributeByCode.get(code);
    if (!def) continue;
    columnOfAttribute.set(def.id, column);
    const text = (row.cells[column.index] ?? '').trim();
    if (!text) {
      blanks.add(def.id);
      continue;
    }
    if (!set.has(def.id)) {
      if (fields.categoryId)
        cellError(
          column,
          'ATTRIBUTE_NOT_IN_CATEGORY',
          `${def.label} is not an attribute of ${categoryName}.`,
        );
      continue;
    }
    const input = readAttribute(def, text, catalog.options);
    if ('problem' in input) cellError(column, 'INVALID_ATTRIBUTE', input.problem);
    else inputs.push(input.value);
  }
  const checked = checkAttributeValues(inputs, set, NO_MEDIA);
  for (const problem of checked.problems)
    cellError(columnOfAttribute.get(problem.keyId), 'INVALID_ATTRIBUTE', problem.message);

  const base: Omit<RowVerdict, 'outcome' | 'planned' | 'productId' | 'dupKey'> = {
    line: row.line,
    sku: sku ?? rawSku,
    skuKey,
    title: fields.title,
    cells: row.cells,
    errors,
    duplicateOf: null,
  };
  if (errors.length) {
    return {
      ...base,
      outcome: 'error',
      dupKey: null,
      productId: existing?.id ?? null,
      planned: null,
    };
  }

  // Values after the move: the stored ones still in the set, then the row's cells over them.
  const given = new Map(checked.values.map((value) => [value.keyId, value]));
  const stored = new Map(
    (existing?.attributeValues ?? [])
      .filter((value) => set.has(value.keyId))
      .map((value) => [value.keyId, value]),
  );
  const attributeValues: AttributeValue[] = [];
  for (const id of set.keys()) {
    const value = given.get(id) ?? (clear && blanks.has(id) ? undefined : stored.get(id));
    if (value) attributeValues.push(value);
  }

  const earlierSku = state.seenSku.get(skuKey);
  if (earlierSku) {
    return duplicateVerdict(base, existing, fields, attributeValues, null, {
      line: earlierSku.line,
      productId: null,
      sku: earlierSku.sku,
      title: earlierSku.title,
      reason: `Line ${earlierSku.line} has the same SKU.`,
    });
  }

  if (!existing) {
    const dupKey = dupKeyOf(fields.title, attributeValues, options.keyAttributeIds);
    const keyNames = options.keyAttributeIds
      .map((id) => catalog.attributeById.get(id)?.label)
      .filter(Boolean);
    const same = `the same title${keyNames.length ? ` and ${keyNames.join(', ')}` : ''}`;
    const earlier = dupKey ? state.seenDup.get(dupKey) : undefined;
    if (earlier) {
      return duplicateVerdict(base, existing, fields, attributeValues, dupKey, {
        line: earlier.line,
        productId: null,
        sku: earlier.sku,
        title: earlier.title,
        reason: `Line ${earlier.line} has ${same} with another SKU.`,
      });
    }
    const twin = dupKey
      ? (lookups.byTitle.get(normalizeText(fields.title)) ?? []).find(
          (product) => dupKeyOf(product.title, product.attributeValues, options.keyAttributeIds) === dupKey,
        )
      : undefined;
    if (twin) {
      return duplicateVerdict(base, existing, fields, attributeValues, dupKey, {
        line: null,
        productId: twin.id,
        sku: twin.sku,
        title: twin.title,
        reason: `Staging product ${twin.sku} has ${same}.`,
      });
    }
    const seen = { line: row.line, sku: base.sku, title: fields.title };
    state.seenSku.set(skuKey, seen);
    if (dupKey) state.seenDup.set(dupKey, seen);
    const planned: Planned = { kind: 'create', sku: base.sku, fields, attributeValues };
    return { ...base, outcome: 'create', dupKey, productId: null, planned };
  }

  state.seenSku.set(skuKey, { line: row.line, sku: base.sku, title: fields.title });
  const planned: PlannedChange[] = [];
  for (const field of FIELD_ORDER) {
    if (!sameValue(existing[field], fields[field]))
      planned.push({ field, before: existing[field], after: fields[field] });
  }
  const before = new Map(existing.attributeValues.map((value) => [value.keyId, value]));
  const after = new Map(attributeValues.map((value) => [value.keyId, value]));
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    if (!sameValue(before.get(id), after.get(id)))
      planned.push({ field: `attr:${id}`, before: before.get(id) ?? null, after: after.get(id) ?? null });
  }
  if (planned.length === 0) {
    return {
      ...base,
      outcome: 'unchanged',
      dupKey: null,
      productId: existing.id,
      planned: { kind: 'none', productId: existing.id },
    };
  }
  return {
    ...base,
    outcome: 'update',
    dupKey: null,
    productId: existing.id,
    planned: { kind: 'update', productId: existing.id, changes: planned },
  };
}

function duplicateVerdict(
  base: Omit<RowVerdict, 'outcome' | 'planned' | 'productId' | 'dupKey'>,
  existing: ExistingProduct | undefined,
  fields: ProductFields,
  attributeValues: AttributeValue[],
  dupKey: string | null,
  duplicateOf: DuplicateRef,
): RowVerdict {
  return {
    ...base,
    outcome: 'duplicate',
    dupKey,
    duplicateOf,
    productId: duplicateOf.productId ?? existing?.id ?? null,
    planned: { kind: 'merge', weight: fields.weight, weightUnit: fields.weightUnit, attributeValues },
  };
}
