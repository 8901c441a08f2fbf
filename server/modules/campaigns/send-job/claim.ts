// The claim transaction of the send job (send-job.ts, step 1): takes the next due recipients and counts
// them as `sending` in the campaign's counts; contacts unsubscribed or bounced since the audience was
// frozen are `skipped` there.
//
// The campaign row is locked, so pause, resume and this job's chunks are serialised (no recipient row
// lock is needed), and a job that is no longer the campaign's stops here.
//
// Queued recipients are taken in contact id order from the run's cursor (the last one it took), along
// the primary key: a claim never walks past the rows already sent, whose old index entries stay until
// a VACUUM (PGlite never runs one by itself), so a claim costs the same at the end of 100,000
// recipients as at the start. Rows in flight are not written (that would double the writes per mail):
// they are behind the cursor, and the campaign's counts hold them as `sending`.
//
// `inFlight`: the run's previous chunk is still being sent. Only queued rows past the cursor are taken,
// and no decision that needs the whole picture (finish, pause, a retry due) is made: the claim answers
// `drain`, and the run asks again once that chunk is recorded. Without a chunk in flight, due retries
// are taken too, and `sending` rows (left by an older version of this job) are taken to be sent again.
import { eq, sql } from 'drizzle-orm';
import type { RecipientCounts, RecipientState } from '../../../../contracts/marketing';
import type { Tx } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import { campaigns } from '../../../db/schema';
import { type CampaignRow, lockCampaign } from '../campaigns';
import { finish, finishedResult } from './finish';
import {
  adjust,
  type Claimed,
  type CountMove,
  campaignLink,
  type SendRun,
  type Step,
  states,
} from './run-state';

/** A due recipient as read: its state now, and whether its contact may still be mailed. */
type Due = Claimed & { state: RecipientState; subscription: string };

/** Chunk size: about half a second of mail at the campaign's rate, so a pause takes effect soon. */
const chunkSizeOf = (ratePerSecond: number) => Math.max(5, Math.min(500, Math.ceil(ratePerSecond / 2)));

export async function claim(run: SendRun, inFlight: boolean): Promise<Step> {
  return run.settings.db.transaction(async (tx): Promise<Step> => {
    const campaign = await lockCampaign(tx, run.campaignId).catch(() => null);
    const settled = await notSending(tx, run, campaign, inFlight);
    if (settled || !campaign) return settled ?? { kind: 'drain' };
    if (!run.counted) {
      campaign.counts = await recount(tx, campaign);
      run.counted = true;
    }
    const due = await dueRecipients(tx, run, chunkSizeOf(campaign.ratePerSecond), inFlight);
    if (due.length === 0 && inFlight) return { kind: 'drain' };
    if (due.length === 0) return { kind: 'done', result: await retryLaterOrFinish(tx, campaign) };
    return takeDue(tx, campaign, due);
  });
}

/** The step when the campaign is not (or no longer) this job's to send; null when it is. */
async function notSending(
  tx: Tx,
  run: SendRun,
  campaign: CampaignRow | null,
  inFlight: boolean,
): Promise<Step | null> {
  if (inFlight && (campaign?.taskId !== run.jobId || campaign.status !== 'sending')) return { kind: 'drain' };
  if (!campaign) return { kind: 'done', result: { title: 'The campaign was deleted: nothing was sent.' } };
  if (campaign.taskId !== run.jobId)
    return { kind: 'done', result: { title: `${campaign.name}: nothing left to do`, superseded: true } };
  if (campaign.status === 'sent' || campaign.status === 'failed')
    return { kind: 'done', result: finishedResult(campaign, campaign.counts) };
  if (campaign.status === 'sending') return null;
  await tx
    .update(campaigns)
    .set({ taskId: null, updatedAt: sql`now()` })
    .where(eq(campaigns.id, run.campaignId));
  // Paused, the task ends as Paused (not Completed): resuming starts a new task.
  return {
    kind: 'done',
    result: {
      title: `${campaign.name} is ${campaign.status}`,
      body: 'Resume it to send the rest.',
      link: campaignLink(run.campaignId),
      paused: campaign.status === 'paused',
    },
  };
}

/**
 * The campaign's counts from its recipients, at the start of a run: a run that crashed left its chunk
 * in flight counted as `sending` while those rows are still `queued` (in-flight rows are never written
 * as such), and they are about to be taken again.
 */
async function recount(tx: Tx, campaign: CampaignRow): Promise<RecipientCounts> {
  const rows = rowsOf<{ state: RecipientState; n: number }>(
    await tx.execute(sql`SELECT state, count(*)::int AS n FROM campaign_recipients
      WHERE campaign_id = ${campaign.id} GROUP BY state`),
  );
  const counts = adjust({ ...campaign.counts }, []);
  for (const state of states) counts[state] = 0;
  for (const row of rows) counts[row.state] = row.n;
  return counts;
}

const dueColumns = sql`r.contact_id, r.email, r.language, r.message_key, r.attempts, r.state,
  c.first_name, c.last_name, c.company, t.name AS company_type, c.country, c.subscription`;
const dueJoins = sql`JOIN contacts c ON c.id = r.contact_id LEFT JOIN company_types t ON t.id = c.company_type_id`;

/** Up to `limit` recipients to send now: due retries first (without a chunk in flight), then queued ones. */
async function dueRecipients(tx: Tx, run: SendRun, limit: number, inFlight: boolean): Promise<Due[]> {
  // Retries due (and rows an older job version left `sending`): few, through the state index.
  const retries = inFlight
    ? []
    : rowsOf<Due>(
        await tx.execute(sql`SELECT ${dueColumns} FROM campaign_recipients r ${dueJoins}
          WHERE r.campaign_id = ${run.campaignId}
            AND (r.state = 'sending' OR (r.state = 'deferred' AND r.next_attempt_at <= now()))
          LIMIT ${limit}`),
      );
  const queuedIds = retries.length >= limit ? [] : await walkQueued(tx, run, limit - retries.length);
  const queued = queuedIds.length
    ? rowsOf<Due>(
        await tx.execute(sql`SELECT ${dueColumns} FROM campaign_recipients r ${dueJoins}
          WHERE r.campaign_id = ${run.campaignId} AND r.contact_id = ANY(${`{${queuedIds.join(',')}}`}::uuid[])
          ORDER BY r.contact_id`),
      )
    : [];
  return [...retries, ...queued];
}

/**
 * The next `limit` queued recipients after the run's cursor, which moves on past every row it reads.
 * The walk goes along the primary key (campaign, contact) and reads the state of each row itself:
 * with a state condition in the query the planner may take the state index instead (its statistics
 * are those of an empty table until an ANALYZE), reading every queued entry, dead or alive, and
 * sorting them, on every claim. Rows already done by an earlier run (a resumed campaign) are walked
 * past in growing windows.
 */
async function walkQueued(tx: Tx, run: SendRun, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let window = limit;
  while (ids.length < limit) {
    const rows = rowsOf<{ contact_id: string; state: RecipientState }>(
      await tx.execute(sql`SELECT contact_id, state FROM campaign_recipients
        WHERE campaign_id = ${run.campaignId}
          ${run.cursor ? sql`AND contact_id > ${run.cursor}::uuid` : sql``}
        ORDER BY campaign_id, contact_id
        LIMIT ${window}`),
    );
    for (const row of rows) {
      if (ids.length === limit) break;
      run.cursor = row.contact_id;
      if (row.state === 'queued') ids.push(row.contact_id);
    }
    if (rows.length < window) break;
    if (ids.length === 0) window = Math.min(window * 2, 20_000);
  }
  return ids;
}

/** Nothing due and nothing in flight: the campaign is done, or only retries are left for later. */
async function retryLaterOrFinish(tx: Tx, campaign: CampaignRow) {
  const [left] = rowsOf<{ next: Date | string | null }>(
    await tx.execute(sql`SELECT min(next_attempt_at) AS next FROM campaign_recipients
      WHERE campaign_id = ${campaign.id} AND state = 'deferred'`),
  );
  if (!left?.next) return finish(tx, campaign, campaign.counts);
  // Only retries later on: this run ends and the same job waits in the queue until the first
  // retry's time, so the worker is not held for hours of backoff, and the task is not finished
  // (never "Completed" while recipients may still be retried). The campaign stays `sending`.
  await tx.update(campaigns).set({ counts: campaign.counts }).where(eq(campaigns.id, campaign.id));
  return { runAgainAt: new Date(left.next) };
}

/** The due recipients become this chunk (counted `sending`), but the suppressed ones are `skipped`. */
async function takeDue(tx: Tx, campaign: CampaignRow, due: Due[]): Promise<Step> {
  // Suppressed since the audience was frozen: never mailed.
  const skipped = due.filter((row) => row.subscription !== 'subscribed');
  const taken = due.filter((row) => row.subscription === 'subscribed');
  const moves: CountMove[] = [];
  const tally = (rows: Due[], to: RecipientState) => {
    for (const from of states) {
      const n = rows.filter((row) => row.state === from).length;
      if (n && from !== to) moves.push({ from, to, n });
    }
  };
  tally(skipped, 'skipped');
  tally(taken, 'sending');
  if (skipped.length)
    await tx.execute(sql`UPDATE campaign_recipients SET state = 'skipped', next_attempt_at = NULL,
      last_error = 'Unsubscribed or bounced before their turn', updated_at = now()
      WHERE campaign_id = ${campaign.id}
        AND contact_id = ANY(${`{${skipped.map((row) => row.contact_id).join(',')}}`}::uuid[])`);
  const counts = adjust(campaign.counts, moves);
  await tx.update(campaigns).set({ counts }).where(eq(campaigns.id, campaign.id));
  return { kind: 'chunk', rows: taken, campaign: { ...campaign, counts } };
}
