// What openSheet reads a format through: the file's records in order, each with its line, cells as text.

export interface RawRecord {
  /** The row number the user sees in a spreadsheet app (CSV: the record number, 1-based). */
  line: number;
  cells: string[];
}

export interface RecordSource {
  records: AsyncIterator<RawRecord>;
  bytesRead(): number;
  totalBytes: number;
  /** Stops reading and releases the file (idempotent). */
  close(): Promise<void>;
}

/** The error an aborted read throws: the signal's reason, as `signal.throwIfAborted()` would. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
