// The customer queries API (issue 30) under /api/v1/helperQuery, with SPEC §7's names: GET helperQuery,
// GET helperQuery/{id}, GET helperQuery/method/searchQueries, POST helperQuery/method/addConnectData/{id}.
// The inbox's routes need the Queries permission, one query's routes the Query page's (view to read,
// edit to change; both have the same defaults per role); a seller sees only their own
// shop's queries (another shop's answer 404, never 403, so their existence does not leak).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normalisePhoneNumber, phoneDigits } from '../../../contracts/calls';
import { contactTimelineSchema, timelineQuerySchema } from '../../../contracts/contacts';
import {
  nextQueryStatuses,
  type QueryChannel,
  type QueryPriority,
  type QueryStatus,
  queryPriorities,
} from '../../../contracts/domain/query-status';
import { templateListQuerySchema, templateListSchema } from '../../../contracts/mail-templates';
import {
  assignBodySchema,
  connectDataBodySchema,
  createQueryBodySchema,
  customerReplyBodySchema,
  followUpBodySchema,
  fromCallBodySchema,
  fromChatBodySchema,
  priorityBodySchema,
  QUERIES_ROUTE,
  QUERY_PAGE,
  queryActionResultSchema,
  queryDetailSchema,
  queryEventPageQuerySchema,
  queryEventPageSchema,
  queryEventSchema,
  queryListQuerySchema,
  queryListSchema,
  querySearchQuerySchema,
  replyBodySchema,
  replyPageQuerySchema,
  replyPageSchema,
  slaReportQuerySchema,
  slaReportSchema,
  snoozeBodySchema,
  statusBodySchema,
} from '../../../contracts/queries';
import type { Db, Tx } from '../../db/client';
import type { Actor } from '../../lib/audit';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { sweepWhileUp } from '../../lib/periodic-sweep';
import { permissionOn, viewerOf } from '../../lib/route-viewer';
import { requestLimit } from '../../plugins/rate-limits';
import { contactTimeline } from '../contacts/timeline';
import { listTemplates } from '../mail-templates/templates';
import { actorOf } from '../users/actor';
import { findNumberOwner } from '../voice/phone-numbers';
import { announceNewQuery } from './announce';
import { queryFromCall, queryFromChat } from './conversions';
import { dueReminders } from './follow-ups';
import { customerReply, type ReplyLinks, replyFromTemplate, replyPage } from './reply';
import {
  act,
  assertAssignable,
  assigneeName,
  clocksOf,
  createQuery,
  type EventInput,
  eventPage,
  findVisible,
  listQueries,
  moveTo,
  productName,
  type QueryRow,
  readEvent,
  type SlaSettings,
  sellerNameOf,
  type Viewer,
} from './repository';
import { slaReport, slaReportCsv } from './sla-report';

const permission = permissionOn(QUERIES_ROUTE);
/** One record's own API answers to its page's permission (the list's defaults, overridable apart). */
const onPage = permissionOn(QUERY_PAGE);
const tags = ['queries'];
const idParams = z.object({ id: z.uuid('There is no such query.') });
const eventParams = idParams.extend({ eventId: z.uuid('There is no such event on this query.') });

/** The SLA targets and the calendar they count in: the marketplace's communication and time zone. */
export async function slaSettings(app: FastifyInstance): Promise<SlaSettings> {
  const settings = await app.settings.effective(null);
  return {
    targets: settings.communication.slaTargets,
    calendar: {
      hours: settings.communication.officeHours,
      holidays: settings.communication.holidays,
      timeZone: settings.localization.timeZone,
    },
  };
}

/** Whether the browser's call service can ring this number (see queryDetailSchema.phoneCallable). */
async function phoneCallable(db: Db, phone: string, reachesAnyNumber: boolean): Promise<boolean> {
  const number = normalisePhoneNumber(phone);
  if (!number) return false;
  return reachesAnyNumber || Boolean(await findNumberOwner(db, phoneDigits(number)));
}

async function detail(
  app: FastifyInstance,
  db: Db,
  viewer: Viewer,
  id: string,
  now: Date,
  reachesAnyNumber: boolean,
) {
  const row = await findVisible(db, viewer, id);
  const sla = await slaSettings(app);
  const [clocks, events, assignee, product, seller, callable] = await Promise.all([
    clocksOf(db, row, sla, now),
    eventPage(db, id, Number.MAX_SAFE_INTEGER, 30),
    assigneeName(db, row.assigneeId),
    productName(db, row.productId),
    sellerNameOf(db, row.sellerId),
    phoneCallable(db, row.phone, reachesAnyNumber),
  ]);
  const dues = [clocks.firstResponse.dueAt, clocks.resolution.dueAt]
    .filter((d): d is string => d !== null)
    .sort();
  return {
    id: row.id,
    number: row.number,
    sellerId: row.sellerId,
    sellerName: seller,
    customerName: row.customerName,
    email: row.email,
    phone: row.phone,
    phoneCallable: callable,
    subject: row.subject,
    message: row.message,
    status: row.status as QueryStatus,
    priority: row.priority as QueryPriority,
    channel: row.channel as QueryChannel,
    assigneeId: row.assigneeId,
    assigneeName: assignee,
    contactId: row.contactId,
    customerId: row.customerId,
    productId: row.productId,
    productName: product,
    nextFollowUpAt: row.nextFollowUpAt?.toISOString() ?? null,
    overdue: row.nextFollowUpAt !== null && row.nextFollowUpAt.getTime() < now.getTime(),
    followUpNote: row.followUpNote,
    snoozedUntil: row.snoozedUntil?.toISOString() ?? null,
    snoozeReopenOnReply: row.snoozeReopenOnReply,
    firstResponseAt: row.firstResponseAt?.toISOString() ?? null,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    slaBreached:
      row.slaBreached || clocks.firstResponse.state === 'breached' || clocks.resolution.state === 'breached',
    slaDueAt: dues[0] ?? null,
    sla: clocks,
    nextStatuses: [...nextQueryStatuses(row.status as QueryStatus)],
    events,
    lastActivityAt: row.lastActivityAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Sends the reminders due at `now` (the sweep, and the e2e test hook). */
export async function runDueFollowUps(app: FastifyInstance, now: Date): Promise<number> {
  const reminders = await dueReminders(app.db, now);
  for (const reminder of reminders) await app.notifications.notify(reminder.userId, reminder.input);
  return reminders.length;
}

const SWEEP_MS = 30_000;

export async function queryRoutes(
  app: FastifyInstance,
  options: {
    links: ReplyLinks /** Twilio is configured: calls reach any number. */;
    callsReachAnyNumber: boolean;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { links } = options;
  const detailOf = (viewer: Viewer, id: string, now = new Date()) =>
    detail(app, app.db, viewer, id, now, options.callsReachAnyNumber);

  // Every instance sweeps; each due row is claimed by one UPDATE, so reminders go out once.
  sweepWhileUp(app, {
    name: 'follow-up sweep',
    everyMs: SWEEP_MS,
    log: app.log,
    run: () => runDueFollowUps(app, new Date()),
  });

  api.get(
    '/',
    {
      config: permission('view'),
      schema: {
        tags,
        summary: 'A page of customer queries, with the tab counts (helperQuery list)',
        querystring: queryListQuerySchema,
        response: { 200: queryListSchema, ...errors },
      },
    },
    async (request) => listQueries(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/method/searchQueries',
    {
      config: permission('view'),
      schema: {
        tags,
        summary: 'Customer queries matching a search, with every list filter',
        querystring: querySearchQuerySchema,
        response: { 200: queryListSchema, ...errors },
      },
    },
    async (request) => listQueries(app.db, viewerOf(request), request.query),
  );

  api.post(
    '/',
    {
      config: permission('edit'),
      schema: {
        tags,
        summary: 'Enter a query by hand (a call, an e-mail, a walk-in)',
        body: createQueryBodySchema,
        response: { 201: queryDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const body = request.body;
      const sellerId = viewer.isSeller ? viewer.sellerId : (body.sellerId ?? null);
      if (viewer.isSeller && !sellerId) throw new HttpError(403, 'Your account is not linked to a shop.');
      const actor = await actorOf(app.db, request);
      const id = await createQuery(
        app.db,
        { ...body, sellerId, actor, channel: body.channel },
        await slaSettings(app),
      );
      await announceNewQuery(app, id, viewer.userId);
      reply.code(201);
      return detailOf(viewer, id);
    },
  );

  /** A chat or call made into a query: 201 and the shop told when new, 200 with the same query after. */
  const answerConversion = async (
    request: FastifyRequest,
    reply: FastifyReply,
    make: (viewer: Viewer, actor: Actor, sla: SlaSettings) => Promise<{ id: string; created: boolean }>,
  ) => {
    const viewer = viewerOf(request);
    const made = await make(viewer, await actorOf(app.db, request), await slaSettings(app));
    if (made.created) await announceNewQuery(app, made.id, viewer.userId);
    reply.code(made.created ? 201 : 200);
    return detailOf(viewer, made.id);
  };

  const chatParams = z.object({ chatId: z.uuid('There is no such help chat.') });
  api.post(
    '/method/fromChat/:chatId',
    {
      config: permission('edit'),
      schema: {
        tags,
        summary: 'Turn a help chat into a query (a second call answers the same query)',
        params: chatParams,
        body: fromChatBodySchema,
        response: { 200: queryDetailSchema, 201: queryDetailSchema, ...errors },
      },
    },
    async (request, reply) =>
      answerConversion(request, reply, (viewer, actor, sla) =>
        queryFromChat(app.db, viewer, actor, request.params.chatId, request.body, sla),
      ),
  );

  const callParams = z.object({ callId: z.uuid('There is no such call in your call history.') });
  api.post(
    '/method/fromCall/:callId',
    {
      config: permission('edit'),
      schema: {
        tags,
        summary: 'Log one of your calls as a query (a second call answers the same query)',
        params: callParams,
        body: fromCallBodySchema,
        response: { 200: queryDetailSchema, 201: queryDetailSchema, ...errors },
      },
    },
    async (request, reply) =>
      answerConversion(request, reply, (viewer, actor, sla) =>
        queryFromCall(app.db, viewer, actor, request.params.callId, request.body, sla),
      ),
  );

  api.post(
    '/:id/reply',
    {
      config: onPage('edit'),
      schema: {
        tags,
        summary:
          'Mail the customer a marketing template with a signed link to answer; recorded in the thread',
        params: idParams,
        body: replyBodySchema,
        response: { 200: queryDetailSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const actor = await actorOf(app.db, request);
      await replyFromTemplate(
        app,
        links,
        viewer,
        actor,
        request.params.id,
        request.body,
        await slaSettings(app),
      );
      return detailOf(viewer, request.params.id);
    },
  );

  // The customer's side of the signed link: no account, the HMAC token is the proof; throttled per address.
  const throttle = requestLimit(app, {
    name: 'query-replies',
    max: 20,
    timeWindow: 10 * 60_000,
    message: 'Too many answers from here. Try again in a few minutes.',
  });
  api.get(
    '/method/customerReply',
    {
      config: { public: true },
      preHandler: throttle,
      schema: {
        tags,
        summary: 'The query a signed reply link answers (the public answer page)',
        querystring: replyPageQuerySchema,
        response: { 200: replyPageSchema, ...errors },
      },
    },
    async (request) => replyPage(app, links, request.query.query, request.query.token),
  );
  api.post(
    '/method/customerReply',
    {
      config: { public: true },
      preHandler: throttle,
      schema: {
        tags,
        summary: "The customer's answer through the signed link: into the thread, reopening the query",
        body: customerReplyBodySchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await customerReply(app, links, request.body, await slaSettings(app));
      return { message: 'Thank you. Your answer has reached us.' };
    },
  );

  api.get(
    '/method/replyTemplates',
    {
      // Whoever may answer a query picks the reply's template, without the Bulk Mails permission.
      config: permission('edit'),
      schema: {
        tags,
        summary: 'The mail templates a reply may use, by name, a page at a time',
        querystring: templateListQuerySchema,
        response: { 200: templateListSchema, ...errors },
      },
    },
    async (request) => listTemplates(app.db, request.query),
  );

  api.get(
    '/method/slaReport',
    {
      config: permission('view'),
      schema: {
        tags,
        summary:
          '% of SLA targets met per assignee and per seller, over the queries resolved in a date range',
        querystring: slaReportQuerySchema,
        response: { 200: slaReportSchema, ...errors },
      },
    },
    async (request) => slaReport(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/method/slaReport.csv',
    {
      config: permission('view'),
      schema: {
        tags,
        summary: 'The SLA report as a CSV file (safe to open in any spreadsheet)',
        querystring: slaReportQuerySchema,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const report = await slaReport(app.db, viewerOf(request), request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sla-report-${from}-to-${to}.csv"`)
        .send(slaReportCsv(report));
    },
  );

  api.get(
    '/:id',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'A query: its message, thread, SLA clocks, follow-up and the moves it may make',
        params: idParams,
        response: { 200: queryDetailSchema, ...errors },
      },
    },
    async (request) => detailOf(viewerOf(request), request.params.id),
  );

  api.get(
    '/:id/events',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: "Older events of a query's thread, newest first",
        params: idParams,
        querystring: queryEventPageQuerySchema,
        response: { 200: queryEventPageSchema, ...errors },
      },
    },
    async (request) => {
      await findVisible(app.db, viewerOf(request), request.params.id);
      return eventPage(app.db, request.params.id, request.query.before, request.query.limit);
    },
  );

  api.get(
    '/:id/contactHistory',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: "The customer's timeline across every channel, from a query's page (a page, newest first)",
        description:
          'The same entries as getContactHistory for whoever may open the query: a seller sees only their own shop’s chats, queries, offers and calls; staff and admins everything, the marketing trail included. A query with no contact has an empty timeline.',
        params: idParams,
        querystring: timelineQuerySchema,
        response: { 200: contactTimelineSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const query = await findVisible(app.db, viewer, request.params.id);
      if (!query.contactId) return { result: [], count: 0 };
      const scope = viewer.isSeller && viewer.sellerId ? { sellerId: viewer.sellerId } : {};
      return contactTimeline(app.db, query.contactId, request.query, scope);
    },
  );

  api.get(
    '/:id/events/:eventId',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'One event of the thread with its whole body',
        params: eventParams,
        response: { 200: queryEventSchema, ...errors },
      },
    },
    async (request) => readEvent(app.db, viewerOf(request), request.params.id, request.params.eventId),
  );

  /** One action route: the change under the row lock, then the query as it is now. */
  const action = <B extends z.ZodType>(
    path: string,
    summary: string,
    body: B,
    change: (
      row: QueryRow,
      body: z.infer<B>,
      tx: Tx,
      now: Date,
    ) =>
      | Promise<{ set: Record<string, unknown>; events: EventInput[] }>
      | { set: Record<string, unknown>; events: EventInput[] },
  ) =>
    api.post(
      path,
      {
        config: onPage('edit'),
        schema: {
          tags,
          summary,
          params: idParams,
          body,
          response: { 200: queryActionResultSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = viewerOf(request);
        const actor = await actorOf(app.db, request);
        const now = new Date();
        await act(app.db, viewer, actor, request.params.id, await slaSettings(app), now, (row, tx) =>
          change(row, request.body as z.infer<B>, tx, now),
        );
        return detailOf(viewer, request.params.id, now);
      },
    );

  action(
    '/:id/status',
    'Move a query to another status (the server says why a move is refused)',
    statusBodySchema,
    (row, body, _tx, now) => {
      const { set, event } = moveTo(row, body.status, now);
      return { set, events: [event] };
    },
  );

  action(
    '/:id/assign',
    'Give a query to a person (their follow-up reminders follow)',
    assignBodySchema,
    async (row, body, tx) => {
      if (body.assigneeId) await assertAssignable(tx, body.assigneeId, row.sellerId);
      const name = await assigneeName(tx, body.assigneeId);
      return {
        set: { assigneeId: body.assigneeId },
        events: [
          {
            kind: 'assign',
            body: name ? `Assigned to ${name}` : 'Unassigned',
            data: { assigneeId: body.assigneeId },
          },
        ],
      };
    },
  );

  action('/:id/priority', 'Change the priority (the SLA targets follow)', priorityBodySchema, (row, body) => {
    if (!queryPriorities.includes(body.priority)) throw new HttpError(400, 'Choose a priority.');
    return {
      set: { priority: body.priority },
      events: [{ kind: 'priority', data: { from: row.priority, to: body.priority } }],
    };
  });

  action(
    '/:id/follow-up',
    'Set or clear the next follow-up (owned by the assignee)',
    followUpBodySchema,
    (row, body) => {
      refuseWhenFinished(row);
      return {
        set: {
          nextFollowUpAt: body.at ? new Date(body.at) : null,
          followUpNote: body.note,
          followUpNotifiedAt: null,
        },
        events: [{ kind: 'follow_up', body: body.note, data: { at: body.at } }],
      };
    },
  );

  action(
    '/:id/snooze',
    'Snooze until a time: reopen on the customer’s reply, or stay snoozed',
    snoozeBodySchema,
    (row, body) => {
      refuseWhenFinished(row);
      const status = row.status as QueryStatus;
      const set: Record<string, unknown> = {
        snoozedUntil: body.until ? new Date(body.until) : null,
        snoozeReopenOnReply: body.reopenOnReply,
      };
      const events: EventInput[] = [
        { kind: 'snooze', data: { until: body.until, reopenOnReply: body.reopenOnReply } },
      ];
      // Snoozing waits for the customer (the SLA clocks pause).
      if (body.until && status !== 'waiting') {
        const move = moveTo(row, 'waiting', new Date());
        Object.assign(set, move.set);
        events.unshift(move.event);
      }
      return { set, events };
    },
  );

  action(
    '/method/addConnectData/:id',
    'Log a call, an e-mail or a note with its outcome, and the next follow-up',
    connectDataBodySchema,
    (row, body, _tx, now) => {
      const set: Record<string, unknown> = {};
      // An answer to the customer by phone or mail is the first response (the SLA clock stops).
      if (body.kind !== 'note' && body.direction === 'outgoing' && !row.firstResponseAt)
        set.firstResponseAt = now;
      if (body.nextFollowUpAt !== undefined) {
        refuseWhenFinished(row);
        Object.assign(set, {
          nextFollowUpAt: body.nextFollowUpAt ? new Date(body.nextFollowUpAt) : null,
          followUpNote: body.followUpNote,
          followUpNotifiedAt: null,
        });
      }
      const events: EventInput[] = [
        {
          kind: body.kind,
          body: body.body,
          outcome: body.outcome,
          data: { direction: body.kind === 'note' ? null : body.direction },
        },
      ];
      if (body.nextFollowUpAt !== undefined) {
        events.push({ kind: 'follow_up', body: body.followUpNote, data: { at: body.nextFollowUpAt } });
      }
      // Someone picked it up: a new query is open from now on.
      if (row.status === 'new') {
        const move = moveTo(row, 'open', now);
        Object.assign(set, move.set);
        events.unshift(move.event);
      }
      return { set, events };
    },
  );
}

function refuseWhenFinished(row: QueryRow) {
  if (row.status === 'resolved' || row.status === 'closed') {
    throw new HttpError(
      409,
      'A resolved or closed query has no follow-up. Reopen it first.',
      'QUERY_FINISHED',
    );
  }
}

/**
 * Test hooks (E2E_TEST_HOOKS only, never in production): the e2e suite runs the follow-up sweep at a
 * chosen time instead of waiting for it.
 */
export async function queryTestHooks(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/run-follow-ups',
    {
      config: { public: true },
      schema: {
        hide: true,
        body: z.object({ now: z.iso.datetime({ offset: true }) }),
        response: { 200: z.object({ reminders: z.number() }) },
      },
    },
    async (request) => ({ reminders: await runDueFollowUps(app, new Date(request.body.now)) }),
  );
}
