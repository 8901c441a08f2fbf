import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DecideRenewalResult,
  EXPIRING_SOON_DAYS,
  type Plan,
  type RenewalRequest,
  type RequestRenewalResult,
  type SellerSubscriptions,
  type SubscriptionRow,
  subscriptionState,
  subscriptionStateKeyList,
  subscriptionStateKeys,
} from '../../../contracts/subscriptions';
import { auditEntries, sellers, subscriptionRequests, users } from '../../db/schema';
import { DEMO_SELLER_FIGURES } from '../../seed/subscriptions';
import { apiAs, createTestApp, demoEmails, json, testBackends } from '../../test-support';

const BASE = '/api/v1/subscriptionManager';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const DAY_MS = 86_400_000;

async function setup(backend: 'pglite' | 'postgres') {
  const t = await createTestApp({ backend });
  const as = await apiAs(t.app);
  const sellerIdOf = async (email: string) => {
    const [row] = await t.database.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.email, email));
    return row!.id;
  };
  const plans = json<{ result: Plan[] }>(await as('Seller', 'GET', `${BASE}/getSubscriptionPlans`)).result;
  const plan = (name: string) => plans.find((p) => p.name === name)!;
  const pendingOf = async (sellerId: string) =>
    t.database.db
      .select()
      .from(subscriptionRequests)
      .where(and(eq(subscriptionRequests.sellerId, sellerId), eq(subscriptionRequests.status, 'pending')));
  const lastHistory = async (sellerId: string) => {
    const [row] = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectType, 'seller'), eq(auditEntries.subjectId, sellerId)))
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.seq))
      .limit(1);
    return row;
  };
  return { t, as, sellerIdOf, plan, plans, pendingOf, lastHistory };
}

describe.each(testBackends)('subscription manager on %s', (backend) => {
  let ctx: Awaited<ReturnType<typeof setup>>;
  let demoSellerId: string;
  let blockedSellerId: string;
  beforeAll(async () => {
    ctx = await setup(backend);
    demoSellerId = await ctx.sellerIdOf(demoEmails.Seller);
    blockedSellerId = await ctx.sellerIdOf(demoEmails.Blocked);
  });
  afterAll(() => ctx.t.close());

  describe('plans', () => {
    it('lists the active plans, cheapest period first, for sellers and admins', async () => {
      expect(ctx.plans.map((p) => [p.name, p.priceMinor, p.periodDays])).toEqual([
        ['Monthly', 99_900, 30],
        ['Quarterly', 269_900, 90],
        ['Yearly', 999_900, 365],
      ]);
      for (const who of ['Admin', 'Staff', 'Blocked'] as const) {
        expect((await ctx.as(who, 'GET', `${BASE}/getSubscriptionPlans`)).statusCode, who).toBe(200);
      }
    });
  });

  describe('routes both pages use', () => {
    it('refuse anyone holding neither page (403)', async () => {
      const [staff] = await ctx.t.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, demoEmails.Staff));
      const override = (overrides: object) =>
        ctx.as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${staff!.id}`, { overrides });
      expect((await override({ '/subscriptions/subscriptions-request': [] })).statusCode).toBe(200);
      try {
        for (const url of [
          `${BASE}/getSubscriptionPlans`,
          `${BASE}/getSellerSubscriptions?sellerId=${demoSellerId}`,
        ]) {
          const response = await ctx.as('Staff', 'GET', url);
          expect(response.statusCode, url).toBe(403);
          expect(json(response).code, url).toBe('FORBIDDEN');
        }
      } finally {
        await override({});
      }
      expect((await ctx.as('Staff', 'GET', `${BASE}/getSubscriptionPlans`)).statusCode).toBe(200);
    });
  });

  describe('getSellerSubscriptions', () => {
    it('gives a seller their own state, renewal date, periods and requests', async () => {
      const response = await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions`);
      expect(response.statusCode).toBe(200);
      const body = json<SellerSubscriptions>(response);
      expect(body.seller).toMatchObject({ id: demoSellerId, blocked: false, isNewSeller: false });
      expect(body.current.state).toBe('Active');
      expect(body.current.plan?.name).toBe('Quarterly');
      expect(body.current.daysLeft).toBe(DEMO_SELLER_FIGURES.subscriptionDaysLeft);
      expect(body.current.endsAt).toBe(body.periods[0]?.endsAt);
      // Latest first, back to back.
      expect(body.periods.length).toBeGreaterThan(1);
      expect(body.periods.length).toBe(body.periodCount);
      expect(body.periods[1]?.endsAt).toBe(body.periods[0]?.startsAt);
      expect(body.pendingRequest).toBeNull();
      expect(body.recentRequests.map((r) => r.status)).toEqual(['approved']);
      expect(body.recentRequests[0]?.decidedBy).toBe('Asha Admin');
    });

    it('pages the periods', async () => {
      const page = json<SellerSubscriptions>(
        await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions?skip=1&limit=1`),
      );
      expect(page.periods).toHaveLength(1);
      expect(page.periodCount).toBeGreaterThan(1);
      expect((await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions?limit=0`)).statusCode).toBe(400);
    });

    it("refuses a seller another seller's subscription (403), whether it exists or not", async () => {
      for (const id of [blockedSellerId, UNKNOWN_ID]) {
        const response = await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions?sellerId=${id}`);
        expect(response.statusCode).toBe(403);
        expect(json(response).code).toBe('FORBIDDEN');
      }
      const own = await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions?sellerId=${demoSellerId}`);
      expect(own.statusCode).toBe(200);
    });

    it('lets admins and staff read any seller by sellerId', async () => {
      for (const who of ['Admin', 'Staff'] as const) {
        const response = await ctx.as(
          who,
          'GET',
          `${BASE}/getSellerSubscriptions?sellerId=${blockedSellerId}`,
        );
        expect(response.statusCode, who).toBe(200);
        const body = json<SellerSubscriptions>(response);
        expect(body.seller.id).toBe(blockedSellerId);
        expect(body.current.state).toBe('Blocked');
        expect(new Date(body.current.endsAt!).getTime()).toBeLessThan(Date.now());
      }
    });

    it('answers 400 for a missing or malformed sellerId and 404 for an unknown one', async () => {
      expect((await ctx.as('Admin', 'GET', `${BASE}/getSellerSubscriptions`)).statusCode).toBe(400);
      expect((await ctx.as('Admin', 'GET', `${BASE}/getSellerSubscriptions?sellerId=nope`)).statusCode).toBe(
        400,
      );
      const unknown = await ctx.as('Admin', 'GET', `${BASE}/getSellerSubscriptions?sellerId=${UNKNOWN_ID}`);
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown).code).toBe('SELLER_NOT_FOUND');
    });
  });

  describe('getSubscriptions', () => {
    it('pages every seller, soonest renewal first, for admins and staff only', async () => {
      const first = json<{ result: SubscriptionRow[]; count: number }>(
        await ctx.as('Staff', 'GET', `${BASE}/getSubscriptions?limit=5`),
      );
      expect(first.result).toHaveLength(5);
      const [total] = await ctx.t.database.db.select({ value: count() }).from(sellers);
      expect(first.count).toBe(total?.value);
      const ends = first.result.map((row) => row.current.endsAt).filter(Boolean) as string[];
      expect([...ends].sort()).toEqual(ends);
      const second = json<{ result: SubscriptionRow[] }>(
        await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?limit=5&skip=5`),
      );
      expect(second.result.map((r) => r.id)).not.toContain(first.result[0]?.id);
      for (const who of ['Seller', 'Blocked'] as const) {
        expect((await ctx.as(who, 'GET', `${BASE}/getSubscriptions`)).statusCode, who).toBe(403);
      }
    });

    it('filters by state in the database exactly as the shared state rule says', async () => {
      let seen = 0;
      for (const key of subscriptionStateKeyList) {
        const body = json<{ result: SubscriptionRow[]; count: number }>(
          await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?status=${key}&limit=100`),
        );
        seen += body.count;
        for (const row of body.result) {
          expect(row.current.state, row.sellerName).toBe(subscriptionStateKeys[key]);
          const endsAt = row.current.endsAt ? new Date(row.current.endsAt) : null;
          expect(subscriptionState(row, endsAt), row.sellerName).toBe(row.current.state);
        }
      }
      const all = json<{ count: number }>(await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions`));
      expect(seen).toBe(all.count);
      const expiring = json<{ result: SubscriptionRow[] }>(
        await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?status=expiring`),
      );
      expect(expiring.result.length).toBeGreaterThan(0);
      for (const row of expiring.result) expect(row.current.daysLeft).toBeLessThanOrEqual(EXPIRING_SOON_DAYS);
      const blocked = json<{ result: SubscriptionRow[] }>(
        await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?status=blocked`),
      );
      expect(blocked.result.map((r) => r.id)).toContain(blockedSellerId);
    });

    it('searches by name, code or e-mail and validates the filter', async () => {
      const body = json<{ result: SubscriptionRow[] }>(
        await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?query=sel-0001`),
      );
      expect(body.result.map((r) => r.id)).toEqual([demoSellerId]);
      expect(body.result[0]?.current.state).toBe('Active');
      const none = json<{ count: number }>(
        await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?query=%25_`),
      );
      expect(none.count).toBe(0);
      expect((await ctx.as('Admin', 'GET', `${BASE}/getSubscriptions?status=sleepy`)).statusCode).toBe(400);
    });
  });

  describe('isSellerBlocked', () => {
    it('answers for the signed-in seller', async () => {
      expect(json(await ctx.as('Seller', 'GET', `${BASE}/isSellerBlocked`))).toEqual({
        blocked: false,
        isNewSeller: false,
      });
      expect(json(await ctx.as('Blocked', 'GET', `${BASE}/isSellerBlocked`))).toEqual({
        blocked: true,
        isNewSeller: false,
      });
      expect((await ctx.as('Admin', 'GET', `${BASE}/isSellerBlocked`)).statusCode).toBe(403);
    });
  });

  describe('the blocked-seller guard', () => {
    it('answers 403 SELLER_BLOCKED on every other seller API', async () => {
      for (const url of ['/api/v1/sellers/getSellerDashboard', '/api/v1/globalConfigs/getCountriesList']) {
        const response = await ctx.as('Blocked', 'GET', url);
        expect(response.statusCode, url).toBe(403);
        expect(json(response), url).toEqual({
          message: 'Your subscription is blocked. Renew it to continue.',
          code: 'SELLER_BLOCKED',
        });
      }
      // A missing permission is still reported as such, not as the block.
      const forbidden = await ctx.as('Blocked', 'GET', `${BASE}/getSubscriptions`);
      expect(json(forbidden).code).toBe('FORBIDDEN');
    });

    it('lets the blocked seller see who they are, their menu and their subscription', async () => {
      for (const url of [
        '/api/v1/users/byToken/current',
        '/api/v1/users/getSidebarData',
        '/api/v1/globalConfigs/getPermissionsConfig',
        `${BASE}/isSellerBlocked`,
        `${BASE}/getSellerSubscriptions`,
        `${BASE}/getSubscriptionPlans`,
      ]) {
        expect((await ctx.as('Blocked', 'GET', url)).statusCode, url).toBe(200);
      }
      expect((await ctx.as('Seller', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(200);
    });

    it('leaves a blocked new seller alone (their first period is not a lapse)', async () => {
      const db = ctx.t.database.db;
      await db.update(sellers).set({ isNewSeller: true }).where(eq(sellers.id, blockedSellerId));
      try {
        expect((await ctx.as('Blocked', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(200);
      } finally {
        await db.update(sellers).set({ isNewSeller: false }).where(eq(sellers.id, blockedSellerId));
      }
      expect((await ctx.as('Blocked', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(403);
    });
  });

  describe('renewal: request, approve, reject', () => {
    let requestId: string;

    it('validates the request: plan id, unknown plan, note length', async () => {
      const url = `${BASE}/requestRenewal`;
      expect((await ctx.as('Blocked', 'POST', url, { planId: 'monthly' })).statusCode).toBe(400);
      expect((await ctx.as('Blocked', 'POST', url, {})).statusCode).toBe(400);
      const unknown = await ctx.as('Blocked', 'POST', url, { planId: UNKNOWN_ID });
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown).code).toBe('PLAN_NOT_FOUND');
      const long = await ctx.as('Blocked', 'POST', url, {
        planId: ctx.plan('Monthly').id,
        note: 'x'.repeat(501),
      });
      expect(long.statusCode).toBe(400);
      expect(await ctx.pendingOf(blockedSellerId)).toHaveLength(0);
      // Only sellers request renewals.
      expect((await ctx.as('Admin', 'POST', url, { planId: ctx.plan('Monthly').id })).statusCode).toBe(403);
    });

    it('lets the blocked seller ask for a plan, once', async () => {
      const response = await ctx.as('Blocked', 'POST', `${BASE}/requestRenewal`, {
        planId: ctx.plan('Monthly').id,
        note: '  Paid by NEFT, ref 123.  ',
      });
      expect(response.statusCode).toBe(200);
      const body = json<RequestRenewalResult>(response);
      expect(body.request).toMatchObject({
        status: 'pending',
        note: 'Paid by NEFT, ref 123.',
        seller: { id: blockedSellerId },
        plan: { name: 'Monthly' },
        decidedAt: null,
      });
      expect(body.payment.kind).toBe('manual');
      requestId = body.request.id;
      expect((await ctx.lastHistory(blockedSellerId))?.action).toBe('subscription');

      const again = await ctx.as('Blocked', 'POST', `${BASE}/requestRenewal`, {
        planId: ctx.plan('Yearly').id,
      });
      expect(again.statusCode).toBe(409);
      expect(json(again).code).toBe('RENEWAL_ALREADY_PENDING');
      const detail = json<SellerSubscriptions>(
        await ctx.as('Blocked', 'GET', `${BASE}/getSellerSubscriptions`),
      );
      expect(detail.pendingRequest?.id).toBe(requestId);
      // Still blocked until an admin approves.
      expect((await ctx.as('Blocked', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(403);
    });

    it('lists pending requests oldest first, for admins and staff only', async () => {
      const body = json<{ result: RenewalRequest[]; count: number }>(
        await ctx.as('Staff', 'GET', `${BASE}/listRenewalRequests?status=pending`),
      );
      expect(body.count).toBe(3); // two from the seed, one just made
      expect(body.result.at(-1)?.id).toBe(requestId);
      const times = body.result.map((r) => r.requestedAt);
      expect([...times].sort()).toEqual(times);
      const paged = json<{ result: RenewalRequest[]; count: number }>(
        await ctx.as('Admin', 'GET', `${BASE}/listRenewalRequests?limit=1&skip=1`),
      );
      expect(paged.result).toHaveLength(1);
      expect(paged.count).toBe(3);
      expect((await ctx.as('Seller', 'GET', `${BASE}/listRenewalRequests`)).statusCode).toBe(403);
      expect((await ctx.as('Admin', 'GET', `${BASE}/listRenewalRequests?status=maybe`)).statusCode).toBe(400);
    });

    it('lets only admins decide', async () => {
      for (const who of ['Staff', 'Seller', 'Blocked'] as const) {
        const response = await ctx.as(who, 'POST', `${BASE}/decideRenewalRequest/${requestId}`, {
          decision: 'approve',
        });
        expect(response.statusCode, who).toBe(403);
      }
    });

    it('validates the decision: ids, decision, a reason for rejecting', async () => {
      const url = (id: string) => `${BASE}/decideRenewalRequest/${id}`;
      expect((await ctx.as('Admin', 'POST', url('nope'), { decision: 'approve' })).statusCode).toBe(400);
      expect((await ctx.as('Admin', 'POST', url(requestId), { decision: 'maybe' })).statusCode).toBe(400);
      const noReason = await ctx.as('Admin', 'POST', url(requestId), { decision: 'reject' });
      expect(noReason.statusCode).toBe(400);
      expect(json(noReason).message).toMatch(/reason/);
      const unknown = await ctx.as('Admin', 'POST', url(UNKNOWN_ID), { decision: 'approve' });
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown).code).toBe('REQUEST_NOT_FOUND');
    });

    it('approves: a new period from now, the seller unblocked and no longer new, history written', async () => {
      const before = Date.now();
      const response = await ctx.as('Admin', 'POST', `${BASE}/decideRenewalRequest/${requestId}`, {
        decision: 'approve',
        note: 'Payment received',
      });
      expect(response.statusCode).toBe(200);
      const body = json<DecideRenewalResult>(response);
      expect(body.request).toMatchObject({
        status: 'approved',
        decidedBy: 'Asha Admin',
        decisionNote: 'Payment received',
      });
      expect(body.current.state).toBe('Active');
      expect(body.current.plan?.name).toBe('Monthly');
      const startsAt = new Date(body.current.startsAt!).getTime();
      expect(startsAt).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(body.current.endsAt!).getTime() - startsAt).toBe(30 * DAY_MS);
      expect(body.current.daysLeft).toBe(30);

      const [seller] = await ctx.t.database.db.select().from(sellers).where(eq(sellers.id, blockedSellerId));
      expect(seller).toMatchObject({ blocked: false, isNewSeller: false });
      const history = await ctx.lastHistory(blockedSellerId);
      expect(history).toMatchObject({ action: 'subscription', actorName: 'Asha Admin' });
      expect(history?.changes).toEqual(
        expect.arrayContaining([
          { field: 'blocked', before: true, after: false },
          { field: 'plan', before: 'Quarterly', after: 'Monthly' },
        ]),
      );

      // The seller is let in at once, with the same token.
      expect((await ctx.as('Blocked', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(200);
      expect(json(await ctx.as('Blocked', 'GET', '/api/v1/users/byToken/current')).seller).toMatchObject({
        blocked: false,
      });
    });

    it('refuses to decide a decided request again (409)', async () => {
      for (const decision of ['approve', 'reject'] as const) {
        const response = await ctx.as('Admin', 'POST', `${BASE}/decideRenewalRequest/${requestId}`, {
          decision,
          note: 'again',
        });
        expect(response.statusCode).toBe(409);
        expect(json(response).code).toBe('REQUEST_ALREADY_DECIDED');
      }
    });

    it('rejects with the reason, leaving the subscription untouched', async () => {
      const pending = json<{ result: RenewalRequest[] }>(
        await ctx.as('Admin', 'GET', `${BASE}/listRenewalRequests?status=pending`),
      ).result[0]!;
      const sellerBefore = json<SellerSubscriptions>(
        await ctx.as('Admin', 'GET', `${BASE}/getSellerSubscriptions?sellerId=${pending.seller.id}`),
      );
      const response = await ctx.as('Admin', 'POST', `${BASE}/decideRenewalRequest/${pending.id}`, {
        decision: 'reject',
        note: 'No payment received',
      });
      expect(response.statusCode).toBe(200);
      const body = json<DecideRenewalResult>(response);
      expect(body.request).toMatchObject({ status: 'rejected', decisionNote: 'No payment received' });
      expect(body.current).toEqual(sellerBefore.current);
      expect((await ctx.lastHistory(pending.seller.id))?.note).toMatch(/rejected: No payment received/);

      const decided = json<{ result: RenewalRequest[]; count: number }>(
        await ctx.as('Admin', 'GET', `${BASE}/listRenewalRequests?status=decided`),
      );
      expect(decided.result.slice(0, 2).map((r) => r.id)).toEqual([pending.id, requestId]);
      const rejected = json<{ result: RenewalRequest[] }>(
        await ctx.as('Admin', 'GET', `${BASE}/listRenewalRequests?status=rejected`),
      );
      expect(rejected.result.every((r) => r.status === 'rejected')).toBe(true);
    });

    it('extends a running period from its end, so no paid day is lost', async () => {
      const before = json<SellerSubscriptions>(
        await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions`),
      );
      const created = json<RequestRenewalResult>(
        await ctx.as('Seller', 'POST', `${BASE}/requestRenewal`, { planId: ctx.plan('Yearly').id }),
      );
      const approved = json<DecideRenewalResult>(
        await ctx.as('Admin', 'POST', `${BASE}/decideRenewalRequest/${created.request.id}`, {
          decision: 'approve',
        }),
      );
      expect(approved.current.startsAt).toBe(before.current.endsAt);
      expect(approved.current.daysLeft).toBe(DEMO_SELLER_FIGURES.subscriptionDaysLeft + 365);
      const after = json<SellerSubscriptions>(
        await ctx.as('Seller', 'GET', `${BASE}/getSellerSubscriptions`),
      );
      expect(after.periodCount).toBe(before.periodCount + 1);
      expect(after.current.plan?.name).toBe('Yearly');
    });

    it('lets only one of two simultaneous requests through', async () => {
      const body = { planId: ctx.plan('Monthly').id };
      const responses = await Promise.all([
        ctx.as('Seller', 'POST', `${BASE}/requestRenewal`, body),
        ctx.as('Seller', 'POST', `${BASE}/requestRenewal`, body),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await ctx.pendingOf(demoSellerId)).toHaveLength(1);
    });

    it('refuses renewals from a free seller', async () => {
      const db = ctx.t.database.db;
      await db
        .update(subscriptionRequests)
        .set({ status: 'rejected' })
        .where(eq(subscriptionRequests.sellerId, demoSellerId));
      await db.update(sellers).set({ isFree: true }).where(eq(sellers.id, demoSellerId));
      try {
        const response = await ctx.as('Seller', 'POST', `${BASE}/requestRenewal`, {
          planId: ctx.plan('Monthly').id,
        });
        expect(response.statusCode).toBe(409);
        expect(json(response).code).toBe('SELLER_FREE');
      } finally {
        await db.update(sellers).set({ isFree: false }).where(eq(sellers.id, demoSellerId));
      }
    });
  });

  describe('blockSubscription', () => {
    it('blocks and unblocks with history; repeating either is a 409', async () => {
      const url = `${BASE}/blockSubscription`;
      const blocked = await ctx.as('Admin', 'POST', url, {
        sellerId: demoSellerId,
        blocked: true,
        reason: 'Cheque bounced',
      });
      expect(blocked.statusCode).toBe(200);
      expect(json(blocked)).toMatchObject({
        sellerId: demoSellerId,
        blocked: true,
        current: { state: 'Blocked' },
      });
      expect(await ctx.lastHistory(demoSellerId)).toMatchObject({
        action: 'subscription',
        changes: [{ field: 'blocked', before: false, after: true }],
        note: 'Subscription blocked: Cheque bounced',
      });
      expect((await ctx.as('Seller', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(403);
      const again = await ctx.as('Admin', 'POST', url, { sellerId: demoSellerId, blocked: true });
      expect(again.statusCode).toBe(409);
      expect(json(again).code).toBe('ALREADY_BLOCKED');

      const unblocked = await ctx.as('Admin', 'POST', url, { sellerId: demoSellerId, blocked: false });
      expect(unblocked.statusCode).toBe(200);
      expect((await ctx.as('Seller', 'GET', '/api/v1/sellers/getSellerDashboard')).statusCode).toBe(200);
      expect(json(await ctx.as('Admin', 'POST', url, { sellerId: demoSellerId, blocked: false })).code).toBe(
        'NOT_BLOCKED',
      );
    });

    it('validates ids and permissions', async () => {
      const url = `${BASE}/blockSubscription`;
      expect((await ctx.as('Admin', 'POST', url, { sellerId: 'x', blocked: true })).statusCode).toBe(400);
      expect((await ctx.as('Admin', 'POST', url, { sellerId: demoSellerId })).statusCode).toBe(400);
      const unknown = await ctx.as('Admin', 'POST', url, { sellerId: UNKNOWN_ID, blocked: true });
      expect(unknown.statusCode).toBe(404);
      for (const who of ['Staff', 'Seller'] as const) {
        const response = await ctx.as(who, 'POST', url, { sellerId: blockedSellerId, blocked: true });
        expect(response.statusCode, who).toBe(403);
      }
      const [seller] = await ctx.t.database.db.select().from(sellers).where(eq(sellers.id, blockedSellerId));
      expect(seller?.blocked).toBe(false);
    });
  });
});
