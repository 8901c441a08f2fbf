// What an export is, whatever the list and the file format (ARCHITECTURE "export job"): the list's part
// (an ExportDefinition) and the table a writer writes. The export job (server/modules/exports) runs them;
// the import error sheet (server/lib/sheet-import) is one, so the shape lives here, below both.
import type { z } from 'zod';
import type { ExportFileFormat } from '../../contracts/exports';
import type { Db } from '../db/client';

/** A cell: text, a number, a moment (written as a date and time), or empty. */
export type Cell = string | number | Date | null;

export interface Column {
  header: string;
  /** Width in characters, for formats that keep one (XLSX). */
  width?: number;
}

/** Writes a table to a file under a temporary name; `commit` makes it appear whole, `discard` drops it. */
export interface TableWriter {
  writeRows(rows: Cell[][]): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** Where a batch ends: the last row's sort key (as text, cast back by the reader) and id. */
export interface ExportCursor {
  key: string;
  id: string;
}

export interface ExportDefinition<P extends { format: ExportFileFormat }, Row extends { id: string }> {
  /** The job kind, e.g. `export.sellers`. */
  kind: string;
  /** The task name its owner sees ("Sellers export"). */
  name: string;
  /** The downloaded file's name before the date: `sellers` → sellers-2026-11-25.csv. */
  fileStem: string;
  /** The XLSX sheet's name. */
  sheetName: string;
  /** Singular and plural, for the notification ("1,204 products · CSV"). */
  noun: readonly [string, string];
  payloadSchema: z.ZodType<P>;
  columns(payload: P, db: Db): Promise<{ columns: Column[]; context?: unknown }>;
  /** How many rows the export will write (for progress; an estimate is fine). */
  count(db: Db, payload: P): Promise<number>;
  /** Up to `limit` rows after the cursor, in the export's order (sort key, then id). */
  readBatch(
    db: Db,
    payload: P,
    after: ExportCursor | null,
    limit: number,
  ): Promise<(Row & { cursorKey: string })[]>;
  cellsOf(row: Row, payload: P, context: unknown): Cell[];
  /** The writer of the `json` format, for a list that offers it (its rows' cells in, JSON out). */
  jsonWriter?(file: string, columns: Column[], payload: P): TableWriter;
}
