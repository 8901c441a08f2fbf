// What the browser checks before sending a sheet (catalog imports, lead imports), to answer at once; the
// server decides by content and refuses anything else (413 too large, 415 not a sheet, 400 unreadable).
import { IMPORT_MAX_BYTES, type SheetFormat } from '../../contracts/imports';
import { formatBytes } from './file-limits';

/** What the file picker offers: the extensions and their media types. */
export const SHEET_ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The sheet format by the file's name, or null when it is neither CSV nor XLSX. */
export function sheetFormatOf(name: string): SheetFormat | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name.trim())?.[1]?.toLowerCase();
  return extension === 'csv' || extension === 'xlsx' ? extension : null;
}

/** A message when the file is clearly not a sheet the server will take, else null. */
export function checkSheetFile(file: Pick<File, 'name' | 'size'>): string | null {
  if (!sheetFormatOf(file.name)) return `${file.name} is not a CSV or XLSX sheet.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > IMPORT_MAX_BYTES) return `${file.name} is larger than ${formatBytes(IMPORT_MAX_BYTES)}.`;
  return null;
}

/** The percentage of an upload that has gone out. */
export const uploadPercent = (loaded: number, total: number) =>
  Math.min(100, Math.round((100 * loaded) / Math.max(total, 1)));
