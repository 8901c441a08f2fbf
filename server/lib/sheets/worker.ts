// The sheet worker (a worker thread started by in-worker.ts for each sheet read): detects a file's
// format, or opens it and answers its header, then its rows in batches, one batch per request. It runs
// with resourceLimits, so a file that outgrows them ends this thread only, never the server.
import { parentPort } from 'node:worker_threads';
import { detectSheetFormat } from './detect';
import { SheetError } from './errors';
import { type OpenedSheet, openSheetHere, type SheetRow } from './open';
import type { FromWorker, ToWorker } from './worker-protocol';

/** A batch ends at this many rows or this many characters, whichever comes first. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 2 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('worker.ts runs as a worker thread');

const send = (message: FromWorker) => port.postMessage(message);

function sendError(error: unknown) {
  if (error instanceof SheetError) send({ type: 'error', message: error.message, code: error.code });
  else send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

let sheet: OpenedSheet | undefined;
let rows: AsyncIterator<SheetRow> | undefined;

async function nextBatch() {
  if (!sheet || !rows) throw new Error('no sheet is open');
  const batch: SheetRow[] = [];
  let chars = 0;
  while (batch.length < BATCH_ROWS && chars < BATCH_CHARS) {
    const next = await rows.next();
    if (next.done) {
      send({ type: 'rows', rows: batch, bytesRead: sheet.bytesRead(), done: true });
      return;
    }
    batch.push(next.value);
    for (const cell of next.value.cells) chars += cell.length;
  }
  send({ type: 'rows', rows: batch, bytesRead: sheet.bytesRead(), done: false });
}

port.on('message', async (message: ToWorker) => {
  try {
    switch (message.type) {
      case 'detect':
        send({ type: 'detected', format: await detectSheetFormat(message.filePath) });
        break;
      case 'open': {
        sheet = await openSheetHere(message.filePath, {
          ...(message.format ? { format: message.format } : {}),
          fromLine: message.fromLine,
        });
        rows = sheet.rows()[Symbol.asyncIterator]();
        const { format, headers, headerLine, totalBytes } = sheet;
        send({ type: 'opened', format, headers, headerLine, totalBytes });
        break;
      }
      case 'next':
        await nextBatch();
        break;
      case 'reset':
        await sheet?.close();
        sheet = undefined;
        rows = undefined;
        send({ type: 'ready' });
        break;
    }
  } catch (error) {
    sendError(error);
  }
});
