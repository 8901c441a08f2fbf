// The messages between the server (in-worker.ts) and a sheet worker (worker.ts).
import type { SheetErrorCode, SheetFormat } from './errors';
import type { SheetRow } from './open';

export type ToWorker =
  | { type: 'detect'; filePath: string }
  | { type: 'open'; filePath: string; format?: SheetFormat; fromLine: number }
  /** The next batch of rows (sent again only after the answer). */
  | { type: 'next' }
  /** Close the sheet, if one is open, and be ready for another read. */
  | { type: 'reset' };

export type FromWorker =
  | { type: 'detected'; format: SheetFormat }
  | { type: 'opened'; format: SheetFormat; headers: string[]; headerLine: number; totalBytes: number }
  | { type: 'rows'; rows: SheetRow[]; bytesRead: number; done: boolean }
  | { type: 'ready' }
  /** A SheetError (with its code) or another failure (without: the server logs it, a 500). */
  | { type: 'error'; message: string; code?: SheetErrorCode };
