// Bulk mail campaigns API (issue 17), under /api/v1/campaigns. Permissions of the Bulk Mails page:
// view reads; create composes, sends and test-mails; edit changes drafts, pauses and resumes; delete
// deletes drafts. Sellers have none of them (403).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../contracts/auth';
import {
  audienceCountSchema,
  audienceSchema,
  BULK_MAILS_ROUTE,
  campaignInputSchema,
  campaignListQuerySchema,
  campaignListSchema,
  campaignPageQuerySchema,
  campaignResponseListSchema,
  campaignSchema,
  campaignUnsubscribeListSchema,
  pauseAnswerSchema,
  recipientListQuerySchema,
  recipientListSchema,
  sendAnswerSchema,
  sendCampaignSchema,
  updateCampaignSchema,
} from '../../../contracts/campaigns';
import type { RouteAction } from '../../../contracts/routes';
import type { Config } from '../../config';
import { errorResponses } from '../../lib/error-responses';
import { loadContactFields } from '../contacts/audience';
import { queryFieldListSchema } from '../products/query-fields';
import { actorOf } from '../users/actor';
import { createCampaign, deleteCampaign, listCampaigns, readCampaign, updateCampaign } from './campaigns';
import { audienceCount, listRecipients, listResponses, listUnsubscribes } from './reports';
import { sendJobHandler } from './send-job';
import { CAMPAIGN_SEND_KIND, pauseCampaign, resumeCampaign, sendCampaign } from './sending';
import { sendTestMail } from './test-mail';

const allowed = (action: RouteAction) => ({ permission: { route: BULK_MAILS_ROUTE, action } });
const errors = errorResponses(400, 403, 404, 409, 502);
const tags = ['campaigns'];
const idParams = z.object({ id: z.uuid('There is no such campaign.') });

export async function campaignRoutes(app: FastifyInstance, options: { config: Config }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config } = options;
  app.jobs.register(
    CAMPAIGN_SEND_KIND,
    sendJobHandler({
      db: app.db,
      mailer: app.mailer,
      links: app.mailLinks,
      publicUrl: config.publicUrl,
    }),
  );
  /** Work already committed: wake this process's worker rather than wait for its next poll. */
  const wake = () => app.jobs.worker.wake();

  api.get(
    '/',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'Campaigns, newest first, a page at a time (status filter, name search)',
        querystring: campaignListQuerySchema,
        response: { 200: campaignListSchema, ...errors },
      },
    },
    async (request) => listCampaigns(app.db, request.query),
  );

  // The contact fields for the audience builder, for whoever composes campaigns: composing needs no
  // right on the Contacts page (the same list is /contacts/queryFields there).
  api.get(
    '/audienceFields',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'The contact fields an audience may filter on, with their options',
        response: { 200: queryFieldListSchema, ...errors },
      },
    },
    async () => ({ result: await loadContactFields(app.db) }),
  );

  api.post(
    '/audienceCount',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'How many contacts an audience matches and how many can be mailed, with a sample',
        body: audienceSchema,
        response: { 200: audienceCountSchema, ...errors },
      },
    },
    async (request) => audienceCount(app.db, request.body),
  );

  api.post(
    '/',
    {
      config: allowed('create'),
      schema: {
        tags,
        summary: 'Create a draft campaign',
        body: campaignInputSchema,
        response: { 201: campaignSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createCampaign(app.db, request.body, await actorOf(app.db, request))),
  );

  api.get(
    '/:id',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'A campaign with its counts, answers by option and recipients by language',
        params: idParams,
        response: { 200: campaignSchema, ...errors },
      },
    },
    async (request) => readCampaign(app.db, request.params.id),
  );

  api.put(
    '/:id',
    {
      config: allowed('edit'),
      schema: {
        tags,
        summary: 'Change a draft or scheduled campaign at the version it was read',
        params: idParams,
        body: updateCampaignSchema,
        response: { 200: campaignSchema, ...errors },
      },
    },
    async (request) =>
      updateCampaign(app.db, request.params.id, request.body, await actorOf(app.db, request)),
  );

  api.delete(
    '/:id',
    {
      config: allowed('delete'),
      schema: {
        tags,
        summary: 'Delete a draft or scheduled campaign',
        params: idParams,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      await deleteCampaign(app.db, request.params.id);
      return { message: 'The campaign was deleted.' };
    },
  );

  api.post(
    '/:id/testMail',
    {
      config: allowed('create'),
      schema: {
        tags,
        summary: 'Send the campaign’s mail to yourself, with [Test] before the subject',
        params: idParams,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) =>
      sendTestMail(
        app.db,
        { mailer: app.mailer, publicUrl: config.publicUrl },
        request.params.id,
        request.user.id,
      ),
  );

  api.post(
    '/:id/send',
    {
      config: allowed('create'),
      schema: {
        tags,
        summary: 'Send now (the audience is frozen and a job sends it) or schedule for a future time',
        params: idParams,
        body: sendCampaignSchema,
        response: { 200: sendAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const taskStatus = await sendCampaign(
        app.db,
        request.params.id,
        request.body,
        await actorOf(app.db, request),
      );
      if (taskStatus) wake();
      return { campaign: await readCampaign(app.db, request.params.id), taskStatus };
    },
  );

  api.post(
    '/:id/pause',
    {
      config: allowed('edit'),
      schema: {
        tags,
        summary: 'Pause sending (it stops after the chunk in flight)',
        params: idParams,
        response: { 200: pauseAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await pauseCampaign(app.db, request.params.id, await actorOf(app.db, request));
      // A job that was waiting is due now: it ends its task as Paused.
      wake();
      return { campaign: await readCampaign(app.db, request.params.id) };
    },
  );

  api.post(
    '/:id/resume',
    {
      config: allowed('edit'),
      schema: {
        tags,
        summary: 'Resume a paused campaign',
        params: idParams,
        response: { 200: sendAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const taskStatus = await resumeCampaign(app.db, request.params.id, await actorOf(app.db, request));
      wake();
      return { campaign: await readCampaign(app.db, request.params.id), taskStatus };
    },
  );

  api.get(
    '/:id/recipients',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'The campaign’s recipients with their state, a page at a time (state filter, search)',
        params: idParams,
        querystring: recipientListQuerySchema,
        response: { 200: recipientListSchema, ...errors },
      },
    },
    async (request) => listRecipients(app.db, request.params.id, request.query),
  );

  api.get(
    '/:id/responses',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'Answers to the campaign’s mail, newest first',
        params: idParams,
        querystring: campaignPageQuerySchema,
        response: { 200: campaignResponseListSchema, ...errors },
      },
    },
    async (request) => listResponses(app.db, request.params.id, request.query),
  );

  api.get(
    '/:id/unsubscribes',
    {
      config: allowed('view'),
      schema: {
        tags,
        summary: 'Contacts the campaign mailed who unsubscribed afterwards',
        params: idParams,
        querystring: campaignPageQuerySchema,
        response: { 200: campaignUnsubscribeListSchema, ...errors },
      },
    },
    async (request) => listUnsubscribes(app.db, request.params.id, request.query),
  );
}
