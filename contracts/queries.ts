// Customer queries (issue 30; SPEC §7 Record service helperQuery): the inbox, a query's page and its
// actions. Status moves follow contracts/domain/query-status.ts; the server says why a move is refused.
import { z } from 'zod';
import { queryChannels, queryPriorities, queryStatuses } from './domain/query-status';
import { INT4_MAX, intParam } from './int-param';

export const QUERIES_ROUTE = '/queries/queries-request';
export const QUERIES_API = '/api/v1/helperQuery';
/** One query's page, where its notifications and timeline entries lead. */
export const QUERY_PAGE = '/queries/query';
export const queryPageLink = (id: string) => `${QUERY_PAGE}?id=${id}`;

const text = (max: number, message: string) => z.string().trim().min(1, message).max(max);

export const queryListQuerySchema = z.object({
  status: z.enum(queryStatuses).optional(),
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  /** 'me', 'none' (unassigned) or a user's id. */
  assigneeId: z.union([z.enum(['me', 'none']), z.uuid('Choose an assignee from the list.')]).optional(),
  channel: z.enum(queryChannels).optional(),
  priority: z.enum(queryPriorities).optional(),
  /** Only queries whose follow-up is past due. */
  overdue: z.stringbool().optional(),
  /** Only queries that missed an SLA target. */
  slaBreached: z.stringbool().optional(),
  /** Created on or after / before the end of these days (YYYY-MM-DD, UTC). */
  from: z.iso.date('A date is written YYYY-MM-DD.').optional(),
  to: z.iso.date('A date is written YYYY-MM-DD.').optional(),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});
export type QueryListQuery = z.infer<typeof queryListQuerySchema>;

export const querySearchQuerySchema = queryListQuerySchema.extend({
  query: z.string().trim().max(200, 'Search with at most 200 characters.').default(''),
});

export const slaClockSchema = z.object({
  /** Office-hour minutes allowed. */
  targetMinutes: z.number(),
  /** running: counting; paused: waiting for the customer; met / breached: stopped. */
  state: z.enum(['running', 'paused', 'met', 'breached']),
  /** When the target falls (running clocks only). */
  dueAt: z.string().nullable(),
  /** Office-hour minutes used so far. */
  usedMinutes: z.number(),
});
export type SlaClock = z.infer<typeof slaClockSchema>;

export const queryListItemSchema = z.object({
  id: z.string(),
  number: z.number(),
  sellerId: z.string().nullable(),
  sellerName: z.string().nullable(),
  customerName: z.string(),
  email: z.string(),
  subject: z.string(),
  status: z.enum(queryStatuses),
  priority: z.enum(queryPriorities),
  channel: z.enum(queryChannels),
  assigneeId: z.string().nullable(),
  assigneeName: z.string().nullable(),
  nextFollowUpAt: z.string().nullable(),
  /** The follow-up is past due. */
  overdue: z.boolean(),
  slaBreached: z.boolean(),
  /** The nearest running SLA deadline. */
  slaDueAt: z.string().nullable(),
  lastActivityAt: z.string(),
  createdAt: z.string(),
});
export type QueryListItem = z.infer<typeof queryListItemSchema>;

export const queryTabsSchema = z.object(
  Object.fromEntries(queryStatuses.map((status) => [status, z.number()])) as Record<
    (typeof queryStatuses)[number],
    z.ZodNumber
  >,
);
export type QueryTabs = z.infer<typeof queryTabsSchema>;

export const queryListSchema = z.object({
  result: z.array(queryListItemSchema),
  /** Rows matching every filter (a bounded count: `totalCapped` when there are more). */
  total: z.number(),
  totalCapped: z.boolean(),
  /** Queries per status the caller may see, from the maintained counters (the tabs). */
  tabs: queryTabsSchema,
});
export type QueryList = z.infer<typeof queryListSchema>;

export const queryEventKinds = [
  'message_in',
  'message_out',
  'note',
  'call',
  'email',
  'status',
  'assign',
  'priority',
  'follow_up',
  'snooze',
] as const;
export type QueryEventKind = (typeof queryEventKinds)[number];

export const queryEventSchema = z.object({
  id: z.string(),
  seq: z.number(),
  kind: z.enum(queryEventKinds),
  actorName: z.string(),
  body: z.string(),
  /** The body was cut at EVENT_PREVIEW characters: GET …/events/{eventId} has all of it. */
  truncated: z.boolean(),
  outcome: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type QueryEvent = z.infer<typeof queryEventSchema>;
export const EVENT_PREVIEW = 2000;

export const queryEventPageSchema = z.object({
  result: z.array(queryEventSchema),
  /** Pass as `before` for the next (older) page; null at the first event. */
  nextBefore: z.number().nullable(),
});
export const queryEventPageQuerySchema = z.object({
  before: intParam.min(1).default(INT4_MAX),
  limit: intParam.min(1).max(100).default(30),
});

export const queryDetailSchema = queryListItemSchema.extend({
  phone: z.string(),
  /**
   * The phone can be called from the browser: the call service reaches any number (Twilio is
   * configured), or the number is a back-office user's (the built-in provider rings only those).
   */
  phoneCallable: z.boolean(),
  message: z.string(),
  contactId: z.string().nullable(),
  customerId: z.string().nullable(),
  productId: z.string().nullable(),
  productName: z.string().nullable(),
  followUpNote: z.string(),
  snoozedUntil: z.string().nullable(),
  snoozeReopenOnReply: z.boolean(),
  firstResponseAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  sla: z.object({ firstResponse: slaClockSchema, resolution: slaClockSchema }),
  /** The statuses the query may move to now. */
  nextStatuses: z.array(z.enum(queryStatuses)),
  /** The newest events (the thread); older pages through GET …/{id}/events. */
  events: queryEventPageSchema,
});
export type QueryDetail = z.infer<typeof queryDetailSchema>;

export const createQueryBodySchema = z.object({
  customerName: text(200, 'Enter the customer’s name.'),
  email: z.email('Enter a valid e-mail address.').max(320),
  phone: z.string().trim().max(40).default(''),
  /** Admins and staff choose the seller (none: the marketplace's own); a seller's is always theirs. */
  sellerId: z.uuid('Choose a seller from the list.').nullable().optional(),
  productId: z.uuid('Choose a product from the list.').nullable().optional(),
  subject: text(200, 'Enter a subject.'),
  message: text(20_000, 'Enter the message.'),
  priority: z.enum(queryPriorities).default('normal'),
  channel: z.enum(['manual', 'call', 'email']).default('manual'),
});
export type CreateQueryBody = z.infer<typeof createQueryBodySchema>;

export const statusBodySchema = z.object({ status: z.enum(queryStatuses) });
export const assignBodySchema = z.object({ assigneeId: z.uuid('Choose a person from the list.').nullable() });
export const priorityBodySchema = z.object({ priority: z.enum(queryPriorities) });
export const followUpBodySchema = z.object({
  /** Null clears the follow-up. */
  at: z.iso.datetime({ offset: true, message: 'Give the follow-up a date and time.' }).nullable(),
  note: z.string().trim().max(500).default(''),
});
export const snoozeBodySchema = z.object({
  /** Null ends the snooze. */
  until: z.iso.datetime({ offset: true, message: 'Give the snooze an end date and time.' }).nullable(),
  /** Reopen when the customer writes back (true), or stay snoozed until the date (false). */
  reopenOnReply: z.boolean().default(true),
});

export const connectKinds = ['call', 'email', 'note'] as const;
export const connectDataBodySchema = z.object({
  kind: z.enum(connectKinds),
  /** A call's or e-mail's direction; a note has none. */
  direction: z.enum(['outgoing', 'incoming']).default('outgoing'),
  body: z.string().trim().max(20_000).default(''),
  outcome: z.string().trim().max(200).default(''),
  nextFollowUpAt: z.iso
    .datetime({ offset: true, message: 'Give the follow-up a date and time.' })
    .nullable()
    .optional(),
  followUpNote: z.string().trim().max(500).default(''),
});
export type ConnectDataBody = z.infer<typeof connectDataBodySchema>;

/** What every action answers: the query as it is now. */
export const queryActionResultSchema = queryDetailSchema;

/** POST helperQuery/method/fromChat/{chatId}: a help chat turned into a query by whoever handles it. */
export const fromChatBodySchema = z.object({
  subject: z.string().trim().max(200).default(''),
  priority: z.enum(queryPriorities).default('normal'),
});

/** POST helperQuery/method/fromCall/{callId}: one of the caller's own calls logged as a query. */
export const fromCallBodySchema = z.object({
  customerName: text(200, 'Enter the customer’s name.'),
  email: z.email('Enter a valid e-mail address.').max(320),
  subject: text(200, 'Enter a subject.'),
  message: z.string().trim().max(20_000).default(''),
  priority: z.enum(queryPriorities).default('normal'),
  /** Admins and staff choose the shop; a seller's is always theirs. */
  sellerId: z.uuid('Choose a seller from the list.').nullable().optional(),
});

/** POST helperQuery/{id}/reply: a marketing template mailed to the customer, with a signed answer link. */
export const replyBodySchema = z.object({
  templateId: z.uuid('Choose a template.'),
  /** The template's language to send (default English, else its first). */
  language: z.string().max(5).optional(),
  /** A personal line above the template's text. */
  note: z.string().trim().max(5000).default(''),
});

/** The public answer page's view of the query (GET helperQuery/method/customerReply). */
export const replyPageQuerySchema = z.object({
  query: z.uuid('This reply link is not valid.'),
  token: z.string().min(10, 'This reply link is not valid.').max(200),
});
export const replyPageSchema = z.object({
  number: z.number(),
  subject: z.string(),
  customerName: z.string(),
  open: z.boolean(),
});
export const customerReplyBodySchema = replyPageQuerySchema.extend({
  message: text(20_000, 'Write your answer.'),
});

/** GET helperQuery/method/slaReport: % of SLA targets met, per assignee and per seller (Chatwoot #9747). */
export const slaReportQuerySchema = z.object({
  /** Queries resolved on or after / up to the end of these days (YYYY-MM-DD, UTC). */
  from: z.iso.date('A date is written YYYY-MM-DD.'),
  to: z.iso.date('A date is written YYYY-MM-DD.'),
  sellerId: z.uuid('Choose a seller from the list.').optional(),
});
export const slaReportRowSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  resolved: z.number(),
  firstResponseMet: z.number(),
  firstResponseCounted: z.number(),
  /** Percent met, one decimal; null when no clock of the kind stopped. */
  firstResponseRate: z.number().nullable(),
  resolutionMet: z.number(),
  resolutionCounted: z.number(),
  resolutionRate: z.number().nullable(),
});
export type SlaReportRow = z.infer<typeof slaReportRowSchema>;
export const slaReportSchema = z.object({
  byAssignee: z.array(slaReportRowSchema),
  bySeller: z.array(slaReportRowSchema),
});
export type SlaReport = z.infer<typeof slaReportSchema>;
