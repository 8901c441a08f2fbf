// Who may call each Contacts route, on PGlite and PostgreSQL: the Contacts permission decides (Admin:
// everything; Staff: view, create, edit, import, export — not delete; sellers: nothing, so every route
// answers them 403), and nobody is let in without a token. What each allowed call does is tested in
// contacts.test.ts; here a missing contact answers 404 and a bad body 400, never 401 or 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteAction } from '../../../contracts/routes';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  type TestApp,
  testBackends,
} from '../../test-support';

const API = '/api/v1/contacts';
const NONE = '00000000-0000-4000-8000-000000000000';

const routes: { method: 'GET' | 'POST' | 'PUT'; url: string; action: RouteAction; body?: object }[] = [
  { method: 'GET', url: '', action: 'view' },
  { method: 'GET', url: '/queryFields', action: 'view' },
  { method: 'POST', url: '', action: 'create', body: {} },
  // A filter that is no query: allowed callers get 400 and no job starts.
  { method: 'POST', url: '/export', action: 'export', body: { query: 'x' } },
  { method: 'GET', url: `/${NONE}`, action: 'view' },
  { method: 'PUT', url: `/${NONE}`, action: 'edit', body: { email: 'a@b.co', version: 1 } },
  { method: 'POST', url: `/${NONE}/delete`, action: 'delete', body: { version: 1 } },
  { method: 'POST', url: `/${NONE}/unsubscribe`, action: 'edit', body: { version: 1 } },
  { method: 'POST', url: `/${NONE}/resubscribe`, action: 'edit', body: { version: 1 } },
  { method: 'GET', url: `/${NONE}/history`, action: 'view' },
  { method: 'GET', url: '/companyTypes', action: 'view' },
  { method: 'POST', url: '/companyTypes', action: 'edit', body: {} },
  { method: 'PUT', url: `/companyTypes/${NONE}`, action: 'edit', body: { name: 'X' } },
  { method: 'POST', url: `/companyTypes/${NONE}/delete`, action: 'edit' },
  { method: 'GET', url: '/leadImports', action: 'import' },
  { method: 'GET', url: `/leadImports/${NONE}`, action: 'import' },
  { method: 'POST', url: `/leadImports/${NONE}/start`, action: 'import', body: {} },
  { method: 'POST', url: `/leadImports/${NONE}/discard`, action: 'import' },
  { method: 'GET', url: `/leadImports/${NONE}/rows`, action: 'import' },
  { method: 'POST', url: `/leadImports/${NONE}/errorSheet`, action: 'import', body: {} },
];

const actionsOf: Record<Exclude<DemoRole, 'Blocked'>, RouteAction[]> = {
  Admin: ['view', 'create', 'edit', 'delete', 'import', 'export', 'publish'],
  Staff: ['view', 'create', 'edit', 'import', 'export'],
  Seller: [],
  Kyc: [],
};

describe.each(testBackends)('who may call the contacts routes on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t?.close());

  it('answers every route by the Contacts permission; sellers get 403 everywhere', async () => {
    for (const route of [
      ...routes,
      {
        method: 'GET' as const,
        url: `/../helperQuery/method/getContactHistory/${NONE}`,
        action: 'view' as const,
      },
    ]) {
      const url = route.url.startsWith('/..') ? `/api/v1${route.url.slice(3)}` : `${API}${route.url}`;
      for (const who of Object.keys(actionsOf) as (keyof typeof actionsOf)[]) {
        const response = await as(who, route.method, url, route.body);
        const label = `${who} ${route.method} ${url}: ${response.body}`;
        if (actionsOf[who].includes(route.action))
          expect([401, 403], label).not.toContain(response.statusCode);
        else expect(response.statusCode, label).toBe(403);
      }
      const anonymous = await t.app.inject({ method: route.method, url, payload: route.body });
      expect(anonymous.statusCode, `anonymous ${url}`).toBe(401);
    }
  });

  it('refuses a multipart upload to sellers before reading it', async () => {
    const response = await as('Seller', 'POST', `${API}/leadImports`, 'x', {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(response.statusCode).toBe(403);
  });
});
