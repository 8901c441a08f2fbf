// Who may touch a seller's documents and logo: staff and admins through the Manage Sellers permission,
// and a seller for their own seller only. These routes serve both, so they cannot name one permission
// in `config.permission`; they call `assertSellerAccess` once they know which seller is concerned.
import type { FastifyRequest } from 'fastify';
import type { RouteAction } from '../../../contracts/routes';
import { HttpError } from '../../lib/http-error';
import { can } from '../permissions/service';

export const MANAGE_SELLERS = '/sellers/manage-sellers';
/** The seller's own pages; every seller may view their general dashboard. */
export const SELLER_SELF = '/sellers/general-dashboard';

export const manage = (action: RouteAction) => ({ permission: { route: MANAGE_SELLERS, action } });

export type SellerAccess = 'admin' | 'own-seller';

/**
 * Allows the request when the user has `adminAction` on Manage Sellers, or is the seller `sellerId`
 * itself (signed in as a seller with the seller's own pages). 403 otherwise, also for unknown ids, so
 * a seller cannot probe which seller ids exist.
 */
export async function assertSellerAccess(
  request: FastifyRequest,
  sellerId: string,
  adminAction: RouteAction,
): Promise<SellerAccess> {
  const permissions = await request.permissions();
  if (can(permissions, MANAGE_SELLERS, adminAction)) return 'admin';
  if (request.user.sellerId && request.user.sellerId === sellerId && can(permissions, SELLER_SELF, 'view'))
    return 'own-seller';
  throw new HttpError(
    403,
    request.user.sellerId
      ? 'You can only manage your own seller account.'
      : `You do not have permission to ${adminAction} Manage Sellers.`,
    'FORBIDDEN',
  );
}
