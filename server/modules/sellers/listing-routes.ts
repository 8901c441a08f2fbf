import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  listSellersQuerySchema,
  searchSellersQuerySchema,
  sellerListSchema,
} from '../../../contracts/sellers';
import { compiledResponse } from '../../lib/compiled-serializer';
import { errorResponses } from '../../lib/error-responses';
import { manage } from './access';
import { listSellers, searchSellers } from './listing';

const errors = errorResponses(400, 403);

/** The seller tabs of /sellers/manage-sellers: listSellers and searchSellers (SPEC §4, §7). */
export async function sellerListingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/listSellers',
    {
      config: manage('view'),
      schema: {
        tags: ['sellers'],
        summary: 'A page of sellers, the count matching the filters, and the four tab counts',
        description:
          'Each flag given filters on it exactly; an absent flag does not filter. `countHash` counts the four tabs whatever the filters: isActive = Active, isEmailVerified = Pending Verification, isKycDone = Pending KYC, isInActive = Inactive. Rows are ordered by `sort`, then by id, so pages never overlap.',
        querystring: listSellersQuerySchema,
        response: { 200: compiledResponse(sellerListSchema), ...errors },
      },
    },
    (request) => listSellers(app.db, request.query),
  );

  api.get(
    '/searchSellers',
    {
      config: manage('view'),
      schema: {
        tags: ['sellers'],
        summary: 'Like listSellers, over the sellers whose name, code, e-mail or phone contain `query`',
        description:
          'Case-insensitive and partial; `%` and `_` are taken literally. `count` is the exact number of matches (with the filters).',
        querystring: searchSellersQuerySchema,
        response: { 200: compiledResponse(sellerListSchema), ...errors },
      },
    },
    (request) => searchSellers(app.db, request.query),
  );
}
