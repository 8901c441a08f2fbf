// What validation and moves share as jobs: reading and locking the batch a job works on, its
// checkpointed progress, stopping, and ending it as failed once its task will not be retried — so a
// batch is never left "validating" or "moving" with nothing working on it.
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { BatchStatus } from '../../../contracts/imports';
import type { Db } from '../../db/client';
import { catalogImports, importBatches } from '../../db/schema';
import { GENERIC_JOB_ERROR, type JobContext, JobFailure } from '../../jobs/worker';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit';
import { SheetError } from '../../lib/sheets';
import { StorageUnavailableError } from '../../lib/storage/errors';
import type { BatchRow, ImportRow } from './imports';

export const batchPayloadSchema = z.object({ batchId: z.string().uuid() });

export const importLink = (importId: string) => `/imports/manage-imports?import=${importId}`;

export async function loadBatchForJob(
  db: Db,
  payload: unknown,
): Promise<{ batch: BatchRow; upload: ImportRow }> {
  const parsed = batchPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new JobFailure('The task does not name a batch.', true);
  const [row] = await db
    .select({ batch: importBatches, upload: catalogImports })
    .from(importBatches)
    .innerJoin(catalogImports, eq(catalogImports.id, importBatches.importId))
    .where(eq(importBatches.id, parsed.data.batchId));
  if (!row) throw new JobFailure('The batch no longer exists.', true);
  return row;
}

export async function setBatchStatus(
  db: Db,
  batchId: string,
  status: BatchStatus,
  extra: Partial<typeof importBatches.$inferInsert> = {},
) {
  await db
    .update(importBatches)
    .set({ status, updatedAt: sql`now()`, ...extra })
    .where(eq(importBatches.id, batchId));
}

/** Ends a batch that was asked to stop; answers the job's result. */
export async function stopBatchNow(db: Db, batch: BatchRow, upload: ImportRow, what: string) {
  await setBatchStatus(db, batch.id, 'stopped', { stopRequested: false, error: null });
  await recordAudit(db, {
    subject: { type: 'import', id: upload.id },
    actor: SYSTEM_ACTOR,
    action: 'stopped',
    note: `${what} of batch ${batch.number} stopped; it resumes where it stopped.`,
  });
  return {
    title: `${what} stopped`,
    body: `${upload.fileName}: resume it from the import.`,
    link: importLink(upload.id),
  };
}

/**
 * Runs a batch job's work. A failure that will not be retried (bad input, or the last attempt) marks
 * the batch failed with words for the user; a retried one leaves it as it is, and an abort (the server
 * stopping, the lease lost) leaves it for the next worker to resume.
 */
export async function runBatchJob<T>(
  db: Db,
  context: JobContext,
  batchId: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (context.signal.aborted) throw error;
    const failure =
      error instanceof SheetError
        ? new JobFailure(error.message, true)
        : error instanceof JobFailure
          ? error
          : null;
    const final = failure?.permanent || context.job.attempts >= context.job.maxAttempts;
    if (final) {
      await setBatchStatus(db, batchId, 'failed', {
        // An outage is retried like any fault; if it outlasts every attempt, say so rather than "something".
        error:
          failure?.message ?? (error instanceof StorageUnavailableError ? error.message : GENERIC_JOB_ERROR),
        stopRequested: false,
        finishedAt: new Date(),
      }).catch(() => undefined);
    }
    throw failure ?? error;
  }
}
