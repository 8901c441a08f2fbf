import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../contracts/audit';
import {
  nextSellerStatus,
  type SellerStatusAction,
  sellerStatusActions,
} from '../../../contracts/seller-admin';
import { type Seller, type SellerStatus, sellerStatuses } from '../../../contracts/sellers';
import { sellers } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { demoSellerId, newSellerBody } from './test-helpers';

const BASE = '/api/v1/sellers';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The admin actions that bring a new seller to each status. */
const pathTo: Record<SellerStatus, SellerStatusAction[]> = {
  'Pending Verification': [],
  'Pending KYC': ['verifyEmail'],
  Active: ['verifyEmail', 'approveKyc'],
  Inactive: ['verifyEmail', 'approveKyc', 'deactivate'],
};

describe.each(testBackends)('seller lifecycle API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const setStatus = (id: string, action: SellerStatusAction, reason?: string) =>
    as('Admin', 'PUT', `${BASE}/updateSellerStatusById/${id}`, { action, reason });

  const sellerIn = async (status: SellerStatus): Promise<Seller> => {
    const created = await as('Admin', 'POST', `${BASE}/createNewSeller`, newSellerBody());
    let seller = json<Seller>(created);
    for (const action of pathTo[status]) {
      const response = await setStatus(seller.id, action, 'because');
      expect(response.statusCode, response.body).toBe(200);
      seller = json<Seller>(response);
    }
    expect(seller.status).toBe(status);
    return seller;
  };
  const history = async (id: string) =>
    json<AuditPage>(await as('Admin', 'GET', `${BASE}/getUpdateHistory/${id}`));

  const pairs = sellerStatuses.flatMap((status) =>
    sellerStatusActions.map((action) => [status, action] as const),
  );

  it.each(pairs)('%s --%s--> as the table says', async (status, action) => {
    const seller = await sellerIn(status);
    const before = (await history(seller.id)).count;
    const response = await setStatus(
      seller.id,
      action,
      action === 'rejectKyc' ? 'Blurred PAN card' : undefined,
    );
    const to = nextSellerStatus(status, action);
    if (to === null) {
      expect(response.statusCode).toBe(409);
      expect(json(response)).toEqual({
        message: expect.stringMatching(new RegExp(`^Cannot .+ a seller who is ${status}\\.$`)),
        code: 'INVALID_TRANSITION',
      });
      // Refused: nothing changed, nothing recorded.
      const [row] = await t.database.db.select().from(sellers).where(eq(sellers.id, seller.id));
      expect(row?.updatedAt.toISOString()).toBe(seller.updatedAt);
      expect((await history(seller.id)).count).toBe(before);
      return;
    }
    expect(response.statusCode, response.body).toBe(200);
    const after = json<Seller>(response);
    expect(after.status).toBe(to);
    const [entry] = (await history(seller.id)).result;
    expect(entry?.action).toBe('status');
    expect(entry?.actor.name).toBe('Asha Admin');
    expect(entry?.changes[0]).toEqual({ field: 'status', before: status, after: to });
    if (action === 'rejectKyc') {
      expect(after.kycRejectionReason).toBe('Blurred PAN card');
      expect(entry?.note).toBe('Blurred PAN card');
      expect(entry?.changes).toContainEqual({
        field: 'kycRejectionReason',
        before: null,
        after: 'Blurred PAN card',
      });
    }
  });

  it('records exactly the flags that changed', async () => {
    const seller = await sellerIn('Pending KYC');
    await setStatus(seller.id, 'approveKyc');
    const [entry] = (await history(seller.id)).result;
    expect(entry?.changes).toEqual([
      { field: 'status', before: 'Pending KYC', after: 'Active' },
      { field: 'isActive', before: false, after: true },
      { field: 'isKycDone', before: false, after: true },
    ]);
  });

  it('a KYC rejection stays visible until KYC is approved', async () => {
    const seller = await sellerIn('Pending KYC');
    await setStatus(seller.id, 'rejectKyc', 'Address proof expired');
    const detail = json<Seller>(await as('Admin', 'GET', `${BASE}/getSellersById/${seller.id}`));
    expect(detail).toMatchObject({ status: 'Pending KYC', kycRejectionReason: 'Address proof expired' });
    const approved = json<Seller>(await setStatus(seller.id, 'approveKyc'));
    expect(approved).toMatchObject({ status: 'Active', kycRejectionReason: null });
  });

  it('needs a reason to reject KYC', async () => {
    const seller = await sellerIn('Pending KYC');
    for (const reason of [undefined, '   ']) {
      const response = await setStatus(seller.id, 'rejectKyc', reason);
      expect(response.statusCode).toBe(400);
      expect(json<{ message: string }>(response).message).toContain('reason');
    }
  });

  it('answers 400 for an unknown action or malformed id, 404 for an unknown seller', async () => {
    const seller = await sellerIn('Active');
    expect(
      (await as('Admin', 'PUT', `${BASE}/updateSellerStatusById/${seller.id}`, { action: 'ban' })).statusCode,
    ).toBe(400);
    expect((await setStatus('123', 'activate')).statusCode).toBe(400);
    expect((await setStatus(UNKNOWN_ID, 'activate')).statusCode).toBe(404);
  });

  it('needs the approve action: staff and sellers get 403', async () => {
    const seller = await sellerIn('Pending Verification');
    for (const who of ['Staff', 'Seller'] as const) {
      const response = await as(who, 'PUT', `${BASE}/updateSellerStatusById/${seller.id}`, {
        action: 'verifyEmail',
      });
      expect(response.statusCode).toBe(403);
    }
  });

  it('two admins racing on the same seller: one wins, the other gets 409', async () => {
    const seller = await sellerIn('Pending Verification');
    const answers = await Promise.all([
      setStatus(seller.id, 'verifyEmail'),
      setStatus(seller.id, 'verifyEmail'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await history(seller.id)).result.filter((e) => e.action === 'status')).toHaveLength(1);
  });

  describe('updateStatusBySeller', () => {
    const bySeller = (who: 'Seller' | 'Admin' | 'Staff', action: string) =>
      as(who, 'PUT', `${BASE}/updateStatusBySeller`, { action });

    it('lets a seller pause and resume their own shop, recorded with the seller as actor', async () => {
      const id = await demoSellerId(t, 'seller@demo.local');
      const paused = await bySeller('Seller', 'deactivate');
      expect(paused.statusCode).toBe(200);
      expect(json<Seller>(paused)).toMatchObject({ id, status: 'Inactive' });
      expect((await bySeller('Seller', 'deactivate')).statusCode).toBe(409);
      const resumed = await bySeller('Seller', 'activate');
      expect(json<Seller>(resumed)).toMatchObject({ id, status: 'Active' });
      const [entry] = (await history(id)).result;
      expect(entry).toMatchObject({
        action: 'status',
        actor: { name: 'Sunil Seller' },
        note: 'Resumed by the seller',
      });
    });

    it.each(['verifyEmail', 'approveKyc', 'rejectKyc'])('refuses %s with 409', async (action) => {
      const response = await bySeller('Seller', action);
      expect(response.statusCode).toBe(409);
      expect(json(response)).toMatchObject({ code: 'INVALID_TRANSITION' });
    });

    it('is for sellers: admins and staff get 403', async () => {
      expect((await bySeller('Admin', 'activate')).statusCode).toBe(403);
      expect((await bySeller('Staff', 'activate')).statusCode).toBe(403);
    });

    it('a seller still pending cannot activate themself', async () => {
      const id = await demoSellerId(t, 'blocked@demo.local');
      await t.database.db
        .update(sellers)
        .set({ isActive: false, isKycDone: false, blocked: false })
        .where(eq(sellers.id, id));
      const response = await as('Blocked', 'PUT', `${BASE}/updateStatusBySeller`, { action: 'activate' });
      expect(response.statusCode, response.body).toBe(409);
      expect(json(response)).toEqual({
        message: 'Cannot activate a seller who is Pending KYC.',
        code: 'INVALID_TRANSITION',
      });
    });
  });
});
