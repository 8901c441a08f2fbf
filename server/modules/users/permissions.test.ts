import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SidebarData, SidebarItem } from '../../../contracts/permissions';
import { canOpenRoute, isMenuItem, routes } from '../../../contracts/routes';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  demoEmails,
  json,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';

const flatten = (items: SidebarItem[]): SidebarItem[] =>
  items.flatMap((item) => [item, ...flatten(item.child)]);

describe.each(testBackends)('permissions on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const sidebar = async (who: DemoRole) =>
    json<SidebarData>(await as(who, 'GET', '/api/v1/users/getSidebarData'));

  it('has API routes guarded for every available page', () => {
    const guarded = new Set(t.app.guardedRoutes.map((r) => r.route));
    for (const route of routes.filter((r) => r.available)) expect(guarded, route.path).toContain(route.path);
  });

  it.each(Object.keys(demoEmails) as DemoRole[])(
    'sidebar, route guard and API agree for every route for %s',
    async (who) => {
      const { menu, permissions } = await sidebar(who);
      const menuPaths = new Set(flatten(menu).map((item) => item.value));
      for (const route of routes) {
        const mayView = permissions[route.path]?.includes('view') ?? false;
        // The sidebar lists a route exactly when the guard lets the user open it (and the page exists).
        expect(menuPaths.has(route.path), `${who} sidebar ${route.path}`).toBe(isMenuItem(route) && mayView);
        expect(canOpenRoute(route.path, permissions), `${who} guard ${route.path}`).toBe(mayView);
      }
      // Every guarded API answers 403 exactly when the user lacks that route's action (for a blocked seller,
      // whose sidebar keeps only the subscription page, the refusal is SELLER_BLOCKED).
      for (const api of t.app.guardedRoutes) {
        const url = api.url.replace(':id', '00000000-0000-4000-8000-000000000000');
        const response = await as(who, api.method as 'GET', url);
        const allowed = permissions[api.route]?.includes(api.action) ?? false;
        const forbidden = response.statusCode === 403 && /"(FORBIDDEN|SELLER_BLOCKED)"/.test(response.body);
        expect(forbidden, `${who} ${api.method} ${url}`).toBe(!allowed);
      }
    },
  );

  it('gives each demo role the sidebar it should see', async () => {
    const names = async (who: DemoRole) => flatten((await sidebar(who)).menu).map((item) => item.name);
    // Staff see the admin's sidebar without Administration.
    const staffMenu = [
      'Dashboard',
      'Products',
      'Staging Products',
      'Attributes',
      'Imports',
      'Tags',
      'Manage Tags',
      'Marketing',
      'Bulk Mails',
      'Contacts',
      'Invoices',
      'Invoices',
      'Manage Invoices',
      'Customers',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Subscriptions',
      'Subscription Requests',
      'Orders',
      'Manage Orders',
      'Purchase Orders',
      'Sellers',
      'Manage Sellers',
      'Manage Category',
      'Customers',
    ];
    // User Permissions is reached from Manage Staff (its parent) now that that page exists. Staff see
    // the marketplace's settings (view only).
    // Auctions are the admins' by default (after Orders in the manifest).
    const afterOrders = staffMenu.indexOf('Purchase Orders') + 1;
    const adminMenu = [
      ...staffMenu.slice(0, afterOrders),
      'Auctions',
      'Manage Auctions',
      ...staffMenu.slice(afterOrders),
    ];
    expect(await names('Admin')).toEqual([...adminMenu, 'Administration', 'Manage Staff', 'Settings']);
    expect(await names('Staff')).toEqual([...staffMenu, 'Administration', 'Settings']);
    expect(await names('Seller')).toEqual([
      'General Dashboard',
      'My Subscription',
      'Products',
      'Staging Products',
      'Attributes',
      'Imports',
      'Tags',
      'Manage Tags',
      'Invoices',
      'Manage Invoices',
      'Customers',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Orders',
      'Manage Orders',
      'Sellers',
      'Customers',
      'Administration',
      'Settings',
    ]);
    expect(await names('Blocked')).toEqual(['My Subscription']);
    // A seller still in KYC has the seller's pages: the dashboard is where they upload their papers.
    expect(await names('Kyc')).toEqual([
      'General Dashboard',
      'My Subscription',
      'Products',
      'Staging Products',
      'Attributes',
      'Imports',
      'Tags',
      'Manage Tags',
      'Invoices',
      'Manage Invoices',
      'Customers',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Orders',
      'Manage Orders',
      'Sellers',
      'Customers',
      'Administration',
      'Settings',
    ]);
  });

  it('answers a forbidden call with 403 and a message naming what is missing', async () => {
    const response = await as('Staff', 'GET', '/api/v1/users/getUserRoles');
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({
      message: 'You do not have permission to view User Permissions.',
      code: 'FORBIDDEN',
    });
  });

  it('applies user overrides on top of the role, in the sidebar and the API alike', async () => {
    const update = await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Staff}`, {
      overrides: { '/': [], '/staff/manage-staff': ['view'], '/permission/UserPermission': ['view'] },
    });
    expect(update.statusCode).toBe(200);
    const effective = json<{ effective: Record<string, string[]> }>(update).effective;
    expect(effective['/']).toBeUndefined();
    expect(effective['/permission/UserPermission']).toEqual(['view']);
    const { menu } = await sidebar('Staff');
    expect(flatten(menu).map((item) => item.value)).toEqual([
      '/products',
      '/products/staging-products',
      '/products/attributes',
      '/imports/manage-imports',
      '/tags',
      '/tags/manage-tags',
      '/marketing',
      '/marketing/bulk-mails',
      '/marketing/contacts',
      '/marketing/manage-invoices',
      '/invoices',
      '/invoices/manage-invoices',
      '/customers',
      '/queries/queries-request',
      '/customers/offer-requests',
      '/customers/help-chats',
      '/calls/call-history',
      '/subscriptions',
      '/subscriptions/subscriptions-request',
      '/orders',
      '/orders/manage-orders',
      '/orders/manage-purchase-orders',
      '/sellers',
      '/sellers/manage-sellers',
      '/sellers/manage-category',
      '/sellers/list-of-customers',
      '/administration',
      '/staff/manage-staff',
      '/settings/manage-settings',
    ]);
    expect((await as('Staff', 'GET', '/api/v1/dashboard/getSummary')).statusCode).toBe(403);
    expect((await as('Staff', 'GET', '/api/v1/users/getUserRoles')).statusCode).toBe(200);
    expect(
      (await as('Staff', 'POST', '/api/v1/users/updateRolePermissions', { role: 'Staff', permissions: {} }))
        .statusCode,
    ).toBe(403);

    // The default-permissions setting overrides stored edits (SPEC §6) until switched off again.
    expect((await as('Admin', 'PUT', '/api/v1/users/defaultPermissions', { enabled: true })).statusCode).toBe(
      200,
    );
    expect((await sidebar('Staff')).usingDefaultPermissions).toBe(true);
    expect((await as('Staff', 'GET', '/api/v1/dashboard/getSummary')).statusCode).toBe(200);
    await as('Admin', 'PUT', '/api/v1/users/defaultPermissions', { enabled: false });
    expect((await as('Staff', 'GET', '/api/v1/dashboard/getSummary')).statusCode).toBe(403);

    await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Staff}`, { overrides: {} });
    expect((await as('Staff', 'GET', '/api/v1/dashboard/getSummary')).statusCode).toBe(200);
  });

  it('changes a role for every user of it', async () => {
    const roles = json<{ rows: { role: string; permissions: Record<string, string[]> }[] }>(
      await as('Admin', 'GET', '/api/v1/users/getUserRoles'),
    );
    const seller = roles.rows.find((row) => row.role === 'Seller')?.permissions ?? {};
    const without = { ...seller, '/sellers/payment-seller-subscriptions': [] };
    expect(
      (
        await as('Admin', 'POST', '/api/v1/users/updateRolePermissions', {
          role: 'Seller',
          permissions: without,
        })
      ).statusCode,
    ).toBe(200);
    expect((await as('Seller', 'GET', '/api/v1/subscriptionManager/isSellerBlocked')).statusCode).toBe(403);
    expect((await as('Blocked', 'GET', '/api/v1/subscriptionManager/isSellerBlocked')).statusCode).toBe(403);
    await as('Admin', 'POST', '/api/v1/users/updateRolePermissions', { role: 'Seller', permissions: seller });
    expect(json(await as('Blocked', 'GET', '/api/v1/subscriptionManager/isSellerBlocked'))).toEqual({
      blocked: true,
      isNewSeller: false,
    });
  });

  it('refuses edits that would lock admins out of the permissions page', async () => {
    const self = await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Admin}`, {
      overrides: { '/permission/UserPermission': ['view'] },
    });
    expect(self.statusCode).toBe(409);
    const role = await as('Admin', 'POST', '/api/v1/users/updateRolePermissions', {
      role: 'Admin',
      permissions: { '/': ['view'] },
    });
    expect(role.statusCode).toBe(409);
    expect(json(role).message).toMatch(/cannot lose access to User Permissions/);
  });

  it('validates ids, roles and actions', async () => {
    expect((await as('Admin', 'GET', '/api/v1/users/getUserPermissions?userId=nope')).statusCode).toBe(400);
    const unknown = await as(
      'Admin',
      'GET',
      '/api/v1/users/getUserPermissions?userId=00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.statusCode).toBe(404);
    const badAction = await as('Admin', 'POST', '/api/v1/users/updateRolePermissions', {
      role: 'Staff',
      permissions: { '/': ['fly'] },
    });
    expect(badAction.statusCode).toBe(400);
    const badRole = await as('Admin', 'POST', '/api/v1/users/updateRolePermissions', {
      role: 'Root',
      permissions: {},
    });
    expect(badRole.statusCode).toBe(400);
  });

  it('pages and searches users on the server', async () => {
    const page = json<{ rows: { email: string }[]; count: number }>(
      await as('Admin', 'GET', '/api/v1/users/listUsersByRole?limit=2&skip=0'),
    );
    expect(page.rows).toHaveLength(2);
    expect(page.count).toBe(5);
    const sellersOnly = json<{ rows: { email: string }[] }>(
      await as('Admin', 'GET', '/api/v1/users/listUsersByRole?role=Seller'),
    );
    expect(sellersOnly.rows.map((row) => row.email)).toEqual([
      'blocked@demo.local',
      'kyc@demo.local',
      'seller@demo.local',
    ]);
    const search = json<{ rows: { email: string }[] }>(
      await as('Admin', 'GET', '/api/v1/users/listUsersByRole?query=STAFF'),
    );
    expect(search.rows.map((row) => row.email)).toEqual(['staff@demo.local']);
  });
});

describe('global configs and health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers health without a token, telling anonymous callers only that it is up', async () => {
    expect(json(await t.app.inject({ method: 'GET', url: '/api/health' }))).toEqual({ status: 'ok' });
    const as = await apiAs(t.app);
    const health = (who: 'Admin' | 'Staff') =>
      t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { authorization: `Bearer ${as.tokens[who]}` },
      });
    expect(json(await health('Staff'))).toEqual({ status: 'ok' });
    expect(json(await health('Admin'))).toEqual({ status: 'ok', db: 'pglite', broker: 'embedded' });
  });

  it('serves OpenAPI docs generated from the zod schemas', async () => {
    const spec = json<{ paths: Record<string, unknown> }>(
      await t.app.inject({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth/signin', '/api/v1/users/getSidebarData']),
    );
    expect(JSON.stringify(spec.paths['/api/v1/auth/signin'])).toContain('password');
  });

  it('answers breadcrumb names and detail routes, countries and selects', async () => {
    const { token } = await signInAs(t.app, demoEmails.Staff);
    const get = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const config = json<{ routes: Record<string, { names: string[]; parents: string[] }> }>(
      await get('/api/v1/globalConfigs/getPermissionsConfig'),
    );
    expect(config.routes['/product/staging-products']).toEqual({
      names: ['Products', 'Staging Products', 'Product Details'],
      parents: ['/products/staging-products'],
    });
    expect(config.routes['/permission/UserPermission']?.names).toEqual([
      'Administration',
      'Manage Staff',
      'User Permissions',
    ]);
    const countries = json<{ result: { code: string; name: string }[] }>(
      await get('/api/v1/globalConfigs/getCountriesList'),
    );
    expect(countries.result).toContainEqual({ code: 'IN', name: 'India' });
    expect(countries.result.length).toBeGreaterThan(200);
    const selects = json<Record<string, unknown[]>>(
      await get('/api/v1/globalConfigs/getDefaultSelects?source=currencies'),
    );
    expect(Object.keys(selects)).toEqual(['currencies']);
    expect((await get('/api/v1/globalConfigs/getDefaultSelects?source=planets')).statusCode).toBe(400);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({
      message: 'No such API route.',
      code: 'NOT_FOUND',
    });
  });
});
