import { describe, expect, it } from 'vitest';
import {
  defaultOffersView,
  hasFilters,
  listRequestOf,
  offersViewOf,
  offersViewToSearch,
  parseOffersView,
  rangeProblem,
  viewStateOf,
} from './url-state';

const SELLER = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

describe('offer list URL state', () => {
  it('round-trips every part of the view and leaves defaults out', () => {
    const view = {
      ...defaultOffersView,
      status: 'offered' as const,
      sellerId: SELLER,
      currency: 'EUR',
      from: '2026-01-01',
      to: '2026-01-31',
      search: 'Ada',
      page: 3,
      size: 50 as const,
    };
    const search = offersViewToSearch(view);
    expect(parseOffersView(search)).toEqual(view);
    expect(offersViewToSearch(defaultOffersView)).toBe('');
  });

  it('falls back to the default for anything unknown or invalid', () => {
    expect(
      parseOffersView('?status=lost&seller=nope&currency=euro&from=2026-13-45&page=-2&size=7&view=x'),
    ).toEqual(defaultOffersView);
    expect(parseOffersView('?currency=usd').currency).toBe('USD');
  });

  it('asks the server for the page of the view', () => {
    const view = parseOffersView('?status=expired&currency=EUR&s=OFR-12&page=2&size=50');
    expect(listRequestOf(view)).toEqual({
      skip: 50,
      limit: 50,
      status: 'expired',
      currency: 'EUR',
      query: 'OFR-12',
    });
  });

  it('says when the range is reversed and when filters are on', () => {
    expect(rangeProblem({ ...defaultOffersView, from: '2026-02-01', to: '2026-01-01' })).toMatch(/after/);
    expect(hasFilters(defaultOffersView)).toBe(false);
    expect(hasFilters({ ...defaultOffersView, currency: 'EUR' })).toBe(true);
  });

  it('saves the tab and filters as conditions and opens them again from page 1', () => {
    const view = parseOffersView(`?status=accepted&seller=${SELLER}&currency=CHF&s=chair&page=4&size=100`);
    const state = viewStateOf(view);
    expect(state.query.children).toHaveLength(3);
    expect(offersViewOf(state, SELLER)).toEqual({ ...view, page: 1, viewId: SELLER });
  });
});
