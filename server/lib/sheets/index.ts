// The sheet pipeline's reading end (ARCHITECTURE.md, "sheet pipeline"): CSV and XLSX files received,
// recognised by their content and read row by row with flat memory, for catalog and lead imports.
//
// Cells are always text and never evaluated: a CSV cell is its raw text; an XLSX cell is its value as
// text, a formula cell its cached result (xlsx.ts says how each kind reads, and the two things exceljs
// 4.4.0 loses: a formula's boolean result reads as 1/0, an error result as '#ERROR!').
//
// Every read runs in a worker thread with a memory limit, within streaming budgets, and only so many
// at once (in-worker.ts, budget.ts, parse-slots.ts): a decompression bomb fails its upload, not the server.
export { SHEET_LIMITS, SheetError, type SheetErrorCode, type SheetFormat, sheetErrorStatus } from './errors';
export { sheetHttpError } from './http';
export { detectSheetFormat, endIdleSheetWorkers, openSheet, type SheetReadOptions } from './in-worker';
export type { OpenedSheet, OpenSheetOptions, SheetRow } from './open';
export { PARSE_SLOTS } from './parse-slots';
export { type ReceivedSheet, receiveSheetUpload, sheetContentTypes, withReceivedSheet } from './upload';
