// Moved to src/lib/sheet-file.ts: lead imports check sheets the same way.
export { checkSheetFile, SHEET_ACCEPT, sheetFormatOf, uploadPercent } from '../../../lib/sheet-file';
