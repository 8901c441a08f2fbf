import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { sellers } from '../../db/schema';
import { HttpError } from '../../lib/http-error';

/** The seller record of the signed-in seller; sellers only ever see their own. */
export async function ownSeller(db: Db, request: FastifyRequest) {
  const sellerId = request.user.sellerId;
  if (!sellerId) throw new HttpError(403, 'This page is for seller accounts.', 'NOT_A_SELLER');
  const [seller] = await db.select().from(sellers).where(eq(sellers.id, sellerId));
  if (!seller) throw new HttpError(404, 'Seller not found', 'SELLER_NOT_FOUND');
  return seller;
}
