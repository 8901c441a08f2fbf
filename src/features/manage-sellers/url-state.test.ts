import { describe, expect, it } from 'vitest';
import { defaultView, parseView, toggleSort, viewToSearch } from './url-state';

describe('seller view in the URL', () => {
  it('reads the defaults from an empty search and writes nothing for them', () => {
    expect(parseView('')).toEqual(defaultView);
    expect(viewToSearch(defaultView)).toBe('');
  });

  it('round-trips a full view', () => {
    const view = {
      tab: 'pending-kyc' as const,
      page: 3,
      size: 50 as const,
      sort: 'sellerName' as const,
      order: 'asc' as const,
      q: 'rao & sons',
      seller: '0b7c0a64-8a5e-4d3f-9a4e-1c2d3e4f5a6b',
    };
    const search = viewToSearch(view);
    expect(search).toBe(
      '?tab=pending-kyc&page=3&size=50&sort=sellerName&order=asc&q=rao+%26+sons&seller=0b7c0a64-8a5e-4d3f-9a4e-1c2d3e4f5a6b',
    );
    expect(parseView(search)).toEqual(view);
  });

  it('falls back to the default for anything it does not know', () => {
    expect(parseView('?tab=banned&page=-2&size=7&sort=password&order=up&seller=../../x&q=%20%20')).toEqual(
      defaultView,
    );
    expect(parseView('?page=1.5').page).toBe(1);
    expect(parseView(`?q=${'a'.repeat(300)}`).q).toHaveLength(100);
  });

  it('flips the order on the same column and starts a new column in its natural order', () => {
    expect(toggleSort(defaultView, 'createdAt')).toEqual({ sort: 'createdAt', order: 'asc' });
    expect(toggleSort(defaultView, 'sellerName')).toEqual({ sort: 'sellerName', order: 'asc' });
    expect(toggleSort({ ...defaultView, sort: 'sellerName', order: 'asc' }, 'sellerName')).toEqual({
      sort: 'sellerName',
      order: 'desc',
    });
  });
});
