// The shops whose settings admins and staff may open (the Settings page's "Settings of" switch),
// searched by name or code a few at a time — there may be thousands — or named by id for a linked view.
// Gated by the Settings page itself, so opening a seller's settings needs no other page's permission.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { intParam } from '../../../contracts/int-param';
import { SETTINGS_ROUTE } from '../../../contracts/settings';
import { errorResponses } from '../../lib/error-responses';
import { optionQuerySchema, queryOptionListSchema, searchOptions } from '../products/query-fields';

const sellerOptionsQuerySchema = optionQuerySchema.extend({ limit: intParam.min(1).max(50).default(20) });

/** GET /sellers, registered by the settings routes (under their prefix). */
export function sellerOptionsRoute(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/sellers',
    {
      config: { permission: { route: SETTINGS_ROUTE, action: 'view' as const } },
      schema: {
        tags: ['settings'],
        summary:
          'Shops whose settings this admin or staff member may open: by name or code, or by id (`ids`)',
        querystring: sellerOptionsQuerySchema,
        response: { 200: queryOptionListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    // A seller's settings are their own shop's: the list holds only it (the page shows them no switch).
    // Not a 403: the Settings page's view permission, which sellers have, is what guards this route.
    async (request) => ({ result: await searchOptions(app.db, request.user, 'sellers', request.query) }),
  );
}
