import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../contracts/errors';
import { ownSeller } from '../sellers/own-seller';

export async function subscriptionRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/isSellerBlocked',
    {
      config: { permission: { route: '/sellers/payment-seller-subscriptions', action: 'view' } },
      schema: {
        tags: ['subscriptions'],
        summary: "Whether the signed-in seller's subscription is blocked",
        response: {
          200: z.object({ blocked: z.boolean(), isNewSeller: z.boolean() }),
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const seller = await ownSeller(app.db, request);
      return { blocked: seller.blocked, isNewSeller: seller.isNewSeller };
    },
  );
}
