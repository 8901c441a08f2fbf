// How a send run ends (send-job.ts): the campaign's final status, the result the task shows, the
// contacts' last-contacted times once the mails are out, and a campaign failed when its job gives up.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { RecipientCounts } from '../../../../contracts/marketing';
import type { Db, Tx } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import { campaigns } from '../../../db/schema';
import { type JobResult, yieldToEventLoop } from '../../../jobs/worker';
import type { CampaignRow } from '../campaigns';
import { campaignLink } from './run-state';

/** A result key (dropped before it is stored): the campaign is done, every contact gets its stamp. */
export const STAMP_ALL = '__stampAll';
/** Contacts stamped per statement after a run. */
const STAMP_BATCH = 2_000;

/** Ends the campaign's run: the job lets go of it (task_id null) in the same transaction. */
export async function finish(tx: Tx, campaign: CampaignRow, counts: RecipientCounts): Promise<JobResult> {
  const allFailed = counts.sent === 0 && counts.failed > 0;
  await tx
    .update(campaigns)
    .set({
      status: allFailed ? 'failed' : 'sent',
      error: allFailed ? 'No mail could be delivered: every recipient was refused.' : null,
      finishedAt: sql`now()`,
      // Kept until the contacts' last-contacted times are written (stampContacts): a run that dies
      // meanwhile is taken up again and writes them.
      updatedAt: sql`now()`,
    })
    .where(eq(campaigns.id, campaign.id));
  return finishedResult({ ...campaign, status: allFailed ? 'failed' : 'sent' }, counts);
}

export function finishedResult(campaign: CampaignRow, counts: RecipientCounts): JobResult {
  const failed = campaign.status === 'failed';
  return {
    title: failed ? `${campaign.name} could not be delivered` : `${campaign.name} was sent`,
    body: `${counts.sent} sent, ${counts.failed} failed, ${counts.skipped} skipped.`,
    link: campaignLink(campaign.id),
    counts,
    [STAMP_ALL]: true,
  };
}

/**
 * The contacts' last-contacted times, from their recipient rows' sent_at: of `contactIds` (what a run
 * sent), or of every recipient of the campaign, then the run lets go of the campaign. Written after
 * the mails, not with each chunk: every contact row written rewrites it and its nine index entries,
 * which cost as much as the rest of the send together on PGlite. Idempotent (a contact contacted later
 * keeps its later time), so a run that dies half-way is simply taken up again.
 */
export async function stampContacts(
  db: Db,
  jobId: string,
  campaignId: string,
  contactIds: string[] | 'all',
  signal: AbortSignal,
) {
  const update = (ids: string[]) =>
    db.execute(sql`UPDATE contacts c SET last_contacted_at = r.sent_at
      FROM campaign_recipients r
      WHERE r.campaign_id = ${campaignId} AND r.contact_id = ANY(${`{${ids.join(',')}}`}::uuid[])
        AND r.state = 'sent' AND c.id = r.contact_id
        AND (c.last_contacted_at IS NULL OR c.last_contacted_at < r.sent_at)`);
  if (contactIds === 'all') {
    let cursor: string | null = null;
    for (;;) {
      const ids = rowsOf<{ contact_id: string }>(
        await db.execute(sql`SELECT contact_id FROM campaign_recipients
          WHERE campaign_id = ${campaignId} ${cursor ? sql`AND contact_id > ${cursor}::uuid` : sql``}
          ORDER BY campaign_id, contact_id LIMIT ${STAMP_BATCH}`),
      ).map((row) => row.contact_id);
      if (ids.length) await update(ids);
      if (ids.length < STAMP_BATCH) break;
      cursor = ids[ids.length - 1] as string;
      // A stopping worker gives the job back: the next run writes them all again (idempotent).
      signal.throwIfAborted();
      await yieldToEventLoop();
    }
    await db
      .update(campaigns)
      .set({ taskId: null, updatedAt: sql`now()` })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.taskId, jobId)));
    return;
  }
  for (let at = 0; at < contactIds.length; at += STAMP_BATCH) {
    await update(contactIds.slice(at, at + STAMP_BATCH));
    signal.throwIfAborted();
    await yieldToEventLoop();
  }
}

/** A campaign whose job gives up (bad data, or every attempt spent) is failed, never left "sending". */
export async function failCampaign(db: Db, jobId: string, campaignId: string, message: string) {
  await db
    .update(campaigns)
    .set({ status: 'failed', error: message, taskId: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaigns.id, campaignId),
        eq(campaigns.taskId, jobId),
        inArray(campaigns.status, ['scheduled', 'sending', 'paused']),
      ),
    );
}
