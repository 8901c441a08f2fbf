// Who may call each imports route, on PGlite and PostgreSQL: every route of the module against every
// kind of caller. The Imports permission's actions decide (Admin: view, import, export, edit; Staff and
// sellers: view, import); a seller whose subscription is blocked reaches none; import requests are
// handled by staff only; nobody is let in without a token. What each allowed call then does is tested
// in imports.test.ts; here a missing id answers 404 and a missing body 400, never 401 or 403.
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

const API = '/api/v1/imports';
const NONE = '00000000-0000-4000-8000-000000000000';

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  action: RouteAction;
  body?: Record<string, unknown>;
  /** Handled by staff and admins only, whatever a seller's permissions say. */
  staffOnly?: boolean;
}

const routes: RouteCase[] = [
  { method: 'GET', url: '/listImports', action: 'view' },
  { method: 'GET', url: '/searchImports?query=x', action: 'view' },
  { method: 'GET', url: `/getImport/${NONE}`, action: 'view' },
  { method: 'GET', url: '/searchBatches', action: 'view' },
  { method: 'GET', url: `/getBatchReport?batch=${NONE}`, action: 'view' },
  { method: 'GET', url: '/mappingTargets', action: 'view' },
  { method: 'POST', url: '/uploadCatalogSheet', action: 'import' },
  { method: 'POST', url: '/reprocessBatch', action: 'import', body: { batch: NONE } },
  { method: 'POST', url: '/stopBatch', action: 'import', body: { batch: NONE } },
  { method: 'POST', url: '/resumeBatch', action: 'import', body: { batch: NONE } },
  { method: 'POST', url: `/moveToStaging?batch=${NONE}`, action: 'import' },
  { method: 'POST', url: `/moveToStagingOnlyPricingAndInventory?batch=${NONE}`, action: 'import' },
  { method: 'POST', url: `/mergeDuplicatesToStaging?batch=${NONE}`, action: 'import' },
  // SPEC §7's GETs of the moves and of addImportProductsApi, beside the POSTs.
  { method: 'GET', url: `/moveToStaging?batch=${NONE}`, action: 'import' },
  { method: 'GET', url: `/moveToStagingOnlyPricingAndInventory?batch=${NONE}`, action: 'import' },
  { method: 'GET', url: `/mergeDuplicatesToStaging?batch=${NONE}`, action: 'import' },
  { method: 'GET', url: '/addImportProductsApi?feedUrl=x', action: 'import' },
  { method: 'GET', url: `/markInactive?batch=${NONE}`, action: 'import' },
  { method: 'POST', url: '/markInactive', action: 'import', body: { batch: NONE, expected: 0 } },
  { method: 'POST', url: '/getSuggestedTitles', action: 'view', body: { batch: NONE } },
  { method: 'POST', url: '/applySuggestedTitles', action: 'import', body: { batch: NONE } },
  { method: 'GET', url: '/titleTemplate', action: 'view' },
  { method: 'PUT', url: '/titleTemplate', action: 'edit', body: {} },
  { method: 'POST', url: '/exportBatchErrors', action: 'import', body: { batch: NONE } },
  { method: 'GET', url: `/getImportUpdateHistory/${NONE}`, action: 'view' },
  { method: 'GET', url: '/sampleSheet', action: 'view' },
  { method: 'GET', url: '/listImportRequests', action: 'view' },
  { method: 'POST', url: '/addImportProductsApi', action: 'import', body: {} },
  { method: 'POST', url: `/takeImportRequest/${NONE}`, action: 'import', staffOnly: true },
  {
    method: 'POST',
    url: `/updateImportRequest/${NONE}`,
    action: 'import',
    body: { status: 'done' },
    staffOnly: true,
  },
  { method: 'POST', url: `/importFromRequest/${NONE}`, action: 'import', staffOnly: true },
  { method: 'GET', url: `/getImportRequest/${NONE}`, action: 'view' },
  { method: 'GET', url: `/getRequestUpdateHistory/${NONE}`, action: 'view' },
  { method: 'GET', url: `/downloadRequestFile/${NONE}`, action: 'view' },
];

/** The Imports actions each role has by default (contracts/routes.ts). */
const actionsOf: Record<Exclude<DemoRole, 'Blocked'>, RouteAction[]> = {
  Admin: ['view', 'import', 'export', 'edit'],
  Staff: ['view', 'import'],
  Seller: ['view', 'import'],
  Kyc: ['view', 'import'],
};
const isSeller = (who: DemoRole) => who === 'Seller' || who === 'Kyc';

describe.each(testBackends)('imports API access on %s', (backend) => {
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
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace('{id}', ':id')}`),
      );
    const listed = routes.map(
      (route) => `${route.method} ${API}${route.url.split('?')[0]?.replace(NONE, ':id')}`,
    );
    expect(listed.sort()).toEqual(served.sort());
  });

  it.each(routes)('$method $url', async (route) => {
    const url = `${API}${route.url}`;
    const anonymous = await t.app.inject({ method: route.method, url, payload: route.body });
    expect(anonymous.statusCode, 'without a token').toBe(401);

    const blocked = await as('Blocked', route.method, url, route.body);
    expect(blocked.statusCode, 'a blocked seller').toBe(403);
    // A blocked seller is held back unless the route is not a seller's at all.
    expect(blocked.json().code).toBe(
      actionsOf.Seller.includes(route.action) ? 'SELLER_BLOCKED' : 'FORBIDDEN',
    );

    for (const [who, actions] of Object.entries(actionsOf) as [keyof typeof actionsOf, RouteAction[]][]) {
      const response = await as(who, route.method, url, route.body);
      const refused = !actions.includes(route.action) || (route.staffOnly === true && isSeller(who));
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
