// Validating a batch (the job behind uploadCatalogSheet and reprocessBatch). The sheet is streamed
// (server/lib/sheets) in chunks (server/lib/sheet-import/chunks.ts); each chunk's staging products are looked up in two queries, every row
// gets its verdict (row-verdict.ts), and the rows are stored in ONE transaction with the batch's
// counts and checkpoint. A resumed job (after a stop, a crash or a retry) reopens the sheet after the
// checkpoint, so every row is counted exactly once and the counts always add up to the rows read.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { OutcomeCounts } from '../../../contracts/imports';
import { normalizeText } from '../../../contracts/query-tree';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { importBatches, importRows, products } from '../../db/schema';
import { JobFailure, type JobHandler, type JobResult } from '../../jobs/worker';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit';
import { forEachSheetChunk } from '../../lib/sheet-import/chunks';
import { openSheet, type SheetRow } from '../../lib/sheets';
import type { FileStorage } from '../../lib/storage/types';
import { importLink, loadBatchForJob, runBatchJob, setBatchStatus, stopBatchNow } from './batch-jobs';
import { type CatalogContext, loadCatalogContext } from './catalog-context';
import { type BatchRow, type ImportRow, importFileKey } from './imports';
import {
  type BatchState,
  type ChunkLookups,
  type ExistingProduct,
  type RowVerdict,
  rowVerdict,
  type VerdictOptions,
} from './row-verdict';
import { keyAttributeIds, titleTemplate } from './title-template';

export const VALIDATE_KIND = 'imports.validate';
export const VALIDATE_CHUNK = 1000;

export const validateTaskName = (fileName: string) => `Validate ${fileName}`;

const existingColumns = {
  id: products.id,
  sku: products.sku,
  skuKey: products.skuKey,
  title: products.title,
  titleKey: products.titleKey,
  categoryId: products.categoryId,
  priceMinor: products.priceMinor,
  currency: products.currency,
  inventory: products.inventory,
  weight: products.weight,
  weightUnit: products.weightUnit,
  attributeValues: products.attributeValues,
};

/** The seller's staging products a chunk's rows may meet: by SKU, and by title (for duplicates). */
async function lookupsFor(
  db: Db | Tx,
  sellerId: string,
  rows: readonly SheetRow[],
  options: VerdictOptions,
): Promise<ChunkLookups> {
  const column = (target: string) => options.mapping.find((candidate) => candidate.target === target)?.index;
  const skuAt = column('sku');
  const titleAt = column('title');
  const skuKeys = new Set<string>();
  const titleKeys = new Set<string>();
  for (const row of rows) {
    if (skuAt !== undefined) {
      const key = normalizeText(row.cells[skuAt] ?? '');
      if (key) skuKeys.add(key);
    }
    if (titleAt !== undefined) {
      const key = normalizeText(row.cells[titleAt] ?? '');
      if (key) titleKeys.add(key);
    }
  }
  const [bySku, byTitle] = await Promise.all([
    skuKeys.size
      ? db
          .select(existingColumns)
          .from(products)
          .where(and(eq(products.sellerId, sellerId), inArray(products.skuKey, [...skuKeys])))
      : [],
    titleKeys.size
      ? db
          .select(existingColumns)
          .from(products)
          .where(and(eq(products.sellerId, sellerId), inArray(products.titleKey, [...titleKeys])))
      : [],
  ]);
  const titles = new Map<string, ExistingProduct[]>();
  for (const product of byTitle as ExistingProduct[]) {
    const list = titles.get(product.titleKey) ?? [];
    list.push(product);
    titles.set(product.titleKey, list);
  }
  return {
    bySku: new Map((bySku as ExistingProduct[]).map((product) => [product.skuKey, product])),
    byTitle: titles,
  };
}

/** After a checkpoint, the SKUs and duplicate keys the stored rows already claimed. */
async function restoreState(db: Db, batchId: string): Promise<BatchState> {
  const state: BatchState = { seenSku: new Map(), seenDup: new Map() };
  const rows = await db
    .select({
      line: importRows.line,
      sku: importRows.sku,
      skuKey: importRows.skuKey,
      title: importRows.title,
      dupKey: importRows.dupKey,
      outcome: importRows.outcome,
    })
    .from(importRows)
    .where(
      and(eq(importRows.batchId, batchId), inArray(importRows.outcome, ['create', 'update', 'unchanged'])),
    )
    .orderBy(importRows.line);
  for (const row of rows) {
    const seen = { line: row.line, sku: row.sku, title: row.title };
    if (!state.seenSku.has(row.skuKey)) state.seenSku.set(row.skuKey, seen);
    if (row.outcome === 'create' && row.dupKey && !state.seenDup.has(row.dupKey))
      state.seenDup.set(row.dupKey, seen);
  }
  return state;
}

// PostgreSQL text and jsonb cannot hold NUL; a sheet may.
const clean = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

function storedRow(verdict: RowVerdict) {
  return {
    line: verdict.line,
    outcome: verdict.outcome,
    sku: clean(verdict.sku).slice(0, 200),
    sku_key: verdict.skuKey,
    title: clean(verdict.title).slice(0, 300),
    dup_key: verdict.dupKey,
    cells: verdict.cells.map(clean),
    errors: verdict.errors,
    duplicate_of: verdict.duplicateOf,
    product_id: verdict.productId,
    planned: verdict.planned,
  };
}

/** Stores a chunk's verdicts and moves the checkpoint, both or neither. Answers whether to stop. */
async function storeChunk(
  db: Db,
  batch: { id: string; checkpoint: number },
  verdicts: RowVerdict[],
  progress: { counts: OutcomeCounts; rowsRead: number; percent: number; rowsPerSecond: number },
): Promise<boolean> {
  const last = verdicts.at(-1)?.line ?? batch.checkpoint;
  return db.transaction(async (tx) => {
    if (verdicts.length) {
      await tx.execute(sql`
        INSERT INTO ${importRows} (batch_id, line, outcome, sku, sku_key, title, dup_key, cells, errors,
                                  duplicate_of, product_id, planned)
        SELECT ${batch.id}::uuid, x.line, x.outcome, x.sku, x.sku_key, x.title, x.dup_key, x.cells, x.errors,
               x.duplicate_of, x.product_id, x.planned
        FROM json_to_recordset(${JSON.stringify(verdicts.map(storedRow))}::json) AS x(
          line integer, outcome text, sku text, sku_key text, title text, dup_key text, cells json,
          errors jsonb, duplicate_of json, product_id uuid, planned json)`);
    }
    // Only from the checkpoint this worker started at: a second worker on the same batch fails here.
    const updated = rowsOf<{ stop: boolean }>(
      await tx.execute(sql`
        UPDATE ${importBatches}
        SET checkpoint_line = ${last}, rows_read = ${progress.rowsRead}, counts = ${JSON.stringify(progress.counts)}::jsonb,
            progress = ${progress.percent}, rows_per_second = ${progress.rowsPerSecond}, updated_at = now()
        WHERE id = ${batch.id} AND checkpoint_line = ${batch.checkpoint}
        RETURNING stop_requested AS stop`),
    );
    if (!updated[0]) throw new Error('another worker moved this batch on');
    batch.checkpoint = last;
    return updated[0].stop;
  });
}

function countsNote(counts: OutcomeCounts) {
  const n = formatNumber;
  return `${plural(counts.total, 'row')}: ${n(counts.create)} new, ${n(counts.update)} to update, ${n(counts.unchanged)} unchanged, ${plural(counts.duplicate, 'duplicate')}, ${n(counts.error)} with errors.`;
}

async function validate(
  db: Db,
  storage: FileStorage,
  context: Parameters<JobHandler>[0],
  batch: BatchRow,
  upload: ImportRow,
): Promise<JobResult> {
  await setBatchStatus(db, batch.id, 'validating', { step: 'validate', error: null, finishedAt: null });
  const catalog: CatalogContext = await loadCatalogContext(db);
  const options: VerdictOptions = {
    mapping: batch.mapping,
    blankPolicy: batch.blankPolicy,
    catalog,
    keyAttributeIds: keyAttributeIds(await titleTemplate(db), catalog),
    titleOverrides: new Map(
      Object.entries(upload.titleOverrides).map(([line, title]) => [Number(line), title]),
    ),
  };
  const titleColumn = batch.mapping.find((column) => column.target === 'title')?.index;
  const state =
    batch.checkpointLine > 0 ? await restoreState(db, batch.id) : { seenSku: new Map(), seenDup: new Map() };
  const counts = { ...batch.counts };
  const rowsRead = batch.rowsRead;
  // The parser workers read a path: the file itself on disk, a temporary copy from S3 (released below).
  const local = await storage.localCopy(importFileKey(upload.storagePath));
  if (!local) throw new JobFailure('The sheet of this import is missing. Upload it again.', true);
  try {
    return await validateSheet(
      db,
      context,
      { batch, upload, options, state, counts, rowsRead, titleColumn },
      local.path,
    );
  } finally {
    await local.release();
  }
}

async function validateSheet(
  db: Db,
  context: Parameters<JobHandler>[0],
  run: {
    batch: BatchRow;
    upload: ImportRow;
    options: VerdictOptions;
    state: Awaited<ReturnType<typeof restoreState>>;
    counts: OutcomeCounts;
    rowsRead: number;
    titleColumn: number | undefined;
  },
  file: string,
): Promise<JobResult> {
  const { signal, setProgress } = context;
  const { batch, upload, options, state, counts, titleColumn } = run;
  let { rowsRead } = run;
  const position = { id: batch.id, checkpoint: batch.checkpointLine };
  const sheet = await openSheet(file, {
    format: upload.format,
    fromLine: batch.checkpointLine,
    signal,
  });
  const started = Date.now();
  let readThisRun = 0;
  const ended = await forEachSheetChunk(sheet, { size: VALIDATE_CHUNK, signal }, async (chunk) => {
    // The rows as they will be imported: an applied title replaces the cell (the error sheet shows it).
    if (titleColumn !== undefined) {
      for (const row of chunk) {
        const title = options.titleOverrides?.get(row.line);
        if (title !== undefined) row.cells[titleColumn] = title;
      }
    }
    const lookups = await lookupsFor(db, upload.sellerId, chunk, options);
    const verdicts = chunk.map((row) => rowVerdict(row, options, lookups, state));
    for (const verdict of verdicts) {
      counts[verdict.outcome] += 1;
      counts.total += 1;
    }
    rowsRead += chunk.length;
    readThisRun += chunk.length;
    const percent = Math.min(99, Math.floor((100 * sheet.bytesRead()) / Math.max(sheet.totalBytes, 1)));
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const stop = await storeChunk(db, position, verdicts, {
      counts,
      rowsRead,
      percent,
      rowsPerSecond: readThisRun / seconds,
    });
    await setProgress(percent);
    return stop;
  });
  if (ended === 'stopped') return stopBatchNow(db, batch, upload, 'Validation');
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  await setBatchStatus(db, batch.id, 'ready', {
    progress: 100,
    finishedAt: new Date(),
    rowsPerSecond: readThisRun / seconds,
  });
  await recordAudit(db, {
    subject: { type: 'import', id: upload.id },
    actor: SYSTEM_ACTOR,
    action: 'validated',
    note: `Batch ${batch.number}: ${countsNote(counts)}`,
  });
  return {
    batchId: batch.id,
    counts,
    title: `${upload.fileName} is validated`,
    body: countsNote(counts),
    link: importLink(upload.id),
  };
}

export function validateHandler(options: { db: Db; storage: FileStorage }): JobHandler {
  return async (context) => {
    const { batch, upload } = await loadBatchForJob(options.db, context.payload);
    return runBatchJob(options.db, context, batch.id, async () => {
      if (batch.stopRequested) return stopBatchNow(options.db, batch, upload, 'Validation');
      return validate(options.db, options.storage, context, batch, upload);
    });
  };
}
