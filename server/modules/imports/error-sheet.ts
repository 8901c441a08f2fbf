// The catalog import's error sheet: the batch's rows with errors, written by the sheet pipeline's one
// error sheet (server/lib/sheet-import/error-sheet.ts) through the one export job.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { exportFormats } from '../../../contracts/exports';
import type { Db } from '../../db/client';
import { catalogImports, importBatches, importRows } from '../../db/schema';
import { badRowReader, errorSheetDefinition } from '../../lib/sheet-import/error-sheet';
import type { FileStorage } from '../../lib/storage/types';
import { exportJobHandler } from '../exports/export-job';

export { ERRORS_HEADER, errorMessages } from '../../lib/sheet-import/error-sheet';

export const ERROR_SHEET_KIND = 'export.importErrors';
export const ERROR_SHEET_NAME = 'Error sheet';

export const errorSheetPayloadSchema = z.object({
  batchId: z.string().uuid(),
  format: z.enum(exportFormats),
});
type ErrorSheetPayload = z.output<typeof errorSheetPayloadSchema>;

const definition = errorSheetDefinition({
  kind: ERROR_SHEET_KIND,
  name: ERROR_SHEET_NAME,
  fileStem: 'import-errors',
  payloadSchema: errorSheetPayloadSchema,
  async headersOf(db, payload) {
    const [row] = await db
      .select({ headers: catalogImports.headers })
      .from(importBatches)
      .innerJoin(catalogImports, eq(catalogImports.id, importBatches.importId))
      .where(eq(importBatches.id, payload.batchId));
    return row?.headers ?? [];
  },
  ...badRowReader({
    table: importRows,
    line: importRows.line,
    cells: importRows.cells,
    errors: importRows.errors,
    badRowsOf: (payload: ErrorSheetPayload) =>
      and(eq(importRows.batchId, payload.batchId), eq(importRows.outcome, 'error')),
  }),
});

export const errorSheetHandler = (options: { db: Db; dataDir: string; storage: FileStorage }) =>
  exportJobHandler(definition, options);
