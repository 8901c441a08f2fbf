// Subscription manager (SPEC §7): /api/v1/subscriptionManager/…
//
// Two pages use these routes: the seller's own /sellers/payment-seller-subscriptions and the admins'
// /subscriptions/subscriptions-request. Routes that only one of them uses name its permission in
// `config.permission`; the two that both use (a seller's subscription, the plans) check in the handler
// which of the two the user holds, like the seller routes in sellers/access.ts.
// `allowBlockedSeller` marks what a blocked seller still needs to renew (plugins/blocked-seller.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blockSubscriptionBodySchema,
  blockSubscriptionResultSchema,
  decideRenewalBodySchema,
  decideRenewalResultSchema,
  listRenewalRequestsQuerySchema,
  listSubscriptionsQuerySchema,
  planListSchema,
  renewalRequestListSchema,
  requestRenewalBodySchema,
  requestRenewalResultSchema,
  sellerSubscriptionsQuerySchema,
  sellerSubscriptionsSchema,
  subscriptionListSchema,
  subscriptionStateKeys,
} from '../../../contracts/subscriptions';
import { errorResponses, resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { can } from '../permissions/service';
import { ownSeller } from '../sellers/own-seller';
import { actorOf } from '../users/actor';
import { manualApprovalProvider, type PaymentProvider } from './payment-provider';
import { decideRenewal, requestRenewal, setSellerBlocked } from './renewals';
import { listPlans, listRenewalRequests, listSubscriptions, sellerSubscriptionDetail } from './service';

export const SELLER_PAGE = '/sellers/payment-seller-subscriptions';
export const ADMIN_PAGE = '/subscriptions/subscriptions-request';

const idParams = z.object({ id: z.string().uuid('id must be a renewal request id') });

/**
 * For routes both pages use: 'admin' with the admin page's view permission, 'seller' for a seller with
 * their own page's view permission, 403 for anyone else.
 */
async function subscriptionAccess(request: FastifyRequest): Promise<'admin' | 'seller'> {
  const permissions = await request.permissions();
  if (can(permissions, ADMIN_PAGE, 'view')) return 'admin';
  if (request.user.sellerId && can(permissions, SELLER_PAGE, 'view')) return 'seller';
  throw new HttpError(403, 'You do not have permission to view subscriptions.', 'FORBIDDEN');
}

export async function subscriptionRoutes(app: FastifyInstance, options: { payments?: PaymentProvider } = {}) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const payments = options.payments ?? manualApprovalProvider;

  api.get(
    '/isSellerBlocked',
    {
      config: { permission: { route: SELLER_PAGE, action: 'view' }, allowBlockedSeller: true },
      schema: {
        tags: ['subscriptions'],
        summary: "Whether the signed-in seller's subscription is blocked",
        response: {
          200: z.object({ blocked: z.boolean(), isNewSeller: z.boolean() }),
          ...errorResponses(403, 404),
        },
      },
    },
    async (request) => {
      const seller = await ownSeller(app.db, request);
      return { blocked: seller.blocked, isNewSeller: seller.isNewSeller };
    },
  );

  api.get(
    '/getSubscriptionPlans',
    {
      config: { allowBlockedSeller: true },
      schema: {
        tags: ['subscriptions'],
        summary: 'Subscription plans (sellers see the ones they can choose)',
        response: { 200: planListSchema, ...errors },
      },
    },
    async (request) => {
      const access = await subscriptionAccess(request);
      return { result: await listPlans(app.db, { activeOnly: access === 'seller' }) };
    },
  );

  api.get(
    '/getSellerSubscriptions',
    {
      config: { allowBlockedSeller: true },
      schema: {
        tags: ['subscriptions'],
        summary:
          "A seller's subscription: state, renewal date, periods (paged) and renewal requests. Sellers get their own; admins and staff name one with sellerId.",
        querystring: sellerSubscriptionsQuerySchema,
        response: { 200: sellerSubscriptionsSchema, ...errors },
      },
    },
    async (request) => {
      const access = await subscriptionAccess(request);
      const { sellerId, skip, limit } = request.query;
      const own = request.user.sellerId;
      const target = sellerId ?? own;
      if (!target) throw new HttpError(400, 'sellerId: choose a seller', 'VALIDATION_ERROR');
      if (access === 'seller' && target !== own) {
        throw new HttpError(403, 'You can only see your own subscription.', 'FORBIDDEN');
      }
      return sellerSubscriptionDetail(app.db, target, { skip, limit });
    },
  );

  api.get(
    '/getSubscriptions',
    {
      config: { permission: { route: ADMIN_PAGE, action: 'view' } },
      schema: {
        tags: ['subscriptions'],
        summary: "Every seller's current subscription and its state, soonest renewal first (paged)",
        querystring: listSubscriptionsQuerySchema,
        response: { 200: subscriptionListSchema, ...errors },
      },
    },
    async (request) => {
      const { status, query, skip, limit } = request.query;
      return listSubscriptions(app.db, {
        state: status ? subscriptionStateKeys[status] : undefined,
        query: query || undefined,
        skip,
        limit,
      });
    },
  );

  api.post(
    '/blockSubscription',
    {
      config: { permission: { route: ADMIN_PAGE, action: 'approve' } },
      schema: {
        tags: ['subscriptions'],
        summary: "Block or unblock a seller's subscription (recorded in the seller's history)",
        body: blockSubscriptionBodySchema,
        response: { 200: blockSubscriptionResultSchema, ...errors },
      },
    },
    async (request) => setSellerBlocked(app.db, { ...request.body, actor: await actorOf(app.db, request) }),
  );

  api.post(
    '/requestRenewal',
    {
      config: { permission: { route: SELLER_PAGE, action: 'create' }, allowBlockedSeller: true },
      schema: {
        tags: ['subscriptions'],
        summary: 'Ask to renew on a plan; one open request per seller (409 otherwise)',
        body: requestRenewalBodySchema,
        response: { 200: requestRenewalResultSchema, ...errors },
      },
    },
    async (request) => {
      const seller = await ownSeller(app.db, request);
      return requestRenewal(app.db, payments, {
        sellerId: seller.id,
        planId: request.body.planId,
        note: request.body.note,
        actor: await actorOf(app.db, request),
      });
    },
  );

  api.get(
    '/listRenewalRequests',
    {
      config: { permission: { route: ADMIN_PAGE, action: 'view' } },
      schema: {
        tags: ['subscriptions'],
        summary: 'Renewal requests: pending (oldest first) or decided (newest first), paged',
        querystring: listRenewalRequestsQuerySchema,
        response: { 200: renewalRequestListSchema, ...errors },
      },
    },
    async (request) => {
      const { status, skip, limit } = request.query;
      return listRenewalRequests(app.db, status, { skip, limit });
    },
  );

  api.post(
    '/decideRenewalRequest/:id',
    {
      config: { permission: { route: ADMIN_PAGE, action: 'approve' } },
      schema: {
        tags: ['subscriptions'],
        summary:
          'Approve (a new period starts, the seller is unblocked) or reject (with a reason) a pending request',
        params: idParams,
        body: decideRenewalBodySchema,
        response: { 200: decideRenewalResultSchema, ...errors },
      },
    },
    async (request) =>
      decideRenewal(app.db, payments, {
        requestId: request.params.id,
        decision: request.body.decision,
        note: request.body.note,
        actor: await actorOf(app.db, request),
      }),
  );
}
