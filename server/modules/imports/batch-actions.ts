// What a person does with an import: upload a sheet, reprocess a batch with another mapping, stop and
// resume its task, move it to staging, mark missing products inactive. Each answers at once; the work
// runs as a job (validate-job.ts, move-job.ts) whose task the page follows.
import { and, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { plural } from '../../../contracts/domain/format';
import {
  type BlankPolicy,
  type ColumnMapping,
  type MoveKind,
  moveKindLabels,
  runningBatchStatuses,
} from '../../../contracts/imports';
import type { Db } from '../../db/client';
import {
  catalogImports,
  importBatches,
  importRequests,
  importRows,
  products,
  sellers,
} from '../../db/schema';
import { taskAccepted } from '../../jobs/queue';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import {
  openSheet,
  receiveSheetUpload,
  SheetError,
  sheetHttpError,
  withReceivedSheet,
} from '../../lib/sheets';
import { allAttributes } from '../attributes/attribute-defs';
import { bulkChangeStatus } from '../products/bulk';
import { type Viewer, viewerOf } from '../products/products';
import { actorOf } from '../users/actor';
import {
  assertIdle,
  attachTask,
  type BatchRow,
  findBatch,
  getBatch,
  getImport,
  IMPORT_FOLDER,
  type ImportRow,
  insertBatch,
} from './imports';
import { guessMapping, mappingProblem, rememberedMapping, rememberMapping } from './mapping';
import { MOVE_KIND, movableRows, moveTaskName } from './move-job';
import { VALIDATE_KIND, validateTaskName } from './validate-job';

export { IMPORT_FOLDER };

/** Enqueues the job a batch's current step needs and names it on the batch. */
async function startTask(
  app: FastifyInstance,
  ownerId: string,
  batch: BatchRow,
  upload: ImportRow,
  actor: Actor,
) {
  const job =
    batch.step === 'move' && batch.moveKind
      ? await app.jobs.enqueue({
          kind: MOVE_KIND,
          name: moveTaskName(batch.moveKind, upload.fileName),
          ownerId,
          payload: { batchId: batch.id, kind: batch.moveKind, actor },
        })
      : await app.jobs.enqueue({
          kind: VALIDATE_KIND,
          name: validateTaskName(upload.fileName),
          ownerId,
          payload: { batchId: batch.id },
        });
  await attachTask(app.db, batch.id, job.id);
  return job;
}

/** The seller an upload or a request is for: a seller's own, or the one staff name. */
export async function targetSeller(db: Db, viewer: Viewer, named: string | undefined): Promise<string> {
  if (viewer.sellerId) return viewer.sellerId;
  if (!named || !/^[0-9a-f-]{36}$/i.test(named)) {
    throw new HttpError(400, 'Choose the seller whose catalogue this is for.', 'SELLER_REQUIRED', {
      sellerId: 'Choose a seller.',
    });
  }
  const [seller] = await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, named));
  if (!seller)
    throw new HttpError(400, 'Choose a seller that exists.', 'INVALID_SELLER', {
      sellerId: 'Choose a seller that exists.',
    });
  return seller.id;
}

/**
 * Records a sheet already in the storage (uploaded or fetched) as an import of `sellerId` and queues
 * its validation. Its header is read from `localPath`, the local copy the caller still holds; the
 * caller removes the stored sheet when this fails.
 */
export async function createImport(
  app: FastifyInstance,
  request: FastifyRequest,
  file: {
    relativePath: string;
    localPath: string;
    fileName: string;
    format: 'csv' | 'xlsx';
    size: number;
    sha256: string;
  },
  options: { sellerId: string; requestId: string | null },
) {
  let headers: string[];
  try {
    const sheet = await openSheet(file.localPath, { format: file.format, user: request.user.id });
    headers = sheet.headers;
    await sheet.close();
  } catch (error) {
    if (error instanceof SheetError) throw sheetHttpError(error);
    throw error;
  }
  const actor = await actorOf(app.db, request);
  const mapping = guessMapping(
    headers,
    await allAttributes(app.db),
    await rememberedMapping(app.db, options.sellerId),
  );
  const { upload, batch } = await app.db.transaction(async (tx) => {
    const [upload] = await tx
      .insert(catalogImports)
      .values({
        sellerId: options.sellerId,
        requestId: options.requestId,
        fileName: file.fileName,
        format: file.format,
        fileSize: file.size,
        fileHash: file.sha256,
        storagePath: file.relativePath,
        headers,
        createdBy: actor.id,
        createdByName: actor.name,
      })
      .returning();
    if (!upload) throw new Error('the import was not stored');
    const batch = await insertBatch(tx, { importId: upload.id, mapping, blankPolicy: 'keep', actor });
    await recordAudit(tx, {
      subject: { type: 'import', id: upload.id },
      actor,
      action: 'uploaded',
      note: `${file.fileName} (${headers.length} columns, ${(file.size / 1024).toFixed(0)} KB)`,
    });
    if (options.requestId) {
      await recordAudit(tx, {
        subject: { type: 'import_request', id: options.requestId },
        actor,
        action: 'imported',
        note: `Import of ${file.fileName} started.`,
      });
    }
    return { upload, batch };
  });
  const job = await startTask(app, request.user.id, batch, upload, actor);
  return { import: await getImport(app.db, { sellerId: null }, upload.id), ...taskAccepted(job) };
}

export async function uploadCatalogSheet(app: FastifyInstance, request: FastifyRequest, dataDir: string) {
  const viewer = viewerOf(request);
  const file = await receiveSheetUpload(request, { storage: app.storage, dataDir, folder: IMPORT_FOLDER });
  return withReceivedSheet(app.storage, file, async () => {
    const sellerId = await targetSeller(app.db, viewer, file.fields.sellerId);
    let requestId: string | null = null;
    if (file.fields.requestId && !viewer.sellerId) {
      const [found] = await app.db
        .select({ id: importRequests.id })
        .from(importRequests)
        .where(and(eq(importRequests.id, file.fields.requestId), eq(importRequests.sellerId, sellerId)));
      if (!found) throw new HttpError(400, 'That import request is not this seller’s.', 'INVALID_REQUEST');
      requestId = found.id;
    }
    return createImport(app, request, file, { sellerId, requestId });
  });
}

/** A new batch of the import with another mapping or blank-cell rule, validated from the start. */
export async function reprocessBatch(
  app: FastifyInstance,
  request: FastifyRequest,
  body: { batch: string; mapping?: ColumnMapping[]; blankPolicy?: BlankPolicy; saveMapping: boolean },
) {
  const viewer = viewerOf(request);
  const actor = await actorOf(app.db, request);
  const defs = new Map((await allAttributes(app.db)).map((def) => [def.code, def]));
  const { batch, upload } = await app.db.transaction(async (tx) => {
    const { batch: current, upload } = await findBatch(tx, viewer, body.batch, true);
    assertIdle(current);
    const mapping = body.mapping ?? current.mapping;
    const problem = mappingProblem(mapping, upload.headers, defs);
    if (problem) throw new HttpError(400, problem, 'INVALID_MAPPING', { mapping: problem });
    if (body.mapping && body.saveMapping) await rememberMapping(tx, upload.sellerId, mapping);
    const blankPolicy = body.blankPolicy ?? current.blankPolicy;
    const batch = await insertBatch(tx, { importId: upload.id, mapping, blankPolicy, actor });
    const changed = mapping
      .filter((column, index) => column.target !== current.mapping[index]?.target)
      .map((column) => ({
        field: column.header,
        before: current.mapping[column.index]?.target ?? null,
        after: column.target,
      }));
    if (blankPolicy !== current.blankPolicy)
      changed.push({ field: 'Blank cells', before: current.blankPolicy, after: blankPolicy });
    await recordAudit(tx, {
      subject: { type: 'import', id: upload.id },
      actor,
      action: 'reprocessed',
      changes: changed,
      note: `Batch ${batch.number} replaces batch ${current.number}.`,
    });
    return { batch, upload };
  });
  const job = await startTask(app, request.user.id, batch, upload, actor);
  return { batch: await getBatch(app.db, batch.id), ...taskAccepted(job) };
}

export async function stopBatch(app: FastifyInstance, request: FastifyRequest, batchId: string) {
  const viewer = viewerOf(request);
  const actor = await actorOf(app.db, request);
  await app.db.transaction(async (tx) => {
    const { batch, upload } = await findBatch(tx, viewer, batchId, true);
    const shown = await getBatch(tx, batch.id);
    if (!runningBatchStatuses.includes(shown.status)) {
      throw new HttpError(409, 'This batch is not running.', 'BATCH_NOT_RUNNING');
    }
    await tx
      .update(importBatches)
      .set({ stopRequested: true, updatedAt: sql`now()` })
      .where(eq(importBatches.id, batch.id));
    await recordAudit(tx, {
      subject: { type: 'import', id: upload.id },
      actor,
      action: 'stop',
      note: `Stop asked for batch ${batch.number}.`,
    });
  });
  return getBatch(app.db, batchId);
}

/** Queues a stopped or failed batch again; its task resumes after the last stored chunk. */
export async function resumeBatch(app: FastifyInstance, request: FastifyRequest, batchId: string) {
  const viewer = viewerOf(request);
  const actor = await actorOf(app.db, request);
  const { batch, upload } = await app.db.transaction(async (tx) => {
    const { batch, upload } = await findBatch(tx, viewer, batchId, true);
    const shown = await getBatch(tx, batch.id);
    if (shown.status !== 'stopped' && shown.status !== 'failed') {
      throw new HttpError(409, 'Only a stopped or failed batch can be resumed.', 'BATCH_NOT_RESUMABLE');
    }
    const [queued] = await tx
      .update(importBatches)
      .set({ status: 'queued', stopRequested: false, error: null, updatedAt: sql`now()` })
      .where(eq(importBatches.id, batch.id))
      .returning();
    await recordAudit(tx, {
      subject: { type: 'import', id: upload.id },
      actor,
      action: 'resumed',
      note: `Batch ${batch.number} resumes ${batch.step === 'move' ? 'its move' : 'validation'} after line ${batch.step === 'move' ? batch.moveLine : batch.checkpointLine}.`,
    });
    return { batch: queued as BatchRow, upload };
  });
  const job = await startTask(app, request.user.id, batch, upload, actor);
  return { batch: await getBatch(app.db, batch.id), ...taskAccepted(job) };
}

export async function moveBatch(
  app: FastifyInstance,
  request: FastifyRequest,
  batchId: string,
  kind: MoveKind,
) {
  const viewer = viewerOf(request);
  const actor = await actorOf(app.db, request);
  const { batch, upload } = await app.db.transaction(async (tx) => {
    const { batch, upload } = await findBatch(tx, viewer, batchId, true);
    assertIdle(batch);
    if (batch.status !== 'ready' && batch.status !== 'moved') {
      throw new HttpError(
        409,
        'Validate the batch fully before moving it (resume it if it stopped).',
        'BATCH_NOT_READY',
      );
    }
    const [left] = await tx
      .select({ n: count() })
      .from(importRows)
      .where(and(eq(importRows.batchId, batch.id), movableRows(kind), isNull(importRows.result)));
    if (!left?.n) {
      throw new HttpError(
        409,
        kind === 'duplicates'
          ? 'This batch has no duplicates left to merge.'
          : 'Every row of this batch has been moved already.',
        'NOTHING_TO_MOVE',
      );
    }
    const [queued] = await tx
      .update(importBatches)
      .set({
        status: 'queued',
        step: 'move',
        moveKind: kind,
        rowsToMove: left.n,
        rowsMoved: 0,
        moveLine: 0,
        stopRequested: false,
        error: null,
        updatedAt: sql`now()`,
      })
      .where(eq(importBatches.id, batch.id))
      .returning();
    await recordAudit(tx, {
      subject: { type: 'import', id: upload.id },
      actor,
      action: 'move',
      note: `${moveKindLabels[kind]} asked for batch ${batch.number} (${plural(left.n, 'row')}).`,
    });
    return { batch: queued as BatchRow, upload };
  });
  const job = await startTask(app, request.user.id, batch, upload, actor);
  return { batch: await getBatch(app.db, batch.id), ...taskAccepted(job) };
}

// ── Mark inactive ──────────────────────────────────────────────────────────────────────────────────

/** The seller's products whose SKU no row of the batch names. */
const missingFromBatch = (sellerId: string, batchId: string): SQL =>
  sql`(${products.sellerId} = ${sellerId} AND ${products.skuKey} NOT IN (
    SELECT ${importRows.skuKey} FROM ${importRows} WHERE ${importRows.batchId} = ${batchId} AND ${importRows.skuKey} <> ''))`;

async function finishedBatch(db: Db, viewer: Viewer, batchId: string) {
  const found = await findBatch(db, viewer, batchId);
  // A half-read sheet would make every product after the checkpoint look missing.
  if (found.batch.status !== 'ready' && found.batch.status !== 'moved') {
    throw new HttpError(409, 'The batch must be fully validated first.', 'BATCH_NOT_READY');
  }
  return found;
}

export async function markInactivePreview(app: FastifyInstance, request: FastifyRequest, batchId: string) {
  const { batch, upload } = await finishedBatch(app.db, viewerOf(request), batchId);
  const where = missingFromBatch(upload.sellerId, batch.id);
  const [row] = await app.db
    .select({
      missing: count(),
      willChange: sql<number>`count(*) FILTER (WHERE ${products.status} = 'live')`.mapWith(Number),
    })
    .from(products)
    .where(where);
  return { missing: row?.missing ?? 0, willChange: row?.willChange ?? 0 };
}

export async function markInactive(
  app: FastifyInstance,
  request: FastifyRequest,
  body: { batch: string; expected: number },
) {
  const viewer = viewerOf(request);
  const { batch, upload } = await finishedBatch(app.db, viewer, body.batch);
  const preview = await markInactivePreview(app, request, body.batch);
  if (preview.willChange !== body.expected) {
    throw new HttpError(
      409,
      `The catalogue changed: ${plural(preview.willChange, 'live product is', 'live products are')} now missing from this sheet. Check the count and confirm again.`,
      'COUNT_CHANGED',
    );
  }
  const actor = await actorOf(app.db, request);
  const where = sql`(${missingFromBatch(upload.sellerId, batch.id)} AND ${products.status} = 'live')`;
  const result = await bulkChangeStatus(app.db, viewer, actor, where, { status: 'inactive' });
  await recordAudit(app.db, {
    subject: { type: 'import', id: upload.id },
    actor,
    action: 'inactive',
    note: `${plural(result.changed, 'live product', 'live products')} missing from batch ${batch.number} ${result.changed === 1 ? 'was' : 'were'} marked inactive.`,
  });
  return { changed: result.changed, skipped: result.skippedCount };
}
