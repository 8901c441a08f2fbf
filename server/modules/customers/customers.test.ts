import { type and, eq, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer, CustomerList } from '../../../contracts/customers';
import { customers, sellers } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const EDIT_ROUTE = '/sellers/seller-customers/customer-edit';

describe.each(testBackends)('customers on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let demoSellerId: string;
  let otherSellersCustomer: Customer;
  let ownCustomer: Customer;
  let directCustomer: Customer;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
    const [demo] = await t.database.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.email, demoEmails.Seller));
    demoSellerId = demo!.id;
    const byId = async (where: ReturnType<typeof and>) => {
      const [row] = await t.database.db.select({ id: customers.id }).from(customers).where(where).limit(1);
      return json<Customer>(await as('Admin', 'GET', `/api/v1/users/customers/${row!.id}`));
    };
    ownCustomer = await byId(eq(customers.sellerId, demoSellerId));
    otherSellersCustomer = await byId(ne(customers.sellerId, demoSellerId));
    directCustomer = await byId(isNull(customers.sellerId));
  });
  afterAll(() => t.close());

  const list = async (who: DemoRole, url: string) => {
    const response = await as(who, 'GET', url);
    expect(response.statusCode, `${who} ${url}: ${response.body}`).toBe(200);
    return json<CustomerList>(response);
  };
  const editBody = (customer: Customer, changes: Record<string, unknown> = {}) => ({
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    phone: customer.phone,
    address: customer.address,
    isActive: customer.isActive,
    ...changes,
  });

  it('puts the edit page under Customers in the breadcrumbs', async () => {
    const config = json<{ routes: Record<string, { names: string[] }> }>(
      await as('Admin', 'GET', '/api/v1/globalConfigs/getPermissionsConfig'),
    );
    expect(config.routes[EDIT_ROUTE]?.names).toEqual(['Sellers', 'Customers', 'Edit Customer']);
  });

  it('lists every customer to admins and staff, newest first, paged on the server', async () => {
    const all = await list('Admin', '/api/v1/users/listCustomers');
    expect(all.count).toBe(30);
    expect(all.rows).toHaveLength(10);
    const dates = all.rows.map((row) => row.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(all.rows.find((row) => row.sellerId === demoSellerId)?.sellerName).toBe('Demo Seller Store');
    const last = await list('Admin', '/api/v1/users/listCustomers?skip=25&limit=10');
    expect(last.rows).toHaveLength(5);
    expect(last.count).toBe(30);
    const everyone = await list('Staff', '/api/v1/users/listCustomers?limit=100');
    expect(everyone.rows).toHaveLength(30);
    expect(everyone.rows.filter((row) => row.sellerId === null).map((row) => row.sellerName)).toEqual(
      Array(6).fill(null),
    );
  });

  it('shows a seller only the customers of their own store', async () => {
    const own = await list('Seller', '/api/v1/users/listCustomers?limit=100');
    expect(own.count).toBe(12);
    expect(own.rows.every((row) => row.sellerId === demoSellerId)).toBe(true);
    // Searching for another seller's customer by e-mail finds nothing.
    const search = await list(
      'Seller',
      `/api/v1/users/searchCustomers?query=${encodeURIComponent(otherSellersCustomer.email)}`,
    );
    expect(search).toEqual({ rows: [], count: 0 });
    const direct = await list(
      'Seller',
      `/api/v1/users/searchCustomers?query=${encodeURIComponent(directCustomer.email)}`,
    );
    expect(direct.count).toBe(0);
  });

  it('searches name, e-mail and phone, case-insensitively and in part', async () => {
    const byEmail = await list(
      'Admin',
      `/api/v1/users/searchCustomers?query=${encodeURIComponent(ownCustomer.email.slice(0, 8).toUpperCase())}`,
    );
    expect(byEmail.rows.map((row) => row.id)).toContain(ownCustomer.id);
    const fullName = `${ownCustomer.firstName} ${ownCustomer.lastName}`.toLowerCase();
    const byName = await list('Admin', `/api/v1/users/searchCustomers?query=${encodeURIComponent(fullName)}`);
    expect(byName.rows.map((row) => row.id)).toContain(ownCustomer.id);
    expect(byName.rows.every((row) => `${row.firstName} ${row.lastName}`.toLowerCase() === fullName)).toBe(
      true,
    );
    const phonePart = ownCustomer.phone.slice(-5);
    const byPhone = await list(
      'Admin',
      `/api/v1/users/searchCustomers?query=${encodeURIComponent(phonePart)}`,
    );
    expect(byPhone.rows.map((row) => row.id)).toContain(ownCustomer.id);
    // Wildcards are literal characters, not patterns.
    expect((await list('Admin', '/api/v1/users/searchCustomers?query=%25')).count).toBe(0);
    // Paging applies to search as well.
    const paged = await list('Admin', '/api/v1/users/searchCustomers?query=demo.local&limit=7&skip=0');
    expect(paged.rows).toHaveLength(7);
    expect(paged.count).toBe(30);
  });

  it('validates list and search parameters', async () => {
    for (const url of [
      '/api/v1/users/listCustomers?limit=0',
      '/api/v1/users/listCustomers?limit=101',
      '/api/v1/users/listCustomers?skip=-3',
      '/api/v1/users/listCustomers?skip=abc',
      '/api/v1/users/searchCustomers',
      '/api/v1/users/searchCustomers?query=%20%20',
      `/api/v1/users/searchCustomers?query=${'q'.repeat(101)}`,
    ]) {
      expect((await as('Admin', 'GET', url)).statusCode, url).toBe(400);
    }
  });

  it('opens the edit page data to admins only by default', async () => {
    const url = `/api/v1/users/customers/${ownCustomer.id}`;
    expect((await as('Admin', 'GET', url)).statusCode).toBe(200);
    for (const who of ['Staff', 'Seller'] as const) {
      expect((await as(who, 'GET', url)).statusCode, who).toBe(403);
      expect((await as(who, 'PUT', url, editBody(ownCustomer))).statusCode, who).toBe(403);
    }
  });

  it('never hands a seller another seller’s customer by id, even with the edit right', async () => {
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/updateUserPermissions/${as.ids.Seller}`,
      headers: { authorization: `Bearer ${as.tokens.Admin}` },
      payload: { overrides: { [EDIT_ROUTE]: ['view', 'edit'] } },
    });
    try {
      expect((await as('Seller', 'GET', `/api/v1/users/customers/${ownCustomer.id}`)).statusCode).toBe(200);
      for (const other of [otherSellersCustomer, directCustomer]) {
        const read = await as('Seller', 'GET', `/api/v1/users/customers/${other.id}`);
        expect(read.statusCode).toBe(404);
        expect(json(read)).toEqual({ message: 'Customer not found', code: 'CUSTOMER_NOT_FOUND' });
        const write = await as(
          'Seller',
          'PUT',
          `/api/v1/users/customers/${other.id}`,
          editBody(other, { firstName: 'Hijacked' }),
        );
        expect(write.statusCode).toBe(404);
      }
      const unchanged = json<Customer>(
        await as('Admin', 'GET', `/api/v1/users/customers/${otherSellersCustomer.id}`),
      );
      expect(unchanged.firstName).toBe(otherSellersCustomer.firstName);
    } finally {
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/updateUserPermissions/${as.ids.Seller}`,
        headers: { authorization: `Bearer ${as.tokens.Admin}` },
        payload: { overrides: {} },
      });
    }
  });

  it('lets an admin edit name, contact details, address and the active flag', async () => {
    const url = `/api/v1/users/customers/${directCustomer.id}`;
    const address = {
      fullName: 'Zoya Khan',
      email: 'zoya@example.com',
      addressLine1: '7 Lake Road',
      addressLine2: '',
      city: 'Pune',
      state: 'Maharashtra',
      country: 'IN',
      zipcode: '411001',
    };
    const saved = await as(
      'Admin',
      'PUT',
      url,
      editBody(directCustomer, {
        firstName: '  Zoya ',
        lastName: 'Khan',
        email: 'Zoya.Khan@Example.com',
        phone: '+91 (20) 5555-0101',
        address,
        isActive: false,
      }),
    );
    expect(saved.statusCode).toBe(200);
    expect(json<Customer>(saved)).toMatchObject({
      id: directCustomer.id,
      firstName: 'Zoya',
      lastName: 'Khan',
      name: 'Zoya Khan',
      email: 'zoya.khan@example.com',
      phone: '+91 (20) 5555-0101',
      address,
      isActive: false,
      sellerId: null,
    });
    expect(json<Customer>(await as('Admin', 'GET', url)).isActive).toBe(false);
    // Saving the same e-mail again is not a clash with itself; the address can be removed.
    const again = await as(
      'Admin',
      'PUT',
      url,
      editBody(json<Customer>(saved), { address: null, phone: '' }),
    );
    expect(again.statusCode).toBe(200);
    expect(json<Customer>(again)).toMatchObject({ address: null, phone: '' });
  });

  it('refuses an e-mail another customer has (409), whatever its case', async () => {
    const response = await as(
      'Admin',
      'PUT',
      `/api/v1/users/customers/${ownCustomer.id}`,
      editBody(ownCustomer, { email: otherSellersCustomer.email.toUpperCase() }),
    );
    expect(response.statusCode).toBe(409);
    expect(json(response)).toEqual({
      message: 'Another customer already uses this e-mail address.',
      code: 'EMAIL_TAKEN',
    });
  });

  it('validates the edit: malformed id 400, unknown 404, bad or oversized fields 400', async () => {
    expect((await as('Admin', 'GET', '/api/v1/users/customers/not-a-uuid')).statusCode).toBe(400);
    expect((await as('Admin', 'GET', `/api/v1/users/customers/${UNKNOWN_ID}`)).statusCode).toBe(404);
    expect(
      (await as('Admin', 'PUT', `/api/v1/users/customers/${UNKNOWN_ID}`, editBody(ownCustomer))).statusCode,
    ).toBe(404);
    const url = `/api/v1/users/customers/${ownCustomer.id}`;
    const bad: Record<string, unknown>[] = [
      { firstName: '' },
      { firstName: 'n'.repeat(101) },
      { lastName: 'l'.repeat(101) },
      { email: 'not-an-email' },
      { email: `${'e'.repeat(250)}@x.io` },
      { phone: 'call me' },
      { phone: '1'.repeat(31) },
      { isActive: 'yes' },
      { address: { ...ownCustomer.address, city: 'c'.repeat(101) } },
      { address: { city: 'Pune' } },
    ];
    for (const changes of bad) {
      const response = await as('Admin', 'PUT', url, editBody(ownCustomer, changes));
      expect(response.statusCode, JSON.stringify(changes).slice(0, 80)).toBe(400);
      expect(json(response).code).toBe('VALIDATION_ERROR');
    }
    const unchanged = json<Customer>(await as('Admin', 'GET', url));
    expect(unchanged.firstName).toBe(ownCustomer.firstName);
  });
});
