import { describe, expect, it } from 'vitest';
import type { QueryTree } from '../../../contracts/query-tree';
import {
  attributeColumnCodes,
  defaultStagingView,
  parseStagingView,
  type StagingView,
  stagingViewOf,
  stagingViewToSearch,
  toggleSort,
  viewStateOf,
} from './url-state';

const nested: QueryTree = {
  combinator: 'and',
  children: [
    { field: 'status', op: 'anyOf', value: ['live'] },
    {
      combinator: 'or',
      children: [
        { field: 'attr.colour', op: 'anyOf', value: [3, 4] },
        { field: 'attr.screen_size', op: 'gte', value: 6 },
      ],
    },
  ],
};

describe('the staging grid view in the URL', () => {
  it('reads the defaults from an empty search and writes nothing for them', () => {
    expect(parseStagingView('')).toEqual(defaultStagingView);
    expect(stagingViewToSearch(defaultStagingView)).toBe('');
  });

  it('round-trips a nested query with the search, columns, sort, page, size and view', () => {
    const view: StagingView = {
      query: nested,
      search: 'phone & case',
      columns: ['title', 'status', 'attr.colour'],
      sort: 'price',
      order: 'asc',
      page: 4,
      size: 100,
      viewId: '0b7c0a64-8a5e-4d3f-9a4e-1c2d3e4f5a6b',
    };
    const search = stagingViewToSearch(view);
    expect(new URLSearchParams(search).get('q')).toBe(JSON.stringify(nested));
    expect(parseStagingView(search)).toEqual(view);
  });

  it('round-trips a Tag condition (the tags under X) through the URL and a saved view', () => {
    const tagged: QueryTree = {
      combinator: 'or',
      children: [
        {
          field: 'tags',
          op: 'under',
          value: ['0b7c0a64-8a5e-4d3f-9a4e-1c2d3e4f5a6b', '1c8d1b75-9b6f-4e40-8b5f-2d3e4f5a6b7c'],
        },
        {
          combinator: 'and',
          children: [{ field: 'tags', op: 'notUnder', value: ['2d9e2c86-ac70-4f51-9c60-3e4f5a6b7c8d'] }],
        },
        { field: 'tags', op: 'isEmpty' },
      ],
    };
    const view: StagingView = { ...defaultStagingView, query: tagged };
    expect(parseStagingView(stagingViewToSearch(view))).toEqual(view);
    expect(stagingViewOf(viewStateOf(view), null).query).toEqual(tagged);
  });

  it('falls back to the default for anything it does not know', () => {
    const deep = JSON.stringify({ combinator: 'xor', children: [] });
    expect(
      parseStagingView(
        `?q=${encodeURIComponent(deep)}&cols=password,../x&sort=secret&order=up&page=-1&size=7&view=../../x`,
      ),
    ).toEqual(defaultStagingView);
    expect(parseStagingView('?q=%7Bnot%20json')).toEqual(defaultStagingView);
  });

  it('converts to and from a saved view state', () => {
    const view: StagingView = { ...defaultStagingView, query: nested, page: 3, size: 25 };
    const state = viewStateOf(view);
    expect(state).toMatchObject({ query: nested, pageSize: 25, sort: 'updatedAt' });
    expect(stagingViewOf(state, 'v1')).toEqual({ ...view, page: 1, viewId: 'v1' });
  });

  it('flips the order of the sorted column and starts a new one in its natural order', () => {
    expect(toggleSort(defaultStagingView, 'updatedAt')).toEqual({ sort: 'updatedAt', order: 'asc' });
    expect(toggleSort(defaultStagingView, 'title')).toEqual({ sort: 'title', order: 'asc' });
    expect(toggleSort(defaultStagingView, 'createdAt')).toEqual({ sort: 'createdAt', order: 'desc' });
  });

  it('names the attribute columns the rows must carry', () => {
    expect(attributeColumnCodes(['title', 'attr.colour', 'status', 'attr.ram_gb'])).toEqual([
      'colour',
      'ram_gb',
    ]);
  });
});
