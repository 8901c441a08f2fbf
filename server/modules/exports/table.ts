// What an export writes, whatever the file format: a header row, then rows of cells.

/** A cell: text, a number, a moment (written as a date and time), or empty. */
export type Cell = string | number | Date | null;

export interface Column {
  header: string;
  /** Width in characters, for formats that keep one (XLSX). */
  width?: number;
}

/** Writes a table to a file under a temporary name; `commit` makes it appear whole, `discard` drops it. */
export interface TableWriter {
  writeRows(rows: Cell[][]): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}
