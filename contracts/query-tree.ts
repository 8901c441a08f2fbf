// The query tree (ARCHITECTURE "shared building blocks"): one JSON structure for a filter, used by the
// builder UI, the page URL, saved views, reports and exports, and compiled on the server to
// parameterised SQL (server/lib/query-tree). Staging products are its first user; marketing audiences
// and every other saved view reuse it as it is. A feature describes what may be filtered with a field
// catalogue (`QueryField[]`); the tree itself never holds SQL, only field keys, operators and values.
import { z } from 'zod';

/** Limits every tree obeys, checked by the schema: a query is a filter, not a program. */
export const QUERY_LIMITS = {
  /** The root group is depth 1; a group inside it depth 2; … */
  maxDepth: 5,
  maxConditions: 50,
  /** Options in one "is any of" condition. */
  maxValues: 100,
  maxTextLength: 200,
} as const;

/**
 * The kinds of value a field holds; each has its own operators. A `tree` field holds nodes of a
 * hierarchy (a product's tags): a condition names nodes and means each of them with its whole subtree.
 */
export const fieldKinds = ['text', 'number', 'date', 'boolean', 'enum', 'media', 'object', 'tree'] as const;
export type FieldKind = (typeof fieldKinds)[number];

export const operators = [
  'contains',
  'equals',
  'startsWith',
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'between',
  'before',
  'after',
  'isTrue',
  'isFalse',
  'anyOf',
  'noneOf',
  'under',
  'notUnder',
  'isEmpty',
  'isNotEmpty',
] as const;
export type Operator = (typeof operators)[number];

/** Which operators each kind offers, in the order the builder lists them. */
export const operatorsByKind: Record<FieldKind, readonly Operator[]> = {
  text: ['contains', 'equals', 'startsWith', 'isEmpty', 'isNotEmpty'],
  number: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'between', 'isEmpty', 'isNotEmpty'],
  date: ['before', 'after', 'between', 'isEmpty', 'isNotEmpty'],
  boolean: ['isTrue', 'isFalse', 'isEmpty', 'isNotEmpty'],
  enum: ['anyOf', 'noneOf', 'isEmpty', 'isNotEmpty'],
  media: ['isEmpty', 'isNotEmpty'],
  object: ['isEmpty', 'isNotEmpty'],
  tree: ['under', 'notUnder', 'isEmpty', 'isNotEmpty'],
};

export const operatorLabels: Record<Operator, string> = {
  contains: 'contains',
  equals: 'equals',
  startsWith: 'starts with',
  eq: '=',
  neq: '≠',
  lt: '<',
  lte: '≤',
  gt: '>',
  gte: '≥',
  between: 'between',
  before: 'before',
  after: 'after',
  isTrue: 'is true',
  isFalse: 'is false',
  anyOf: 'is any of',
  noneOf: 'is none of',
  // A node counts as under itself: "Tag is under Shirts" finds Shirts and everything below it.
  under: 'is under',
  notUnder: 'is not under',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
};

/** Operators that take no value. */
export const valuelessOperators: ReadonlySet<Operator> = new Set([
  'isTrue',
  'isFalse',
  'isEmpty',
  'isNotEmpty',
]);

const scalar = z.union([z.string().max(QUERY_LIMITS.maxTextLength), z.number().finite()]);
export const conditionValueSchema = z.union([scalar, z.array(scalar).min(1).max(QUERY_LIMITS.maxValues)]);
export type ConditionValue = z.infer<typeof conditionValueSchema>;

export const queryConditionSchema = z.object({
  /** A field key of the feature's catalogue, e.g. `status` or `attr.color`. */
  field: z.string().min(1).max(120),
  op: z.enum(operators),
  value: conditionValueSchema.optional(),
});
export type QueryCondition = z.infer<typeof queryConditionSchema>;

export interface QueryGroup {
  combinator: 'and' | 'or';
  children: QueryNode[];
}
export type QueryNode = QueryGroup | QueryCondition;

export const isGroup = (node: QueryNode): node is QueryGroup => 'combinator' in node;

/** The tree's own shape; `queryTreeSchema` adds the limits. The API document names it (it is recursive). */
export const groupShape: z.ZodType<QueryGroup> = z.lazy(() =>
  z.object({
    combinator: z.enum(['and', 'or']),
    children: z.array(z.union([groupShape, queryConditionSchema])).max(QUERY_LIMITS.maxConditions),
  }),
);

/** Depth (the root is 1) and number of conditions of a tree. */
export function measureQuery(node: QueryNode): { depth: number; conditions: number } {
  if (!isGroup(node)) return { depth: 0, conditions: 1 };
  let depth = 0;
  let conditions = 0;
  for (const child of node.children) {
    const inner = measureQuery(child);
    depth = Math.max(depth, inner.depth);
    conditions += inner.conditions;
  }
  return { depth: depth + 1, conditions };
}

/** A query: the root group with the limits of QUERY_LIMITS. */
export const queryTreeSchema = groupShape.superRefine((tree, context) => {
  const { depth, conditions } = measureQuery(tree);
  if (depth > QUERY_LIMITS.maxDepth) {
    context.addIssue({
      code: 'custom',
      message: `A query can nest groups at most ${QUERY_LIMITS.maxDepth} levels deep (this one has ${depth}).`,
    });
  }
  if (conditions > QUERY_LIMITS.maxConditions) {
    context.addIssue({
      code: 'custom',
      message: `A query can hold at most ${QUERY_LIMITS.maxConditions} conditions (this one has ${conditions}).`,
    });
  }
});
export type QueryTree = QueryGroup;

export const emptyQuery = (): QueryTree => ({ combinator: 'and', children: [] });

/** One choice of an enumerated field. */
export interface QueryFieldOption {
  value: string | number;
  label: string;
}

/** What a feature lets its users filter on. */
export interface QueryField {
  key: string;
  label: string;
  kind: FieldKind;
  /** A heading the builder groups fields under ("Product", "Attributes: Apparel", …). */
  group?: string;
  unit?: string;
  /** Enumerated fields with a short list carry it; long lists (sellers) are searched instead. */
  options?: QueryFieldOption[];
  /**
   * For enumerated fields whose options are searched: the feature's own option source. For a tree
   * field: the tree its nodes come from (`tags`).
   */
  optionSource?: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Milliseconds since the epoch of an ISO 8601 date or date-time (a bare date is midnight UTC), or null. */
export function parseIsoDate(text: string): number | null {
  if (!ISO_DATE.test(text)) return null;
  // A real calendar day (no 31 February), from year 1.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  const withZone = /T.*(?:Z|[+-]\d{2}:?\d{2})$/.test(text) || !text.includes('T') ? text : `${text}Z`;
  const ms = Date.parse(withZone.includes('T') ? withZone : `${withZone}T00:00:00Z`);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * How text compares everywhere (stored search keys, query values, the reference evaluator): accents
 * removed, lower case, spaces collapsed. Done in JavaScript, never with SQL lower(), so PGlite and
 * PostgreSQL agree whatever their locale.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const conditionName = (field: QueryField | undefined, condition: QueryCondition) =>
  `"${field?.label ?? condition.field} ${operatorLabels[condition.op]}"`;

/**
 * Checks a tree against a field catalogue: every field exists, every operator fits its field's kind,
 * every value has the type its operator needs. Returns the first problem as a sentence naming the
 * condition, or null. The builder and the server run the same check.
 */
export function findQueryProblem(tree: QueryTree, fields: ReadonlyMap<string, QueryField>): string | null {
  for (const child of tree.children) {
    const problem = isGroup(child) ? findQueryProblem(child, fields) : conditionProblem(child, fields);
    if (problem) return problem;
  }
  return null;
}

function conditionProblem(condition: QueryCondition, fields: ReadonlyMap<string, QueryField>): string | null {
  const field = fields.get(condition.field);
  if (!field) return `There is no field "${condition.field}" to filter on.`;
  const name = conditionName(field, condition);
  if (!operatorsByKind[field.kind].includes(condition.op)) {
    return `${field.label} cannot be filtered with "${operatorLabels[condition.op]}".`;
  }
  const { value, op } = condition;
  if (valuelessOperators.has(op)) return value === undefined ? null : `${name} takes no value.`;
  if (value === undefined) return `${name} needs a value.`;
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' && normalizeText(value) !== '' ? null : `${name} needs some text.`;
    case 'number':
      if (op === 'between') {
        return Array.isArray(value) &&
          value.length === 2 &&
          typeof value[0] === 'number' &&
          typeof value[1] === 'number' &&
          value[0] <= value[1]
          ? null
          : `${name} needs two numbers, the first not above the second.`;
      }
      return typeof value === 'number' ? null : `${name} needs a number.`;
    case 'date': {
      if (op === 'between') {
        const [from, to] = Array.isArray(value) && value.length === 2 ? value.map(dateOf) : [];
        return typeof from === 'number' && typeof to === 'number' && from <= to
          ? null
          : `${name} needs two dates, the first not after the second.`;
      }
      return dateOf(value) === null ? `${name} needs a date (ISO 8601, e.g. 2026-01-31).` : null;
    }
    case 'enum': {
      if (!Array.isArray(value)) return `${name} needs a list of choices.`;
      if (!field.options) return null;
      const known = new Set(field.options.map((option) => option.value));
      const unknown = value.find((choice) => !known.has(choice));
      return unknown === undefined ? null : `${field.label} has no option "${unknown}".`;
    }
    case 'tree':
      // Node ids: one the tree does not hold (any more) matches nothing, as a deleted category does.
      return Array.isArray(value) && value.every((node) => typeof node === 'string' && node !== '')
        ? null
        : `${name} needs a list of ${field.label.toLowerCase()}s.`;
    default:
      return `${name} takes no value.`;
  }
}

function dateOf(value: unknown): number | null {
  return typeof value === 'string' ? parseIsoDate(value) : null;
}

/** The conditions of a tree, depth first (for listing the fields a query uses). */
export function conditionsOf(node: QueryNode): QueryCondition[] {
  return isGroup(node) ? node.children.flatMap(conditionsOf) : [node];
}

/** A query as it travels in a page URL: JSON, compact. Empty trees are left out of the URL. */
export function encodeQuery(tree: QueryTree): string | null {
  return tree.children.length ? JSON.stringify(tree) : null;
}

/** The query of a page URL, or null when it is absent or not a valid tree. */
export function decodeQuery(text: string | null | undefined): QueryTree | null {
  if (!text) return null;
  try {
    const parsed = queryTreeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
