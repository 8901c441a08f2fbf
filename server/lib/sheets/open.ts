// openSheetHere: a sheet's header and its data rows, streamed, whatever its format, within SHEET_LIMITS,
// read in this thread. The server reads sheets only through openSheet (in-worker.ts), which runs this in
// a worker thread with a memory limit; here is what that worker runs.
import { stat } from 'node:fs/promises';
import { formatNumber } from '../../../contracts/domain/format';
import { openCsvSource } from './csv';
import { detectSheetFormat } from './detect';
import { columnLetters, SHEET_LIMITS, SheetError, type SheetFormat } from './errors';
import { abortReason, type RawRecord, type RecordSource } from './source';

export interface SheetRow {
  /** The row number the user sees in a spreadsheet app (CSV: the record number, 1-based). */
  line: number;
  /** The row's cells as text, padded with '' up to the header's length; cells beyond it are kept. */
  cells: string[];
}

export interface OpenedSheet {
  format: SheetFormat;
  /** Header cells (trimmed), from the first non-empty row; empty ones at its end are dropped. */
  headers: string[];
  headerLine: number;
  /**
   * Data rows after the header, in order, each padded with '' up to headers.length (cells beyond
   * the header are kept, less the empty ones at the row's end). Entirely blank rows are skipped (their
   * line numbers are simply absent). Can be iterated once; the sheet is closed when it ends.
   */
  rows(): AsyncIterable<SheetRow>;
  /** Bytes of the file consumed so far (for a progress percentage), and the file's size. */
  bytesRead(): number;
  totalBytes: number;
  close(): Promise<void>;
}

export interface OpenSheetOptions {
  /** The format when already known (detectSheetFormat at upload); detected from the content otherwise. */
  format?: SheetFormat;
  /** Skip data rows whose line <= fromLine (resume after a checkpoint), without holding them. */
  fromLine?: number;
  /** Aborts reading: the pending or next read throws the signal's reason. */
  signal?: AbortSignal;
}

const MAX_BLANK_BEFORE_HEADER = 10_000;

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/** The cells without the empty ones at the end, beyond `keep`. */
function withoutTrailingEmpty(cells: string[], keep: number): string[] {
  let end = cells.length;
  while (end > keep && cells[end - 1] === '') end--;
  return end === cells.length ? cells : cells.slice(0, end);
}

function checkCells(record: RawRecord, what: 'header' | 'row') {
  const { maxColumns, maxCellChars } = SHEET_LIMITS;
  if (record.cells.length > maxColumns) {
    const where =
      what === 'header'
        ? `The sheet has ${formatNumber(record.cells.length)} columns (its header is at line ${record.line})`
        : `Row ${record.line} has ${formatNumber(record.cells.length)} cells`;
    throw new SheetError(
      `${where}; at most ${maxColumns} columns are accepted. Remove the columns you do not import.`,
      'TOO_MANY_COLUMNS',
    );
  }
  for (let i = 0; i < record.cells.length; i++) {
    const length = (record.cells[i] as string).length;
    if (length > maxCellChars) {
      throw new SheetError(
        `Cell ${columnLetters(i)}${record.line} holds ${formatNumber(length)} characters; ` +
          `a cell may hold at most ${formatNumber(maxCellChars)}.`,
        'CELL_TOO_LONG',
      );
    }
  }
}

/** Opens a sheet for streaming and reads its header; the data rows are read as `rows()` is iterated. */
export async function openSheetHere(filePath: string, options: OpenSheetOptions = {}): Promise<OpenedSheet> {
  const { signal, fromLine = 0 } = options;
  signal?.throwIfAborted();
  const format = options.format ?? (await detectSheetFormat(filePath));
  if (options.format && (await stat(filePath)).size === 0) {
    throw new SheetError('The file is empty.', 'EMPTY_FILE');
  }
  const source: RecordSource =
    format === 'csv'
      ? await openCsvSource(filePath, signal)
      : // exceljs takes ~0.3 s to load: only a worker that reads a workbook loads it.
        await (await import('./xlsx')).openXlsxSource(filePath, signal);

  let header: RawRecord | undefined;
  try {
    for (let blank = 0; ; blank++) {
      // A header below thousands of blank rows is no sheet (and reading millions would take long).
      if (blank > MAX_BLANK_BEFORE_HEADER) {
        throw new SheetError(
          `The sheet has no header row: its first ${formatNumber(MAX_BLANK_BEFORE_HEADER)} rows are blank. ` +
            'Its first row that is not empty must name the columns.',
          'NO_HEADER',
        );
      }
      const next = await source.records.next();
      if (next.done) break;
      if (!isBlank(next.value.cells)) {
        header = next.value;
        break;
      }
    }
    if (!header) {
      throw new SheetError(
        'The sheet has no header row: its first row that is not empty must name the columns.',
        'NO_HEADER',
      );
    }
    header = {
      line: header.line,
      cells: withoutTrailingEmpty(
        header.cells.map((cell) => cell.trim()),
        0,
      ),
    };
    checkCells(header, 'header');
  } catch (error) {
    await source.close();
    throw error;
  }

  const headers = header.cells;
  const width = headers.length;
  const { maxRows } = SHEET_LIMITS;
  let iterated = false;
  let finished = false;

  async function* rows(): AsyncGenerator<SheetRow> {
    if (iterated) throw new Error('The rows of an opened sheet can be iterated once.');
    iterated = true;
    let count = 0;
    try {
      for (;;) {
        if (signal?.aborted) throw abortReason(signal);
        const next = await source.records.next();
        if (next.done) break;
        const { line } = next.value;
        if (isBlank(next.value.cells)) continue;
        count++;
        if (count > maxRows) {
          throw new SheetError(
            `The sheet has more than ${formatNumber(maxRows)} rows. ` +
              'Split it into smaller files and import them one after the other.',
            'TOO_MANY_ROWS',
          );
        }
        if (line <= fromLine) continue;
        const cells = withoutTrailingEmpty(next.value.cells, width);
        checkCells({ line, cells }, 'row');
        while (cells.length < width) cells.push('');
        yield { line, cells };
      }
      finished = true;
    } finally {
      await source.close();
    }
  }

  return {
    format,
    headers,
    headerLine: header.line,
    rows,
    bytesRead: () => (finished ? source.totalBytes : source.bytesRead()),
    totalBytes: source.totalBytes,
    close: source.close,
  };
}
