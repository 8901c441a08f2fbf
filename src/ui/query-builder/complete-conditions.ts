// While the user builds a query, some conditions have no value yet ("Price ≥ …"). The page keeps
// querying with the part that is complete, so results follow the typing without the server refusing
// the half-built tree; these helpers tell the two apart.
import {
  type ConditionValue,
  findQueryProblem,
  isGroup,
  type QueryCondition,
  type QueryField,
  type QueryNode,
  type QueryTree,
} from '../../../contracts/query-tree';
import { valueShapeOf } from './tree-edit';

const isBlank = (part: string | number) => typeof part === 'string' && part.trim() === '';

/**
 * Whether a condition still waits for its value: none at all, blank text, an empty list, or a range
 * with one end missing (the builder keeps a half-typed range as `['', 10]`).
 */
export function isAwaitingValue(condition: QueryCondition): boolean {
  if (valueShapeOf(condition.op) === 'none') return false;
  const value: ConditionValue | undefined = condition.value;
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0 || value.some(isBlank);
  return isBlank(value);
}

/** The problem of one condition against the field catalogue (unknown field, wrong value), or null. */
export function conditionProblem(
  condition: QueryCondition,
  fields: ReadonlyMap<string, QueryField>,
): string | null {
  return findQueryProblem({ combinator: 'and', children: [condition] }, fields);
}

const fieldMap = (fields: readonly QueryField[]) => new Map(fields.map((field) => [field.key, field]));

/**
 * The part of a tree that can be sent: conditions still waiting for a value are left out, and so are
 * the groups this leaves empty. Given the field catalogue, conditions the server would refuse
 * (an unknown field, a reversed range, an unknown option) are left out too. The root always stays,
 * possibly empty (an empty root filters nothing). Untouched subtrees keep their identity.
 */
export function completeConditionsOnly(tree: QueryTree, fields?: readonly QueryField[]): QueryTree {
  const catalogue = fields ? fieldMap(fields) : undefined;
  const keep = (condition: QueryCondition) =>
    !isAwaitingValue(condition) && (!catalogue || conditionProblem(condition, catalogue) === null);
  const prune = (node: QueryNode): QueryNode | null => {
    if (!isGroup(node)) return keep(node) ? node : null;
    const children = node.children.map(prune).filter((child): child is QueryNode => child !== null);
    if (!children.length) return null;
    const unchanged =
      children.length === node.children.length && children.every((c, i) => c === node.children[i]);
    return unchanged ? node : { ...node, children };
  };
  const pruned = prune(tree) as QueryTree | null;
  return pruned ?? (tree.children.length ? { ...tree, children: [] } : tree);
}

/** How many conditions of a tree still wait for a value (for "2 conditions are not applied yet"). */
export function countAwaitingValue(node: QueryNode): number {
  return isGroup(node)
    ? node.children.reduce((sum, child) => sum + countAwaitingValue(child), 0)
    : Number(isAwaitingValue(node));
}
