import { describe, expect, it } from 'vitest';
import { emptyQuery, type QueryTree } from '../../../contracts/query-tree';
import { describeCondition, describeQuery } from './describe-query';
import { testField, testFields } from './test-fields';

describe('describeQuery', () => {
  it('reads a nested tree as one line, the nested group in parentheses', () => {
    const tree: QueryTree = {
      combinator: 'and',
      children: [
        { field: 'status', op: 'anyOf', value: ['LIVE', 'APPROVED'] },
        {
          combinator: 'or',
          children: [
            { field: 'attr.color', op: 'anyOf', value: [3] },
            { field: 'attr.screen', op: 'gte', value: 6 },
          ],
        },
      ],
    };
    expect(describeQuery(tree, testFields)).toBe(
      'Status is any of Live, Approved AND (Colour is any of Red OR Screen size ≥ 6 in)',
    );
  });

  it('needs no parentheses at the top, around a lone condition, or for empty groups', () => {
    const tree: QueryTree = {
      combinator: 'or',
      children: [
        { field: 'images', op: 'isEmpty' },
        { combinator: 'and', children: [{ field: 'attr.waterproof', op: 'isTrue' }] },
        { combinator: 'and', children: [] },
      ],
    };
    expect(describeQuery(tree, testFields)).toBe('Images is empty OR Waterproof is true');
    expect(describeQuery(emptyQuery(), testFields)).toBe('');
  });

  it('quotes text, shows units and ranges, and marks missing values', () => {
    expect(describeCondition({ field: 'title', op: 'contains', value: 'shirt' }, testField('title'))).toBe(
      'Title contains "shirt"',
    );
    expect(describeCondition({ field: 'completeness', op: 'lt', value: 80 }, testField('completeness'))).toBe(
      'Completeness < 80%',
    );
    expect(
      describeCondition({ field: 'attr.screen', op: 'between', value: [5, 7] }, testField('attr.screen')),
    ).toBe('Screen size between 5 in and 7 in');
    expect(
      describeCondition(
        { field: 'createdAt', op: 'between', value: ['2026-01-01', ''] },
        testField('createdAt'),
      ),
    ).toBe('Created between 2026-01-01 and …');
    expect(describeCondition({ field: 'price', op: 'eq' }, testField('price'))).toBe('Price = …');
  });

  it('names searched options with the given labels, unknown ones and unknown fields by their ids', () => {
    const tree: QueryTree = {
      combinator: 'and',
      children: [
        { field: 'seller', op: 'noneOf', value: ['s1', 's2'] },
        { field: 'attr.deleted', op: 'anyOf', value: [9] },
      ],
    };
    const labelOf = (_field: unknown, value: string | number) => (value === 's1' ? 'Acme' : undefined);
    expect(describeQuery(tree, testFields, labelOf)).toBe(
      'Seller is none of Acme, s2 AND attr.deleted is any of 9',
    );
  });

  it('shortens long lists', () => {
    const statuses = ['LIVE', 'APPROVED', 'DRAFT', 'LIVE', 'APPROVED', 'DRAFT', 'LIVE'];
    expect(describeCondition({ field: 'status', op: 'anyOf', value: statuses }, testField('status'))).toBe(
      'Status is any of Live, Approved, Draft, Live, Approved +2 more',
    );
  });

  it('names the tags of a Tag condition by what the feature knows of them', () => {
    const tagField = { key: 'tags', label: 'Tag', kind: 'tree' as const, optionSource: 'tags' };
    const paths: Record<string, string> = { t1: 'Apparel › Men', t2: 'Home' };
    const labelOf = (_field: unknown, value: string | number) => paths[String(value)];
    expect(
      describeQuery(
        {
          combinator: 'and',
          children: [
            { field: 'tags', op: 'under', value: ['t1', 't2'] },
            { field: 'tags', op: 'notUnder', value: ['t3'] },
          ],
        },
        [...testFields, tagField],
        labelOf,
      ),
    ).toBe('Tag is under Apparel › Men, Home AND Tag is not under t3');
  });
});
