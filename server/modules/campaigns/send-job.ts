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
import { freezeAudience, markSending, NO_MAILABLE_MESSAGE } from './sending';
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

/** A result key (dropped before it is stored): the campaign is done, every contact gets its stamp. */
const STAMP_ALL = '__stampAll';
/** Contacts stamped per statement after a run. */
const STAMP_BATCH = 2_000;

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

/** What one run of the job keeps between its claims. */
interface RunState {
  /** The last queued recipient taken (contact id): the next claim goes on after it. */
  cursor: string | null;
  /** The run's previous chunk is still being sent. */
  inFlight: boolean;
  /** The campaign's counts were taken from its recipients (once per run). */
  counted: boolean;
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
        // Kept until the contacts' last-contacted times are written (stampContacts): a run that dies
        // meanwhile is taken up again and writes them.
        updatedAt: sql`now()`,
      })
      .where(eq(campaigns.id, campaign.id));
    return finishedResult({ ...campaign, status: allFailed ? 'failed' : 'sent' }, counts);
  }

  function finishedResult(campaign: CampaignRow, counts: RecipientCounts): JobResult {
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
  async function stampContacts(
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

  /**
   * The next `limit` queued recipients after the run's cursor, which moves on past every row it reads.
   * The walk goes along the primary key (campaign, contact) and reads the state of each row itself:
   * with a state condition in the query the planner may take the state index instead (its statistics
   * are those of an empty table until an ANALYZE), reading every queued entry, dead or alive, and
   * sorting them, on every claim. Rows already done by an earlier run (a resumed campaign) are walked
   * past in growing windows.
   */
  async function walkQueued(tx: Tx, campaignId: string, run: RunState, limit: number): Promise<string[]> {
    const ids: string[] = [];
    let window = limit;
    while (ids.length < limit) {
      const rows = rowsOf<{ contact_id: string; state: RecipientState }>(
        await tx.execute(sql`SELECT contact_id, state FROM campaign_recipients
          WHERE campaign_id = ${campaignId}
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

  /**
   * The claim transaction (see the top of the file). The campaign row is locked, so pause, resume and
   * this job's chunks are serialised (no recipient row lock is needed), and a job that is no longer the
   * campaign's stops here.
   *
   * Queued recipients are taken in contact id order from the run's cursor (the last one it took), along
   * the primary key: a claim never walks past the rows already sent, whose old index entries stay until
   * a VACUUM (PGlite never runs one by itself), so a claim costs the same at the end of 100,000
   * recipients as at the start. Rows in flight are not written (that would double the writes per mail):
   * they are behind the cursor, and the campaign's counts hold them as `sending`.
   *
   * `inFlight`: the run's previous chunk is still being sent. Only queued rows past the cursor are taken,
   * and no decision that needs the whole picture (finish, pause, a retry due) is made: the claim answers
   * `drain`, and the run asks again once that chunk is recorded. Without a chunk in flight, due retries
   * are taken too, and `sending` rows (left by an older version of this job) are taken to be sent again.
   */
  async function claim(jobId: string, campaignId: string, run: RunState): Promise<Step> {
    const inFlight = run.inFlight;
    return db.transaction(async (tx): Promise<Step> => {
      const campaign = await lockCampaign(tx, campaignId).catch(() => null);
      if (inFlight && (campaign?.taskId !== jobId || campaign.status !== 'sending')) return { kind: 'drain' };
      if (!campaign)
        return { kind: 'done', result: { title: 'The campaign was deleted: nothing was sent.' } };
      if (campaign.taskId !== jobId)
        return { kind: 'done', result: { title: `${campaign.name}: nothing left to do`, superseded: true } };
      if (campaign.status === 'sent' || campaign.status === 'failed')
        return { kind: 'done', result: finishedResult(campaign, campaign.counts) };
      if (campaign.status !== 'sending') {
        await tx
          .update(campaigns)
          .set({ taskId: null, updatedAt: sql`now()` })
          .where(eq(campaigns.id, campaignId));
        // Paused, the task ends as Paused (not Completed): resuming starts a new task.
        return {
          kind: 'done',
          result: {
            title: `${campaign.name} is ${campaign.status}`,
            body: 'Resume it to send the rest.',
            link: campaignLink(campaignId),
            paused: campaign.status === 'paused',
          },
        };
      }
      if (!run.counted) {
        campaign.counts = await recount(tx, campaign);
        run.counted = true;
      }
      const limit = chunkSizeOf(campaign.ratePerSecond);
      const columns = sql`r.contact_id, r.email, r.language, r.message_key, r.attempts, r.state,
        c.first_name, c.last_name, c.company, t.name AS company_type, c.country, c.subscription`;
      const joins = sql`JOIN contacts c ON c.id = r.contact_id LEFT JOIN company_types t ON t.id = c.company_type_id`;
      type Due = Claimed & { state: RecipientState; subscription: string };
      // Retries due (and rows an older job version left `sending`): few, through the state index.
      const retries = inFlight
        ? []
        : rowsOf<Due>(
            await tx.execute(sql`SELECT ${columns} FROM campaign_recipients r ${joins}
              WHERE r.campaign_id = ${campaignId}
                AND (r.state = 'sending' OR (r.state = 'deferred' AND r.next_attempt_at <= now()))
              LIMIT ${limit}`),
          );
      const queuedIds =
        retries.length >= limit ? [] : await walkQueued(tx, campaignId, run, limit - retries.length);
      const queued = queuedIds.length
        ? rowsOf<Due>(
            await tx.execute(sql`SELECT ${columns} FROM campaign_recipients r ${joins}
              WHERE r.campaign_id = ${campaignId} AND r.contact_id = ANY(${`{${queuedIds.join(',')}}`}::uuid[])
              ORDER BY r.contact_id`),
          )
        : [];
      const due = [...retries, ...queued];
      if (due.length === 0 && inFlight) return { kind: 'drain' };
      if (due.length === 0) {
        const [left] = rowsOf<{ next: Date | string | null }>(
          await tx.execute(sql`SELECT min(next_attempt_at) AS next FROM campaign_recipients
            WHERE campaign_id = ${campaignId} AND state = 'deferred'`),
        );
        if (left?.next) {
          // Only retries later on: this run ends and the same job waits in the queue until the first
          // retry's time, so the worker is not held for hours of backoff, and the task is not finished
          // (never "Completed" while recipients may still be retried). The campaign stays `sending`.
          await tx.update(campaigns).set({ counts: campaign.counts }).where(eq(campaigns.id, campaignId));
          return { kind: 'done', result: { runAgainAt: new Date(left.next) } };
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
      if (skipped.length)
        await tx.execute(sql`UPDATE campaign_recipients SET state = 'skipped', next_attempt_at = NULL,
          last_error = 'Unsubscribed or bounced before their turn', updated_at = now()
          WHERE campaign_id = ${campaignId}
            AND contact_id = ANY(${`{${skipped.map((row) => row.contact_id).join(',')}}`}::uuid[])`);
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
        responseLabels: campaign.responseLabels,
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

    // The planner's statistics of the recipients: a freeze of 100,000 rows leaves it believing the
    // table is empty, and its plans for the claims would then read every recipient of the campaign.
    await db.execute(sql`ANALYZE campaign_recipients`);
    // A pipeline of chunks: while chunk N's mails go out (disk or network I/O), chunk N−1's outcomes are
    // recorded and chunk N+1 is claimed (database work). On PGlite the database runs on this thread, so
    // this overlap is what lets I/O and database work add up to less than their sum.
    const state: RunState = { cursor: null, inFlight: false, counted: false };
    /** Recipients this run recorded as sent: a run that ends before the campaign does stamps them. */
    const sentThisRun: string[] = [];
    const claimNext = (inFlight: boolean) => {
      state.inFlight = inFlight;
      return claim(job.id, campaignId, state);
    };
    let step = await claimNext(false);
    let recording: Promise<void> | null = null;
    try {
      while (step.kind === 'chunk') {
        if (signal.aborted) throw signal.reason;
        const { campaign, rows } = step;
        const sending = sendChunk(campaign, rows);
        if (recording) await recording;
        recording = null;
        let next: Step = await claimNext(true);
        const outcomes = await sending;
        // Recorded even if the worker is stopping: these mails left, and saying so saves resending them.
        recording = record(campaignId, outcomes).then(() => {
          for (const outcome of outcomes) if (outcome.state === 'sent') sentThisRun.push(outcome.contact_id);
        });
        const counts = campaign.counts;
        const done = counts.sent + counts.failed + counts.skipped + outcomes.length;
        if (campaign.total > 0) await context.setProgress(Math.min(99, (done / campaign.total) * 100));
        if (next.kind !== 'chunk') {
          await recording;
          recording = null;
          next = await claimNext(false);
        }
        step = next;
        await yieldToEventLoop();
      }
    } finally {
      // Whatever stops the run, the chunk already sent is recorded if it can be.
      if (recording) await (recording as Promise<void>).catch(() => undefined);
    }
    if (step.kind === 'drain') throw new Error('a claim without a chunk in flight cannot drain');
    // The mails are out (the campaign may already read `sent`): now the contacts' last-contacted times.
    const { [STAMP_ALL]: all, ...result } = step.result;
    await stampContacts(job.id, campaignId, all ? 'all' : sentThisRun, signal);
    return result;
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
