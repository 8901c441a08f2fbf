// Bulk actions over more than BULK_LIMIT products, as a background task (issue 26). The request checks
// the action's input and the selection's size (at most BULK_JOB_LIMIT), stores the job and answers 202
// with its `taskStatus`; the job then runs the very functions of the in-request path (bulk.ts) on one
// id range of the selection at a time: each batch is one transaction with its history entries and the
// job's checkpoint, its skipped rows counted with their reasons, progress reported after each.
//
// The selection is a query, and it is evaluated again for each batch rather than frozen: the job walks
// the products in id order (keyset), and each batch acts on the products of its id range that match
// the query, as the owner's scope allows, when the batch runs. So every product is visited at most once,
// and none is changed that no longer matches when its turn comes (another person moved it on, a seller
// lost it); a product that starts matching behind the walk is not reached. Freezing up to a million ids
// would mean storing them, and acting on rows that may no longer match.
//
// Retry after a crash: the checkpoint (where the walk is, what it counted so far) commits with each
// batch, so a job claimed again goes on after the last committed batch; none is done, or counted, twice.
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  type BulkResult,
  bulkCategoryBodySchema,
  bulkStatusBodySchema,
  bulkTagsBodySchema,
  productSelectionSchema,
} from '../../../contracts/catalog';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { products } from '../../db/schema';
import { insertJob, type JobRow, saveCheckpoint } from '../../jobs/queue';
import { JobFailure, type JobHandler, yieldToEventLoop } from '../../jobs/worker';
import type { Actor } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import type { FileStorage } from '../../lib/storage/types';
import { removeMediaFiles } from '../media/media';
import { bulkAssignCategory, bulkChangeStatus, bulkDelete, bulkTags } from './bulk';
import type { Viewer } from './products';
import { selectionWhere } from './selection';

export const BULK_JOB_KIND = 'catalog.bulkAction';
/** Products per batch (one transaction each): well under BULK_LIMIT, short enough to hold few locks long. */
export const BULK_JOB_BATCH = 2_000;
/** How many skipped rows a result lists, as the in-request answer does. */
const SKIPPED_LISTED = 100;

const withoutSelection = { selection: true } as const;
export const bulkJobActionSchema = z.discriminatedUnion('kind', [
  bulkStatusBodySchema.omit(withoutSelection).extend({ kind: z.literal('status') }),
  bulkCategoryBodySchema.omit(withoutSelection).extend({ kind: z.literal('category') }),
  bulkTagsBodySchema.omit(withoutSelection).extend({ kind: z.literal('tags') }),
  z.object({ kind: z.literal('delete') }),
]);
export type BulkJobAction = z.infer<typeof bulkJobActionSchema>;

const payloadSchema = z.object({
  action: bulkJobActionSchema,
  selection: productSelectionSchema,
  userId: z.string(),
  /** Whose products a seller's job may reach (null: staff and admins). */
  sellerId: z.string().nullable(),
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
  /** The selection's size when it was confirmed: the measure of progress. */
  total: z.number().int(),
});

const skippedSchema = z.object({ id: z.string(), sku: z.string(), reason: z.string() });
/** How far a job got: the last id of the last committed batch, and what it counted. */
const checkpointSchema = z.object({
  after: z.string().nullable(),
  changed: z.number().int(),
  skippedCount: z.number().int(),
  skipped: z.array(skippedSchema),
});
type Checkpoint = z.infer<typeof checkpointSchema>;

/** The task's name: "Bulk status change Completed" is its toast. */
export function bulkTaskName(action: BulkJobAction): string {
  if (action.kind === 'status') return 'Bulk status change';
  if (action.kind === 'category') return 'Bulk category change';
  if (action.kind === 'tags') return action.mode === 'add' ? 'Bulk tagging' : 'Bulk untagging';
  return 'Bulk delete';
}

type ProductFiles = { storagePath: string; derivatives: Record<string, string> }[];

/** Runs one action on the products `where` selects: the in-request path, or one batch of a job. */
export async function runBulkAction(
  db: Db,
  viewer: Viewer,
  actor: Actor,
  where: SQL,
  action: BulkJobAction,
): Promise<{ result: BulkResult; files: ProductFiles }> {
  const only = (result: BulkResult) => ({ result, files: [] });
  if (action.kind === 'status') return only(await bulkChangeStatus(db, viewer, actor, where, action));
  if (action.kind === 'category') return only(await bulkAssignCategory(db, actor, where, action.categoryId));
  if (action.kind === 'tags') return only(await bulkTags(db, actor, where, action));
  return bulkDelete(db, where);
}

/** Removes deleted products' files from the storage; a file already gone is fine (see removeMediaFiles). */
export async function removeProductFiles(storage: FileStorage, files: ProductFiles): Promise<void> {
  await removeMediaFiles(
    storage,
    files.flatMap((file) => [file.storagePath, ...Object.values(file.derivatives)]),
  );
}

/**
 * Checks the action as a task's batches would (the reason of a rejection, the category, the tags), on
 * an empty selection, so bad input is refused with a 400 now rather than failing the task later.
 * Nothing is written.
 */
export async function checkBulkAction(db: Db, viewer: Viewer, actor: Actor, action: BulkJobAction) {
  await runBulkAction(db, viewer, actor, sql`false`, action);
}

/** Stores the task of a bulk action over `total` products (the route has checked the action). */
export function queueBulkJob(
  db: Db,
  input: {
    viewer: Viewer;
    actor: Actor;
    selection: z.input<typeof productSelectionSchema>;
    action: BulkJobAction;
    total: number;
  },
): Promise<JobRow> {
  return insertJob(db, {
    kind: BULK_JOB_KIND,
    name: bulkTaskName(input.action),
    ownerId: input.viewer.userId,
    payload: {
      action: input.action,
      selection: input.selection,
      userId: input.viewer.userId,
      sellerId: input.viewer.sellerId,
      actor: input.actor,
      total: input.total,
    },
  });
}

/** "12,000 changed, 345 skipped." and the first reason, as the in-request toast says it. */
export function bulkOutcomeText(outcome: Pick<BulkResult, 'changed' | 'skippedCount' | 'skipped'>): string {
  const first = outcome.skipped[0];
  const example = outcome.skippedCount && first ? ` (e.g. ${first.sku}: ${first.reason})` : '';
  return `${formatNumber(outcome.changed)} changed, ${formatNumber(outcome.skippedCount)} skipped${example}.`;
}

class ClaimLost extends Error {
  constructor() {
    super('the claim on this bulk job was lost: the batch is rolled back');
  }
}

export function bulkJobHandler(options: {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  batchSize?: number;
}): JobHandler {
  const { db, storage, log } = options;
  const batchSize = options.batchSize ?? BULK_JOB_BATCH;
  return async ({ job, payload, setProgress, signal }) => {
    const input = payloadSchema.parse(payload);
    const claim = { id: job.id, lockedBy: job.lockedBy ?? '', attempts: job.attempts };
    const resumed = checkpointSchema.safeParse(job.result);
    let state: Checkpoint = resumed.success
      ? resumed.data
      : { after: null, changed: 0, skippedCount: 0, skipped: [] };
    const viewer: Viewer = { userId: input.userId, sellerId: input.sellerId };
    const stopped = (error: HttpError) =>
      new JobFailure(
        `${error.message} ${plural(state.changed, 'product was', 'products were')} changed before the task stopped.`,
        true,
      );
    try {
      // Compiled once: the attributes a query names were checked when it was queued.
      const where = await selectionWhere(db, viewer, input.selection);
      for (;;) {
        const from = state.after === null ? sql`true` : sql`${products.id} > ${state.after}::uuid`;
        // The last id of this batch: (after, upTo] holds batchSize matching products (null: the rest).
        const [bound] = rowsOf<{ id: string }>(
          await db.execute(
            sql`SELECT id FROM ${products} WHERE ${where} AND ${from} ORDER BY id OFFSET ${batchSize - 1} LIMIT 1`,
          ),
        );
        const upTo = bound?.id ?? null;
        const to = upTo === null ? sql`true` : sql`${products.id} <= ${upTo}::uuid`;
        const range = sql`(${where} AND ${from} AND ${to})`;
        const { next, files } = await db.transaction(async (tx) => {
          // A transaction opens savepoints where a database opens transactions: bulk.ts runs inside it.
          const batch = await runBulkAction(tx as unknown as Db, viewer, input.actor, range, input.action);
          const next: Checkpoint = {
            after: upTo,
            changed: state.changed + batch.result.changed,
            skippedCount: state.skippedCount + batch.result.skippedCount,
            skipped: [...state.skipped, ...batch.result.skipped].slice(0, SKIPPED_LISTED),
          };
          if (!(await saveCheckpoint(tx, claim, next))) throw new ClaimLost();
          return { next, files: batch.files };
        });
        state = next;
        if (files.length) {
          await removeProductFiles(storage, files).catch((error) =>
            log.warn({ err: error, jobId: job.id }, 'some files of deleted products could not be removed'),
          );
        }
        const visited = state.changed + state.skippedCount;
        await setProgress(input.total ? (100 * Math.min(visited, input.total)) / input.total : 100);
        if (upTo === null) break;
        await yieldToEventLoop();
        if (signal.aborted) throw signal.reason;
      }
    } catch (error) {
      // Input that became wrong meanwhile (the category or a tag was deleted): retrying cannot help.
      if (error instanceof HttpError) throw stopped(error);
      throw error;
    }
    const result: BulkResult = {
      changed: state.changed,
      skippedCount: state.skippedCount,
      skipped: state.skipped,
    };
    return { ...result, body: bulkOutcomeText(result) };
  };
}
