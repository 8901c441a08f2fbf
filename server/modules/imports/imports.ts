// Imports and their batches: storing them, reading them as the API answers them, listing and
// searching. A seller reads only their own imports (another seller's answer 404); staff and admins
// read every seller's.
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import {
  type Batch,
  type BatchStatus,
  type ColumnMapping,
  type Import,
  type OutcomeCounts,
  type ResultCounts,
  runningBatchStatuses,
} from '../../../contracts/imports';
import type { Db, Tx } from '../../db/client';
import { catalogImports, importBatches, importRows, jobs, sellers } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { keyInFolder } from '../../lib/storage/keys';
import type { Viewer } from '../products/products';

export type ImportRow = typeof catalogImports.$inferSelect;
export type BatchRow = typeof importBatches.$inferSelect;

/** Where the imports' sheets are stored (storage keys `uploads/imports/<uuid>.<csv|xlsx>`). */
export const IMPORT_FOLDER = 'uploads/imports';
/** The key of an import's sheet (a row can only point into the imports' folder). */
export const importFileKey = (storagePath: string) => keyInFolder(IMPORT_FOLDER, storagePath);

export const emptyCounts = (): OutcomeCounts => ({
  total: 0,
  create: 0,
  update: 0,
  unchanged: 0,
  duplicate: 0,
  error: 0,
});
export const emptyResults = (): ResultCounts => ({
  created: 0,
  updated: 0,
  unchanged: 0,
  merged: 0,
  conflict: 0,
  no_match: 0,
  skipped: 0,
});

export const importNotFound = () =>
  new HttpError(404, 'There is no such import, or it is not yours.', 'IMPORT_NOT_FOUND');
export const batchNotFound = () =>
  new HttpError(404, 'There is no such batch, or it is not yours.', 'BATCH_NOT_FOUND');

/** A batch as read with the state of its task: a task the queue gave up on means a failed batch. */
const batchColumns = { ...getTableColumns(importBatches), jobStatus: jobs.status, jobError: jobs.lastError };
type BatchWithJob = BatchRow & { jobStatus: string | null; jobError: string | null };

export function batchDto(row: BatchWithJob): Batch {
  const abandoned = runningBatchStatuses.includes(row.status) && row.jobStatus === 'Failed';
  return {
    id: row.id,
    importId: row.importId,
    number: row.number,
    status: abandoned ? 'failed' : row.status,
    step: row.step,
    moveKind: row.moveKind,
    mapping: row.mapping,
    blankPolicy: row.blankPolicy,
    rowsRead: row.rowsRead,
    progress: row.progress,
    rowsMoved: row.rowsMoved,
    rowsToMove: row.rowsToMove,
    counts: row.counts,
    results: row.results,
    leftToMove: null,
    error: abandoned ? (row.jobError ?? 'The task stopped unexpectedly.') : row.error,
    rowsPerSecond: row.rowsPerSecond === null ? null : Math.round(row.rowsPerSecond),
    taskId: row.taskId,
    createdBy: { id: row.createdBy, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function importDto(row: ImportRow & { sellerName: string }, batch: Batch): Import {
  return {
    id: row.id,
    sellerId: row.sellerId,
    sellerName: row.sellerName,
    fileName: row.fileName,
    format: row.format,
    fileSize: row.fileSize,
    fileHash: row.fileHash,
    headers: row.headers,
    requestId: row.requestId,
    batch,
    createdBy: { id: row.createdBy, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
  };
}

const scope = (viewer: Pick<Viewer, 'sellerId'>) =>
  viewer.sellerId ? eq(catalogImports.sellerId, viewer.sellerId) : undefined;

async function batchesById(db: Db | Tx, ids: string[]): Promise<Map<string, Batch>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select(batchColumns)
    .from(importBatches)
    .leftJoin(jobs, eq(jobs.id, importBatches.taskId))
    .where(inArray(importBatches.id, ids));
  return new Map(rows.map((row) => [row.id, batchDto(row)]));
}

const importColumns = { ...getTableColumns(catalogImports), sellerName: sellers.sellerName };

async function importDtos(db: Db | Tx, rows: (ImportRow & { sellerName: string })[]): Promise<Import[]> {
  const batches = await batchesById(
    db,
    rows.map((row) => row.currentBatchId).filter((id): id is string => Boolean(id)),
  );
  return rows.flatMap((row) => {
    const batch = row.currentBatchId ? batches.get(row.currentBatchId) : undefined;
    return batch ? [importDto(row, batch)] : [];
  });
}

/** The import, if the viewer may see it. */
export async function findImport(
  db: Db | Tx,
  viewer: Pick<Viewer, 'sellerId'>,
  id: string,
): Promise<ImportRow> {
  const [row] = await db
    .select()
    .from(catalogImports)
    .where(and(eq(catalogImports.id, id), scope(viewer)));
  if (!row) throw importNotFound();
  return row;
}

export async function getImport(db: Db | Tx, viewer: Pick<Viewer, 'sellerId'>, id: string): Promise<Import> {
  const rows = await db
    .select(importColumns)
    .from(catalogImports)
    .innerJoin(sellers, eq(sellers.id, catalogImports.sellerId))
    .where(and(eq(catalogImports.id, id), scope(viewer)));
  const [dto] = await importDtos(db, rows);
  if (!dto) throw importNotFound();
  if (dto.batch.status === 'ready' || dto.batch.status === 'moved') {
    dto.batch.leftToMove = await leftToMove(db, dto.batch.id);
  }
  return dto;
}

/** The rows each move would still take (movableRows in move-job.ts, not yet handled). */
async function leftToMove(db: Db | Tx, batchId: string) {
  const [row] = await db
    .select({
      full: sql<number>`count(*) FILTER (WHERE ${importRows.outcome} IN ('create', 'update', 'unchanged'))`.mapWith(
        Number,
      ),
      pricing: sql<number>`count(*) FILTER (WHERE ${importRows.outcome} <> 'duplicate')`.mapWith(Number),
      duplicates: sql<number>`count(*) FILTER (WHERE ${importRows.outcome} = 'duplicate')`.mapWith(Number),
    })
    .from(importRows)
    .where(and(eq(importRows.batchId, batchId), isNull(importRows.result)));
  return { full: row?.full ?? 0, pricing: row?.pricing ?? 0, duplicates: row?.duplicates ?? 0 };
}

/** The batch and its import, if the viewer may see them; `lock` holds the batch row for a change. */
export async function findBatch(
  db: Db | Tx,
  viewer: Pick<Viewer, 'sellerId'>,
  batchId: string,
  lock = false,
): Promise<{ batch: BatchRow; upload: ImportRow }> {
  const query = db
    .select({ batch: importBatches, upload: catalogImports })
    .from(importBatches)
    .innerJoin(catalogImports, eq(catalogImports.id, importBatches.importId))
    .where(and(eq(importBatches.id, batchId), scope(viewer)));
  const [row] = await (lock ? query.for('update', { of: importBatches }) : query);
  if (!row) throw batchNotFound();
  return row;
}

export async function getBatch(db: Db | Tx, id: string): Promise<Batch> {
  const batch = (await batchesById(db, [id])).get(id);
  if (!batch) throw batchNotFound();
  return batch;
}

/** A batch that is not being worked on may be reprocessed or moved; a running one only stopped. */
export function assertIdle(batch: Pick<BatchRow, 'status'>) {
  if (runningBatchStatuses.includes(batch.status)) {
    throw new HttpError(
      409,
      'This batch is still running. Wait for it to finish, or stop it.',
      'BATCH_RUNNING',
    );
  }
}

export async function listImports(
  db: Db,
  viewer: Pick<Viewer, 'sellerId'>,
  query: { skip: number; limit: number; status?: BatchStatus; sellerId?: string; query?: string },
) {
  const conditions: (SQL | undefined)[] = [scope(viewer)];
  if (query.sellerId) conditions.push(eq(catalogImports.sellerId, query.sellerId));
  if (query.status) conditions.push(eq(importBatches.status, query.status));
  if (query.query) {
    const pattern = containsPattern(query.query);
    conditions.push(or(ilike(catalogImports.fileName, pattern), ilike(sellers.sellerName, pattern)));
  }
  const where = and(...conditions);
  const base = db
    .select(importColumns)
    .from(catalogImports)
    .innerJoin(sellers, eq(sellers.id, catalogImports.sellerId))
    .innerJoin(importBatches, eq(importBatches.id, catalogImports.currentBatchId))
    .where(where);
  const [rows, [total]] = await Promise.all([
    base
      .orderBy(desc(catalogImports.createdAt), desc(catalogImports.id))
      .offset(query.skip)
      .limit(query.limit),
    db
      .select({ n: count() })
      .from(catalogImports)
      .innerJoin(sellers, eq(sellers.id, catalogImports.sellerId))
      .innerJoin(importBatches, eq(importBatches.id, catalogImports.currentBatchId))
      .where(where),
  ]);
  return { result: await importDtos(db, rows), count: total?.n ?? 0 };
}

export async function searchBatches(
  db: Db,
  viewer: Pick<Viewer, 'sellerId'>,
  query: { skip: number; limit: number; importId?: string; status?: BatchStatus; sellerId?: string },
) {
  const where = and(
    scope(viewer),
    query.importId ? eq(importBatches.importId, query.importId) : undefined,
    query.status ? eq(importBatches.status, query.status) : undefined,
    query.sellerId ? eq(catalogImports.sellerId, query.sellerId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(batchColumns)
      .from(importBatches)
      .innerJoin(catalogImports, eq(catalogImports.id, importBatches.importId))
      .leftJoin(jobs, eq(jobs.id, importBatches.taskId))
      .where(where)
      .orderBy(desc(importBatches.createdAt), desc(importBatches.id))
      .offset(query.skip)
      .limit(query.limit),
    db
      .select({ n: count() })
      .from(importBatches)
      .innerJoin(catalogImports, eq(catalogImports.id, importBatches.importId))
      .where(where),
  ]);
  return { result: rows.map(batchDto), count: total?.n ?? 0 };
}

/** A new batch of an import (numbered after its last), which becomes the import's current one. */
export async function insertBatch(
  tx: Tx,
  input: {
    importId: string;
    mapping: ColumnMapping[];
    blankPolicy: BatchRow['blankPolicy'];
    actor: { id: string | null; name: string };
  },
): Promise<BatchRow> {
  const [last] = await tx
    .select({ n: sql<number>`coalesce(max(${importBatches.number}), 0)`.mapWith(Number) })
    .from(importBatches)
    .where(eq(importBatches.importId, input.importId));
  const [batch] = await tx
    .insert(importBatches)
    .values({
      importId: input.importId,
      number: (last?.n ?? 0) + 1,
      mapping: input.mapping,
      blankPolicy: input.blankPolicy,
      counts: emptyCounts(),
      results: emptyResults(),
      createdBy: input.actor.id,
      createdByName: input.actor.name,
    })
    .returning();
  if (!batch) throw new Error('the batch was not stored');
  await tx
    .update(catalogImports)
    .set({ currentBatchId: batch.id, updatedAt: sql`now()` })
    .where(eq(catalogImports.id, input.importId));
  return batch;
}

/** Names the task that works on a batch, so the page can follow it and a failed task fails the batch. */
export async function attachTask(db: Db | Tx, batchId: string, taskId: string) {
  await db.update(importBatches).set({ taskId, updatedAt: sql`now()` }).where(eq(importBatches.id, batchId));
}
