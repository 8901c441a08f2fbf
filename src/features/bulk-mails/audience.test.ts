import { describe, expect, it } from 'vitest';
import { emptyQuery, type QueryTree } from '../../../contracts/query-tree';
import { audienceViewState, quickValues, setQuickValues } from './audience';

describe('the quick pickers write into the query tree', () => {
  it('adds, replaces and removes a top-level "is any of" condition', () => {
    let tree = setQuickValues(emptyQuery(), 'country', ['IN', 'FR']);
    expect(tree).toEqual({
      combinator: 'and',
      children: [{ field: 'country', op: 'anyOf', value: ['IN', 'FR'] }],
    });
    expect(quickValues(tree, 'country')).toEqual(['IN', 'FR']);

    tree = setQuickValues(tree, 'language', ['HI']);
    tree = setQuickValues(tree, 'country', ['DE']);
    expect(tree.children).toEqual([
      { field: 'country', op: 'anyOf', value: ['DE'] },
      { field: 'language', op: 'anyOf', value: ['HI'] },
    ]);

    tree = setQuickValues(tree, 'country', []);
    expect(tree.children).toEqual([{ field: 'language', op: 'anyOf', value: ['HI'] }]);
    expect(quickValues(tree, 'country')).toEqual([]);
  });

  it('leaves the builder’s other conditions alone, and reads nothing from a "none of" or a nested one', () => {
    const tree: QueryTree = {
      combinator: 'and',
      children: [
        { field: 'country', op: 'noneOf', value: ['US'] },
        { combinator: 'or', children: [{ field: 'companyType', op: 'anyOf', value: ['retail'] }] },
      ],
    };
    expect(quickValues(tree, 'country')).toEqual([]);
    expect(quickValues(tree, 'companyType')).toEqual([]);
    const next = setQuickValues(tree, 'companyType', ['wholesale']);
    expect(next.children.slice(0, 2)).toEqual(tree.children);
    expect(next.children[2]).toEqual({ field: 'companyType', op: 'anyOf', value: ['wholesale'] });
  });

  it('narrows an OR tree by keeping it whole under a new AND', () => {
    const or: QueryTree = {
      combinator: 'or',
      children: [
        { field: 'country', op: 'anyOf', value: ['IN'] },
        { field: 'source', op: 'anyOf', value: ['manual'] },
      ],
    };
    expect(quickValues(or, 'country')).toEqual([]);
    expect(setQuickValues(or, 'language', ['EN'])).toEqual({
      combinator: 'and',
      children: [or, { field: 'language', op: 'anyOf', value: ['EN'] }],
    });
  });

  it('saves an audience as a contacts view, keeping a loaded view’s columns', () => {
    const audience = { query: setQuickValues(emptyQuery(), 'country', ['IN']), search: 'rao' };
    const fresh = audienceViewState(audience, null);
    expect(fresh).toMatchObject({ query: audience.query, search: 'rao', sort: 'createdAt', pageSize: 25 });
    const loaded = { ...fresh, columns: ['email'], pageSize: 100, search: '' };
    expect(audienceViewState(audience, loaded)).toEqual({ ...loaded, query: audience.query, search: 'rao' });
  });
});
