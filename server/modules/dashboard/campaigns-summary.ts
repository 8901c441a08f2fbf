// The campaigns dashboard's figures (SPEC §1). Every number is counted from the database; what grows
// with the contacts (recipients, responses) is read through indexes and for a handful of campaigns
// only, and the per-campaign counts come from campaigns.counts, which the send job keeps.
import { sql } from 'drizzle-orm';
import type { CampaignsDashboard } from '../../../contracts/campaigns-dashboard';
import type { CampaignStatus, ContactSource, RecipientCounts } from '../../../contracts/marketing';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { leftAfterThisMail } from '../campaigns/unsubscribes';

const PER_CAMPAIGN = 8;
const LATEST = 5;
const ANSWERS = 10;

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

export async function campaignsDashboard(db: Db): Promise<CampaignsDashboard> {
  const [totals, sentOverTime, perCampaign, answers, latest, growth] = await Promise.all([
    db.execute(sql`
      SELECT
        (SELECT count(*) FROM contacts)::int AS contacts,
        (SELECT count(*) FROM contacts WHERE subscription = 'subscribed')::int AS subscribed,
        (SELECT count(*) FROM contacts WHERE subscription = 'unsubscribed')::int AS unsubscribed,
        (SELECT count(*) FROM contacts WHERE subscription = 'bounced')::int AS bounced,
        (SELECT count(*) FROM campaigns WHERE status = 'sent')::int AS campaigns_sent,
        (SELECT coalesce(sum((counts->>'sent')::int), 0) FROM campaigns)::int AS mails_sent,
        (SELECT coalesce(sum((counts->>'failed')::int), 0) FROM campaigns)::int AS mails_failed,
        (SELECT coalesce(sum((counts->>'deferred')::int), 0) FROM campaigns)::int AS mails_deferred,
        (SELECT count(*) FROM email_responses)::int AS responses`),
    db.execute(sql`
      SELECT to_char(date_trunc('month', coalesce(finished_at, started_at)), 'YYYY-MM') AS month,
             count(*) FILTER (WHERE status = 'sent')::int AS campaigns,
             coalesce(sum((counts->>'sent')::int), 0)::int AS mails
      FROM campaigns
      WHERE started_at > now() - interval '12 months'
      GROUP BY 1 ORDER BY 1`),
    // Unsubscribes as the campaigns list counts them (campaigns/unsubscribes.ts: `r` and `c`).
    db.execute(sql`
      SELECT cm.id, cm.name, cm.counts,
        (SELECT count(*) FROM email_responses er WHERE er.campaign = cm.id::text)::int AS responses,
        (SELECT count(*) FROM campaign_recipients r JOIN contacts c ON c.id = r.contact_id
          WHERE r.campaign_id = cm.id AND ${leftAfterThisMail})::int AS unsubscribes
      FROM campaigns cm
      WHERE cm.started_at IS NOT NULL
      ORDER BY cm.started_at DESC, cm.id
      LIMIT ${PER_CAMPAIGN}`),
    db.execute(sql`
      SELECT response, count(*)::int AS count FROM email_responses
      GROUP BY response ORDER BY count(*) DESC, response LIMIT ${ANSWERS}`),
    db.execute(sql`
      SELECT id, name, status, total, counts, scheduled_at, started_at, finished_at FROM campaigns
      WHERE status <> 'draft'
      ORDER BY coalesce(started_at, scheduled_at, created_at) DESC, id LIMIT ${LATEST}`),
    db.execute(sql`
      SELECT to_char(date_trunc('month', created_at), 'YYYY-MM') AS month, source, count(*)::int AS count
      FROM contacts
      WHERE created_at > date_trunc('month', now()) - interval '11 months'
      GROUP BY 1, 2 ORDER BY 1, 2`),
  ]);
  const t = rowsOf<Record<string, number>>(totals)[0] ?? {};
  return {
    totals: {
      contacts: t.contacts ?? 0,
      subscribed: t.subscribed ?? 0,
      unsubscribed: t.unsubscribed ?? 0,
      bounced: t.bounced ?? 0,
      campaignsSent: t.campaigns_sent ?? 0,
      mailsSent: t.mails_sent ?? 0,
      mailsFailed: t.mails_failed ?? 0,
      mailsDeferred: t.mails_deferred ?? 0,
      responses: t.responses ?? 0,
    },
    sentOverTime: rowsOf<{ month: string; campaigns: number; mails: number }>(sentOverTime),
    perCampaign: rowsOf<{
      id: string;
      name: string;
      counts: RecipientCounts;
      responses: number;
      unsubscribes: number;
    }>(perCampaign).map((row) => ({
      id: row.id,
      name: row.name,
      sent: row.counts.sent,
      failed: row.counts.failed,
      unsubscribes: row.unsubscribes,
      responses: row.responses,
      unsubscribeRate: percent(row.unsubscribes, row.counts.sent),
      responseRate: percent(row.responses, row.counts.sent),
    })),
    responsesByAnswer: rowsOf<{ response: string; count: number }>(answers),
    latest: rowsOf<{
      id: string;
      name: string;
      status: CampaignStatus;
      total: number;
      counts: RecipientCounts;
      scheduled_at: unknown;
      started_at: unknown;
      finished_at: unknown;
    }>(latest).map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      total: row.total,
      done: row.counts.sent + row.counts.failed + row.counts.skipped,
      sent: row.counts.sent,
      failed: row.counts.failed,
      deferred: row.counts.deferred,
      scheduledAt: iso(row.scheduled_at),
      startedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
    })),
    contactsGrowth: rowsOf<{ month: string; source: ContactSource; count: number }>(growth),
  };
}
