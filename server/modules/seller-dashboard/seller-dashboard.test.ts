import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerDashboard } from '../../../contracts/seller-dashboard';
import { chatSessions, customerQueries, products, sellers } from '../../db/schema';
import { DEMO_KYC_REJECTION_REASON } from '../../seed/sellers';
import { DEMO_KYC_SELLER_DAYS_LEFT, DEMO_SELLER_FIGURES } from '../../seed/subscriptions';
import { createTestApp, demoEmails, json, signInAs, type TestApp, testBackends } from '../../test-support';
import { productKeys } from '../products/product-keys';

const URL = '/api/v1/sellers/getSellerDashboard';

describe.each(testBackends)('seller dashboard on %s', (backend) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp({ backend });
    for (const [who, email] of Object.entries(demoEmails)) tokens[who] = (await signInAs(t.app, email)).token;
  });
  afterAll(() => t.close());

  const get = (who: string, url = URL) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } });
  const put = (who: string, url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, payload, headers: { authorization: `Bearer ${tokens[who]}` } });
  const sellerId = async (email: string) =>
    (await t.database.db.select({ id: sellers.id }).from(sellers).where(eq(sellers.email, email)))[0]!.id;

  it("shows the demo seller's profile and the seeded figures", async () => {
    const response = await get('Seller');
    expect(response.statusCode).toBe(200);
    const body = json<SellerDashboard>(response);
    expect(body).toMatchObject({ sellerCode: 'SEL-0001', sellerName: 'Demo Seller Store', blocked: false });
    const { products: p, queries: q, chats: c } = DEMO_SELLER_FIGURES;
    expect(body.products).toEqual({ total: Object.values(p).reduce((a, b) => a + b, 0), byStatus: p });
    expect(body.queries).toEqual({
      total: Object.values(q).reduce((a, b) => a + b, 0),
      unresolved: q.new + q.open + q.waiting,
      byStatus: q,
    });
    // SPEC §2: the demo seller's dashboard counts "Open queries 3".
    expect(body.queries.unresolved).toBe(3);
    expect(body.chats).toEqual({
      open: c.open,
      connectRequests: c.connectRequests,
      unreadMessages: c.unreadMessages,
    });
    expect(body.subscription).toMatchObject({
      state: 'Active',
      plan: { name: 'Quarterly' },
      daysLeft: DEMO_SELLER_FIGURES.subscriptionDaysLeft,
    });
  });

  it('tells the seller where they stand in verification, and why their KYC was rejected', async () => {
    expect(json<SellerDashboard>(await get('Seller'))).toMatchObject({
      status: 'Active',
      kycRejectionReason: null,
    });
    const kyc = json<SellerDashboard>(await get('Kyc'));
    expect(kyc).toMatchObject({
      sellerName: 'Kesar Crafts',
      status: 'Pending KYC',
      isActive: false,
      isEmailVerified: true,
      isKycDone: false,
      blocked: false,
      kycRejectionReason: DEMO_KYC_REJECTION_REASON,
      products: { total: 0 },
      subscription: { state: 'Active', daysLeft: DEMO_KYC_SELLER_DAYS_LEFT },
    });

    const id = await sellerId(demoEmails.Kyc);
    const status = (action: string, reason?: string) =>
      put('Admin', `/api/v1/sellers/updateSellerStatusById/${id}`, { action, reason });
    try {
      // A new rejection: the seller reads the admin's words exactly as written.
      expect((await status('rejectKyc', '<b>Address proof</b> has expired')).statusCode).toBe(200);
      expect(json<SellerDashboard>(await get('Kyc'))).toMatchObject({
        status: 'Pending KYC',
        kycRejectionReason: '<b>Address proof</b> has expired',
      });
      // Approval makes the seller active and the reason goes with it.
      expect((await status('approveKyc')).statusCode).toBe(200);
      expect(json<SellerDashboard>(await get('Kyc'))).toMatchObject({
        status: 'Active',
        isKycDone: true,
        kycRejectionReason: null,
      });
      // Paused by the seller: Inactive, which the dashboard says too.
      expect(
        (await put('Kyc', '/api/v1/sellers/updateStatusBySeller', { action: 'deactivate' })).statusCode,
      ).toBe(200);
      expect(json<SellerDashboard>(await get('Kyc')).status).toBe('Inactive');
    } finally {
      await t.database.db
        .update(sellers)
        .set({ isActive: false, isKycDone: false, kycRejectionReason: DEMO_KYC_REJECTION_REASON })
        .where(eq(sellers.id, id));
    }
  });

  it("counts only the seller's own rows, whatever other sellers have", async () => {
    const blockedId = await sellerId(demoEmails.Blocked);
    const db = t.database.db;
    // Another seller's fresh activity must not move the demo seller's numbers.
    await db
      .insert(products)
      .values({ sellerId: blockedId, ...productKeys('Other', 'OTHER-1'), status: 'live' });
    await db.insert(customerQueries).values({
      sellerId: blockedId,
      customerName: 'X',
      email: 'x@example.com',
      subject: 'S',
      message: 'M',
    });
    await db.insert(chatSessions).values({
      sessionId: 'other-seller-chat',
      sellerId: blockedId,
      email: 'v@example.com',
      newMessagesCount: 9,
    });
    const body = json<SellerDashboard>(await get('Seller'));
    expect(body.products.byStatus.live).toBe(DEMO_SELLER_FIGURES.products.live);
    expect(body.queries.byStatus.open).toBe(DEMO_SELLER_FIGURES.queries.open);
    expect(body.chats.unreadMessages).toBe(DEMO_SELLER_FIGURES.chats.unreadMessages);
    // A query string cannot point it at another seller: the seller comes from the token only.
    const tampered = json<SellerDashboard>(await get('Seller', `${URL}?sellerId=${blockedId}`));
    expect(tampered.sellerCode).toBe('SEL-0001');

    // Once unblocked, the other seller sees exactly their own.
    await db.update(sellers).set({ blocked: false }).where(eq(sellers.id, blockedId));
    try {
      const other = json<SellerDashboard>(await get('Blocked'));
      expect(other.sellerCode).toBe('SEL-0002');
      expect(other.products).toEqual({
        total: 5,
        byStatus: { draft: 1, in_review: 1, approved: 0, live: 3, rejected: 0, inactive: 0 },
      });
      // The seeded open query and the one above (new): both not yet resolved.
      expect(other.queries.byStatus.open).toBe(1);
      expect(other.queries.unresolved).toBe(2);
      expect(other.chats).toEqual({ open: 2, connectRequests: 1, unreadMessages: 13 });
      expect(other.subscription.state).toBe('Expired');
      expect(other.subscription.daysLeft).toBe(0);
    } finally {
      await db.update(sellers).set({ blocked: true }).where(eq(sellers.id, blockedId));
    }
  });

  it('is closed to a blocked seller and to admins and staff', async () => {
    const blocked = await get('Blocked');
    expect(blocked.statusCode).toBe(403);
    expect(json(blocked).code).toBe('SELLER_BLOCKED');
    for (const who of ['Admin', 'Staff']) {
      const response = await get(who);
      expect(response.statusCode, who).toBe(403);
      expect(json(response).code, who).toBe('FORBIDDEN');
    }
  });
});
