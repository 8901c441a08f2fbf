// The error sheet: the rows of a batch that have errors, as the sheet had them, with one more column
// saying what is wrong with each ("D17: The price must be a number…"). The user fixes the cells and
// uploads it again. Written by the one export job (exports/export-job.ts), in CSV or XLSX: a cell
// that a spreadsheet would run as a formula (=HYPERLINK(…)) is neutralised by the writers.
import { and, asc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { exportFormats } from '../../../contracts/exports';
import type { CellError } from '../../../contracts/imports';
import type { Db } from '../../db/client';
import { catalogImports, importBatches, importRows } from '../../db/schema';
import { type ExportDefinition, exportJobHandler } from '../exports/export-job';
import type { Column } from '../exports/table';

export const ERROR_SHEET_KIND = 'export.importErrors';
export const ERROR_SHEET_NAME = 'Error sheet';
export const ERRORS_HEADER = 'Errors';

export const errorSheetPayloadSchema = z.object({
  batchId: z.string().uuid(),
  format: z.enum(exportFormats),
});
type Payload = z.infer<typeof errorSheetPayloadSchema>;
type Row = { id: string; line: number; cells: string[]; errors: CellError[] };

async function headersOf(db: Db, batchId: string): Promise<string[]> {
  const [row] = await db
    .select({ headers: catalogImports.headers })
    .from(importBatches)
    .innerJoin(catalogImports, eq(catalogImports.id, importBatches.importId))
    .where(eq(importBatches.id, batchId));
  return row?.headers ?? [];
}

export const errorMessages = (errors: readonly CellError[]) =>
  errors.map((error) => (error.cell ? `${error.cell}: ${error.message}` : error.message)).join(' · ');

const definition: ExportDefinition<Payload, Row> = {
  kind: ERROR_SHEET_KIND,
  name: ERROR_SHEET_NAME,
  fileStem: 'import-errors',
  sheetName: 'Rows with errors',
  noun: ['row with errors', 'rows with errors'],
  payloadSchema: errorSheetPayloadSchema,
  async columns(payload, db) {
    const headers = await headersOf(db, payload.batchId);
    const columns: Column[] = [
      ...headers.map((header) => ({ header, width: 18 })),
      { header: ERRORS_HEADER, width: 60 },
    ];
    return { columns, context: headers.length };
  },
  async count(db, payload) {
    return db.$count(
      importRows,
      and(eq(importRows.batchId, payload.batchId), eq(importRows.outcome, 'error')),
    );
  },
  async readBatch(db, payload, after, limit) {
    const rows = await db
      .select({ line: importRows.line, cells: importRows.cells, errors: importRows.errors })
      .from(importRows)
      .where(
        and(
          eq(importRows.batchId, payload.batchId),
          eq(importRows.outcome, 'error'),
          after ? gt(importRows.line, Number(after.key)) : undefined,
        ),
      )
      .orderBy(asc(importRows.line))
      .limit(limit);
    return rows.map((row) => ({
      id: String(row.line),
      cursorKey: String(row.line),
      line: row.line,
      cells: row.cells,
      errors: row.errors as CellError[],
    }));
  },
  cellsOf(row, _payload, width) {
    const cells = Array.from({ length: width as number }, (_, index) => row.cells[index] ?? '');
    return [...cells, errorMessages(row.errors)];
  },
};

export const errorSheetHandler = (options: { db: Db; dataDir: string }) =>
  exportJobHandler(definition, options);
