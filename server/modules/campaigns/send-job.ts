// The send job (issue 17): mails a campaign's frozen recipients a chunk at a time, throttled to the
// campaign's rate, recording every recipient's outcome.
//
// A chunk is three steps. (1) The claim transaction takes the next due recipients (queued ones after the
// run's cursor, due deferred ones, or `sending` ones an older version of the job left) and counts them
// as `sending` in the campaign's counts; contacts unsubscribed or bounced since the audience was frozen
// are `skipped` there. (2) The mails go out, outside any transaction. (3) The outcome transaction
// records sent / deferred / failed per recipient, the contacts' last-contacted time and timeline, and the
// campaign's counts — set-based, one statement per kind. A recipient row is written once per attempt,
// in (3): on PGlite every write of a row rewrites it and its index entries, on the one thread that also
// composes and sends the mails.
//
// Exactly once across a crash: a recipient keeps its state (queued or deferred) until (3) commits and
// says it was sent. If the server dies in between, the next run (which recounts the campaign from its
// recipients) sends those recipients again — with the same message key, so the outbox writes the same
// `<key>.eml` file again (one file per recipient, whatever happened), and the same Message-ID. Over
// SMTP this is at-least-once: a mail the SMTP server accepted just before the crash is handed over a
// second time, and only receivers that dedupe by Message-ID (most large providers do) show it once. The
// window is the mails in flight at the moment of the crash (at most two chunks). A recipient is marked
// sent only after the transport accepted its mail.
//
// Pause ends the run after the chunk in flight, and its task as Paused; a run with only retries left
// (4xx refusals, backing off) puts its job back in the queue until the first retry is due: the task
// stays open, never Completed while recipients may still be retried.
//
// The steps live beside this file, each around the run's explicit state (send-job/run-state.ts):
// start.ts (a scheduled campaign's audience is frozen), claim.ts (1), deliver.ts (2), record.ts (3),
// finish.ts (the campaign's end and the contacts' last-contacted times). This file runs the pipeline.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import {
  type JobContext,
  JobFailure,
  type JobHandler,
  type JobResult,
  yieldToEventLoop,
} from '../../jobs/worker';
import type { Mailer } from '../../plugins/mail';
import type { MailLinks } from '../mail-links/links';
import { claim } from './send-job/claim';
import { deliverChunk } from './send-job/deliver';
import { failCampaign, STAMP_ALL, stampContacts } from './send-job/finish';
import { record } from './send-job/record';
import { newRun, type SendRun, type SendSettings, type Step } from './send-job/run-state';
import { startScheduled } from './send-job/start';

export { classifyError, retryDelay } from './send-job/deliver';
export { campaignLink } from './send-job/run-state';

export interface SendJobOptions {
  db: Db;
  mailer: Mailer;
  links: MailLinks;
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

function settingsOf(options: SendJobOptions): SendSettings {
  return {
    db: options.db,
    mailer: options.mailer,
    links: options.links,
    messageIdHost: new URL(options.publicUrl).hostname || 'marketplace.local',
    retryBaseMs: options.retryBaseMs ?? 30_000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60 * 60_000,
    maxAttempts: options.maxAttempts ?? 8,
    concurrency: options.concurrency ?? 64,
  };
}

export function sendJobHandler(options: SendJobOptions): JobHandler {
  const settings = settingsOf(options);
  return async (context) => {
    const parsed = payloadSchema.safeParse(context.payload);
    if (!parsed.success) throw new JobFailure('The task does not name a campaign.', true);
    const { campaignId } = parsed.data;
    try {
      return await runSend(settings, context, campaignId);
    } catch (error) {
      if (context.signal.aborted) throw error;
      const failure = error instanceof JobFailure ? error : null;
      if (failure?.permanent || context.job.attempts >= context.job.maxAttempts)
        await failCampaign(
          settings.db,
          context.job.id,
          campaignId,
          failure?.message ?? 'Sending stopped after repeated errors.',
        ).catch(() => undefined);
      throw error;
    }
  };
}

/** One run of the job: start a scheduled campaign, send chunk after chunk, then stamp the contacts. */
async function runSend(settings: SendSettings, context: JobContext, campaignId: string): Promise<JobResult> {
  const { job, signal } = context;
  const started = await startScheduled(settings.db, job.id, campaignId);
  if (started) return started;
  // The planner's statistics of the recipients: a freeze of 100,000 rows leaves it believing the
  // table is empty, and its plans for the claims would then read every recipient of the campaign.
  await settings.db.execute(sql`ANALYZE campaign_recipients`);
  const run = newRun(settings, job.id, campaignId);
  const last = await sendChunks(run, context);
  // The mails are out (the campaign may already read `sent`): now the contacts' last-contacted times.
  const { [STAMP_ALL]: all, ...result } = last;
  await stampContacts(settings.db, job.id, campaignId, all ? 'all' : run.sentThisRun, signal);
  return result;
}

/**
 * A pipeline of chunks: while chunk N's mails go out (disk or network I/O), chunk N−1's outcomes are
 * recorded and chunk N+1 is claimed (database work). On PGlite the database runs on this thread, so
 * this overlap is what lets I/O and database work add up to less than their sum. Ends with the claim
 * that found nothing more to send.
 */
async function sendChunks(run: SendRun, context: JobContext): Promise<JobResult> {
  const { signal } = context;
  let step = await claim(run, false);
  let recording: Promise<void> | null = null;
  try {
    while (step.kind === 'chunk') {
      if (signal.aborted) throw signal.reason;
      const { campaign, rows } = step;
      const sending = deliverChunk(run, campaign, rows);
      if (recording) await recording;
      recording = null;
      let next: Step = await claim(run, true);
      const outcomes = await sending;
      // Recorded even if the worker is stopping: these mails left, and saying so saves resending them.
      recording = record(run, outcomes);
      const counts = campaign.counts;
      const done = counts.sent + counts.failed + counts.skipped + outcomes.length;
      if (campaign.total > 0) await context.setProgress(Math.min(99, (done / campaign.total) * 100));
      if (next.kind !== 'chunk') {
        await recording;
        recording = null;
        next = await claim(run, false);
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
