// What a seller-scoped module's routes set up for every handler: the permission its routes declare
// (one manifest route, view / edit / approve), and who asks. A seller sees only their own shop's rows;
// admins and staff every shop's (the queries and offers modules).
import type { FastifyRequest } from 'fastify';
import type { RouteAction } from '../../contracts/routes';

/** Who asks: a seller's requests are limited to `sellerId`; admins and staff see every shop. */
export interface RouteViewer {
  userId: string;
  /** Set for a seller: the only shop whose rows they see. */
  sellerId: string | null;
  isSeller: boolean;
}

/** The signed-in user of a guarded route as a viewer. */
export function viewerOf(request: FastifyRequest): RouteViewer {
  return {
    userId: request.user.id,
    sellerId: request.user.sellerId,
    isSeller: request.user.role === 'Seller',
  };
}

/** `config` for a route guarded by `route`'s permission: `config: permission('edit')`. */
export function permissionOn(route: string) {
  return (action: RouteAction) => ({ permission: { route, action } });
}
