// Bulk mails (issue 17): a campaign mails one template to an audience of contacts — a query tree over
// the contact fields (contracts/marketing.ts contactQueryFields), the same structure as the staging
// products builder — now or at a scheduled time, through a throttled, restartable send job.
import { z } from 'zod';
import { intParam } from './int-param';
import {
  type CampaignStatus,
  campaignStatuses,
  type RecipientState,
  recipientStates,
  templateLanguages,
} from './marketing';
import { taskStatusSchema } from './notifications';
import { queryTreeSchema } from './query-tree';

export const campaignStatusLabels: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  failed: 'Failed',
};
export const recipientStateLabels: Record<RecipientState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  deferred: 'Deferred',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** The menu route whose permissions guard templates and campaigns (contracts/routes.ts). */
export const BULK_MAILS_ROUTE = '/marketing/bulk-mails';

/** The send job's task name: its toast reads "Bulk mail Completed" (SPEC §7 "{task name} {status}"). */
export const CAMPAIGN_TASK_NAME = 'Bulk mail';
export const MAX_RATE_PER_SECOND = 2000;
export const MAX_RESPONSE_OPTIONS = 5;

const answerSchema = z
  .string()
  .trim()
  .min(1, 'Write the answer')
  .max(40, 'An answer must be at most 40 characters');

export const audienceSchema = z.object({
  query: queryTreeSchema,
  search: z.string().trim().max(100).default(''),
});
export type Audience = z.infer<typeof audienceSchema>;

export const campaignInputSchema = z.object({
  name: z.string().trim().min(1, 'Name the campaign').max(120, 'The name must be at most 120 characters'),
  templateId: z.uuid('Choose a template'),
  /** The template version for contacts whose language it lacks. */
  fallbackLanguage: z.enum(templateLanguages),
  audience: audienceSchema,
  /** The saved contacts view the audience came from, if any (kept for the campaign page). */
  audienceViewId: z.uuid().nullable().default(null),
  /** Answers offered as buttons in the mail (/responseCollection); none: the mail asks for no answer. */
  responseOptions: z
    .array(answerSchema)
    .max(MAX_RESPONSE_OPTIONS, `At most ${MAX_RESPONSE_OPTIONS} answers`)
    .default([]),
  /**
   * The answers as each template language's mail shows them, in the order of `responseOptions` (which
   * are what is counted). A language without its wording shows `responseOptions`.
   */
  responseLabels: z
    .partialRecord(z.enum(templateLanguages), z.array(answerSchema).max(MAX_RESPONSE_OPTIONS))
    .default({}),
  ratePerSecond: z.number().int().min(1).max(MAX_RATE_PER_SECOND).default(50),
});
export type CampaignInput = z.input<typeof campaignInputSchema>;

export const updateCampaignSchema = campaignInputSchema.extend({ version: z.number().int() });

/** POST /:id/send: now (no `scheduledAt`) or at a time that must be in the future. */
export const sendCampaignSchema = z.object({
  scheduledAt: z.iso.datetime({ offset: true }).nullable().default(null),
  version: z.number().int(),
});

export const recipientCountsSchema = z.object(
  Object.fromEntries(recipientStates.map((state) => [state, z.number().int()])) as Record<
    RecipientState,
    z.ZodNumber
  >,
);

export const campaignSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(campaignStatuses),
  templateId: z.string().nullable(),
  templateName: z.string().nullable(),
  total: z.number().int(),
  counts: recipientCountsSchema,
  responses: z.number().int(),
  unsubscribes: z.number().int(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const campaignSchema = campaignSummarySchema.extend({
  version: z.number().int(),
  fallbackLanguage: z.enum(templateLanguages),
  audience: audienceSchema,
  audienceViewId: z.string().nullable(),
  responseOptions: z.array(z.string()),
  responseLabels: z.partialRecord(z.enum(templateLanguages), z.array(z.string())),
  ratePerSecond: z.number().int(),
  error: z.string().nullable(),
  /** Answers by option, for the campaign page and the dashboard. */
  responsesByAnswer: z.array(z.object({ response: z.string(), count: z.number().int() })),
  /** Recipients by language version sent. */
  byLanguage: z.array(z.object({ language: z.string(), count: z.number().int() })),
});
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignListQuerySchema = z.object({
  skip: intParam.default(0),
  limit: intParam.min(1).max(100).default(20),
  status: z.enum(campaignStatuses).optional(),
  query: z.string().trim().max(100).default(''),
});
export const campaignListSchema = z.object({
  result: z.array(campaignSummarySchema),
  count: z.number().int(),
});

/** POST /audienceCount: the live count while the filters change, and a few of the contacts. */
export const audienceCountSchema = z.object({
  /** Contacts the query matches. */
  matching: z.number().int(),
  /** Of those, the ones that would be mailed (subscribed: not unsubscribed, not bounced). */
  mailable: z.number().int(),
  sample: z.array(z.object({ id: z.string(), name: z.string(), email: z.string(), language: z.string() })),
});
export type AudienceCount = z.infer<typeof audienceCountSchema>;

export const recipientSchema = z.object({
  contactId: z.string(),
  name: z.string(),
  email: z.string(),
  language: z.string(),
  state: z.enum(recipientStates),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type Recipient = z.infer<typeof recipientSchema>;
export const recipientListQuerySchema = z.object({
  skip: intParam.default(0),
  limit: intParam.min(1).max(100).default(20),
  state: z.enum(recipientStates).optional(),
  query: z.string().trim().max(100).default(''),
});
export const recipientListSchema = z.object({ result: z.array(recipientSchema), count: z.number().int() });

export const campaignResponseSchema = z.object({
  email: z.string(),
  name: z.string(),
  response: z.string(),
  comment: z.string().nullable(),
  at: z.string(),
});
export const campaignResponseListSchema = z.object({
  result: z.array(campaignResponseSchema),
  count: z.number().int(),
});
export const campaignUnsubscribeListSchema = z.object({
  result: z.array(
    z.object({ email: z.string(), name: z.string(), method: z.string().nullable(), at: z.string() }),
  ),
  count: z.number().int(),
});

export const sendAnswerSchema = z.object({
  campaign: campaignSchema,
  taskStatus: taskStatusSchema.nullable(),
});

/** GET /:id/responses and /:id/unsubscribes: a page at a time, newest first. */
export const campaignPageQuerySchema = z.object({
  skip: intParam.default(0),
  limit: intParam.min(1).max(100).default(20),
});

/** POST /:id/pause: the campaign as it is now (sending stops after the chunk in flight). */
export const pauseAnswerSchema = z.object({ campaign: campaignSchema });

export type { CampaignStatus, RecipientState };
