// Call history (issue 6; SPEC §3 "Call log", §7 "Call history") under /api/v1/callHistory/method.
// Everyone sees and updates only their own logs; admins may read everyone's. Reading needs `view` on
// the Call History page; logging one's own calls (generateCall, updateHistory) is part of calling and
// needs only a signed-in user. Another user's log answers 404 like an unknown one, so ids cannot be
// probed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CALL_HISTORY_ROUTE,
  callListSchema,
  callLogDetailSchema,
  callLogSchema,
  generateCallBodySchema,
  generateCallResponseSchema,
  listCallHistoryQuerySchema,
  searchCallHistoryQuerySchema,
  updateHistoryBodySchema,
} from '../../../contracts/calls';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { findCall, insertCall, listCalls, toCallLogDetail, updateCall } from './repository';

export const CALL_NOT_FOUND_MESSAGE = 'Call not found';

const view = { permission: { route: CALL_HISTORY_ROUTE, action: 'view' as const } };
const errors = errorResponses(400, 403, 404);
const idParams = z.object({ id: z.string().uuid('id must be a call id') });
const notFound = () => new HttpError(404, CALL_NOT_FOUND_MESSAGE, 'CALL_NOT_FOUND');

/** Whose logs the reader sees: admins everyone's (undefined), everybody else their own. */
function readableOwner(request: FastifyRequest): string | undefined {
  return request.user.role === 'Admin' ? undefined : request.user.id;
}

export async function callHistoryRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/listCallHistory',
    {
      config: view,
      schema: {
        tags: ['call history'],
        summary: 'Call logs, newest first, paged (admins: everyone’s; others: their own)',
        querystring: listCallHistoryQuerySchema,
        response: { 200: callListSchema, ...errors },
      },
    },
    (request) => listCalls(app.db, { ownerId: readableOwner(request), ...request.query }),
  );

  api.get(
    '/searchCallHistory',
    {
      config: view,
      schema: {
        tags: ['call history'],
        summary:
          'Call logs matching digits of the number, the status, the direction and a created-at range, newest first, paged',
        querystring: searchCallHistoryQuerySchema,
        response: { 200: callListSchema, ...errors },
      },
    },
    (request) => listCalls(app.db, { ownerId: readableOwner(request), ...request.query }),
  );

  api.get(
    '/getCallDetails/:id',
    {
      config: view,
      schema: {
        tags: ['call history'],
        summary: 'One call log with its timeline (status changes, feedback)',
        params: idParams,
        response: { 200: callLogDetailSchema, ...errors },
      },
    },
    async (request) => {
      const row = await findCall(app.db, request.params.id, readableOwner(request));
      if (!row) throw notFound();
      return toCallLogDetail(row);
    },
  );

  api.post(
    '/generateCall',
    {
      schema: {
        tags: ['call history'],
        summary:
          'Log a call the signed-in user makes or receives; the number is matched to a user of this installation',
        body: generateCallBodySchema,
        response: { 200: generateCallResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: { callId: await insertCall(app.db, request.user, request.body) } }),
  );

  api.put(
    '/updateHistory/:id',
    {
      schema: {
        tags: ['call history'],
        summary: 'Update one’s own call log: its details as they now stand and/or the feedback',
        params: idParams,
        body: updateHistoryBodySchema,
        response: { 200: z.object({ data: callLogSchema }), ...errors },
      },
    },
    async (request) => {
      const entry = await updateCall(app.db, request.params.id, request.user.id, request.body);
      if (!entry) throw notFound();
      return { data: entry };
    },
  );
}
