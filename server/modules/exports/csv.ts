// CSV as Excel and every other reader expect it: RFC 4180 (comma, CRLF, fields with a comma, quote or
// line break quoted, quotes doubled), UTF-8 with a byte-order mark so Excel reads the accents right,
// and no formula injection: a cell that a spreadsheet would run as a formula gets a leading apostrophe.
import { FileSink } from './file-sink';
import type { Cell, Column, TableWriter } from './table';

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text of one cell, safe to open in a spreadsheet. */
export function csvCell(value: Cell): string {
  let text = value === null ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

export function createCsvWriter(path: string, columns: Column[]): TableWriter {
  const sink = new FileSink(path);
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await sink.write(`\uFEFF${csvLine(columns.map((column) => column.header))}`);
  };
  return {
    async writeRows(rows) {
      await start();
      if (rows.length) await sink.write(rows.map(csvLine).join(''));
    },
    async commit() {
      await start();
      await sink.commit();
    },
    discard: () => sink.discard(),
  };
}
