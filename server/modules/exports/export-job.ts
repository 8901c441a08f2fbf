// The one export job (ARCHITECTURE "export job"): any list's selection, in the list's order, streamed
// to CSV or XLSX in keyset-paged batches. Memory holds one batch whatever the table's size; the file is
// written in local scratch space and put into the file storage (DATA_DIR or S3) only when complete, so
// it appears under its key whole or not at all, and any instance can serve the download.
// A list brings what only it knows (how to count, read a batch after a cursor, turn a row into cells);
// sellers were the first list, staging products the second.
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { plural as pluralOf } from '../../../contracts/domain/format';
import { type ExportFileFormat, exportDownloadPath } from '../../../contracts/exports';
import type { Db } from '../../db/client';
import { JobFailure, type JobHandler } from '../../jobs/worker';
import type { ExportCursor, ExportDefinition } from '../../lib/export-definition';
import type { FileStorage } from '../../lib/storage/types';
import { createCsvWriter } from './csv';
import type { Column, TableWriter } from './table';
import { createXlsxWriter } from './xlsx';

export type { ExportCursor, ExportDefinition } from '../../lib/export-definition';

export const EXPORT_BATCH_SIZE = 1000;

/** The storage key of an export's file (the same relative path under DATA_DIR on the disk driver). */
export const exportStorageKey = (taskId: string, format: ExportFileFormat) =>
  `files/exports/${taskId}.${format}`;
/** Where the disk driver keeps exports (tests on the disk driver read them there). */
export const exportsFolder = (dataDir: string) => path.join(dataDir, 'files', 'exports');
export const exportFilePath = (dataDir: string, taskId: string, format: ExportFileFormat) =>
  path.join(dataDir, exportStorageKey(taskId, format));
/** This instance's own scratch space, where a file is written before it goes into the storage. */
const exportScratch = (dataDir: string) => path.join(dataDir, 'tmp', 'exports');

export const exportContentTypes: Record<ExportFileFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
};

/**
 * The rows past a cursor in an export's order (sort key, then id): `(key, id) > (cursor)` ascending,
 * `<` descending, the key cast back from its text form to `keyType` (a timestamp keeps its
 * microseconds, so no row is skipped or repeated). Every row when there is no cursor yet.
 */
export function pastCursor(
  key: SQLWrapper,
  id: SQLWrapper,
  after: ExportCursor | null,
  keyType: 'text' | 'timestamptz' | 'integer',
  descending: boolean,
): SQL {
  if (!after) return sql`true`;
  const cast = sql.raw(keyType);
  const cursor = sql`(CAST(${after.key} AS ${cast}), CAST(${after.id} AS uuid))`;
  return descending ? sql`(${key}, ${id}) < ${cursor}` : sql`(${key}, ${id}) > ${cursor}`;
}

/** Export kinds by job kind: the download route names the file by them. */
const stems = new Map<string, string>();
export const exportFileStem = (kind: string) => stems.get(kind);

/** Removes what an interrupted attempt of this task left in scratch space (its local files). */
async function removeLeftovers(folder: string, taskId: string) {
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(`${taskId}.`))
      .map((name) => rm(path.join(folder, name), { force: true })),
  );
}

function jsonWriterOf<P extends { format: ExportFileFormat }, Row extends { id: string }>(
  definition: ExportDefinition<P, Row>,
  file: string,
  columns: Column[],
  payload: P,
): TableWriter {
  if (!definition.jsonWriter) throw new JobFailure(`${definition.name} cannot be written as JSON.`, true);
  return definition.jsonWriter(file, columns, payload);
}

/**
 * The job handler of one list's export; register it under `definition.kind`. The file goes to `storage`
 * (app.storage, so any instance can serve it); `dataDir` holds this instance's scratch space.
 */
export function exportJobHandler<P extends { format: ExportFileFormat }, Row extends { id: string }>(
  definition: ExportDefinition<P, Row>,
  options: { db: Db; dataDir: string; storage: FileStorage },
): JobHandler {
  stems.set(definition.kind, definition.fileStem);
  const { storage } = options;
  return async ({ job, payload: raw, setProgress, signal }) => {
    const parsed = definition.payloadSchema.safeParse(raw);
    if (!parsed.success) throw new JobFailure('The export settings are not valid.', true);
    const payload = parsed.data;
    const folder = exportScratch(options.dataDir);
    await mkdir(folder, { recursive: true });
    await removeLeftovers(folder, job.id);

    const [total, { columns, context }] = await Promise.all([
      definition.count(options.db, payload),
      definition.columns(payload, options.db),
    ]);
    const file = path.join(folder, `${job.id}.${payload.format}`);
    const writer: TableWriter =
      payload.format === 'xlsx'
        ? createXlsxWriter(file, columns, definition.sheetName)
        : payload.format === 'json'
          ? jsonWriterOf(definition, file, columns, payload)
          : createCsvWriter(file, columns);
    let rows = 0;
    try {
      let after: ExportCursor | null = null;
      for (;;) {
        signal.throwIfAborted();
        const batch = await definition.readBatch(options.db, payload, after, EXPORT_BATCH_SIZE);
        if (batch.length === 0) break;
        await writer.writeRows(batch.map((row) => definition.cellsOf(row, payload, context)));
        rows += batch.length;
        const last = batch[batch.length - 1] as Row & { cursorKey: string };
        after = { key: last.cursorKey, id: last.id };
        // The count was taken at the start; rows added meanwhile must not push it past 99 early.
        await setProgress(Math.min(99, (rows / Math.max(total, 1)) * 100));
        if (batch.length < EXPORT_BATCH_SIZE) break;
      }
      signal.throwIfAborted();
      await writer.commit();
      // Whole or not at all: a store that fails here fails the attempt, and the job retries it.
      await storage.put(exportStorageKey(job.id, payload.format), createReadStream(file), {
        contentType: exportContentTypes[payload.format],
      });
    } catch (error) {
      await writer.discard();
      throw error;
    } finally {
      await rm(file, { force: true });
    }
    const [singular, plural] = definition.noun;
    return {
      file: path.basename(file),
      format: payload.format,
      rows,
      link: exportDownloadPath(job.id),
      title: `${definition.name} is ready`,
      body: `${pluralOf(rows, singular, plural)} · ${payload.format.toUpperCase()}`,
    };
  };
}
