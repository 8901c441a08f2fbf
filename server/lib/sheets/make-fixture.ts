// Big sheets for tests and benchmarks, written as they stream (never held in memory): a header row
// `Column 1 … Column N`, then data rows whose cells fixtureCell() tells.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';

/**
 * The text of a fixture cell (0-based row among the data rows, 0-based column): numbers, repeated
 * words (as a catalog's brands or categories), and unique text, some of it with a comma, a quote or
 * a line break.
 */
export function fixtureCell(row: number, column: number): string {
  switch (column % 4) {
    case 0:
      return String(row * 1000 + column);
    case 1:
      return `Brand ${row % 50}`;
    case 2:
      return `Item ${row}-${column}`;
    default:
      return row % 10 === 0 ? `Say "hi", then\nleave ${row}` : `${(row % 997) / 8}`;
  }
}

const headerOf = (columns: number) => Array.from({ length: columns }, (_, c) => `Column ${c + 1}`);

const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** A UTF-8 CSV (comma, CRLF) with a header and `rows` data rows. */
export async function writeCsvFixture(filePath: string, rows: number, columns: number): Promise<void> {
  const out = createWriteStream(filePath);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write(`${headerOf(columns).join(',')}\r\n`);
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < columns; c++) line += (c ? ',' : '') + csvCell(fixtureCell(r, c));
    await write(`${line}\r\n`);
  }
  out.end();
  await finished(out);
}

/**
 * An XLSX (shared strings, as Excel writes text) with a header and `rows` data rows, through exceljs's
 * streaming writer. Numeric-looking cells are written as numbers, so they read back as the same text.
 */
export async function writeXlsxFixture(filePath: string, rows: number, columns: number): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: filePath, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(headerOf(columns)).commit();
  for (let r = 0; r < rows; r++) {
    const values: (string | number)[] = [];
    for (let c = 0; c < columns; c++) {
      const text = fixtureCell(r, c);
      values.push(c % 4 === 0 || c % 4 === 3 ? (Number.isNaN(Number(text)) ? text : Number(text)) : text);
    }
    sheet.addRow(values).commit();
  }
  sheet.commit();
  await workbook.commit();
}
