// The sheet pipeline's reading end (ARCHITECTURE.md, "sheet pipeline"): CSV and XLSX files received,
// recognised by their content and read row by row with flat memory, for catalog and lead imports.
//
// Cells are always text and never evaluated: a CSV cell is its raw text; an XLSX cell is its value as
// text, a formula cell its cached result (xlsx.ts says how each kind reads, and the two things exceljs
// 4.4.0 loses: a formula's boolean result reads as 1/0, an error result as '#ERROR!').
export { detectSheetFormat } from './detect';
export { SHEET_LIMITS, SheetError, type SheetErrorCode, type SheetFormat } from './errors';
export { type OpenedSheet, type OpenSheetOptions, openSheet, type SheetRow } from './open';
export { type ReceivedSheet, receiveSheetUpload } from './upload';
