// Sending a campaign: now (the audience is frozen into campaign_recipients and the send job queued, in
// one transaction), later (a job that runs at the scheduled time: the jobs table keeps it across
// restarts, and it freezes the audience when it starts), pause and resume. The campaign row says which
// job works on it (`task_id`): a job that is no longer the campaign's does nothing, so rescheduling,
// sending a scheduled campaign now or resuming never leaves two jobs mailing one campaign.
import { and, eq, sql } from 'drizzle-orm';
import { CAMPAIGN_TASK_NAME } from '../../../contracts/campaigns';
import { emptyRecipientCounts } from '../../../contracts/marketing';
import type { TaskStatusInfo } from '../../../contracts/notifications';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { campaigns, jobs } from '../../db/schema';
import { insertJob, type JobRow } from '../../jobs/queue';
import type { Actor } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { compileContactQuery, mailableContact } from '../contacts/audience';
import { assertVersion, type CampaignRow, EDITABLE, lockCampaign, templateLanguages } from './campaigns';

export const CAMPAIGN_SEND_KIND = 'campaigns.send';
/**
 * A send job is retried after an unexpected error and claimed again after a crash; each counts as an
 * attempt. Generous, since a long campaign may outlive a few deploys.
 */
export const SEND_JOB_ATTEMPTS = 25;

export const NO_MAILABLE_MESSAGE = 'No contact in this audience can be mailed';
export const PAST_SCHEDULE_MESSAGE = 'The schedule must be in the future';

/** The job that will work on a campaign, stored in the caller's transaction. */
export async function queueSendJob(tx: Tx, campaignId: string, ownerId: string | null, runAfter?: Date) {
  return insertJob(tx, {
    kind: CAMPAIGN_SEND_KIND,
    name: CAMPAIGN_TASK_NAME,
    ownerId,
    payload: { campaignId },
    maxAttempts: SEND_JOB_ATTEMPTS,
    runAfter,
  });
}

/** Deterministic per campaign and contact: a resend after a crash is the same mail (Message-ID, file). */
export const messageKeyPrefix = (campaignId: string) => `c${campaignId.replaceAll('-', '')}-`;

/**
 * Freezes the audience: every mailable contact the query matches now becomes a queued recipient, in
 * the language of the template version it will get (the contact's, if the template has it, else the
 * campaign's fallback). One INSERT … SELECT, however large the audience. Answers how many.
 */
export async function freezeAudience(tx: Tx, campaign: CampaignRow): Promise<number> {
  const languages = await templateLanguages(tx, campaign.templateId, campaign.fallbackLanguage, true);
  const where = compileContactQuery(campaign.audience, campaign.audienceSearch);
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`
      WITH inserted AS (
        INSERT INTO campaign_recipients (campaign_id, contact_id, email, language, message_key)
        SELECT ${campaign.id}::uuid, contacts.id, contacts.email,
               CASE WHEN contacts.language = ANY(${`{${languages.join(',')}}`}::text[])
                    THEN contacts.language ELSE ${campaign.fallbackLanguage} END,
               ${messageKeyPrefix(campaign.id)} || replace(contacts.id::text, '-', '')
        FROM contacts
        WHERE ${where} AND ${mailableContact}
        -- In the order the send job walks them (the primary key): its reads go page after page.
        ORDER BY contacts.id
        ON CONFLICT DO NOTHING
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM inserted`),
  );
  return row?.n ?? 0;
}

/** Marks a campaign sending with its frozen audience counted as queued. */
export async function markSending(
  tx: Tx,
  campaign: CampaignRow,
  total: number,
  taskId: string,
  actor?: Actor,
) {
  await tx
    .update(campaigns)
    .set({
      status: 'sending',
      total,
      counts: { ...emptyRecipientCounts(), queued: total },
      startedAt: sql`now()`,
      error: null,
      taskId,
      version: campaign.version + 1,
      ...(actor ? { updatedByName: actor.name } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(campaigns.id, campaign.id));
}

const accepted = (job: JobRow): TaskStatusInfo => ({ taskId: job.id, taskName: job.name, status: 'Queued' });

/**
 * POST /:id/send. Now: freeze and queue, answering the task. Later: a job at that time (the audience is
 * frozen when it runs, so contacts added meanwhile are mailed and those who left are not).
 */
export async function sendCampaign(
  db: Db,
  id: string,
  input: { scheduledAt: string | null; version: number },
  actor: Actor,
): Promise<TaskStatusInfo | null> {
  return db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, id);
    assertVersion(campaign, input.version);
    if (!EDITABLE.includes(campaign.status))
      throw new HttpError(409, `“${campaign.name}” is already ${campaign.status}.`, 'ALREADY_SENT');
    if (input.scheduledAt) {
      const at = new Date(input.scheduledAt);
      if (at.getTime() <= Date.now())
        throw new HttpError(400, PAST_SCHEDULE_MESSAGE, 'PAST_SCHEDULE', {
          scheduledAt: PAST_SCHEDULE_MESSAGE,
        });
      await templateLanguages(tx, campaign.templateId, campaign.fallbackLanguage, true);
      // Refused now rather than found out at the scheduled time.
      if ((await mailableCount(tx, campaign)) === 0)
        throw new HttpError(400, NO_MAILABLE_MESSAGE, 'EMPTY_AUDIENCE');
      const job = await queueSendJob(tx, id, actor.id, at);
      await tx
        .update(campaigns)
        .set({
          status: 'scheduled',
          scheduledAt: at,
          taskId: job.id,
          version: campaign.version + 1,
          updatedByName: actor.name,
          updatedAt: sql`now()`,
        })
        .where(eq(campaigns.id, id));
      return null;
    }
    const total = await freezeAudience(tx, campaign);
    // Thrown inside the transaction: nothing of the freeze remains.
    if (total === 0) throw new HttpError(400, NO_MAILABLE_MESSAGE, 'EMPTY_AUDIENCE');
    const job = await queueSendJob(tx, id, actor.id);
    await markSending(tx, campaign, total, job.id, actor);
    return accepted(job);
  });
}

async function mailableCount(tx: Tx, campaign: CampaignRow): Promise<number> {
  const where = compileContactQuery(campaign.audience, campaign.audienceSearch);
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`SELECT count(*)::int AS n FROM contacts WHERE ${where} AND ${mailableContact}`),
  );
  return row?.n ?? 0;
}

/**
 * Sending stops after the chunk in flight: the job reads the status before each chunk and ends its task
 * as Paused. A job waiting in the queue (not started yet, or for deferred retries hours away) is made due
 * now, so its task reads Paused at once rather than when it would have run.
 */
export async function pauseCampaign(db: Db, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, id);
    if (campaign.status !== 'sending')
      throw new HttpError(
        409,
        `“${campaign.name}” is ${campaign.status}: only a sending campaign can be paused.`,
        'NOT_SENDING',
      );
    await tx
      .update(campaigns)
      .set({
        status: 'paused',
        version: campaign.version + 1,
        updatedByName: actor.name,
        updatedAt: sql`now()`,
      })
      .where(eq(campaigns.id, id));
    if (campaign.taskId)
      await tx
        .update(jobs)
        .set({ runAfter: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(jobs.id, campaign.taskId), eq(jobs.status, 'Queued')));
  });
}

/**
 * Sending goes on. If the job is still finishing its chunk (it has not let go of the campaign yet),
 * it simply carries on; otherwise a new job is queued.
 */
export async function resumeCampaign(db: Db, id: string, actor: Actor): Promise<TaskStatusInfo> {
  return db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, id);
    if (campaign.status !== 'paused')
      throw new HttpError(
        409,
        `“${campaign.name}” is ${campaign.status}: only a paused campaign can be resumed.`,
        'NOT_PAUSED',
      );
    let task: TaskStatusInfo | null = null;
    if (campaign.taskId) {
      const [job] = await tx
        .select({ id: jobs.id, name: jobs.name, status: jobs.status })
        .from(jobs)
        .where(eq(jobs.id, campaign.taskId));
      if (job && (job.status === 'Queued' || job.status === 'Running'))
        task = { taskId: job.id, taskName: job.name, status: job.status };
    }
    let taskId = campaign.taskId;
    if (!task) {
      const job = await queueSendJob(tx, id, actor.id);
      task = accepted(job);
      taskId = job.id;
    }
    await tx
      .update(campaigns)
      .set({
        status: 'sending',
        taskId,
        version: campaign.version + 1,
        updatedByName: actor.name,
        updatedAt: sql`now()`,
      })
      .where(eq(campaigns.id, id));
    return task;
  });
}
