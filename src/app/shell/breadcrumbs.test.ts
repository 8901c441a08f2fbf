import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumbs';

const config = {
  routes: {
    '/products/staging-products': { names: ['Products', 'Staging Products'], parents: [] },
    '/product/staging-products': {
      names: ['Products', 'Staging Products', 'Product Details'],
      parents: ['/products/staging-products'],
    },
    '/permission/UserPermission': {
      names: ['Administration', 'User Permissions'],
      parents: ['/staff/manage-staff'],
    },
    '/staff/manage-staff': { names: ['Administration', 'Manage Staff'], parents: [] },
  },
};

describe('breadcrumbs', () => {
  it('names a sidebar route by its section and name', () => {
    expect(breadcrumbTrail('/products/staging-products', config)).toEqual([
      { name: 'Products' },
      { name: 'Staging Products' },
    ]);
  });
  it('puts a detail route under its parent, linking back to it', () => {
    expect(breadcrumbTrail('/product/staging-products', config)).toEqual([
      { name: 'Products' },
      { name: 'Staging Products', href: '/products/staging-products' },
      { name: 'Product Details' },
    ]);
  });
  it('does not link a parent whose trail the route does not carry (parent not shipped yet)', () => {
    expect(breadcrumbTrail('/permission/UserPermission', config)).toEqual([
      { name: 'Administration' },
      { name: 'User Permissions' },
    ]);
  });
  it('is empty for unknown routes', () => {
    expect(breadcrumbTrail('/nope', config)).toEqual([]);
  });
});
