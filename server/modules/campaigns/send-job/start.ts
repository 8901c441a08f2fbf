// A scheduled campaign's first run (send-job.ts): its audience is frozen when its time comes.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaigns } from '../../../db/schema';
import { JobFailure, type JobResult } from '../../../jobs/worker';
import { lockCampaign } from '../campaigns';
import { freezeAudience, markSending, NO_MAILABLE_MESSAGE } from '../sending';
import { campaignLink } from './run-state';

/**
 * Starts a scheduled campaign whose time has come: its audience is frozen now. Null when the run goes
 * on to send (or the campaign is not this job's scheduled one); a result when there is nobody to mail.
 */
export async function startScheduled(db: Db, jobId: string, campaignId: string): Promise<JobResult | null> {
  return db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId).catch(() => null);
    if (!campaign || campaign.taskId !== jobId || campaign.status !== 'scheduled') return null;
    const total = await freezeAudience(tx, campaign).catch((error: unknown) => {
      // The template lost its fallback version, or the query no longer compiles: words for the user.
      throw new JobFailure(error instanceof Error ? error.message : String(error), true);
    });
    if (total === 0) {
      await tx
        .update(campaigns)
        .set({
          status: 'failed',
          error: NO_MAILABLE_MESSAGE,
          taskId: null,
          finishedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(campaigns.id, campaignId));
      return {
        title: `${campaign.name} was not sent`,
        body: `${NO_MAILABLE_MESSAGE}.`,
        link: campaignLink(campaignId),
      };
    }
    await markSending(tx, campaign, total, jobId);
    return null;
  });
}
