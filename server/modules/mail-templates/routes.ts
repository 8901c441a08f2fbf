// Mail templates API (issue 17), under /api/v1/mailTemplates. Templates belong to the Bulk Mails page:
// view reads (and previews), edit creates and changes templates, delete deletes them. Sellers have none
// of these permissions and get 403.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../contracts/auth';
import { BULK_MAILS_ROUTE } from '../../../contracts/campaigns';
import {
  mailTemplateSchema,
  savedTemplateSchema,
  templateInputSchema,
  templateListQuerySchema,
  templateListSchema,
  templatePreviewInputSchema,
  templatePreviewSchema,
  updateTemplateSchema,
} from '../../../contracts/mail-templates';
import type { RouteAction } from '../../../contracts/routes';
import { resourceErrors as errors } from '../../lib/error-responses';
import { actorOf } from '../users/actor';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  previewTemplate,
  readTemplate,
  updateTemplate,
} from './templates';

const allowed = (action: RouteAction) => ({ permission: { route: BULK_MAILS_ROUTE, action } });
const tags = ['mail templates'];
const idParams = z.object({ id: z.uuid('There is no such template.') });

export async function mailTemplateRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'Templates by name, a page at a time, with their languages and how many campaigns use them',
        querystring: templateListQuerySchema,
        response: { 200: templateListSchema, ...errors },
      },
    },
    async (request) => listTemplates(app.db, request.query),
  );

  // Before '/:id', so "preview" is never read as an id.
  api.post(
    '/preview',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'Render one language version as edited, for the sample contact or a real one',
        body: templatePreviewInputSchema,
        response: { 200: templatePreviewSchema, ...errors },
      },
    },
    async (request) => previewTemplate(app.db, request.body),
  );

  api.get(
    '/:id',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'A template with every language version',
        params: idParams,
        response: { 200: mailTemplateSchema, ...errors },
      },
    },
    async (request) => readTemplate(app.db, request.params.id),
  );

  api.post(
    '/',
    {
      config: allowed('edit'),
      schema: {
        tags,
        summary: 'Create a template (variables checked, HTML sanitised, plain text generated)',
        body: templateInputSchema,
        response: { 201: savedTemplateSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createTemplate(app.db, request.body, await actorOf(app.db, request))),
  );

  api.put(
    '/:id',
    {
      config: allowed('edit'),
      schema: {
        tags,
        summary: 'Replace a template at the version it was read (409 if someone saved it since)',
        params: idParams,
        body: updateTemplateSchema,
        response: { 200: savedTemplateSchema, ...errors },
      },
    },
    async (request) =>
      updateTemplate(app.db, request.params.id, request.body, await actorOf(app.db, request)),
  );

  api.delete(
    '/:id',
    {
      config: allowed('delete'),
      schema: {
        tags,
        summary: 'Delete a template (refused while a scheduled, sending or paused campaign uses it)',
        params: idParams,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      await deleteTemplate(app.db, request.params.id);
      return { message: 'The template was deleted.' };
    },
  );
}
