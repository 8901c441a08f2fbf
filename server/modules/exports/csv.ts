// CSV as Excel and every other reader expect it: RFC 4180 (comma, CRLF, quotes doubled), UTF-8 with a
// byte-order mark so Excel reads the accents right, and no formula injection in any locale:
// - every text cell is quoted, so a reader whose list separator is not the comma (Excel in German,
//   French, Spanish, Italian… splits on ';') still reads `x;=1+1;y` as one cell instead of three, one of
//   them a formula;
// - a text cell that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return, or their
//   full-width forms, which some East Asian spreadsheets accept) gets a leading apostrophe.
// Numbers and dates are written bare, so spreadsheets still read them as numbers and dates.
import { FileSink } from './file-sink';
import type { Cell, Column, TableWriter } from './table';

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Text of one cell, safe to open in a spreadsheet. */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return value instanceof Date ? value.toISOString() : String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
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
