// The sellers export job: every seller the list's filters (and search) select, in the list's order,
// streamed to CSV or XLSX in keyset-paged batches. Memory holds one batch whatever the table's size,
// and the file appears under its real name only when it is complete.
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type ExportFormat, exportDownloadPath, exportFormats } from '../../../contracts/exports';
import { sellerSortFields } from '../../../contracts/sellers';
import type { Db } from '../../db/client';
import { sellers } from '../../db/schema';
import { JobFailure, type JobHandler } from '../../jobs/worker';
import { sellerStatus } from '../sellers/dto';
import { listSellers, searchSellers, sellerSelection } from '../sellers/listing';
import { createCsvWriter } from './csv';
import type { Cell, Column, TableWriter } from './table';
import { createXlsxWriter } from './xlsx';

export const SELLERS_EXPORT_KIND = 'export.sellers';
export const SELLERS_EXPORT_NAME = 'Sellers export';
export const EXPORT_BATCH_SIZE = 1000;

/** What the route stores as the job's payload: the parsed export body (flags already booleans). */
export const sellersExportPayloadSchema = z.object({
  isActive: z.boolean().optional(),
  isEmailVerified: z.boolean().optional(),
  isKycDone: z.boolean().optional(),
  sort: z.enum(sellerSortFields),
  order: z.enum(['asc', 'desc']),
  format: z.enum(exportFormats),
  query: z.string().optional(),
});
export type SellersExportPayload = z.infer<typeof sellersExportPayloadSchema>;

export const exportsFolder = (dataDir: string) => path.join(dataDir, 'files', 'exports');
export const exportFilePath = (dataDir: string, taskId: string, format: ExportFormat) =>
  path.join(exportsFolder(dataDir), `${taskId}.${format}`);

const columns: Column[] = [
  { header: 'Code', width: 14 },
  { header: 'Name', width: 30 },
  { header: 'E-mail', width: 32 },
  { header: 'Phone', width: 18 },
  { header: 'Status', width: 20 },
  { header: 'City', width: 16 },
  { header: 'Free', width: 8 },
  { header: 'Blocked', width: 9 },
  { header: 'Created at', width: 20 },
];

const sellerColumns = {
  id: sellers.id,
  sellerCode: sellers.sellerCode,
  sellerName: sellers.sellerName,
  email: sellers.email,
  phone: sellers.phone,
  address: sellers.address,
  isActive: sellers.isActive,
  isEmailVerified: sellers.isEmailVerified,
  isKycDone: sellers.isKycDone,
  isFree: sellers.isFree,
  blocked: sellers.blocked,
  createdAt: sellers.createdAt,
};

type ExportRow = { [K in keyof typeof sellerColumns]: (typeof sellers.$inferSelect)[K] } & {
  cursorKey: string;
};

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function cellsOf(row: ExportRow): Cell[] {
  return [
    row.sellerCode,
    row.sellerName,
    row.email,
    row.phone,
    sellerStatus(row),
    row.address?.city ?? null,
    yesNo(row.isFree),
    yesNo(row.blocked),
    row.createdAt,
  ];
}

/** How many sellers the export will write: the list's own count (O(1) for tab filters). */
async function countSellers(db: Db, payload: SellersExportPayload): Promise<number> {
  const { format: _format, query, ...list } = payload;
  const page = { ...list, skip: 0, limit: 1 };
  const answer = query ? await searchSellers(db, { ...page, query }) : await listSellers(db, page);
  return answer.count;
}

/**
 * One batch after the cursor, in the list's order (sort key, then id). The key travels as text and is
 * cast back to its type, so a timestamp keeps its microseconds and no row is skipped or repeated.
 */
async function readBatch(
  db: Db,
  payload: SellersExportPayload,
  after: { key: string; id: string } | null,
): Promise<ExportRow[]> {
  const { where, sortKey } = sellerSelection(payload);
  const keyType = sql.raw(payload.sort === 'createdAt' ? 'timestamptz' : 'text');
  const descending = payload.order === 'desc';
  const keyset = after
    ? descending
      ? sql`(${sortKey}, ${sellers.id}) < (CAST(${after.key} AS ${keyType}), CAST(${after.id} AS uuid))`
      : sql`(${sortKey}, ${sellers.id}) > (CAST(${after.key} AS ${keyType}), CAST(${after.id} AS uuid))`
    : undefined;
  const order = descending ? desc : asc;
  return db
    .select({ ...sellerColumns, cursorKey: sql<string>`(${sortKey})::text` })
    .from(sellers)
    .where(and(where, keyset))
    .orderBy(order(sortKey), order(sellers.id))
    .limit(EXPORT_BATCH_SIZE);
}

/** Removes what an interrupted attempt of this task left behind (its temporary files). */
async function removeLeftovers(folder: string, taskId: string) {
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(`${taskId}.`) && name.endsWith('.part'))
      .map((name) => rm(path.join(folder, name), { force: true })),
  );
}

export function sellersExportHandler(options: { db: Db; dataDir: string }): JobHandler {
  return async ({ job, payload: raw, setProgress, signal }) => {
    const parsed = sellersExportPayloadSchema.safeParse(raw);
    if (!parsed.success) throw new JobFailure('The export settings are not valid.', true);
    const payload = parsed.data;
    const folder = exportsFolder(options.dataDir);
    await mkdir(folder, { recursive: true });
    await removeLeftovers(folder, job.id);

    const total = await countSellers(options.db, payload);
    const file = exportFilePath(options.dataDir, job.id, payload.format);
    const writer: TableWriter =
      payload.format === 'xlsx' ? createXlsxWriter(file, columns, 'Sellers') : createCsvWriter(file, columns);
    let rows = 0;
    try {
      let after: { key: string; id: string } | null = null;
      for (;;) {
        signal.throwIfAborted();
        const batch = await readBatch(options.db, payload, after);
        if (batch.length === 0) break;
        await writer.writeRows(batch.map(cellsOf));
        rows += batch.length;
        const last = batch[batch.length - 1] as ExportRow;
        after = { key: last.cursorKey, id: last.id };
        // The count was taken at the start; sellers added meanwhile must not push it past 99 early.
        await setProgress(Math.min(99, (rows / Math.max(total, 1)) * 100));
        if (batch.length < EXPORT_BATCH_SIZE) break;
      }
      signal.throwIfAborted();
      await writer.commit();
    } catch (error) {
      await writer.discard();
      throw error;
    }
    return {
      file: path.basename(file),
      format: payload.format,
      rows,
      link: exportDownloadPath(job.id),
      title: 'Sellers export is ready',
      body: `${rows.toLocaleString('en-US')} ${rows === 1 ? 'seller' : 'sellers'} · ${payload.format.toUpperCase()}`,
    };
  };
}
