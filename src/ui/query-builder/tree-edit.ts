// Pure, immutable edits of a query tree for the builder. A node is addressed by its path: the child
// indexes from the root group down (`[]` is the root, `[1, 0]` the first child of the root's second
// child). Every edit copies only the groups on the path, so untouched subtrees keep their identity and
// the builder's memoised rows skip re-rendering them.
//
// A path that does not lead where an edit needs (a stale path after a concurrent change) leaves the
// tree as it is: the builder would rather ignore a late click than throw in the middle of a render.
import {
  type ConditionValue,
  findQueryProblem,
  isGroup,
  measureQuery,
  type Operator,
  operatorsByKind,
  QUERY_LIMITS,
  type QueryCondition,
  type QueryField,
  type QueryGroup,
  type QueryNode,
  type QueryTree,
  valuelessOperators,
} from '../../../contracts/query-tree';

export type QueryPath = readonly number[];

/** The node at `path`, or undefined when the path leads nowhere. */
export function nodeAt(tree: QueryTree, path: QueryPath): QueryNode | undefined {
  let node: QueryNode = tree;
  for (const index of path) {
    if (!isGroup(node)) return undefined;
    const child: QueryNode | undefined = node.children[index];
    if (!child) return undefined;
    node = child;
  }
  return node;
}

/** The group at `path`, or undefined when there is none. */
export function groupAt(tree: QueryTree, path: QueryPath): QueryGroup | undefined {
  const node = nodeAt(tree, path);
  return node && isGroup(node) ? node : undefined;
}

/** Replaces the group at `path` with `update(group)`, copying the groups above it. */
function updateGroup(tree: QueryTree, path: QueryPath, update: (group: QueryGroup) => QueryGroup): QueryTree {
  const [index, ...rest] = path;
  if (index === undefined) return update(tree);
  const child = tree.children[index];
  if (!child || !isGroup(child)) return tree;
  const updated = updateGroup(child, rest, update);
  if (updated === child) return tree;
  return { ...tree, children: tree.children.map((node, at) => (at === index ? updated : node)) };
}

/** The parent path and child index of a non-root path. */
function splitPath(path: QueryPath): [QueryPath, number] | undefined {
  if (!path.length) return undefined;
  return [path.slice(0, -1), path[path.length - 1] as number];
}

/** A fresh condition on `field`: the kind's first operator and no value yet. */
export function newCondition(field: QueryField): QueryCondition {
  return { field: field.key, op: operatorsByKind[field.kind][0] as Operator };
}

/** Appends `condition` to the group at `groupPath`. */
export function addCondition(tree: QueryTree, groupPath: QueryPath, condition: QueryCondition): QueryTree {
  return updateGroup(tree, groupPath, (group) => ({ ...group, children: [...group.children, condition] }));
}

/** Appends `group` (by default an empty AND group) to the group at `groupPath`. */
export function addGroup(
  tree: QueryTree,
  groupPath: QueryPath,
  group: QueryGroup = { combinator: 'and', children: [] },
): QueryTree {
  return updateGroup(tree, groupPath, (parent) => ({ ...parent, children: [...parent.children, group] }));
}

/** Removes the node at `path`. The root cannot be removed; empty it with `emptyQuery()` instead. */
export function removeNode(tree: QueryTree, path: QueryPath): QueryTree {
  const split = splitPath(path);
  if (!split) return tree;
  const [parentPath, index] = split;
  return updateGroup(tree, parentPath, (group) =>
    index < group.children.length
      ? { ...group, children: group.children.filter((_, at) => at !== index) }
      : group,
  );
}

/** Replaces the condition at `path` with `update(condition)`; nothing happens when it is a group. */
export function updateCondition(
  tree: QueryTree,
  path: QueryPath,
  update: (condition: QueryCondition) => QueryCondition,
): QueryTree {
  const split = splitPath(path);
  if (!split) return tree;
  const [parentPath, index] = split;
  return updateGroup(tree, parentPath, (group) => {
    const child = group.children[index];
    if (!child || isGroup(child)) return group;
    const updated = update(child);
    if (updated === child) return group;
    return { ...group, children: group.children.map((node, at) => (at === index ? updated : node)) };
  });
}

/** Sets whether the group at `groupPath` needs all (and) or any (or) of its children. */
export function setCombinator(tree: QueryTree, groupPath: QueryPath, combinator: 'and' | 'or'): QueryTree {
  return updateGroup(tree, groupPath, (group) =>
    group.combinator === combinator ? group : { ...group, combinator },
  );
}

/** What an operator expects as its value. */
export type ValueShape = 'none' | 'single' | 'pair' | 'list';

export function valueShapeOf(op: Operator): ValueShape {
  if (valuelessOperators.has(op)) return 'none';
  if (op === 'between') return 'pair';
  if (op === 'anyOf' || op === 'noneOf' || op === 'under' || op === 'notUnder') return 'list';
  return 'single';
}

/** A condition without a value (the key left out, as the schema wants, not `value: undefined`). */
function withoutValue({ field, op }: QueryCondition): QueryCondition {
  return { field, op };
}

/** `condition` with `value`; `undefined` removes the value. */
export function withValue(condition: QueryCondition, value: ConditionValue | undefined): QueryCondition {
  return value === undefined ? withoutValue(condition) : { ...condition, value };
}

/**
 * A condition switched to another field: the new kind's first operator, and the old value only if
 * the new field takes it as it is (text stays text, a number stays a number). Enumerated values and
 * tree nodes are always cleared: option and node ids belong to their own field.
 */
export function changeField(condition: QueryCondition, field: QueryField): QueryCondition {
  if (condition.field === field.key) return condition;
  const moved = newCondition(field);
  if (
    condition.value === undefined ||
    field.kind === 'enum' ||
    field.kind === 'tree' ||
    valueShapeOf(moved.op) === 'none'
  ) {
    return moved;
  }
  const kept = { ...moved, value: condition.value };
  const problem = findQueryProblem({ combinator: 'and', children: [kept] }, new Map([[field.key, field]]));
  return problem ? moved : kept;
}

/**
 * A condition switched to another operator, keeping what of the value still fits: a list stays a
 * list (is any of → is none of), a single value becomes the start of a range and a range's start
 * becomes the single value; a valueless operator drops the value.
 */
export function changeOperator(condition: QueryCondition, op: Operator): QueryCondition {
  if (condition.op === op) return condition;
  const from = valueShapeOf(condition.op);
  const to = valueShapeOf(op);
  const { value } = condition;
  const switched = withoutValue({ ...condition, op });
  if (value === undefined || to === 'none' || from === 'none') return switched;
  if (from === to) return { ...switched, value };
  if (from === 'single' && to === 'pair' && !Array.isArray(value)) return { ...switched, value: [value, ''] };
  if (from === 'pair' && to === 'single' && Array.isArray(value)) {
    const start = value.find((part) => part !== '');
    return start === undefined ? switched : { ...switched, value: start };
  }
  return switched;
}

/** Whether an add button may be used, and if not, the reason to show beside it. */
export type LimitCheck = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: LimitCheck = { allowed: true };
const NO_GROUP: LimitCheck = { allowed: false, reason: 'There is no group here.' };
const FULL: LimitCheck = {
  allowed: false,
  reason: `A query can hold at most ${QUERY_LIMITS.maxConditions} conditions.`,
};
const TOO_DEEP: LimitCheck = {
  allowed: false,
  reason: `Groups can nest at most ${QUERY_LIMITS.maxDepth} levels deep.`,
};

/** Whether one more condition fits in the tree, wherever it goes. Answers shared objects, so they compare by identity. */
export function conditionRoom(tree: QueryTree): LimitCheck {
  return measureQuery(tree).conditions >= QUERY_LIMITS.maxConditions ? FULL : ALLOWED;
}

/**
 * Whether a group inside the group at `groupPath` stays within the depth limit. The root is level 1,
 * so a group at a path of length n is level n + 1 and a new group inside it level n + 2.
 */
export function canAddGroupAtDepth(groupPath: QueryPath): LimitCheck {
  return groupPath.length + 2 > QUERY_LIMITS.maxDepth ? TOO_DEEP : ALLOWED;
}

/** Whether a condition may be added to the group at `groupPath` within QUERY_LIMITS. */
export function canAddCondition(tree: QueryTree, groupPath: QueryPath): LimitCheck {
  return groupAt(tree, groupPath) ? conditionRoom(tree) : NO_GROUP;
}

/**
 * Whether a group may be added inside the group at `groupPath`: within the depth limit, and, as a new
 * group comes with a first condition, with room for one more condition.
 */
export function canAddGroup(tree: QueryTree, groupPath: QueryPath): LimitCheck {
  if (!groupAt(tree, groupPath)) return NO_GROUP;
  const depth = canAddGroupAtDepth(groupPath);
  return depth.allowed ? conditionRoom(tree) : depth;
}
