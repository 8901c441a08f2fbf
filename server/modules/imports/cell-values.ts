// Reading one sheet cell as a product field or an attribute value. Cells are text as the sheet holds it
// (server/lib/sheets never evaluates a formula); each reader answers the canonical value or a sentence
// saying what the cell should hold. Attribute values then go through the catalogue's own checks
// (catalog/attribute-values.ts), so an import stores exactly what the product form would.
import {
  type AttributeValueInput,
  PRODUCT_LIMITS,
  skuSchema,
  type WeightUnit,
  weightUnits,
} from '../../../contracts/catalog';
import { currencyCodes } from '../../../contracts/domain/currency';
import { normalizeText } from '../../../contracts/query-tree';
import type { AttributeDef } from '../attributes/attribute-values';

export type Read<T> = { value: T } | { problem: string };

const MAX_PRICE = 100_000_000;
const MAX_INVENTORY = 10_000_000;
const MAX_WEIGHT = 1_000_000;

// 1299, 1299.5, 1299.50, 1,299.50 — a dot for decimals, commas only as thousands separators.
const DECIMAL = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

function decimalOf(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const value = Number(trimmed.replaceAll(',', ''));
  return Number.isFinite(value) ? value : null;
}

export function readSku(text: string): Read<string> {
  const parsed = skuSchema.safeParse(text);
  return parsed.success
    ? { value: parsed.data }
    : { problem: parsed.error.issues[0]?.message ?? 'Invalid SKU.' };
}

export function readTitle(text: string): Read<string> {
  const title = text.trim().replace(/\s+/g, ' ');
  if (title.length > PRODUCT_LIMITS.title)
    return {
      problem: `A title has at most ${PRODUCT_LIMITS.title} characters (this one has ${title.length}).`,
    };
  return { value: title };
}

/** The price in minor units (paise, cents). */
export function readPrice(text: string): Read<number> {
  const value = decimalOf(text);
  if (value === null) return { problem: `The price must be a number like 1299.50, not "${clip(text)}".` };
  if (value > MAX_PRICE) return { problem: 'The price is too large.' };
  const minor = Math.round(value * 100);
  if (Math.abs(minor - value * 100) > 1e-6) return { problem: 'A price has at most two decimals.' };
  return { value: minor };
}

export function readInventory(text: string): Read<number> {
  const value = decimalOf(text);
  if (value === null || !Number.isInteger(value))
    return { problem: `Inventory must be a whole number of units, not "${clip(text)}".` };
  if (value > MAX_INVENTORY) return { problem: 'Inventory is too large.' };
  return { value };
}

export function readWeight(text: string): Read<number> {
  const value = decimalOf(text);
  if (value === null) return { problem: `The weight must be a number, not "${clip(text)}".` };
  if (value > MAX_WEIGHT) return { problem: 'The weight is too large.' };
  return { value };
}

export function readWeightUnit(text: string): Read<WeightUnit> {
  const unit = text.trim().toLowerCase();
  return (weightUnits as readonly string[]).includes(unit)
    ? { value: unit as WeightUnit }
    : { problem: `The weight unit must be one of ${weightUnits.join(', ')}.` };
}

export function readCurrency(text: string): Read<string> {
  const code = text.trim().toUpperCase();
  return currencyCodes.includes(code as (typeof currencyCodes)[number])
    ? { value: code }
    : { problem: `"${clip(text)}" is not a currency this marketplace takes (${currencyCodes.join(', ')}).` };
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', '1']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0']);

/** ENUMERATED options by their normalised label, built once per attribute. */
export type OptionIndex = ReadonlyMap<number, ReadonlyMap<string, number>>;

export function optionIndexOf(defs: Iterable<AttributeDef>): OptionIndex {
  const index = new Map<number, Map<string, number>>();
  for (const def of defs) {
    if (def.dataType !== 'ENUMERATED') continue;
    const labels = new Map<string, number>();
    for (const [id, label] of def.options) labels.set(normalizeText(label), id);
    index.set(def.id, labels);
  }
  return index;
}

/** A multi-value cell holds its values separated by |. */
export const MULTI_SEPARATOR = '|';

function readItem(
  def: AttributeDef,
  text: string,
  options: OptionIndex,
): Read<{ value?: unknown; valueId?: number }> {
  const trimmed = text.trim();
  switch (def.dataType) {
    case 'ENUMERATED': {
      const id = options.get(def.id)?.get(normalizeText(trimmed));
      if (id === undefined) {
        const known = [...def.options.values()];
        return {
          problem: `${def.label} has no option "${clip(trimmed)}" (${known.slice(0, 6).join(', ')}${known.length > 6 ? ', …' : ''}).`,
        };
      }
      return { value: { valueId: id } };
    }
    case 'NUMBER': {
      const value = decimalOf(trimmed);
      return value !== null && Number.isSafeInteger(value)
        ? { value: { value } }
        : { problem: `${def.label} must be a whole number, not "${clip(trimmed)}".` };
    }
    case 'FLOAT': {
      const value = decimalOf(trimmed.replace(/^-/, ''));
      if (value === null) return { problem: `${def.label} must be a number, not "${clip(trimmed)}".` };
      return { value: { value: trimmed.startsWith('-') ? -value : value } };
    }
    case 'BOOLEAN': {
      const word = trimmed.toLowerCase();
      if (TRUE_WORDS.has(word)) return { value: { value: true } };
      if (FALSE_WORDS.has(word)) return { value: { value: false } };
      return { problem: `${def.label} must be yes or no, not "${clip(trimmed)}".` };
    }
    case 'OBJECT': {
      try {
        return { value: { value: JSON.parse(trimmed) as unknown } };
      } catch {
        return { problem: `${def.label} must be a JSON object, e.g. {"key": "value"}.` };
      }
    }
    default:
      // STRING, WYSIWYG and DATETIME are checked (and sanitised) by the catalogue's value checks.
      return { value: { value: trimmed } };
  }
}

/** A non-blank cell as the value input of `def` (SINGLE: value; MULTI: values split on |). */
export function readAttribute(
  def: AttributeDef,
  text: string,
  options: OptionIndex,
): Read<AttributeValueInput> {
  if (def.attributeType === 'MULTI') {
    const parts = text
      .split(MULTI_SEPARATOR)
      .map((part) => part.trim())
      .filter(Boolean);
    const values: { value?: unknown; valueId?: number }[] = [];
    for (const part of parts) {
      const item = readItem(def, part, options);
      if ('problem' in item) return item;
      values.push(item.value);
    }
    return { value: { keyId: def.id, values } as AttributeValueInput };
  }
  const item = readItem(def, text, options);
  if ('problem' in item) return item;
  return { value: { keyId: def.id, ...item.value } as AttributeValueInput };
}

/** A cell quoted in a message: at most 40 characters. */
export const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);
