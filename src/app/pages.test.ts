import { describe, expect, it } from 'vitest';
import { publicRoutes, routes } from '../../contracts/routes';
import { protectedPages } from './pages';
import { publicPages } from './public-pages';

describe('page table', () => {
  it('has a page for every available route of the manifest, and no page for a route that is not available', () => {
    const available = routes
      .filter((route) => route.available)
      .map((route) => route.path)
      .sort();
    expect(Object.keys(protectedPages).sort()).toEqual(available);
  });

  it('has a page for exactly the public routes', () => {
    expect(Object.keys(publicPages).sort()).toEqual([...publicRoutes].sort());
  });
});
