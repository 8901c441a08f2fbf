// The query tree's compiler (contracts/query-tree.ts → parameterised SQL). Every value of the tree
// reaches the database as a bound parameter; field keys and operators only choose among the SQL this
// file and the feature's field compilers write. A tree is validated (schema and findQueryProblem)
// before it gets here.
//
// Logic is two-valued on purpose: every condition's SQL is true or false, never NULL (a missing value
// makes a comparison false, not unknown), so "is none of" and nested groups mean in SQL exactly what
// they mean to the person who built them and to the reference evaluator (evaluate.ts).
import { type SQL, sql } from 'drizzle-orm';
import {
  isGroup,
  normalizeText,
  parseIsoDate,
  type QueryCondition,
  type QueryNode,
  type QueryTree,
} from '../../../contracts/query-tree';
import { containsPattern } from '../like-pattern';

/** Turns one condition on a field into a boolean SQL expression that is never NULL. */
export type ConditionCompiler = (condition: QueryCondition) => SQL;

const TRUE = sql`true`;
const FALSE = sql`false`;

/** The WHERE expression of a tree. An empty group constrains nothing. */
export function compileQuery(tree: QueryTree, fieldOf: (key: string) => ConditionCompiler | undefined): SQL {
  return compileNode(tree, fieldOf) ?? TRUE;
}

function compileNode(node: QueryNode, fieldOf: (key: string) => ConditionCompiler | undefined): SQL | null {
  if (!isGroup(node)) {
    const compile = fieldOf(node.field);
    if (!compile) throw new Error(`No compiler for field ${node.field}`);
    return sql`(${compile(node)})`;
  }
  const parts = node.children.map((child) => compileNode(child, fieldOf)).filter((part) => part !== null);
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0] as SQL;
  return sql`(${sql.join(parts, node.combinator === 'and' ? sql` AND ` : sql` OR `)})`;
}

export const orFalse = (expression: SQL) => sql`coalesce(${expression}, false)`;

const numberOf = (value: unknown) => value as number;
const pairOf = (value: unknown) => value as [number, number];
const textOf = (value: unknown) => normalizeText(String(value));
const startsPattern = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

// ── Columns ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * A text column holding normalised text (normalizeText, written by the application beside the text
 * itself), so comparisons agree on every database and locale.
 */
export function textColumn(key: SQL): ConditionCompiler {
  return ({ op, value }) => {
    switch (op) {
      case 'contains':
        return orFalse(sql`${key} LIKE ${containsPattern(textOf(value))}`);
      case 'startsWith':
        return orFalse(sql`${key} LIKE ${startsPattern(textOf(value))}`);
      case 'equals':
        return orFalse(sql`${key} = ${textOf(value)}`);
      case 'isEmpty':
        return sql`coalesce(${key}, '') = ''`;
      case 'isNotEmpty':
        return sql`coalesce(${key}, '') <> ''`;
      default:
        throw new Error(`text: ${op}`);
    }
  };
}

/** A number column; `scale` maps the value a person types to the stored one (price → minor units). */
export function numberColumn(
  column: SQL,
  scale: (value: number) => number = (value) => value,
): ConditionCompiler {
  return ({ op, value }) => {
    const v = () => sql`CAST(${scale(numberOf(value))} AS double precision)`;
    switch (op) {
      case 'eq':
        return orFalse(sql`${column} = ${v()}`);
      case 'neq':
        return orFalse(sql`${column} <> ${v()}`);
      case 'lt':
        return orFalse(sql`${column} < ${v()}`);
      case 'lte':
        return orFalse(sql`${column} <= ${v()}`);
      case 'gt':
        return orFalse(sql`${column} > ${v()}`);
      case 'gte':
        return orFalse(sql`${column} >= ${v()}`);
      case 'between': {
        const [low, high] = pairOf(value);
        return orFalse(
          sql`${column} BETWEEN CAST(${scale(low)} AS double precision) AND CAST(${scale(high)} AS double precision)`,
        );
      }
      case 'isEmpty':
        return sql`${column} IS NULL`;
      case 'isNotEmpty':
        return sql`${column} IS NOT NULL`;
      default:
        throw new Error(`number: ${op}`);
    }
  };
}

/** Milliseconds of a validated ISO date (a bare date, or a time without a zone, is UTC). */
const msOf = (value: unknown) => parseIsoDate(String(value)) as number;
const instant = (value: unknown) => sql`CAST(${new Date(msOf(value)).toISOString()} AS timestamptz)`;

/** A timestamptz column. "before" and "after" are strict; "between" includes both ends. */
export function dateColumn(column: SQL): ConditionCompiler {
  return ({ op, value }) => {
    switch (op) {
      case 'before':
        return orFalse(sql`${column} < ${instant(value)}`);
      case 'after':
        return orFalse(sql`${column} > ${instant(value)}`);
      case 'between': {
        const [from, to] = value as [string, string];
        return orFalse(sql`${column} BETWEEN ${instant(from)} AND ${instant(to)}`);
      }
      case 'isEmpty':
        return sql`${column} IS NULL`;
      case 'isNotEmpty':
        return sql`${column} IS NOT NULL`;
      default:
        throw new Error(`date: ${op}`);
    }
  };
}

/**
 * A column holding one choice. `expand` maps the chosen values to the stored ones (a category to itself
 * and its subcategories, and drops values that cannot be stored, like a malformed id); an empty
 * expansion matches nothing.
 */
export function enumColumn(
  column: SQL,
  expand: (values: (string | number)[]) => (string | number)[] = (values) => values,
): ConditionCompiler {
  return ({ op, value }) => {
    const values = () => expand(value as (string | number)[]);
    const anyOf = () => {
      const chosen = values();
      return chosen.length
        ? sql`${column} IN (${sql.join(
            chosen.map((v) => sql`${v}`),
            sql`, `,
          )})`
        : FALSE;
    };
    switch (op) {
      case 'anyOf':
        // Never NULL (a NOT above it stays right) and still an index range: `col IN (…)` is NULL only
        // where col is, which the second term makes false. coalesce(col IN (…), false) would be the
        // same truth value, but no index can answer it (a 3-filter contact audience read all 100k rows).
        return values().length ? sql`(${anyOf()} AND ${column} IS NOT NULL)` : FALSE;
      case 'noneOf':
        return sql`(${column} IS NULL OR NOT ${orFalse(anyOf())})`;
      case 'isEmpty':
        return sql`${column} IS NULL`;
      case 'isNotEmpty':
        return sql`${column} IS NOT NULL`;
      default:
        throw new Error(`enum: ${op}`);
    }
  };
}

/**
 * An array column of node ids of a hierarchy (a product's tags). "is under X" holds when the array
 * shares a node with X's subtree, X itself included; `subtree` writes the SQL of the ids under the
 * chosen nodes (one uncorrelated subquery, so `&&` can use the array's GIN index). An empty array is
 * "empty", whatever the hierarchy holds.
 */
export function treeArrayColumn(
  column: SQL,
  subtree: (ids: string[]) => SQL,
  valid: (values: (string | number)[]) => string[] = (values) => values.map(String),
): ConditionCompiler {
  return ({ op, value }) => {
    const under = () => {
      const ids = valid(value as (string | number)[]);
      return ids.length ? orFalse(sql`${column} && ARRAY(${subtree(ids)})`) : FALSE;
    };
    switch (op) {
      case 'under':
        return under();
      case 'notUnder':
        return sql`NOT ${under()}`;
      case 'isEmpty':
        return sql`coalesce(cardinality(${column}), 0) = 0`;
      case 'isNotEmpty':
        return sql`coalesce(cardinality(${column}), 0) > 0`;
      default:
        throw new Error(`tree: ${op}`);
    }
  };
}

/** A count of attached media: empty means none. */
export function mediaCountColumn(count: SQL): ConditionCompiler {
  return ({ op }) => {
    if (op === 'isEmpty') return sql`${count} = 0`;
    if (op === 'isNotEmpty') return sql`${count} > 0`;
    throw new Error(`media: ${op}`);
  };
}

// ── Values in a JSONB search index ───────────────────────────────────────────────────────────────────

/**
 * Conditions on one key of a JSONB search index shaped as `attributeIndexOf` (server/modules/attributes/attribute-values.ts)
 * writes it: option ids and texts as arrays, numbers and dates (epoch ms) as numbers, booleans as
 * booleans, media as a count, objects as 1. Options, booleans and exact texts are containment tests
 * (`@>`), which a GIN jsonb_path_ops index answers.
 */
export function jsonIndexKey(
  index: SQL,
  key: string,
  kind: 'enum' | 'text' | 'number' | 'date' | 'boolean' | 'media' | 'object',
): ConditionCompiler {
  const contains = (inner: unknown) => sql`${index} @> CAST(${JSON.stringify({ [key]: inner })} AS jsonb)`;
  const present = sql`(${index} -> ${key}) IS NOT NULL`;
  const absent = sql`(${index} -> ${key}) IS NULL`;
  const asNumber = sql`CAST(${index} -> ${key} AS double precision)`;
  const anyText = (pattern: string) =>
    sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${index} -> ${key}) AS item(text) WHERE item.text LIKE ${pattern})`;
  return ({ op, value }) => {
    switch (op) {
      case 'isEmpty':
        return absent;
      case 'isNotEmpty':
        return present;
      case 'anyOf':
      case 'noneOf': {
        const values = value as (string | number)[];
        const any = sql`(${sql.join(
          values.map((v) => contains([v])),
          sql` OR `,
        )})`;
        return op === 'anyOf' ? any : sql`NOT ${any}`;
      }
      case 'contains':
        return anyText(containsPattern(textOf(value)));
      case 'startsWith':
        return anyText(startsPattern(textOf(value)));
      case 'equals':
        return contains([textOf(value)]);
      case 'isTrue':
        return contains(true);
      case 'isFalse':
        return contains(false);
      default:
        break;
    }
    const bound = (raw: unknown) =>
      sql`CAST(${kind === 'date' ? msOf(raw) : numberOf(raw)} AS double precision)`;
    switch (op) {
      case 'eq':
        return orFalse(sql`${asNumber} = ${bound(value)}`);
      case 'neq':
        return orFalse(sql`${asNumber} <> ${bound(value)}`);
      case 'lt':
      case 'before':
        return orFalse(sql`${asNumber} < ${bound(value)}`);
      case 'lte':
        return orFalse(sql`${asNumber} <= ${bound(value)}`);
      case 'gt':
      case 'after':
        return orFalse(sql`${asNumber} > ${bound(value)}`);
      case 'gte':
        return orFalse(sql`${asNumber} >= ${bound(value)}`);
      case 'between': {
        const [low, high] = value as [unknown, unknown];
        return orFalse(sql`${asNumber} BETWEEN ${bound(low)} AND ${bound(high)}`);
      }
      default:
        throw new Error(`${kind}: ${op}`);
    }
  };
}

export { FALSE as sqlFalse, TRUE as sqlTrue };
