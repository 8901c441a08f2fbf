// Small sheets and non-sheets for the tests, written into a temporary folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { openSheet } from './in-worker';
import type { OpenSheetOptions, SheetRow } from './open';

export async function temporaryFolder() {
  const folder = await mkdtemp(path.join(tmpdir(), 'sheets-test-'));
  let count = 0;
  return {
    folder,
    /** Writes `content` to a new file named `<n>-<name>` and returns its path. */
    async file(name: string, content: string | Uint8Array): Promise<string> {
      const filePath = path.join(folder, `${++count}-${name}`);
      await writeFile(filePath, content);
      return filePath;
    },
    path: (name: string) => path.join(folder, `${++count}-${name}`),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

/** Everything a sheet reads as, rows held (only for small test sheets). */
export async function readAll(filePath: string, options?: OpenSheetOptions) {
  const sheet = await openSheet(filePath, options);
  const rows: SheetRow[] = [];
  for await (const row of sheet.rows()) rows.push(row);
  return { format: sheet.format, headers: sheet.headers, headerLine: sheet.headerLine, rows };
}

/** The first bytes of a PNG picture, padded. */
export const pngBytes = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.alloc(500, 7),
  ]);

/** A zip that is not a workbook. */
export const plainZip = () => zipSync({ 'notes/hello.txt': new TextEncoder().encode('hello, world\n') });

type Cell = ExcelJS.CellValue;

/** An XLSX written with exceljs's streaming writer (shared strings, styles for dates). */
export async function writeXlsx(
  filePath: string,
  sheets: { name: string; rows: Cell[][]; state?: 'visible' | 'hidden'; formats?: Record<string, string> }[],
): Promise<string> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: filePath,
    useSharedStrings: true,
    useStyles: true,
  });
  for (const spec of sheets) {
    const sheet = workbook.addWorksheet(spec.name, spec.state ? { state: spec.state } : {});
    for (const values of spec.rows) {
      const row = sheet.addRow(values);
      for (const [column, format] of Object.entries(spec.formats ?? {})) {
        row.getCell(Number(column)).numFmt = format;
      }
      row.commit();
    }
    sheet.commit();
  }
  await workbook.commit();
  return filePath;
}

/**
 * Rewrites an XLSX's parts (as other apps write what exceljs's writer does not) and stores its entries
 * in the order `order` gives them (default: as they were).
 */
export async function rewriteXlsx(
  from: string,
  to: string,
  edit: Record<string, (xml: string) => string>,
  order: (names: string[]) => string[] = (names) => names,
): Promise<string> {
  const entries = unzipSync(await readFile(from));
  const rewritten: Record<string, Uint8Array> = {};
  for (const name of order(Object.keys(entries))) {
    const bytes = entries[name] as Uint8Array;
    const change = edit[name];
    rewritten[name] = change ? strToU8(change(strFromU8(bytes))) : bytes;
  }
  await writeFile(to, zipSync(rewritten));
  return to;
}
