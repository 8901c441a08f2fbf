import { describe, expect, it } from 'vitest';
import { findQueryProblem, type QueryTree, queryTreeSchema } from '../../../contracts/query-tree';
import { completeConditionsOnly, countAwaitingValue, isAwaitingValue } from './complete-conditions';
import { testFields } from './test-fields';

const catalogue = new Map(testFields.map((field) => [field.key, field]));

describe('isAwaitingValue', () => {
  it('is true for a missing value, blank text, an empty list and a half range', () => {
    expect(isAwaitingValue({ field: 'price', op: 'eq' })).toBe(true);
    expect(isAwaitingValue({ field: 'title', op: 'contains', value: '  ' })).toBe(true);
    expect(isAwaitingValue({ field: 'status', op: 'anyOf', value: [] as unknown as string[] })).toBe(true);
    expect(isAwaitingValue({ field: 'price', op: 'between', value: ['', 10] })).toBe(true);
  });

  it('is false for valueless operators and entered values, zero included', () => {
    expect(isAwaitingValue({ field: 'images', op: 'isEmpty' })).toBe(false);
    expect(isAwaitingValue({ field: 'attr.waterproof', op: 'isTrue' })).toBe(false);
    expect(isAwaitingValue({ field: 'price', op: 'eq', value: 0 })).toBe(false);
    expect(isAwaitingValue({ field: 'price', op: 'between', value: [0, 10] })).toBe(false);
  });
});

describe('completeConditionsOnly', () => {
  const typing: QueryTree = {
    combinator: 'and',
    children: [
      { field: 'status', op: 'anyOf', value: ['LIVE'] },
      { field: 'title', op: 'contains' },
      {
        combinator: 'or',
        children: [
          { field: 'attr.color', op: 'anyOf', value: [3] },
          { field: 'attr.screen', op: 'gte' },
        ],
      },
      { combinator: 'or', children: [{ field: 'price', op: 'between', value: [5, ''] }] },
      { combinator: 'and', children: [] },
    ],
  };

  it('drops conditions without their value and the groups this leaves empty', () => {
    const complete = completeConditionsOnly(typing);
    expect(complete).toEqual({
      combinator: 'and',
      children: [
        { field: 'status', op: 'anyOf', value: ['LIVE'] },
        { combinator: 'or', children: [{ field: 'attr.color', op: 'anyOf', value: [3] }] },
      ],
    });
    expect(queryTreeSchema.safeParse(complete).success).toBe(true);
    expect(findQueryProblem(complete, catalogue)).toBeNull();
    // The input is left alone.
    expect(countAwaitingValue(typing)).toBe(3);
  });

  it('returns the same tree (same object) when everything is complete', () => {
    const tree: QueryTree = {
      combinator: 'or',
      children: [
        { field: 'images', op: 'isNotEmpty' },
        { field: 'price', op: 'lt', value: 3 },
      ],
    };
    expect(completeConditionsOnly(tree, testFields)).toBe(tree);
  });

  it('keeps an empty root, keeping its combinator', () => {
    expect(
      completeConditionsOnly({ combinator: 'or', children: [{ field: 'price', op: 'eq' }] }),
    ).toStrictEqual({ combinator: 'or', children: [] });
  });

  it('given the fields, also drops what the server would refuse: unknown fields, reversed ranges, unknown options', () => {
    const loaded: QueryTree = {
      combinator: 'and',
      children: [
        { field: 'attr.deleted', op: 'anyOf', value: [9] },
        { field: 'price', op: 'between', value: [10, 5] },
        { field: 'status', op: 'anyOf', value: ['GONE'] },
        { field: 'price', op: 'gt', value: 1 },
      ],
    };
    expect(completeConditionsOnly(loaded, testFields)).toEqual({
      combinator: 'and',
      children: [{ field: 'price', op: 'gt', value: 1 }],
    });
    // Without the fields only missing values count.
    expect(completeConditionsOnly(loaded)).toBe(loaded);
  });
});
