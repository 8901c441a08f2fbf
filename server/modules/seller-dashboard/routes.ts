import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../contracts/errors';
import { ownSeller } from '../sellers/own-seller';
import { formatAddress, latestLogoPath } from '../users/current-user';

export const sellerDashboardSchema = z.object({
  sellerId: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
  sellerAddress: z.string(),
  logo: z.string().nullable(),
  isActive: z.boolean(),
  isEmailVerified: z.boolean(),
  isKycDone: z.boolean(),
  isNewSeller: z.boolean(),
  blocked: z.boolean(),
  memberSince: z.string(),
});

/** The seller's own dashboard (/sellers/general-dashboard). */
export async function sellerDashboardRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/getSellerDashboard',
    {
      config: { permission: { route: '/sellers/general-dashboard', action: 'view' } },
      schema: {
        tags: ['sellers'],
        summary: "The signed-in seller's own figures",
        response: { 200: sellerDashboardSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const seller = await ownSeller(app.db, request);
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
        memberSince: seller.createdAt.toISOString(),
      };
    },
  );
}
