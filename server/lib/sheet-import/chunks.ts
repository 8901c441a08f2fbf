// The sheet pipeline's job loop: a sheet's rows in chunks, each chunk handed to the import, which stores
// its rows and its checkpoint in one transaction. Between chunks the loop yields to the event loop
// (PGlite never leaves the microtask queue, so requests and the job's heartbeat would wait otherwise).
import { yieldToEventLoop } from '../../jobs/worker';
import type { OpenedSheet, SheetRow } from '../sheets';

/**
 * Reads the sheet's remaining rows and calls `onChunk` with every `size` of them, then with the rest. A
 * run that reads no row at all still calls it once (with none), so the import can record that it is
 * done. `onChunk` answers true to stop (a stop was asked for): the loop then answers 'stopped'. The sheet
 * is closed whatever happens.
 */
export async function forEachSheetChunk(
  sheet: OpenedSheet,
  options: { size: number; signal: AbortSignal },
  onChunk: (rows: SheetRow[]) => Promise<boolean>,
): Promise<'done' | 'stopped'> {
  let chunk: SheetRow[] = [];
  let flushed = false;
  const flush = async () => {
    const rows = chunk;
    chunk = [];
    flushed = true;
    const stop = await onChunk(rows);
    await yieldToEventLoop();
    return stop;
  };
  try {
    for await (const row of sheet.rows()) {
      chunk.push(row);
      if (chunk.length >= options.size && (await flush())) return 'stopped';
      options.signal.throwIfAborted();
    }
    if ((chunk.length || !flushed) && (await flush())) return 'stopped';
    return 'done';
  } finally {
    await sheet.close();
  }
}
