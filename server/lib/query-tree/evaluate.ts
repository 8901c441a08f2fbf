// The reference meaning of a query tree, in plain JavaScript over plain values: what the compiled SQL
// must return (the differential property test holds the compiler to it). Written apart from the
// compiler on purpose — it shares no code with it beyond the text normalisation and date parsing
// both must use.
import {
  isGroup,
  normalizeText,
  parseIsoDate,
  type QueryCondition,
  type QueryNode,
} from '../../../contracts/query-tree';

/**
 * A field's value as the evaluator reads it: texts (several for a multi-valued field), a number or
 * epoch ms, a boolean, the chosen option values, a media count, or whether an object is there.
 * `null` / empty means "no value".
 */
export type PlainValue =
  | { kind: 'text'; texts: string[] }
  | { kind: 'number'; value: number | null }
  | { kind: 'date'; ms: number | null }
  | { kind: 'boolean'; value: boolean | null }
  | { kind: 'enum'; values: (string | number)[] }
  | { kind: 'media'; count: number }
  | { kind: 'object'; present: boolean }
  /**
   * Nodes of a hierarchy (a product's tags), with the hierarchy itself: `ancestorsOf` answers a
   * node's ancestors (nearest first), or undefined for a node the hierarchy does not hold.
   */
  | { kind: 'tree'; nodes: string[]; ancestorsOf: (node: string) => readonly string[] | undefined };

export function evaluateQuery(node: QueryNode, read: (field: string) => PlainValue): boolean {
  if (!isGroup(node)) return evaluateCondition(node, read(node.field));
  // An empty group constrains nothing; so does a group whose children are all empty groups.
  const meaningful = node.children.filter((child) => !isEmptyGroup(child));
  if (meaningful.length === 0) return true;
  return node.combinator === 'and'
    ? meaningful.every((child) => evaluateQuery(child, read))
    : meaningful.some((child) => evaluateQuery(child, read));
}

function isEmptyGroup(node: QueryNode): boolean {
  return isGroup(node) && node.children.every(isEmptyGroup);
}

function evaluateCondition({ op, value }: QueryCondition, field: PlainValue): boolean {
  switch (field.kind) {
    case 'text': {
      const texts = field.texts.map(normalizeText).filter((text) => text !== '');
      const wanted = normalizeText(String(value));
      if (op === 'isEmpty') return texts.length === 0;
      if (op === 'isNotEmpty') return texts.length > 0;
      if (op === 'contains') return texts.some((text) => text.includes(wanted));
      if (op === 'startsWith') return texts.some((text) => text.startsWith(wanted));
      if (op === 'equals') return texts.some((text) => text === wanted);
      break;
    }
    case 'number':
    case 'date': {
      const actual = field.kind === 'number' ? field.value : field.ms;
      if (op === 'isEmpty') return actual === null;
      if (op === 'isNotEmpty') return actual !== null;
      if (actual === null) return false;
      const bound = (raw: unknown) =>
        field.kind === 'number' ? (raw as number) : (parseIsoDate(String(raw)) as number);
      if (op === 'between') {
        const [low, high] = value as [unknown, unknown];
        return actual >= bound(low) && actual <= bound(high);
      }
      const b = bound(value);
      if (op === 'eq') return actual === b;
      if (op === 'neq') return actual !== b;
      if (op === 'lt' || op === 'before') return actual < b;
      if (op === 'lte') return actual <= b;
      if (op === 'gt' || op === 'after') return actual > b;
      if (op === 'gte') return actual >= b;
      break;
    }
    case 'boolean':
      if (op === 'isTrue') return field.value === true;
      if (op === 'isFalse') return field.value === false;
      if (op === 'isEmpty') return field.value === null;
      if (op === 'isNotEmpty') return field.value !== null;
      break;
    case 'enum': {
      const chosen = value as (string | number)[];
      const any = () => field.values.some((v) => chosen.includes(v));
      if (op === 'anyOf') return any();
      if (op === 'noneOf') return !any();
      if (op === 'isEmpty') return field.values.length === 0;
      if (op === 'isNotEmpty') return field.values.length > 0;
      break;
    }
    case 'media':
      if (op === 'isEmpty') return field.count === 0;
      if (op === 'isNotEmpty') return field.count > 0;
      break;
    case 'object':
      if (op === 'isEmpty') return !field.present;
      if (op === 'isNotEmpty') return field.present;
      break;
    case 'tree': {
      // A node is under X when it is X or X is one of its ancestors; a node outside the hierarchy
      // is under nothing (but still makes the field non-empty). Ids are uuids: case does not count.
      const under = () => {
        const chosen = (value as (string | number)[]).map((x) => String(x).toLowerCase());
        return field.nodes.some((node) => {
          const ancestors = field.ancestorsOf(node);
          return ancestors !== undefined && chosen.some((x) => x === node || ancestors.includes(x));
        });
      };
      if (op === 'under') return under();
      if (op === 'notUnder') return !under();
      if (op === 'isEmpty') return field.nodes.length === 0;
      if (op === 'isNotEmpty') return field.nodes.length > 0;
      break;
    }
  }
  throw new Error(`${field.kind} has no operator ${op}`);
}
