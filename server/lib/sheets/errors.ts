// The limits every sheet is read within and the one error a sheet as a whole can fail with.
import { CodedError } from '../coded-error';

export type SheetFormat = 'csv' | 'xlsx';

/** What a sheet may hold: a file beyond any of these is refused as a whole, with a message saying which. */
export const SHEET_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxColumns: 200,
  /** Excel's own limit for one cell. */
  maxCellChars: 32_767,
  maxRows: 200_000,
};

export type SheetErrorCode =
  | 'EMPTY_FILE'
  | 'NOT_A_SHEET'
  | 'BAD_ENCODING'
  | 'NO_HEADER'
  | 'TOO_MANY_COLUMNS'
  | 'TOO_MANY_ROWS'
  | 'CELL_TOO_LONG'
  | 'MALFORMED'
  /** Beyond a streaming budget (budget.ts), or the parse outgrew its worker's memory: a bomb. */
  | 'TOO_LARGE'
  /** Too many sheets are being read at once, by this user or by all (parse-slots.ts). */
  | 'BUSY_USER'
  | 'BUSY_SERVER';

/** A problem with the file as a whole; its `cause` is what the parser said (for the log, never the user). */
export class SheetError extends CodedError<SheetErrorCode> {
  override name = 'SheetError';
}

/** The HTTP status an upload answers a SheetError with. */
export function sheetErrorStatus(code: SheetErrorCode): number {
  switch (code) {
    case 'NOT_A_SHEET':
      return 415;
    case 'TOO_LARGE':
      return 413;
    case 'BUSY_USER':
      return 429;
    case 'BUSY_SERVER':
      return 503;
    default:
      return 400;
  }
}

/** The spreadsheet letters of a 0-based column index: 0 → A, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}
