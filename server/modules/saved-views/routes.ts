// Saved views API, under /api/v1/savedViews. The routes declare no manifest permission: which one
// applies depends on the list a request names (or the view it points at), so the service checks the
// list's route itself — `view` for everything, `publish` to share with everyone.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createViewBodySchema,
  defaultViewSchema,
  listViewsQuerySchema,
  MAX_VIEWS_PER_LIST,
  savedViewListSchema,
  savedViewSchema,
  setDefaultViewBodySchema,
  updateViewBodySchema,
} from '../../../contracts/saved-views';
import { resourceErrors as errors } from '../../lib/error-responses';
import { createView, deleteView, listViews, setDefaultView, updateView, type ViewUser } from './service';

const idParams = z.object({ id: z.string().uuid('There is no such view, or it is not shared with you.') });

async function viewUserOf(request: FastifyRequest): Promise<ViewUser> {
  return {
    userId: request.user.id,
    role: request.user.role,
    sellerId: request.user.sellerId,
    permissions: await request.permissions(),
  };
}

export async function savedViewRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/',
    {
      schema: {
        tags: ['saved-views'],
        summary: "The views of a list the user may see: their own, their team's and everyone's",
        description:
          'Own views first, then by name; each says whether the user may change it (`editable`, the owner only) and whether it is their default. Needs `view` on the route of the list.',
        querystring: listViewsQuerySchema,
        response: { 200: savedViewListSchema, ...errors },
      },
    },
    async (request) => ({ result: await listViews(app.db, await viewUserOf(request), request.query.list) }),
  );

  api.post(
    '/',
    {
      schema: {
        tags: ['saved-views'],
        summary: 'Saves a view of a list (a name unique to its owner and list), optionally as the default',
        description: `Scope \`everyone\` needs \`publish\` on the route of the list. At most ${MAX_VIEWS_PER_LIST} views per user and list.`,
        body: createViewBodySchema,
        response: { 201: savedViewSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createView(app.db, await viewUserOf(request), request.body)),
  );

  api.patch(
    '/:id',
    {
      schema: {
        tags: ['saved-views'],
        summary: 'Renames a view, changes its scope or replaces its state (its owner only)',
        params: idParams,
        body: updateViewBodySchema,
        response: { 200: savedViewSchema, ...errors },
      },
    },
    async (request) => updateView(app.db, await viewUserOf(request), request.params.id, request.body),
  );

  api.delete(
    '/:id',
    {
      schema: {
        tags: ['saved-views'],
        summary: 'Deletes a view (its owner only); it stops being anyone’s default',
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteView(app.db, await viewUserOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.put(
    '/default',
    {
      schema: {
        tags: ['saved-views'],
        summary: "Sets the user's default view of a list (any view they may see), or clears it with null",
        body: setDefaultViewBodySchema,
        response: { 200: defaultViewSchema, ...errors },
      },
    },
    async (request) => setDefaultView(app.db, await viewUserOf(request), request.body),
  );
}
