import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SELLER_BLOCKED_CODE, SELLER_BLOCKED_MESSAGE } from '../../contracts/subscriptions';
import { sellers } from '../db/schema';
import { HttpError } from '../lib/http-error';
import { type BlockedSellerCache, createBlockedSellerCache } from './blocked-seller-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a seller is blocked, kept by this instance (blocked-seller-cache.ts). */
    blockedSellerCache: BlockedSellerCache;
  }
  interface FastifyContextConfig {
    /** A blocked seller may still call this route: it is part of seeing and renewing the subscription. */
    allowBlockedSeller?: boolean;
  }
}

/**
 * Routes of other modules a blocked seller still needs, declared here rather than in those modules:
 * signing in and out (and any future non-public auth route), who they are, their menu and breadcrumbs.
 * Everything else is closed to them unless its route says `allowBlockedSeller: true`.
 */
const OPEN_PREFIXES = ['/api/v1/auth/'];
const OPEN_ROUTES = new Set([
  '/api/v1/users/byToken/current',
  '/api/v1/users/getSidebarData',
  '/api/v1/globalConfigs/getPermissionsConfig',
]);

/** The one page a blocked seller can use: their subscription, to renew it. */
export const BLOCKED_SELLER_ROUTE = '/sellers/payment-seller-subscriptions';

/** Whether this seller is blocked and not new (SPEC §4): then only the subscription page is theirs. */
export async function isBlockedSeller(db: FastifyInstance['db'], sellerId: string): Promise<boolean> {
  const [seller] = await db
    .select({ blocked: sellers.blocked, isNewSeller: sellers.isNewSeller })
    .from(sellers)
    .where(eq(sellers.id, sellerId));
  return Boolean(seller?.blocked && !seller.isNewSeller);
}

export function openToBlockedSellers(url: string, config: { allowBlockedSeller?: boolean }): boolean {
  return (
    config.allowBlockedSeller === true ||
    OPEN_ROUTES.has(url) ||
    OPEN_PREFIXES.some((prefix) => url.startsWith(prefix))
  );
}

/**
 * A seller whose subscription is blocked (and who is not new) can only see and renew it: every other
 * API answers 403 SELLER_BLOCKED. Closed by default, so a route added later never leaks past a lapsed
 * subscription. Runs after authentication and the permission check (registered after the auth
 * plugin), so a missing permission still answers FORBIDDEN; and as an onRequest hook, before the body
 * is parsed, so a blocked seller learns why before anything else.
 */
export const blockedSellerGuard = fp(
  async (app: FastifyInstance) => {
    const cache = await createBlockedSellerCache(app.database);
    app.decorate('blockedSellerCache', cache);
    app.addHook('onClose', async () => cache.close());
    app.addHook('onRequest', async (request) => {
      const url = request.routeOptions.url ?? '';
      const config = request.routeOptions.config;
      if (!url.startsWith('/api/') || url.startsWith('/api/docs') || config.public) return;
      const user = request.user;
      if (user?.role !== 'Seller' || !user.sellerId) return;
      if (openToBlockedSellers(url, config)) return;
      // From the cache, which every change to the seller's flags empties at commit: an approved
      // renewal lets the seller in on their next request, without a new token.
      if (await cache.isBlocked(user.sellerId)) {
        throw new HttpError(403, SELLER_BLOCKED_MESSAGE, SELLER_BLOCKED_CODE);
      }
    });
  },
  { name: 'blocked-seller', dependencies: ['db', 'auth'] },
);
