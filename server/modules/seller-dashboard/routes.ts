import { count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unresolvedQueryStatuses } from '../../../contracts/domain/query-status';
import {
  type CustomerQueryStatus,
  customerQueryStatuses,
  type ProductStatus,
  productStatuses,
  sellerDashboardSchema,
} from '../../../contracts/seller-dashboard';
import type { Db } from '../../db/client';
import { chatSessions, products, queryStatusCounts } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { sellerStatus } from '../sellers/dto';
import { ownSeller } from '../sellers/own-seller';
import { currentSubscription } from '../subscriptions/service';
import { formatAddress, latestLogoPath } from '../users/current-user';

/** Counts per known status (0 where none); `total` also counts statuses a later feature may add. */
function byStatus<S extends string>(statuses: readonly S[], rows: { status: string; count: number }[]) {
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  let total = 0;
  for (const row of rows) {
    total += row.count;
    if ((statuses as readonly string[]).includes(row.status)) counts[row.status as S] = row.count;
  }
  return { total, byStatus: counts };
}

function queryFigures(rows: { status: string; count: number }[]) {
  const figures = byStatus<CustomerQueryStatus>(customerQueryStatuses, rows);
  const unresolved = unresolvedQueryStatuses.reduce((sum, status) => sum + figures.byStatus[status], 0);
  return { ...figures, unresolved };
}

/** Every figure is filtered by the signed-in seller's id: a seller never counts anyone else's rows. */
async function sellerFigures(db: Db, sellerId: string) {
  const [productRows, queryRows, [chats]] = await Promise.all([
    db
      .select({ status: products.status, count: count() })
      .from(products)
      .where(eq(products.sellerId, sellerId))
      .groupBy(products.status),
    // The counters the queries inbox's tabs read (kept by triggers): no COUNT over the seller's queries.
    db
      .select({ status: queryStatusCounts.status, count: queryStatusCounts.queries })
      .from(queryStatusCounts)
      .where(eq(queryStatusCounts.sellerKey, sellerId)),
    db
      .select({
        open: sql<number>`count(*) filter (where ${chatSessions.status} = 'open')`.mapWith(Number),
        connectRequests:
          sql<number>`count(*) filter (where ${chatSessions.status} = 'open' and ${chatSessions.connectRequest})`.mapWith(
            Number,
          ),
        unreadMessages:
          sql<number>`coalesce(sum(${chatSessions.newMessagesCount}) filter (where ${chatSessions.status} = 'open'), 0)`.mapWith(
            Number,
          ),
      })
      .from(chatSessions)
      .where(eq(chatSessions.sellerId, sellerId)),
  ]);
  return {
    products: byStatus<ProductStatus>(productStatuses, productRows),
    queries: queryFigures(queryRows),
    chats: {
      open: chats?.open ?? 0,
      connectRequests: chats?.connectRequests ?? 0,
      unreadMessages: chats?.unreadMessages ?? 0,
    },
  };
}

/** The seller's own dashboard (/sellers/general-dashboard). */
export async function sellerDashboardRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/getSellerDashboard',
    {
      config: { permission: { route: '/sellers/general-dashboard', action: 'view' } },
      schema: {
        tags: ['sellers'],
        summary:
          "The signed-in seller's own profile, verification state and figures: products, queries, chats, subscription",
        response: { 200: sellerDashboardSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      // The seller comes from the access token, never from the request: there is no id to tamper with.
      const seller = await ownSeller(app.db, request);
      const [figures, subscription] = await Promise.all([
        sellerFigures(app.db, seller.id),
        currentSubscription(app.db, seller),
      ]);
      return {
        sellerId: seller.id,
        sellerCode: seller.sellerCode,
        sellerName: seller.sellerName,
        sellerAddress: formatAddress(seller.address),
        logo: latestLogoPath(seller.sellerLogos),
        isActive: seller.isActive,
        isEmailVerified: seller.isEmailVerified,
        isKycDone: seller.isKycDone,
        isNewSeller: seller.isNewSeller,
        blocked: seller.blocked,
        status: sellerStatus(seller),
        kycRejectionReason: seller.kycRejectionReason,
        memberSince: seller.createdAt.toISOString(),
        ...figures,
        subscription,
      };
    },
  );
}
