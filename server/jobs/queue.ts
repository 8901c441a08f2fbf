// The jobs table as a queue (ARCHITECTURE.md "background jobs"). Every instance's worker claims due
// jobs with FOR UPDATE SKIP LOCKED, so two workers never take the same job, on PGlite and PostgreSQL.
// A claim is a lease: `locked_until` moves on while the worker's heartbeat runs, and a job whose worker
// died is claimed again once it runs out. Every write of a running job names its claim (the worker and
// the attempt), so a worker that lost its lease can no longer touch the job.
import { and, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { jobs } from '../db/schema';
import { insertNotification, type NotificationInput, type NotificationRow } from '../lib/notifications';

export type JobRow = typeof jobs.$inferSelect;

export interface EnqueueInput {
  /** Which handler runs it, e.g. `export.sellers`. */
  kind: string;
  /** The task name its owner sees ("Sellers export"). */
  name: string;
  /** Who is notified of the outcome; null for system jobs. */
  ownerId: string | null;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
  /** Not before this time (a scheduled send); default now. Kept in the table, so it survives restarts. */
  runAfter?: Date;
}

/** Who holds a running job: the worker and the attempt it claimed. */
export interface Claim {
  id: string;
  lockedBy: string;
  attempts: number;
}

const seconds = (value: number) => sql`now() + ${value} * interval '1 second'`;

const held = (claim: Claim) =>
  and(
    eq(jobs.id, claim.id),
    eq(jobs.status, 'Running'),
    eq(jobs.lockedBy, claim.lockedBy),
    eq(jobs.attempts, claim.attempts),
  );

/** SPEC §7's answer to a long action: the task just queued, which the SPA follows to its toast. */
export const taskAccepted = (job: Pick<JobRow, 'id' | 'name'>) => ({
  taskStatus: { taskId: job.id, taskName: job.name, status: 'Queued' as const },
});

/** Stores a job; in a caller's transaction (`tx`) the job exists only if the rest of it commits. */
export async function insertJob(db: Db | Tx, input: EnqueueInput): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind: input.kind,
      name: input.name,
      ownerId: input.ownerId,
      payload: input.payload ?? {},
      maxAttempts: input.maxAttempts ?? 5,
      ...(input.runAfter ? { runAfter: input.runAfter } : {}),
    })
    .returning();
  if (!row) throw new Error('the job was not stored');
  return row;
}

/**
 * Claims the next due job of one of `kinds`: a queued job whose time has come, or a running one whose
 * lease ran out (its worker died). Counts the attempt and leases it to `workerId` for `leaseSeconds`.
 */
export async function claimJob(
  db: Db,
  options: { workerId: string; kinds: string[]; leaseSeconds: number },
): Promise<JobRow | null> {
  if (options.kinds.length === 0) return null;
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        or(
          and(eq(jobs.status, 'Queued'), lte(jobs.runAfter, sql`now()`)),
          and(eq(jobs.status, 'Running'), lt(jobs.lockedUntil, sql`now()`)),
        ),
        inArray(jobs.kind, options.kinds),
      ),
    )
    .orderBy(jobs.runAfter)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(jobs)
    .set({
      status: 'Running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: options.workerId,
      lockedUntil: seconds(options.leaseSeconds),
      updatedAt: sql`now()`,
    })
    .where(inArray(jobs.id, due))
    .returning();
  return row ?? null;
}

/** The heartbeat: extends the lease. False when the claim is no longer this worker's. */
export async function renewLease(db: Db, claim: Claim, leaseSeconds: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: seconds(leaseSeconds), updatedAt: sql`now()` })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Records progress (0–100). False when the claim is no longer this worker's. */
export async function recordProgress(db: Db, claim: Claim, progress: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ progress, updatedAt: sql`now()` })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Stores how far a running job got (in `result`, which completing it overwrites), in the caller's
 * transaction: the checkpoint commits with the work it describes, or neither does. False when the
 * claim is no longer this worker's; the caller then rolls back, so no batch is ever counted twice.
 */
export async function saveCheckpoint(
  tx: Db | Tx,
  claim: Claim,
  checkpoint: Record<string, unknown>,
): Promise<boolean> {
  const rows = await tx
    .update(jobs)
    .set({ result: checkpoint, updatedAt: sql`now()` })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Gives a job back untouched when its worker stops cleanly (a deploy, Ctrl-C): queued again at once,
 * and the interrupted attempt is not counted against it.
 */
export async function releaseJob(db: Db, claim: Claim): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'Queued',
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      runAfter: sql`now()`,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(held(claim));
}

/**
 * Puts a running job back in the queue until `runAfter` without finishing it (a bulk mail waiting for
 * its deferred retries): its attempt is not counted and its owner is not notified, so the task reads as
 * queued, with its progress, until a later run completes it.
 */
export async function requeueJob(db: Db, claim: Claim, runAfter: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'Queued',
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      runAfter,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(held(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** The owner's notification of a finished job: one per job (its id is the notification's task id). */
async function notifyOwner(
  tx: Tx,
  job: JobRow,
  status: 'Completed' | 'Paused' | 'Failed',
  input: NotificationInput,
): Promise<NotificationRow | null> {
  if (!job.ownerId) return null;
  return insertNotification(tx, job.ownerId, {
    type: 'task',
    ...input,
    taskId: job.id,
    taskName: job.name,
    status,
  });
}

/**
 * Finishes a job: Completed (or Paused: a bulk mail its user paused, resumed by a new job) with its
 * result and the owner's notification in ONE transaction, so the job is never done without its
 * notification nor notified twice. Answers the notification to publish, or null when nothing was stored
 * (the claim was lost, or the task was already notified).
 */
export async function completeJob(
  db: Db,
  claim: Claim,
  result: Record<string, unknown>,
  notification: NotificationInput,
  status: 'Completed' | 'Paused' = 'Completed',
): Promise<NotificationRow | null> {
  return db.transaction(async (tx) => {
    const [job] = await tx
      .update(jobs)
      .set({
        status,
        ...(status === 'Completed' ? { progress: 100 } : {}),
        result,
        lastError: null,
        finishedAt: sql`now()`,
        lockedBy: null,
        lockedUntil: null,
        updatedAt: sql`now()`,
      })
      .where(held(claim))
      .returning();
    return job ? notifyOwner(tx, job, status, notification) : null;
  });
}

export type FailureOutcome =
  | { final: false; retryInMs: number }
  | { final: true; notification: NotificationRow | null };

/**
 * Records a failed attempt. With attempts left the job is queued again after `retryInMs`; after the
 * last one it is Failed, with the owner's notification in the same transaction.
 */
export async function failJob(
  db: Db,
  claim: Claim & { maxAttempts: number },
  error: string,
  retryInMs: number,
  notification: NotificationInput,
): Promise<FailureOutcome | null> {
  return db.transaction(async (tx): Promise<FailureOutcome | null> => {
    if (claim.attempts < claim.maxAttempts) {
      const rows = await tx
        .update(jobs)
        .set({
          status: 'Queued',
          runAfter: sql`now() + ${retryInMs} * interval '1 millisecond'`,
          lastError: error,
          lockedBy: null,
          lockedUntil: null,
          updatedAt: sql`now()`,
        })
        .where(held(claim))
        .returning({ id: jobs.id });
      return rows.length ? { final: false, retryInMs } : null;
    }
    const [job] = await tx
      .update(jobs)
      .set({
        status: 'Failed',
        lastError: error,
        finishedAt: sql`now()`,
        lockedBy: null,
        lockedUntil: null,
        updatedAt: sql`now()`,
      })
      .where(held(claim))
      .returning();
    if (!job) return null;
    return { final: true, notification: await notifyOwner(tx, job, 'Failed', notification) };
  });
}

export async function findOwnJob(db: Db, ownerId: string, id: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.ownerId, ownerId)));
  return row ?? null;
}

/** The owner's recent jobs, newest first (index jobs_owner_idx). */
export async function listOwnJobs(db: Db, ownerId: string, page: { skip: number; limit: number }) {
  const rows = await db
    .select()
    .from(jobs)
    .where(eq(jobs.ownerId, ownerId))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .offset(page.skip)
    .limit(page.limit);
  const [total] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(jobs)
    .where(eq(jobs.ownerId, ownerId));
  return { rows, count: total?.n ?? 0 };
}
