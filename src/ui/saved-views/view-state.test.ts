import { describe, expect, it } from 'vitest';
import type { ViewState } from '../../../contracts/saved-views';
import { isViewModified, normalizeViewState } from './view-state';

const saved: ViewState = {
  query: {
    combinator: 'and',
    children: [
      { field: 'status', op: 'anyOf', value: ['draft', 'in_review'] },
      { combinator: 'or', children: [{ field: 'attr.colour', op: 'isEmpty' }] },
    ],
  },
  search: 'phone',
  columns: ['title', 'sku', 'attr.colour'],
  sort: 'updatedAt',
  order: 'desc',
  pageSize: 25,
};
const copy = (): ViewState => structuredClone(saved);

describe('isViewModified', () => {
  it('is false for the same state, a deep copy, or the same data with keys in another order', () => {
    expect(isViewModified(saved, saved)).toBe(false);
    expect(isViewModified(saved, copy())).toBe(false);
    const reordered = {
      pageSize: 25,
      order: 'desc',
      sort: 'updatedAt',
      columns: ['title', 'sku', 'attr.colour'],
      search: 'phone',
      query: {
        children: [
          { value: ['draft', 'in_review'], op: 'anyOf', field: 'status' },
          { children: [{ op: 'isEmpty', field: 'attr.colour' }], combinator: 'or' },
        ],
        combinator: 'and',
      },
    } as ViewState;
    expect(isViewModified(saved, reordered)).toBe(false);
  });

  it('ignores what the server normalises: spaces around the search, absent values, an empty group’s combinator', () => {
    const current = copy();
    current.search = '  phone ';
    (current.query.children[1] as { children: { value?: unknown }[] }).children[0]!.value = undefined;
    expect(isViewModified(saved, current)).toBe(false);
    const empty: ViewState = { ...copy(), query: { combinator: 'and', children: [] } };
    expect(isViewModified(empty, { ...empty, query: { combinator: 'or', children: [] } })).toBe(false);
    expect(normalizeViewState({ ...saved, search: undefined as unknown as string }).search).toBe('');
  });

  it('is true for any change a view stores', () => {
    const changes: ((state: ViewState) => void)[] = [
      (s) => {
        s.search = 'tablet';
      },
      (s) => {
        s.columns = ['sku', 'title', 'attr.colour'];
      },
      (s) => {
        s.columns.pop();
      },
      (s) => {
        s.sort = 'price';
      },
      (s) => {
        s.order = 'asc';
      },
      (s) => {
        s.pageSize = 50;
      },
      (s) => {
        s.query.combinator = 'or';
      },
      (s) => {
        s.query.children.reverse();
      },
      (s) => {
        (s.query.children[0] as { value: string[] }).value = ['draft'];
      },
      (s) => {
        s.query.children.push({ field: 'sku', op: 'contains' });
      },
    ];
    for (const [index, change] of changes.entries()) {
      const current = copy();
      change(current);
      expect(isViewModified(saved, current), `change ${index}`).toBe(true);
    }
  });

  it('does not change the states it compares', () => {
    const current = copy();
    current.search = ' phone ';
    isViewModified(saved, current);
    expect(current.search).toBe(' phone ');
    expect(saved).toEqual(copy());
  });
});
