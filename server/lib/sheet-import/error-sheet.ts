// The error sheet of an import (catalog or leads): the rows that have errors, as the sheet had them,
// with one more column saying what is wrong with each ("D17: The price must be a number…"). The user
// fixes the cells and uploads it again. Written by the one export job (exports/export-job.ts), in CSV or
// XLSX: a cell that a spreadsheet would run as a formula (=HYPERLINK(…)) is neutralised by the writers.
import { and, asc, gt, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { ExportFileFormat } from '../../../contracts/exports';
import type { Db } from '../../db/client';
import type { Column, ExportDefinition } from '../export-definition';

export const ERRORS_HEADER = 'Errors';

/** A problem of a row: in a cell (named like D17) or of the whole row (cell null). */
export interface RowProblem {
  cell: string | null;
  message: string;
}

export const errorMessages = (errors: readonly RowProblem[]) =>
  errors.map((error) => (error.cell ? `${error.cell}: ${error.message}` : error.message)).join(' · ');

export interface StoredBadRow {
  line: number;
  cells: string[];
  errors: readonly RowProblem[];
}

/** What an import tells the error sheet: its kind and task name, and how to read its bad rows. */
export interface ErrorSheetSource<P extends { format: ExportFileFormat }> {
  kind: string;
  name: string;
  fileStem: string;
  payloadSchema: z.ZodType<P>;
  headersOf(db: Db, payload: P): Promise<string[]>;
  count(db: Db, payload: P): Promise<number>;
  /** Up to `limit` rows with errors after line `afterLine`, by line. */
  readRows(db: Db, payload: P, afterLine: number, limit: number): Promise<StoredBadRow[]>;
}

/** Where an import stores its rows, and which of a payload's rows are the ones with errors. */
export interface BadRowTable<P> {
  table: PgTable;
  line: AnyPgColumn;
  cells: AnyPgColumn;
  errors: AnyPgColumn;
  badRowsOf(payload: P): SQL | undefined;
}

/** An error sheet's `count` and `readRows` over a row table: its bad rows, by line after `afterLine`. */
export function badRowReader<P>(
  rows: BadRowTable<P>,
): Pick<ErrorSheetSource<P & { format: ExportFileFormat }>, 'count' | 'readRows'> {
  return {
    count: (db, payload) => db.$count(rows.table, rows.badRowsOf(payload)),
    async readRows(db, payload, afterLine, limit) {
      const found = await db
        .select({ line: rows.line, cells: rows.cells, errors: rows.errors })
        .from(rows.table)
        .where(and(rows.badRowsOf(payload), gt(rows.line, afterLine)))
        .orderBy(asc(rows.line))
        .limit(limit);
      // The columns are an integer, a string[] and a problem list, stored as the import wrote them.
      return found as StoredBadRow[];
    },
  };
}

type Row = StoredBadRow & { id: string };

export function errorSheetDefinition<P extends { format: ExportFileFormat }>(
  source: ErrorSheetSource<P>,
): ExportDefinition<P, Row> {
  return {
    kind: source.kind,
    name: source.name,
    fileStem: source.fileStem,
    sheetName: 'Rows with errors',
    noun: ['row with errors', 'rows with errors'],
    payloadSchema: source.payloadSchema,
    async columns(payload, db) {
      const headers = await source.headersOf(db, payload);
      const columns: Column[] = [
        ...headers.map((header) => ({ header, width: 18 })),
        { header: ERRORS_HEADER, width: 60 },
      ];
      return { columns, context: headers.length };
    },
    count: (db, payload) => source.count(db, payload),
    async readBatch(db, payload, after, limit) {
      const rows = await source.readRows(db, payload, after ? Number(after.key) : 0, limit);
      return rows.map((row) => ({ ...row, id: String(row.line), cursorKey: String(row.line) }));
    },
    cellsOf(row, _payload, width) {
      const cells = Array.from({ length: width as number }, (_, index) => row.cells[index] ?? '');
      return [...cells, errorMessages(row.errors)];
    },
  };
}
