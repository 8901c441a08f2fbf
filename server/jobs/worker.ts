// One worker per server process: claims due jobs one at a time, runs their handler with a heartbeat
// that keeps the lease, and records the outcome. It wakes at once when this process enqueues a job and
// polls otherwise, so jobs enqueued by other instances are picked up within a poll interval.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { NotificationInput, NotificationRow } from '../lib/notifications';
import {
  type Claim,
  claimJob,
  completeJob,
  failJob,
  type JobRow,
  recordProgress,
  releaseJob,
  renewLease,
  requeueJob,
} from './queue';

/** What a handler answers: kept as the job's result; `title`, `body` and `link` make its notification. */
export interface JobResult extends Record<string, unknown> {
  title?: string;
  body?: string;
  link?: string | null;
  /**
   * The task is not finished: the job goes back to the queue until this time (a bulk mail waiting for
   * its deferred retries), uncounted as an attempt and with no notification, so the task reads as
   * queued, never Completed, until a later run ends it.
   */
  runAgainAt?: Date;
  /** The task ends Paused, not Completed: its notification (and the SPA's task toast) says so. */
  paused?: boolean;
}

export interface JobContext {
  job: JobRow;
  payload: Record<string, unknown>;
  /** Records progress 0–100 (rounded; unchanged values are not written again). */
  setProgress(progress: number): Promise<void>;
  /** Aborted when the worker stops or loses the job's lease: stop writing and throw. */
  signal: AbortSignal;
}

export type JobHandler = (context: JobContext) => Promise<JobResult>;

/**
 * Lets timers and network I/O run. PGlite answers queries without ever leaving the microtask queue, so
 * a job that only talks to the database would hold the event loop until it ends — no request served,
 * no heartbeat sent. Handlers that loop over database work call this between chunks.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A failure with words for the user: its message becomes the task's error and the failure
 * notification. `permanent` failures (bad input) are not retried. Any other error is logged and the
 * user reads a generic sentence.
 */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

export const GENERIC_JOB_ERROR = 'Something went wrong while running this task. Please try again.';
const INTERRUPTED_ERROR = 'The task was interrupted too many times.';

export interface WorkerOptions {
  db: Db;
  handlers: ReadonlyMap<string, JobHandler>;
  log: FastifyBaseLogger;
  /** How long a claim lasts without a heartbeat (JOB_LEASE_SECONDS). */
  leaseSeconds: number;
  /** How often an idle worker looks for due jobs. */
  pollIntervalMs?: number;
  /** The first retry waits 2 × this, each next one twice as long, up to `maxRetryDelayMs`. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** Rings the owner's bell once the outcome is stored. */
  publish(notification: NotificationRow): Promise<void>;
}

/** Exponential backoff: 2^attempts × base, capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
}

class LeaseLost extends Error {
  constructor() {
    super('the lease on this job was lost');
  }
}

class WorkerStopping extends Error {
  constructor() {
    super('the worker is stopping');
  }
}

export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private current: AbortController | null = null;
  private readonly pollIntervalMs: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(private readonly options: WorkerOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.retryBaseMs = options.retryBaseMs ?? 1000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 10 * 60_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for work now (a job was just enqueued here). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Stops after aborting the running job, which goes back to the queue (its attempt uncounted). If
   * the process dies instead, the job stays Running and is claimed again when its lease runs out.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.current?.abort(new WorkerStopping());
    this.wake();
    await this.loop;
  }

  /** Claims and runs one due job; false when there was none. Tests drive the worker with this. */
  async runOnce(): Promise<boolean> {
    const job = await claimJob(this.options.db, {
      workerId: this.id,
      kinds: [...this.options.handlers.keys()],
      leaseSeconds: this.options.leaseSeconds,
    });
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let found = false;
      try {
        found = await this.runOnce();
      } catch (error) {
        this.options.log.error({ err: error }, 'job worker: claiming or finishing a job failed');
      }
      if (!found && this.running && !this.woken) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, this.pollIntervalMs);
      this.wakeUp = done;
    });
  }

  private async execute(job: JobRow): Promise<void> {
    const { db, log } = this.options;
    const claim: Claim & { maxAttempts: number } = {
      id: job.id,
      lockedBy: this.id,
      attempts: job.attempts,
      maxAttempts: job.maxAttempts,
    };
    // A job that took its worker down every time (out of memory, a crash loop) must end some day.
    if (job.attempts > job.maxAttempts) {
      await this.fail(job, claim, INTERRUPTED_ERROR, true);
      return;
    }
    const handler = this.options.handlers.get(job.kind);
    if (!handler) return; // claims only ask for known kinds
    const controller = new AbortController();
    this.current = controller;
    const lost = () => {
      if (!controller.signal.aborted) controller.abort(new LeaseLost());
    };
    const heartbeat = setInterval(
      () => {
        renewLease(db, claim, this.options.leaseSeconds).then(
          (held) => held || lost(),
          (error) => log.warn({ err: error, jobId: job.id }, 'job heartbeat failed'),
        );
      },
      Math.max(100, (this.options.leaseSeconds * 1000) / 3),
    );
    let lastProgress = job.progress;
    const setProgress = async (value: number) => {
      const progress = Math.max(0, Math.min(100, Math.round(value)));
      if (progress === lastProgress || controller.signal.aborted) return;
      lastProgress = progress;
      if (!(await recordProgress(db, claim, progress))) lost();
    };
    log.info({ jobId: job.id, kind: job.kind, attempt: job.attempts }, 'job started');
    try {
      const { runAgainAt, paused, ...result } = await handler({
        job,
        payload: job.payload,
        setProgress,
        signal: controller.signal,
      });
      if (runAgainAt) {
        // Not done: back in the queue until then (a lost lease makes this a no-op).
        await requeueJob(db, claim, runAgainAt);
        log.info({ jobId: job.id, kind: job.kind, runAgainAt }, 'job waits to run again');
        return;
      }
      // Done is done, even if the worker is stopping meanwhile; a lost lease makes this a no-op.
      const { title, body, link } = result;
      const notification = await completeJob(
        db,
        claim,
        result,
        { title: title ?? `${job.name} is done`, body: body ?? '', link: link ?? null },
        paused ? 'Paused' : 'Completed',
      );
      log.info({ jobId: job.id, kind: job.kind }, paused ? 'job paused' : 'job completed');
      if (notification) await this.options.publish(notification);
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof WorkerStopping) {
        await releaseJob(db, claim);
        log.info({ jobId: job.id }, 'job given back: the worker is stopping');
      } else if (reason instanceof LeaseLost) {
        log.warn({ jobId: job.id }, 'job abandoned: its lease was lost to another worker');
      } else {
        const failure = error instanceof JobFailure ? error : null;
        if (!failure) log.error({ err: error, jobId: job.id, kind: job.kind }, 'job attempt failed');
        await this.fail(job, claim, failure?.message ?? GENERIC_JOB_ERROR, failure?.permanent ?? false);
      }
    } finally {
      clearInterval(heartbeat);
      this.current = null;
    }
  }

  private async fail(
    job: JobRow,
    claim: Claim & { maxAttempts: number },
    message: string,
    permanent: boolean,
  ): Promise<void> {
    const notification: NotificationInput = { title: `${job.name} failed`, body: message };
    const outcome = await failJob(
      this.options.db,
      permanent ? { ...claim, maxAttempts: claim.attempts } : claim,
      message,
      retryDelayMs(job.attempts, this.retryBaseMs, this.maxRetryDelayMs),
      notification,
    );
    if (outcome?.final) {
      this.options.log.warn({ jobId: job.id, kind: job.kind, error: message }, 'job failed');
      if (outcome.notification) await this.options.publish(outcome.notification);
    } else if (outcome) {
      this.options.log.info({ jobId: job.id, retryInMs: outcome.retryInMs }, 'job will be retried');
    }
  }
}
