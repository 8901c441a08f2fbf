// Who may call each tags route, on PGlite and PostgreSQL: every route of the module against every kind
// of caller. The Manage Tags permission decides (Admin: everything, publish included; Staff: view,
// create, edit, delete, export; sellers: view); the draft is for staff and admins only, so a seller's
// read of it is refused like a missing permission; a blocked seller reaches nothing; nobody is let in
// without a token. What each allowed call does is tested in tags.test.ts; here a missing tag answers
// 404 and a stale or missing body 400 or 409, never 401 or 403.
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

const API = '/api/v1/tags';
const NONE = '00000000-0000-4000-8000-000000000000';

interface RouteCase {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  action: RouteAction;
  body?: Record<string, unknown>;
  /** Reads or changes the draft: staff and admins only. */
  draft?: boolean;
}

const routes: RouteCase[] = [
  { method: 'GET', url: '/state', action: 'view' },
  { method: 'GET', url: '/trees/draft/children', action: 'view', draft: true },
  { method: 'GET', url: '/trees/latest/children', action: 'view' },
  { method: 'GET', url: '/trees/draft/search?query=shirt', action: 'view', draft: true },
  { method: 'GET', url: '/trees/latest/search?query=shirt', action: 'view' },
  { method: 'GET', url: '/trees/draft/all', action: 'view', draft: true },
  { method: 'GET', url: '/trees/1/all', action: 'view' },
  { method: 'GET', url: `/trees/draft/nodes/${NONE}`, action: 'view', draft: true },
  { method: 'GET', url: `/trees/latest/nodes/${NONE}`, action: 'view' },
  { method: 'POST', url: '/draft/nodes', action: 'create', body: {}, draft: true },
  {
    method: 'PATCH',
    url: `/draft/nodes/${NONE}`,
    action: 'edit',
    body: { version: 1, name: 'X' },
    draft: true,
  },
  {
    method: 'POST',
    url: `/draft/nodes/${NONE}/move`,
    action: 'edit',
    body: { version: 1, parentId: null },
    draft: true,
  },
  { method: 'GET', url: `/draft/nodes/${NONE}/deleteImpact`, action: 'delete', draft: true },
  { method: 'POST', url: `/draft/nodes/${NONE}/delete`, action: 'delete', body: { version: 1 }, draft: true },
  { method: 'GET', url: `/draft/nodes/${NONE}/history`, action: 'view', draft: true },
  { method: 'POST', url: '/calculateLevels', action: 'edit', draft: true },
  { method: 'GET', url: '/publishPreview', action: 'view', draft: true },
  { method: 'POST', url: '/publish', action: 'publish', body: { draftRevision: -1 } },
  { method: 'POST', url: '/rollback', action: 'publish', body: { version: 999, draftRevision: 0 } },
  { method: 'GET', url: '/versions', action: 'view' },
  { method: 'GET', url: '/versions/1', action: 'view' },
  { method: 'GET', url: '/diff?from=1&to=2', action: 'view' },
  { method: 'GET', url: '/diff?from=1&to=draft', action: 'view', draft: true },
  { method: 'GET', url: '/history', action: 'view', draft: true },
  { method: 'GET', url: '/overview', action: 'view', draft: true },
  { method: 'POST', url: '/export', action: 'export', body: { source: 1, format: 'csv' } },
];

/** The Manage Tags actions each role has by default (contracts/routes.ts). */
const actionsOf: Record<Exclude<DemoRole, 'Blocked'>, RouteAction[]> = {
  Admin: ['view', 'create', 'edit', 'delete', 'export', 'publish'],
  Staff: ['view', 'create', 'edit', 'delete', 'export'],
  Seller: ['view'],
  Kyc: ['view'],
};
const isSeller = (who: DemoRole) => who === 'Seller' || who === 'Kyc';

/** The OpenAPI path of a case: `/trees/draft/children` → `/trees/{source}/children`. */
const templateOf = (url: string) =>
  (url.split('?')[0] as string)
    .replace(/^\/trees\/[^/]+/, '/trees/{source}')
    .replace(NONE, '{id}')
    .replace(/^\/versions\/\d+$/, '/versions/{number}');

describe.each(testBackends)('tags API access on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t?.close());

  it('covers every route of the module', () => {
    const spec = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith(`${API}/`))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.slice(API.length)}`),
      );
    const listed = new Set(routes.map((route) => `${route.method} ${templateOf(route.url)}`));
    expect([...listed].sort()).toEqual([...new Set(served)].sort());
  });

  it.each(routes)('$method $url', async (route) => {
    const url = `${API}${route.url}`;
    const anonymous = await t.app.inject({ method: route.method, url, payload: route.body });
    expect(anonymous.statusCode, 'without a token').toBe(401);

    const blocked = await as('Blocked', route.method, url, route.body);
    expect(blocked.statusCode, 'a blocked seller').toBe(403);

    for (const [who, actions] of Object.entries(actionsOf) as [keyof typeof actionsOf, RouteAction[]][]) {
      const response = await as(who, route.method, url, route.body);
      const refused = !actions.includes(route.action) || (route.draft === true && isSeller(who));
      if (refused) {
        expect(response.statusCode, `${who}: ${response.body}`).toBe(403);
      } else {
        expect([401, 403], `${who}: ${response.statusCode} ${response.body}`).not.toContain(
          response.statusCode,
        );
        expect(response.statusCode, `${who}: ${response.body}`).toBeLessThan(500);
      }
    }
  });
});
