// The Settings page's shop search (GET /settings/sellers): admins and staff find a shop by name or code
// a few at a time, or name one by id; a seller, whose settings are their own shop's, finds only it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellers } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';

const API = '/api/v1/settings/sellers';
type Options = { result: { value: string; label: string }[] };

describe.each(testBackends)('settings shop search on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let demoId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [demo] = await t.database.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.sellerCode, 'SEL-0001'));
    demoId = demo?.id as string;
  });
  afterAll(() => t.close());

  it('finds shops by name or code for admins and staff, a page at a time', async () => {
    const byName = json<Options>(await as('Admin', 'GET', `${API}?q=demo%20seller`));
    expect(byName.result).toContainEqual({ value: demoId, label: 'Demo Seller Store' });
    const byCode = json<Options>(await as('Staff', 'GET', `${API}?q=SEL-0001`));
    expect(byCode.result).toEqual([{ value: demoId, label: 'Demo Seller Store' }]);
    const first = json<Options>(await as('Admin', 'GET', `${API}?limit=2`));
    expect(first.result).toHaveLength(2);
    // A page is a few shops: the whole list is never asked for.
    expect((await as('Admin', 'GET', `${API}?limit=51`)).statusCode).toBe(400);
  });

  it('names a linked shop by its id', async () => {
    const named = json<Options>(await as('Admin', 'GET', `${API}?ids=${demoId}`));
    expect(named.result).toEqual([{ value: demoId, label: 'Demo Seller Store' }]);
  });

  it("gives a seller, whose settings are their own shop's, that shop alone", async () => {
    const own = json<Options>(await as('Seller', 'GET', `${API}?limit=50`));
    expect(own.result).toEqual([{ value: demoId, label: 'Demo Seller Store' }]);
    const everyone = json<Options>(await as('Admin', 'GET', `${API}?limit=50`));
    const other = everyone.result.find((option) => option.value !== demoId);
    expect(other).toBeDefined();
    // Named by id, another shop is not found either.
    const named = json<Options>(await as('Seller', 'GET', `${API}?ids=${other?.value}`));
    expect(named.result).toEqual([]);
  });
});
