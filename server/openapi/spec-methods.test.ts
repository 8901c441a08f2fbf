// SPEC §7's methods: the calls SPEC names as GET that change data are served as GET too (beside the
// POST or PUT), with the bearer token only — a cookie, a prefetch or a HEAD cannot trigger them — and
// listUsersByRole honours limitFields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Seller } from '../../contracts/sellers';
import { demoSellerId } from '../modules/sellers/test-helpers';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  json,
  signInAs,
  type TestApp,
  testBackends,
} from '../test-support';

const NONE = '6c1f4a52-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

describe.each(testBackends)('SPEC §7 methods on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t?.close());

  it('GET markSellerFree/{id}?isFree= marks a blocked seller free (unblocking them), answered uncached', async () => {
    const id = await demoSellerId(t, 'blocked@demo.local');
    const free = await as('Admin', 'GET', `/api/v1/sellers/markSellerFree/${id}?isFree=true`);
    expect(free.statusCode, free.body).toBe(200);
    expect(json<Seller>(free)).toMatchObject({ isFree: true, blocked: false });
    expect(free.headers['cache-control']).toBe('no-store');
    const paying = await as('Admin', 'GET', `/api/v1/sellers/markSellerFree/${id}?isFree=false`);
    expect(json<Seller>(paying)).toMatchObject({ isFree: false, blocked: false });

    expect((await as('Admin', 'GET', `/api/v1/sellers/markSellerFree/${id}?isFree=yes`)).statusCode).toBe(
      400,
    );
    expect((await as('Admin', 'GET', `/api/v1/sellers/markSellerFree/${id}`)).statusCode).toBe(400);
    expect((await as('Staff', 'GET', `/api/v1/sellers/markSellerFree/${id}?isFree=true`)).statusCode).toBe(
      403,
    );
  });

  it('does not let a cookie, an anonymous prefetch or a HEAD trigger a GET that changes data', async () => {
    const id = await demoSellerId(t, 'blocked@demo.local');
    const admin = await signInAs(t.app, 'admin@demo.local');
    const url = `/api/v1/sellers/markSellerFree/${id}?isFree=true`;
    // The browser sends the refresh cookie with any request to the site; it is not an access token.
    const withCookie = await t.app.inject({ method: 'GET', url, cookies: { mp_rt: admin.refreshCookie } });
    expect(withCookie.statusCode).toBe(401);
    expect(json(withCookie).code).toBe('TOKEN_MISSING');
    const head = await t.app.inject({
      method: 'HEAD',
      url,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(head.statusCode).toBe(404);
    const detail = await as('Admin', 'GET', `/api/v1/sellers/getSellersById/${id}`);
    expect(json<{ isFree: boolean }>(detail).isFree).toBe(false);
  });

  it('serves the three moves as GET with the same answers as POST', async () => {
    for (const call of [
      'moveToStaging',
      'moveToStagingOnlyPricingAndInventory',
      'mergeDuplicatesToStaging',
    ]) {
      const url = `/api/v1/imports/${call}?batch=${NONE}`;
      const viaGet = await as('Seller', 'GET', url);
      const viaPost = await as('Seller', 'POST', url);
      expect(viaGet.statusCode, call).toBe(404);
      expect(json(viaGet), call).toEqual(json(viaPost));
      expect((await as('Seller', 'GET', `/api/v1/imports/${call}?batch=nope`)).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('GET addImportProductsApi asks for a feed import; the request is listed', async () => {
    const feedUrl = 'http://127.0.0.1:9/spec-get-feed.csv';
    const asked = await as(
      'Seller',
      'GET',
      `/api/v1/imports/addImportProductsApi?feedUrl=${encodeURIComponent(feedUrl)}&note=nightly`,
    );
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.headers['cache-control']).toBe('no-store');
    const request = json<{ id: string }>(asked);
    const listed = json<{ result: { id: string }[] }>(
      await as('Seller', 'GET', '/api/v1/imports/listImportRequests'),
    );
    expect(listed.result.map((entry) => entry.id)).toContain(request.id);
    expect((await as('Seller', 'GET', '/api/v1/imports/addImportProductsApi')).statusCode).toBe(400);
  });

  it('listUsersByRole answers only the fields limitFields names (id always), and refuses unknown ones', async () => {
    const all = json<{ rows: Record<string, unknown>[] }>(
      await as('Admin', 'GET', '/api/v1/users/listUsersByRole?role=Staff'),
    );
    expect(Object.keys(all.rows[0] ?? {}).sort()).toEqual(['email', 'id', 'role', 'username']);
    const limited = await as(
      'Admin',
      'GET',
      '/api/v1/users/listUsersByRole?role=Staff&limitFields=username,email',
    );
    expect(limited.statusCode, limited.body).toBe(200);
    const rows = json<{ rows: Record<string, unknown>[]; count: number }>(limited).rows;
    expect(rows.length).toBe(all.rows.length);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['email', 'id', 'username']);
    const unknown = await as('Admin', 'GET', '/api/v1/users/listUsersByRole?limitFields=passwordHash');
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown).message).toMatch(/limitFields/);
  });
});
