// The sellers export: every seller the list's filters (and search) select, in the list's order,
// through the one export job (export-job.ts).
import { and, asc, desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import { exportFormats } from '../../../contracts/exports';
import { sellerSortFields } from '../../../contracts/sellers';
import type { Db } from '../../db/client';
import { sellers } from '../../db/schema';
import type { FileStorage } from '../../lib/storage/types';
import { sellerStatus } from '../sellers/dto';
import { listSellers, searchSellers, sellerSelection } from '../sellers/listing';
import { type ExportCursor, type ExportDefinition, exportJobHandler, pastCursor } from './export-job';
import type { Cell, Column } from './table';

export const SELLERS_EXPORT_KIND = 'export.sellers';
export const SELLERS_EXPORT_NAME = 'Sellers export';

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
  after: ExportCursor | null,
  limit: number,
): Promise<ExportRow[]> {
  const { where, sortKey } = sellerSelection(payload);
  const descending = payload.order === 'desc';
  const keyType = payload.sort === 'createdAt' ? 'timestamptz' : 'text';
  const keyset = pastCursor(sortKey, sellers.id, after, keyType, descending);
  const order = descending ? desc : asc;
  return db
    .select({ ...sellerColumns, cursorKey: sql<string>`(${sortKey})::text` })
    .from(sellers)
    .where(and(where, keyset))
    .orderBy(order(sortKey), order(sellers.id))
    .limit(limit);
}

const sellersExport: ExportDefinition<SellersExportPayload, ExportRow> = {
  kind: SELLERS_EXPORT_KIND,
  name: SELLERS_EXPORT_NAME,
  fileStem: 'sellers',
  sheetName: 'Sellers',
  noun: ['seller', 'sellers'],
  payloadSchema: sellersExportPayloadSchema,
  columns: async () => ({ columns }),
  count: countSellers,
  readBatch,
  cellsOf,
};

export const sellersExportHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(sellersExport, options);
