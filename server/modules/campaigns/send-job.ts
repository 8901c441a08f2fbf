// The send job (issue 17): mails a campaign's frozen recipients a chunk at a time, throttled to the
// campaign's rate, recording every recipient's outcome.
//
// A chunk is three steps. (1) The claim transaction takes the next due recipients (queued, due
// deferred, or `sending` ones a crashed run left) and marks them `sending`; contacts unsubscribed or
// bounced since the audience was frozen are `skipped` there. (2) The mails go out, outside any
// transaction. (3) The outcome transaction records sent / deferred / failed per recipient, the contacts'
// last-contacted time and timeline, and the campaign's counts — set-based, one statement per kind.
//
// Exactly once across a crash: a recipient is `sending` from (1) until (3) commits. If the server dies
// in between, the next run sends its `sending` recipients again — with the same message key, so the
// outbox writes the same `<key>.eml` file again (one file per recipient, whatever happened), and the
// same Message-ID. Over SMTP this is at-least-once: a mail the SMTP server accepted just before the
// crash is handed over a second time, and only receivers that dedupe by Message-ID (most large
// providers do) show it once. The window is one chunk's mails in flight at the moment of the crash.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TemplateValues } from '../../../contracts/mail-templates';
import type { RecipientCounts, RecipientState } from '../../../contracts/marketing';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { campaigns, mailTemplateVariants } from '../../db/schema';
import {
  type JobContext,
  JobFailure,
  type JobHandler,
  type JobResult,
  yieldToEventLoop,
} from '../../jobs/worker';
import type { Mailer } from '../../plugins/mail';
import { markBounced } from '../contacts/subscription';
import type { MailLinks } from '../mail-links/links';
import { templateValuesOf } from '../mail-templates/values';
import { type CampaignRow, lockCampaign } from './campaigns';
import { addressOf, type ComposeContext, composeCampaignMail, type StoredVariant } from './compose';
import { freezeAudience, markSending, NO_MAILABLE_MESSAGE, queueSendJob } from './sending';
import { TokenBucket } from './token-bucket';

export interface SendJobOptions {
  db: Db;
  mailer: Mailer;
  links: MailLinks;
  /** MAIL_FROM: its address receives the List-Unsubscribe mailto. */
  from: string;
  publicUrl: string;
  /** First retry of a temporary refusal after this, doubling each attempt (default 30 s). */
  retryBaseMs?: number;
  /** Longest wait between two attempts (default 1 h). */
  maxRetryDelayMs?: number;
  /** Attempts of one recipient before it is failed (default 8). */
  maxAttempts?: number;
  /** Mails in flight at once within a chunk (default 64; the SMTP pool queues beyond its connections). */
  concurrency?: number;
}

const payloadSchema = z.object({ campaignId: z.uuid() });

export const campaignLink = (id: string) => `/marketing/bulk-mails?campaign=${id}`;

/** Backoff of a temporary refusal: base · 2^(attempts − 1), capped. */
export function retryDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

/** How a refusal is treated: SMTP 5xx is permanent (the address bounces); 4xx and anything else (a
 * connection refused, a timeout, a full disk) is temporary and retried. */
export function classifyError(error: unknown): { permanent: boolean; reason: string } {
  const failure = error as { responseCode?: unknown; response?: unknown; message?: unknown };
  const reason = String(
    typeof failure?.response === 'string' && failure.response
      ? failure.response
      : (failure?.message ?? error),
  ).slice(0, 500);
  const code = typeof failure?.responseCode === 'number' ? failure.responseCode : null;
  return { permanent: code !== null && code >= 500 && code < 600, reason };
}

/** Chunk size: about half a second of mail at the campaign's rate, so a pause takes effect soon. */
const chunkSizeOf = (ratePerSecond: number) => Math.max(5, Math.min(500, Math.ceil(ratePerSecond / 2)));

interface Claimed {
  contact_id: string;
  email: string;
  language: string;
  message_key: string;
  attempts: number;
  first_name: string;
  last_name: string;
  company: string;
  company_type: string | null;
  country: string | null;
}

interface Outcome {
  contact_id: string;
  state: Extract<RecipientState, 'sent' | 'deferred' | 'failed'>;
  attempts: number;
  delay_ms: number | null;
  error: string | null;
  bounced: boolean;
}

type Step =
  | { kind: 'chunk'; rows: Claimed[]; campaign: CampaignRow }
  | { kind: 'done'; result: JobResult }
  /** Nothing to take while a chunk is still in flight: finish it, then ask again. */
  | { kind: 'drain' };

const states = ['queued', 'sending', 'sent', 'deferred', 'failed', 'skipped'] as const;

function adjust(counts: RecipientCounts, moves: { from: RecipientState; to: RecipientState; n: number }[]) {
  const next = { ...counts };
  for (const state of states) next[state] ??= 0;
  for (const move of moves) {
    next[move.from] = Math.max(0, next[move.from] - move.n);
    next[move.to] += move.n;
  }
  return next;
}

export function sendJobHandler(options: SendJobOptions): JobHandler {
  const { db } = options;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60 * 60_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const concurrency = options.concurrency ?? 64;
  const fromAddress = addressOf(options.from);
  const messageIdHost = new URL(options.publicUrl).hostname || 'marketplace.local';

  /** Ends the campaign's run: the job lets go of it (task_id null) in the same transaction. */
  async function finish(tx: Tx, campaign: CampaignRow, counts: RecipientCounts): Promise<JobResult> {
    const allFailed = counts.sent === 0 && counts.failed > 0;
    await tx
      .update(campaigns)
      .set({
        status: allFailed ? 'failed' : 'sent',
        error: allFailed ? 'No mail could be delivered: every recipient was refused.' : null,
        finishedAt: sql`now()`,
        taskId: null,
        updatedAt: sql`now()`,
      })
      .where(eq(campaigns.id, campaign.id));
    return {
      title: allFailed ? `${campaign.name} could not be delivered` : `${campaign.name} was sent`,
      body: `${counts.sent} sent, ${counts.failed} failed, ${counts.skipped} skipped.`,
      link: campaignLink(campaign.id),
      counts,
    };
  }

  /**
   * The claim transaction (see the top of the file). The campaign row is locked, so pause, resume and
   * this job's chunks are serialised (no recipient row lock is needed), and a job that is no longer the
   * campaign's stops here.
   *
   * `inFlight`: the run's previous chunk is still being sent. Its rows are `sending`, so they are not
   * taken again, and no decision that needs the whole picture (finish, pause, a later retry) is made:
   * the claim answers `drain`, and the run asks again once that chunk is recorded. Without a chunk in
   * flight, `sending` rows can only be a crashed run's, and they are taken to be sent again.
   */
  async function claim(
    jobId: string,
    ownerId: string | null,
    campaignId: string,
    inFlight: boolean,
  ): Promise<Step> {
    return db.transaction(async (tx): Promise<Step> => {
      const campaign = await lockCampaign(tx, campaignId).catch(() => null);
      if (inFlight && (campaign?.taskId !== jobId || campaign.status !== 'sending')) return { kind: 'drain' };
      if (!campaign)
        return { kind: 'done', result: { title: 'The campaign was deleted: nothing was sent.' } };
      if (campaign.taskId !== jobId)
        return { kind: 'done', result: { title: `${campaign.name}: nothing left to do`, superseded: true } };
      if (campaign.status !== 'sending') {
        await tx
          .update(campaigns)
          .set({ taskId: null, updatedAt: sql`now()` })
          .where(eq(campaigns.id, campaignId));
        return {
          kind: 'done',
          result: {
            title: `${campaign.name} is ${campaign.status}`,
            body: 'Resume it to send the rest.',
            link: campaignLink(campaignId),
          },
        };
      }
      const due = rowsOf<Claimed & { state: RecipientState; subscription: string }>(
        await tx.execute(sql`
          SELECT r.contact_id, r.email, r.language, r.message_key, r.attempts, r.state,
                 c.first_name, c.last_name, c.company, t.name AS company_type, c.country, c.subscription
          FROM campaign_recipients r
          JOIN contacts c ON c.id = r.contact_id
          LEFT JOIN company_types t ON t.id = c.company_type_id
          WHERE r.campaign_id = ${campaignId}
            AND (r.state = 'queued' OR ${inFlight ? sql`false` : sql`r.state = 'sending'`}
                 OR (r.state = 'deferred' AND r.next_attempt_at <= now()))
          LIMIT ${chunkSizeOf(campaign.ratePerSecond)}`),
      );
      if (due.length === 0 && inFlight) return { kind: 'drain' };
      if (due.length === 0) {
        const [left] = rowsOf<{ next: Date | string | null }>(
          await tx.execute(sql`SELECT min(next_attempt_at) AS next FROM campaign_recipients
            WHERE campaign_id = ${campaignId} AND state = 'deferred'`),
        );
        if (left?.next) {
          // Only retries later on: this run ends and a job at the first retry's time takes over, so the
          // worker is not held for hours of backoff. The campaign stays `sending` meanwhile.
          const next = new Date(left.next);
          const job = await queueSendJob(tx, campaignId, ownerId, next);
          await tx
            .update(campaigns)
            .set({ taskId: job.id, updatedAt: sql`now()` })
            .where(eq(campaigns.id, campaignId));
          const counts = campaign.counts;
          return {
            kind: 'done',
            result: {
              title: `${campaign.name}: ${counts.deferred} deferred`,
              body: `${counts.sent} sent so far; the mail server asked to retry ${counts.deferred} later. Retrying from ${next.toISOString()}.`,
              link: campaignLink(campaignId),
            },
          };
        }
        return { kind: 'done', result: await finish(tx, campaign, campaign.counts) };
      }
      // Suppressed since the audience was frozen: never mailed.
      const skipped = due.filter((row) => row.subscription !== 'subscribed');
      const taken = due.filter((row) => row.subscription === 'subscribed');
      const moves: { from: RecipientState; to: RecipientState; n: number }[] = [];
      const tally = (rows: typeof due, to: RecipientState) => {
        for (const from of states) {
          const n = rows.filter((row) => row.state === from).length;
          if (n && from !== to) moves.push({ from, to, n });
        }
      };
      tally(skipped, 'skipped');
      tally(taken, 'sending');
      const idsOf = (rows: typeof due) => `{${rows.map((row) => row.contact_id).join(',')}}`;
      if (skipped.length)
        await tx.execute(sql`UPDATE campaign_recipients SET state = 'skipped', next_attempt_at = NULL,
          last_error = 'Unsubscribed or bounced before their turn', updated_at = now()
          WHERE campaign_id = ${campaignId} AND contact_id = ANY(${idsOf(skipped)}::uuid[])`);
      if (taken.length)
        await tx.execute(sql`UPDATE campaign_recipients SET state = 'sending', updated_at = now()
          WHERE campaign_id = ${campaignId} AND contact_id = ANY(${idsOf(taken)}::uuid[])`);
      const counts = adjust(campaign.counts, moves);
      await tx.update(campaigns).set({ counts }).where(eq(campaigns.id, campaignId));
      return { kind: 'chunk', rows: taken, campaign: { ...campaign, counts } };
    });
  }

  /** The outcome transaction (see the top of the file). */
  async function record(campaignId: string, outcomes: Outcome[]) {
    if (outcomes.length === 0) return;
    await db.transaction(async (tx) => {
      const campaign = await lockCampaign(tx, campaignId);
      const json = JSON.stringify(outcomes);
      await tx.execute(sql`
        UPDATE campaign_recipients AS r
        SET state = x.state, attempts = x.attempts,
            next_attempt_at = CASE WHEN x.delay_ms IS NULL THEN NULL ELSE now() + x.delay_ms * interval '1 millisecond' END,
            last_error = x.error,
            sent_at = CASE WHEN x.state = 'sent' THEN now() ELSE r.sent_at END,
            updated_at = now()
        FROM json_to_recordset(${json}::json) AS x(contact_id uuid, state text, attempts integer, delay_ms double precision, error text)
        WHERE r.campaign_id = ${campaignId} AND r.contact_id = x.contact_id`);
      const sent = outcomes
        .filter((outcome) => outcome.state === 'sent')
        .map((outcome) => outcome.contact_id);
      if (sent.length)
        await tx.execute(sql`UPDATE contacts SET last_contacted_at = now()
          WHERE id = ANY(${`{${sent.join(',')}}`}::uuid[])`);
      // The contacts' timelines: one row per recipient and outcome, in one statement.
      await tx.execute(sql`
        INSERT INTO contact_history (contact_id, action, campaign_id, note)
        SELECT x.contact_id,
               CASE x.state WHEN 'sent' THEN 'mail_sent' WHEN 'deferred' THEN 'mail_deferred' ELSE 'mail_failed' END,
               ${campaignId}::uuid,
               CASE WHEN x.state = 'sent' THEN ${campaign.name} ELSE ${campaign.name} || ': ' || x.error END
        FROM json_to_recordset(${json}::json) AS x(contact_id uuid, state text, error text)`);
      for (const outcome of outcomes)
        if (outcome.bounced)
          await markBounced(tx, outcome.contact_id, outcome.error ?? 'Refused', campaignId);
      const moves = (['sent', 'deferred', 'failed'] as const).map((to) => ({
        from: 'sending' as const,
        to,
        n: outcomes.filter((outcome) => outcome.state === to).length,
      }));
      await tx
        .update(campaigns)
        .set({ counts: adjust(campaign.counts, moves), updatedAt: sql`now()` })
        .where(eq(campaigns.id, campaignId));
    });
  }

  /** The template's versions, read once per run (a run renders thousands of mails from a handful). */
  async function loadVariants(campaign: CampaignRow): Promise<Map<string, StoredVariant>> {
    if (!campaign.templateId) throw new JobFailure('The campaign’s template was deleted.', true);
    const rows = await db
      .select({
        language: mailTemplateVariants.language,
        subject: mailTemplateVariants.subject,
        html: mailTemplateVariants.html,
        text: mailTemplateVariants.text,
      })
      .from(mailTemplateVariants)
      .where(eq(mailTemplateVariants.templateId, campaign.templateId));
    if (rows.length === 0) throw new JobFailure('The campaign’s template was deleted.', true);
    return new Map(rows.map((row) => [row.language, row]));
  }

  async function sendOne(
    compose: ComposeContext,
    variants: Map<string, StoredVariant>,
    fallback: string,
    row: Claimed,
  ): Promise<Outcome> {
    const variant = variants.get(row.language) ?? variants.get(fallback) ?? [...variants.values()][0];
    const attempts = row.attempts + 1;
    try {
      const values: TemplateValues = templateValuesOf({
        firstName: row.first_name,
        lastName: row.last_name,
        email: row.email,
        company: row.company,
        companyType: row.company_type,
        country: row.country,
      });
      await options.mailer.send(
        composeCampaignMail(compose, variant as StoredVariant, {
          email: row.email,
          values,
          messageKey: row.message_key,
        }),
      );
      return {
        contact_id: row.contact_id,
        state: 'sent',
        attempts,
        delay_ms: null,
        error: null,
        bounced: false,
      };
    } catch (error) {
      const { permanent, reason } = classifyError(error);
      if (permanent)
        return {
          contact_id: row.contact_id,
          state: 'failed',
          attempts,
          delay_ms: null,
          error: reason,
          bounced: true,
        };
      if (attempts >= maxAttempts)
        return {
          contact_id: row.contact_id,
          state: 'failed',
          attempts,
          delay_ms: null,
          error: `Gave up after ${attempts} attempts: ${reason}`,
          bounced: false,
        };
      return {
        contact_id: row.contact_id,
        state: 'deferred',
        attempts,
        delay_ms: retryDelay(attempts, retryBaseMs, maxRetryDelayMs),
        error: reason,
        bounced: false,
      };
    }
  }

  /** Starts a scheduled campaign whose time has come: its audience is frozen now. */
  async function startScheduled(jobId: string, campaignId: string): Promise<JobResult | null> {
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

  /** A campaign whose job gives up (bad data, or every attempt spent) is failed, never left "sending". */
  async function failCampaign(jobId: string, campaignId: string, message: string) {
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

  async function run(context: JobContext, campaignId: string): Promise<JobResult> {
    const { job, signal } = context;
    const started = await startScheduled(job.id, campaignId);
    if (started) return started;
    let variants: Map<string, StoredVariant> | null = null;
    let bucket: TokenBucket | null = null;
    const sendChunk = async (campaign: CampaignRow, rows: Claimed[]): Promise<Outcome[]> => {
      variants ??= await loadVariants(campaign);
      if (!bucket || bucket.rate !== campaign.ratePerSecond) bucket = new TokenBucket(campaign.ratePerSecond);
      const compose: ComposeContext = {
        links: options.links,
        campaignId,
        responseOptions: campaign.responseOptions,
        fromAddress,
        messageIdHost,
      };
      const outcomes: Outcome[] = [];
      const inFlight = new Set<Promise<void>>();
      for (const row of rows) {
        await bucket.take();
        const sending = sendOne(compose, variants, campaign.fallbackLanguage, row).then((outcome) => {
          outcomes.push(outcome);
          inFlight.delete(sending);
        });
        inFlight.add(sending);
        if (inFlight.size >= concurrency) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      return outcomes;
    };

    // A pipeline of chunks: while chunk N's mails go out (disk or network I/O), chunk N−1's outcomes are
    // recorded and chunk N+1 is claimed (database work). On PGlite the database runs on this thread, so
    // this overlap is what lets I/O and database work add up to less than their sum.
    let step = await claim(job.id, job.ownerId, campaignId, false);
    let recording: Promise<void> | null = null;
    try {
      while (step.kind === 'chunk') {
        if (signal.aborted) throw signal.reason;
        const { campaign, rows } = step;
        const sending = sendChunk(campaign, rows);
        if (recording) await recording;
        recording = null;
        let next: Step = await claim(job.id, job.ownerId, campaignId, true);
        const outcomes = await sending;
        // Recorded even if the worker is stopping: these mails left, and saying so saves resending them.
        recording = record(campaignId, outcomes);
        const counts = campaign.counts;
        const done = counts.sent + counts.failed + counts.skipped + outcomes.length;
        if (campaign.total > 0) await context.setProgress(Math.min(99, (done / campaign.total) * 100));
        if (next.kind !== 'chunk') {
          await recording;
          recording = null;
          next = await claim(job.id, job.ownerId, campaignId, false);
        }
        step = next;
        await yieldToEventLoop();
      }
    } finally {
      // Whatever stops the run, the chunk already sent is recorded if it can be.
      if (recording) await (recording as Promise<void>).catch(() => undefined);
    }
    if (step.kind === 'drain') throw new Error('a claim without a chunk in flight cannot drain');
    return step.result;
  }

  return async (context) => {
    const parsed = payloadSchema.safeParse(context.payload);
    if (!parsed.success) throw new JobFailure('The task does not name a campaign.', true);
    const { campaignId } = parsed.data;
    try {
      return await run(context, campaignId);
    } catch (error) {
      if (context.signal.aborted) throw error;
      const failure = error instanceof JobFailure ? error : null;
      if (failure?.permanent || context.job.attempts >= context.job.maxAttempts)
        await failCampaign(
          context.job.id,
          campaignId,
          failure?.message ?? 'Sending stopped after repeated errors.',
        ).catch(() => undefined);
      throw error;
    }
  };
}
