// exceljs's streaming writer in place of xlsx.ts, for the export bench's A/B only (EXPORT_XLSX_WRITER=exceljs):
// the same sheet (bold frozen header row, column widths, text, numbers, dates as date and time), no
// shared strings (they would hold every text of the export in memory), written under a temporary
// name renamed into place on commit.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Column, TableWriter } from './table';

/** Excel's built-in format 22, the one xlsx.ts gives dates. */
const DATE_FORMAT = 'm/d/yy h:mm';

export function createExceljsXlsxWriter(path: string, columns: Column[], sheetName: string): TableWriter {
  const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.part`;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: createWriteStream(temporary),
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((column) => ({ width: column.width ?? 16 }));
  const header = sheet.addRow(columns.map((column) => column.header));
  header.font = { bold: true };
  header.commit();
  return {
    async writeRows(rows) {
      for (const cells of rows) {
        const row = sheet.addRow(cells);
        cells.forEach((cell, index) => {
          if (cell instanceof Date) row.getCell(index + 1).numFmt = DATE_FORMAT;
        });
        row.commit();
      }
    },
    async commit() {
      sheet.commit();
      await workbook.commit();
      await rename(temporary, path);
    },
    discard: () => rm(temporary, { force: true }),
  };
}
