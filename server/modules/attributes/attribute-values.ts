// Attribute values (SPEC §3): every value a product is given is checked against its attribute's data
// type here, turned into its canonical stored form, and indexed for the query compiler. The server
// never stores a value it has not checked: a NUMBER is a whole number, an ENUMERATED value one of its
// options, a DATETIME ISO 8601, WYSIWYG HTML sanitised, an OBJECT JSON within a size cap, media one of
// the seller's uploads of the right kind.
import sanitizeHtml from 'sanitize-html';
import {
  ATTRIBUTE_LIMITS,
  type AttributeDataType,
  type AttributeScalar,
  type AttributeType,
  type AttributeValue,
  type AttributeValueInput,
} from '../../../contracts/catalog';
import { formatNumber } from '../../../contracts/domain/format';
import { normalizeText, parseIsoDate } from '../../../contracts/query-tree';

export interface AttributeDef {
  id: number;
  code: string;
  label: string;
  dataType: AttributeDataType;
  attributeType: AttributeType;
  isRequired: boolean;
  unit: string | null;
  groupName: string;
  /** ENUMERATED: option id → label. */
  options: ReadonlyMap<number, string>;
}

/** An uploaded media file a value may point at. */
export interface MediaRef {
  id: string;
  kind: 'image' | 'video';
  url: string;
}

export interface ValueProblem {
  keyId: number;
  message: string;
}

type Scalar = AttributeScalar;
type Item = { value?: unknown; valueId?: unknown };

/** HTML a rich-text value may keep: text formatting, lists, headings, quotes, links, code, tables. */
const HTML_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'a',
    'code',
    'pre',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  // Links in seller content never pass authority or a window handle to where they point.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
  disallowedTagsMode: 'discard',
};

export const sanitizeRichText = (html: string) => sanitizeHtml(html, HTML_POLICY);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The text of sanitised HTML, for search and emptiness. */
export function plainTextOf(html: string): string {
  const text = sanitizeHtml(html.replace(/<(?:br|\/p|\/li|\/h\d)>/gi, ' '), {
    allowedTags: [],
    allowedAttributes: {},
  });
  return text
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\u00a0/g, ' ')
    .trim();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks one value of `def`; answers the stored item or a message. `null` means "no value". */
function checkItem(
  def: AttributeDef,
  item: Item,
  media: ReadonlyMap<string, MediaRef>,
): { item: { value: Scalar; valueId?: number | string } | null } | { problem: string } {
  const { value, valueId } = item;
  const empty = (value === undefined || value === null || value === '') && valueId === undefined;
  if (empty) return { item: null };
  const label = def.label;
  switch (def.dataType) {
    case 'ENUMERATED': {
      let id: number | undefined;
      if (typeof valueId === 'number' && def.options.has(valueId)) id = valueId;
      else if (valueId === undefined && typeof value === 'string') {
        const wanted = normalizeText(value);
        for (const [optionId, optionLabel] of def.options) {
          if (normalizeText(optionLabel) === wanted) id = optionId;
        }
      }
      if (id === undefined) {
        const shown = valueId ?? value;
        return { problem: `${label} has no option "${String(shown)}".` };
      }
      return { item: { value: def.options.get(id) as string, valueId: id } };
    }
    case 'STRING': {
      if (typeof value !== 'string') return { problem: `${label} must be text.` };
      const text = value.trim();
      if (text.length > ATTRIBUTE_LIMITS.text)
        return { problem: `${label} has at most ${formatNumber(ATTRIBUTE_LIMITS.text)} characters.` };
      return { item: text ? { value: text } : null };
    }
    case 'WYSIWYG': {
      if (typeof value !== 'string') return { problem: `${label} must be HTML text.` };
      const html = sanitizeRichText(value).trim();
      if (html.length > ATTRIBUTE_LIMITS.html)
        return {
          problem: `${label} has at most ${formatNumber(ATTRIBUTE_LIMITS.html)} characters.`,
        };
      return { item: plainTextOf(html) ? { value: html } : null };
    }
    case 'IMAGE':
    case 'VIDEO': {
      const kind = def.dataType === 'IMAGE' ? 'image' : 'video';
      const ref = typeof valueId === 'string' ? media.get(valueId) : undefined;
      if (!ref || ref.kind !== kind) {
        return {
          problem: `${label} must be ${kind === 'image' ? 'an image' : 'a video'} uploaded for this product.`,
        };
      }
      return { item: { value: ref.url, valueId: ref.id } };
    }
    case 'DATETIME': {
      const ms = typeof value === 'string' ? parseIsoDate(value.trim()) : null;
      if (ms === null)
        return { problem: `${label} must be a date and time in ISO 8601 (e.g. 2026-01-31T09:30:00Z).` };
      return { item: { value: new Date(ms).toISOString() } };
    }
    case 'OBJECT': {
      if (!isRecord(value)) return { problem: `${label} must be a JSON object.` };
      const bytes = Buffer.byteLength(JSON.stringify(value));
      if (bytes > ATTRIBUTE_LIMITS.objectBytes)
        return { problem: `${label} is larger than ${ATTRIBUTE_LIMITS.objectBytes / 1024} KB of JSON.` };
      return { item: Object.keys(value).length ? { value: value as Scalar } : null };
    }
    case 'BOOLEAN':
      return typeof value === 'boolean' ? { item: { value } } : { problem: `${label} must be yes or no.` };
    case 'NUMBER':
      return typeof value === 'number' && Number.isSafeInteger(value)
        ? { item: { value } }
        : { problem: `${label} must be a whole number.` };
    case 'FLOAT':
      return typeof value === 'number' && Number.isFinite(value)
        ? { item: { value } }
        : { problem: `${label} must be a number.` };
  }
}

/**
 * Checks the values a product is given against its category's attributes (`defs`, which only holds
 * the attributes of that category's set). Answers the stored values (SPEC §3 shapes, in `defs` order,
 * empty ones left out) or every problem, one per attribute.
 */
export function checkAttributeValues(
  inputs: readonly AttributeValueInput[],
  defs: ReadonlyMap<number, AttributeDef>,
  media: ReadonlyMap<string, MediaRef>,
): { values: AttributeValue[]; problems: ValueProblem[] } {
  const problems: ValueProblem[] = [];
  const byId = new Map<number, AttributeValue>();
  const seen = new Set<number>();
  for (const input of inputs) {
    const def = defs.get(input.keyId);
    if (!def) {
      problems.push({
        keyId: input.keyId,
        message: `Attribute ${input.keyId} is not in this category's attribute set.`,
      });
      continue;
    }
    if (seen.has(def.id)) {
      problems.push({ keyId: def.id, message: `${def.label} is given twice.` });
      continue;
    }
    seen.add(def.id);
    const multi = def.attributeType === 'MULTI';
    if (multi !== 'values' in input) {
      problems.push({
        keyId: def.id,
        message: multi
          ? `${def.label} holds several values: send them as "values".`
          : `${def.label} holds one value: send it as "value".`,
      });
      continue;
    }
    const items: Item[] = 'values' in input ? input.values : [input];
    const checked: { value: Scalar; valueId?: number | string }[] = [];
    const keys = new Set<string>();
    let problem: string | null = null;
    for (const item of items) {
      const result = checkItem(def, item, media);
      if ('problem' in result) {
        problem = result.problem;
        break;
      }
      if (!result.item) continue;
      // A list never holds the same option, text or file twice.
      const key =
        result.item.valueId !== undefined
          ? `#${result.item.valueId}`
          : normalizeText(String(result.item.value));
      if (keys.has(key)) continue;
      keys.add(key);
      checked.push(result.item);
    }
    if (problem) {
      problems.push({ keyId: def.id, message: problem });
      continue;
    }
    if (checked.length === 0) continue;
    byId.set(
      def.id,
      multi ? { keyId: def.id, values: checked } : { keyId: def.id, ...(checked[0] as { value: Scalar }) },
    );
  }
  const values = [...defs.keys()].flatMap((id) => {
    const value = byId.get(id);
    return value ? [value] : [];
  });
  return { values, problems };
}

const itemsOf = (value: AttributeValue) => ('values' in value ? value.values : [value]);

/**
 * The search form of a product's values (products.attr_index): one key per filled attribute id, holding
 * what the compiler compares. ENUMERATED: option ids; STRING and WYSIWYG: normalised texts; IMAGE and
 * VIDEO: how many; DATETIME: epoch ms; OBJECT: 1; BOOLEAN and numbers: themselves.
 */
export function attributeIndexOf(
  values: readonly AttributeValue[],
  defs: ReadonlyMap<number, AttributeDef>,
): Record<string, unknown> {
  const index: Record<string, unknown> = {};
  for (const value of values) {
    const def = defs.get(value.keyId);
    if (!def) continue;
    const items = itemsOf(value);
    const key = String(def.id);
    switch (def.dataType) {
      case 'ENUMERATED':
        index[key] = items.map((item) => item.valueId);
        break;
      case 'STRING':
        index[key] = items.map((item) => normalizeText(String(item.value)));
        break;
      case 'WYSIWYG':
        index[key] = items.map((item) => normalizeText(plainTextOf(String(item.value))).slice(0, 2000));
        break;
      case 'IMAGE':
      case 'VIDEO':
        index[key] = items.length;
        break;
      case 'DATETIME':
        index[key] = Date.parse(String(items[0]?.value));
        break;
      case 'OBJECT':
        index[key] = 1;
        break;
      default:
        index[key] = items[0]?.value;
    }
  }
  return index;
}

/** Share (0–100, rounded down) of the required attributes that are filled, and the ids still empty. */
export function completenessOf(
  values: readonly AttributeValue[],
  defs: ReadonlyMap<number, AttributeDef>,
): { completeness: number; missingAttributes: number[] } {
  const filled = new Set(values.map((value) => value.keyId));
  const required = [...defs.values()].filter((def) => def.isRequired);
  const missingAttributes = required.filter((def) => !filled.has(def.id)).map((def) => def.id);
  const completeness = required.length
    ? Math.floor((100 * (required.length - missingAttributes.length)) / required.length)
    : 100;
  return { completeness, missingAttributes };
}
