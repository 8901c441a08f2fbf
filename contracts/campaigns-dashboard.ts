// The campaigns dashboard (SPEC §1, issue 17): the landing page's marketing figures, counted live.
import { z } from 'zod';
import { campaignStatuses, contactSources } from './marketing';

const n = z.number().int();

export const campaignsDashboardSchema = z.object({
  totals: z.object({
    contacts: n,
    subscribed: n,
    unsubscribed: n,
    bounced: n,
    campaignsSent: n,
    mailsSent: n,
    mailsFailed: n,
    /** Waiting for a retry right now (temporary refusals). */
    mailsDeferred: n,
    responses: n,
  }),
  /** Per month, the last 12: campaigns that finished and the mails they sent. */
  sentOverTime: z.array(z.object({ month: z.string(), campaigns: n, mails: n })),
  /** The latest campaigns that started, newest first: their rates. */
  perCampaign: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      sent: n,
      failed: n,
      unsubscribes: n,
      responses: n,
      /** Percentages of the mails sent, one decimal. */
      unsubscribeRate: z.number(),
      responseRate: z.number(),
    }),
  ),
  responsesByAnswer: z.array(z.object({ response: z.string(), count: n })),
  latest: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(campaignStatuses),
      total: n,
      done: n,
      sent: n,
      failed: n,
      deferred: n,
      scheduledAt: z.string().nullable(),
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
    }),
  ),
  /** New contacts per month (the last 12) by source. */
  contactsGrowth: z.array(z.object({ month: z.string(), source: z.enum(contactSources), count: n })),
});
export type CampaignsDashboard = z.infer<typeof campaignsDashboardSchema>;
