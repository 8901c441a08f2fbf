import { describe, expect, it } from 'vitest';
import {
  defaultQueriesView,
  hasFilters,
  listRequestOf,
  parseQueriesView,
  queriesViewOf,
  queriesViewToSearch,
  rangeProblem,
  viewStateOf,
} from './url-state';

const SELLER = '0b6f8c1e-8a8e-4d3b-9a0e-2f1f5b6f7a10';
const VIEW = '5d9c7a40-1f2e-4c3b-8a7d-6e5f4a3b2c10';

describe('queries url state', () => {
  it('round-trips a view and leaves defaults out of the URL', () => {
    const view = {
      ...defaultQueriesView,
      status: 'open' as const,
      sellerId: SELLER,
      assignee: 'me',
      channel: 'form' as const,
      priority: 'urgent' as const,
      overdue: true,
      slaBreached: true,
      from: '2026-01-01',
      to: '2026-01-31',
      search: 'refund',
      page: 3,
      size: 50 as const,
      viewId: VIEW,
    };
    const search = queriesViewToSearch(view);
    expect(parseQueriesView(search)).toEqual(view);
    expect(queriesViewToSearch(defaultQueriesView)).toBe('');
  });

  it('falls back to the default for anything unknown or invalid', () => {
    const view = parseQueriesView(
      '?status=lost&seller=nope&assignee=someone&channel=fax&priority=max&overdue=yes&from=2026-13-45&page=-2&size=7&view=x',
    );
    expect(view).toEqual(defaultQueriesView);
  });

  it('asks the list route with only the filters set, and the search route only with text', () => {
    const plain = listRequestOf(parseQueriesView('?status=new&assignee=none&page=2'));
    expect(plain).toEqual({ status: 'new', assigneeId: 'none', skip: 20, limit: 20 });
    const searched = listRequestOf(parseQueriesView('?s=Q-12&overdue=1&breached=1'));
    expect(searched).toEqual({ query: 'Q-12', overdue: true, slaBreached: true, skip: 0, limit: 20 });
  });

  it('says when the range is upside down, and whether any filter is set', () => {
    expect(rangeProblem({ ...defaultQueriesView, from: '2026-02-01', to: '2026-01-01' })).toMatch(/after/);
    expect(rangeProblem({ ...defaultQueriesView, from: '2026-01-01', to: '2026-01-01' })).toBeNull();
    expect(hasFilters(defaultQueriesView)).toBe(false);
    expect(hasFilters({ ...defaultQueriesView, overdue: true })).toBe(true);
  });

  it('saves the tab, filters, search and size in a view and loads them back from page 1', () => {
    const view = parseQueriesView(`?status=waiting&seller=${SELLER}&breached=1&s=late&page=4&size=100`);
    const loaded = queriesViewOf(viewStateOf(view), VIEW);
    expect(loaded).toEqual({ ...view, page: 1, viewId: VIEW });
  });
});
