import { describe, expect, it } from 'vitest';
import type { QueryField } from '../../../contracts/query-tree';
import {
  emptyQuery,
  QUERY_LIMITS,
  type QueryCondition,
  type QueryGroup,
  type QueryTree,
  queryTreeSchema,
} from '../../../contracts/query-tree';
import { testField } from './test-fields';
import {
  addCondition,
  addGroup,
  canAddCondition,
  canAddGroup,
  changeField,
  changeOperator,
  newCondition,
  nodeAt,
  removeNode,
  setCombinator,
  updateCondition,
  withValue,
} from './tree-edit';

const live: QueryCondition = { field: 'status', op: 'anyOf', value: ['LIVE'] };
const red: QueryCondition = { field: 'attr.color', op: 'anyOf', value: [3] };
const bigScreen: QueryCondition = { field: 'attr.screen', op: 'gte', value: 6 };
const orGroup: QueryGroup = { combinator: 'or', children: [red, bigScreen] };
const sample = (): QueryTree => ({ combinator: 'and', children: [live, orGroup] });

/** A chain of groups `levels` deep counting the root (the root alone is 1). */
function nested(levels: number): QueryTree {
  let group: QueryGroup = { combinator: 'and', children: [live] };
  for (let level = 1; level < levels; level += 1) group = { combinator: 'and', children: [group] };
  return group;
}

describe('tree edits', () => {
  it('finds nodes by path and nothing past the leaves', () => {
    const tree = sample();
    expect(nodeAt(tree, [])).toBe(tree);
    expect(nodeAt(tree, [1, 1])).toBe(bigScreen);
    expect(nodeAt(tree, [2])).toBeUndefined();
    expect(nodeAt(tree, [0, 0])).toBeUndefined();
  });

  it('adds a condition at the end of the group at a path, copying only the groups on the way', () => {
    const tree = sample();
    const added = addCondition(tree, [1], newCondition(testField('price')));
    expect(added).toEqual({
      combinator: 'and',
      children: [live, { combinator: 'or', children: [red, bigScreen, { field: 'price', op: 'eq' }] }],
    });
    expect(tree).toEqual(sample());
    expect(added.children[0]).toBe(live);
    expect(nodeAt(added, [1, 0])).toBe(red);
  });

  it('a new condition has the first operator of its kind and no value key at all', () => {
    expect(newCondition(testField('title'))).toStrictEqual({ field: 'title', op: 'contains' });
    expect(newCondition(testField('createdAt'))).toStrictEqual({ field: 'createdAt', op: 'before' });
    expect(newCondition(testField('status'))).toStrictEqual({ field: 'status', op: 'anyOf' });
  });

  it('adds groups, empty by default, inside nested groups', () => {
    const added = addGroup(sample(), [1]);
    expect(nodeAt(added, [1, 2])).toEqual({ combinator: 'and', children: [] });
    const withFirst = addGroup(emptyQuery(), [], { combinator: 'or', children: [live] });
    expect(withFirst).toEqual({ combinator: 'and', children: [{ combinator: 'or', children: [live] }] });
  });

  it('removes conditions and whole groups, never the root', () => {
    expect(removeNode(sample(), [1])).toEqual({ combinator: 'and', children: [live] });
    expect(removeNode(sample(), [1, 0])).toEqual({
      combinator: 'and',
      children: [live, { combinator: 'or', children: [bigScreen] }],
    });
    const tree = sample();
    expect(removeNode(tree, [])).toBe(tree);
  });

  it('leaves the tree as it is for a path that leads nowhere', () => {
    const tree = sample();
    expect(removeNode(tree, [5])).toBe(tree);
    expect(addCondition(tree, [0], live)).toBe(tree);
    expect(updateCondition(tree, [1], () => live)).toBe(tree);
    expect(setCombinator(tree, [3], 'or')).toBe(tree);
  });

  it('updates one condition and sets a group combinator immutably', () => {
    const tree = sample();
    const priced = updateCondition(tree, [1, 1], (condition) => withValue(condition, 7));
    expect(nodeAt(priced, [1, 1])).toEqual({ field: 'attr.screen', op: 'gte', value: 7 });
    expect(nodeAt(tree, [1, 1])).toBe(bigScreen);
    expect(setCombinator(tree, [1], 'and').children[1]).toEqual({
      combinator: 'and',
      children: [red, bigScreen],
    });
    expect(setCombinator(tree, [], 'or').combinator).toBe('or');
    expect(setCombinator(tree, [], 'and')).toBe(tree);
  });

  it('withValue(undefined) removes the value key, as the schema wants', () => {
    expect(withValue(bigScreen, undefined)).toStrictEqual({ field: 'attr.screen', op: 'gte' });
  });
});

describe('changing a field', () => {
  it("resets the operator to the new kind's first and clears a value of another kind", () => {
    expect(changeField(bigScreen, testField('title'))).toStrictEqual({ field: 'title', op: 'contains' });
    expect(changeField(live, testField('price'))).toStrictEqual({ field: 'price', op: 'eq' });
  });

  it('keeps a value the new field takes as it is', () => {
    expect(changeField({ field: 'title', op: 'equals', value: 'red' }, testField('attr.material'))).toEqual({
      field: 'attr.material',
      op: 'contains',
      value: 'red',
    });
    expect(changeField({ field: 'price', op: 'lt', value: 5 }, testField('attr.screen'))).toEqual({
      field: 'attr.screen',
      op: 'eq',
      value: 5,
    });
    // A range does not fit the first number operator (=).
    expect(changeField({ field: 'price', op: 'between', value: [1, 5] }, testField('attr.screen'))).toEqual({
      field: 'attr.screen',
      op: 'eq',
    });
  });

  it('always clears enumerated choices: option ids belong to their field', () => {
    expect(changeField(live, testField('attr.color'))).toStrictEqual({ field: 'attr.color', op: 'anyOf' });
  });

  it('to the same field changes nothing', () => {
    expect(changeField(live, testField('status'))).toBe(live);
  });

  it('starts a Tag condition at "is under" and clears tags when it leaves or reaches the field', () => {
    const tags: QueryField = { key: 'tags', label: 'Tag', kind: 'tree', optionSource: 'tags' };
    expect(newCondition(tags)).toStrictEqual({ field: 'tags', op: 'under' });
    expect(changeField(live, tags)).toStrictEqual({ field: 'tags', op: 'under' });
    const under: QueryCondition = { field: 'tags', op: 'under', value: ['t1'] };
    expect(changeField(under, testField('status'))).toStrictEqual({ field: 'status', op: 'anyOf' });
    expect(changeField(under, testField('title'))).toStrictEqual({ field: 'title', op: 'contains' });
  });
});

describe('changing an operator', () => {
  it('keeps lists between list operators and single values between single ones', () => {
    expect(changeOperator(live, 'noneOf')).toEqual({ ...live, op: 'noneOf' });
    expect(changeOperator(bigScreen, 'lt')).toEqual({ ...bigScreen, op: 'lt' });
  });

  it('turns a single value into the start of a range and back', () => {
    expect(changeOperator(bigScreen, 'between')).toEqual({ ...bigScreen, op: 'between', value: [6, ''] });
    expect(changeOperator({ ...bigScreen, op: 'between', value: ['', 9] }, 'eq')).toEqual({
      ...bigScreen,
      op: 'eq',
      value: 9,
    });
    expect(changeOperator({ ...bigScreen, op: 'between', value: ['', ''] }, 'eq')).toStrictEqual({
      field: 'attr.screen',
      op: 'eq',
    });
  });

  it('keeps the tags between "is under" and "is not under"', () => {
    const under: QueryCondition = { field: 'tags', op: 'under', value: ['t1', 't2'] };
    expect(changeOperator(under, 'notUnder')).toEqual({ ...under, op: 'notUnder' });
    expect(changeOperator(under, 'isEmpty')).toStrictEqual({ field: 'tags', op: 'isEmpty' });
  });

  it('drops the value for a valueless operator', () => {
    expect(changeOperator(live, 'isEmpty')).toStrictEqual({ field: 'status', op: 'isEmpty' });
  });
});

describe('limits', () => {
  it('allows groups up to the maximum depth and says why not beyond', () => {
    const deepest = nested(QUERY_LIMITS.maxDepth);
    expect(queryTreeSchema.safeParse(deepest).success).toBe(true);
    // The innermost group sits at a path of maxDepth - 1 zeros; one level above it may still nest.
    const innermost = Array(QUERY_LIMITS.maxDepth - 1).fill(0);
    const aboveInnermost = innermost.slice(0, -1);
    expect(canAddGroup(deepest, aboveInnermost)).toEqual({ allowed: true });
    expect(canAddGroup(deepest, innermost)).toEqual({
      allowed: false,
      reason: 'Groups can nest at most 5 levels deep.',
    });
    // A condition still fits at the deepest level.
    expect(canAddCondition(deepest, innermost)).toEqual({ allowed: true });
    // What the check allows the schema accepts, one level more it refuses.
    expect(
      queryTreeSchema.safeParse(addGroup(deepest, aboveInnermost, { combinator: 'or', children: [live] }))
        .success,
    ).toBe(true);
    expect(
      queryTreeSchema.safeParse(addGroup(deepest, innermost, { combinator: 'or', children: [live] })).success,
    ).toBe(false);
  });

  it('stops conditions and groups at the maximum number of conditions', () => {
    const almost: QueryTree = {
      combinator: 'and',
      children: [
        ...Array.from({ length: QUERY_LIMITS.maxConditions - 2 }, () => live),
        { combinator: 'or', children: [red] },
      ],
    };
    expect(canAddCondition(almost, [])).toEqual({ allowed: true });
    expect(canAddGroup(almost, [])).toEqual({ allowed: true });
    const full = addCondition(almost, [QUERY_LIMITS.maxConditions - 2], bigScreen);
    const reason = 'A query can hold at most 50 conditions.';
    expect(canAddCondition(full, [])).toEqual({ allowed: false, reason });
    expect(canAddCondition(full, [QUERY_LIMITS.maxConditions - 2])).toEqual({ allowed: false, reason });
    expect(canAddGroup(full, [])).toEqual({ allowed: false, reason });
    expect(queryTreeSchema.safeParse(full).success).toBe(true);
    expect(queryTreeSchema.safeParse(addCondition(full, [], live)).success).toBe(false);
  });

  it('refuses to add into something that is not a group', () => {
    expect(canAddCondition(sample(), [0]).allowed).toBe(false);
    expect(canAddGroup(sample(), [7]).allowed).toBe(false);
  });
});
