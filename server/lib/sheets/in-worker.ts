// openSheet and detectSheetFormat as the server uses them: each read runs in a worker thread of its own
// (worker.ts) with a memory limit, so a file that the streaming budgets (budget.ts) do not stop in time
// ends its worker, and its upload or job fails with a SheetError TOO_LARGE, while the server goes on.
// Every sheet the server reads goes through here: catalog and lead imports, at upload and in their jobs.
import { Worker } from 'node:worker_threads';
import { SheetError, type SheetFormat } from './errors';
import type { OpenedSheet, OpenSheetOptions, SheetRow } from './open';
import { takeUploadSlot, waitForSlot } from './parse-slots';
import { abortReason } from './source';
import type { FromWorker, ToWorker } from './worker-protocol';

/**
 * A worker's heap ceiling. Reading streams rows and keeps the shared strings off the heap, so a
 * 100,000-row sheet reads in well under this; the XML budgets keep a file far from it. The young
 * generation is kept small so that the worst case stays ~150 MB of this process's memory per read.
 */
export const SHEET_WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

declare const __SHEET_WORKER_BUNDLED__: boolean | undefined;

/**
 * The worker's script: the bundled server (scripts/build-server.mjs, which defines the constant) has it
 * as dist-server/sheet-worker.mjs; from the sources, a small bootstrap loads worker.ts through tsx.
 * In the bundle `import.meta.url` names this source file (build-server.mjs), hence the path back.
 */
const workerUrl =
  typeof __SHEET_WORKER_BUNDLED__ !== 'undefined' && __SHEET_WORKER_BUNDLED__
    ? new URL('../../../dist-server/sheet-worker.mjs', import.meta.url)
    : new URL('./worker-dev.mjs', import.meta.url);

export interface SheetReadOptions {
  /** An upload's read: the user who uploads, counted against their cap; fails fast when busy. */
  user?: string;
}

const outOfMemory = () =>
  new SheetError(
    'The sheet is refused: reading it needs more memory than a sheet may take. ' +
      'It is not a sheet a spreadsheet app writes, or it is far too large; split it into smaller files.',
    'TOO_LARGE',
  );

/** One worker thread and its answers, in order. */
class SheetWorker {
  private readonly worker: Worker;
  private pending: { resolve: (message: FromWorker) => void; reject: (error: unknown) => void } | undefined;
  private failure: unknown;
  idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    this.worker = new Worker(workerUrl, { resourceLimits: SHEET_WORKER_LIMITS, stdout: false });
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => {
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(message);
    });
    this.worker.on('error', (error: Error & { code?: string }) => {
      this.fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory() : error);
    });
    this.worker.on('exit', () => this.fail(new Error('the sheet worker stopped')));
  }

  get alive() {
    return this.failure === undefined;
  }

  private fail(error: unknown) {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(this.failure);
  }

  /** Sends the request and answers the worker's reply; a SheetError when it answers one. */
  async ask(message: ToWorker): Promise<FromWorker> {
    if (this.failure) throw this.failure;
    const answer = new Promise<FromWorker>((resolve, reject) => {
      this.pending = { resolve, reject };
    });
    this.worker.postMessage(message);
    const reply = await answer;
    if (reply.type === 'error') {
      if (reply.code) throw new SheetError(reply.message, reply.code);
      throw new Error(`the sheet worker failed: ${reply.message}`);
    }
    return reply;
  }

  async terminate() {
    this.fail(new Error('the sheet read is over'));
    await this.worker.terminate();
  }
}

/**
 * Workers kept after a read that ended well, for the next one: starting a worker loads exceljs again,
 * which takes ~0.3 s (seconds on a busy machine). A worker a file broke is never kept; idle ones end.
 */
const IDLE = { max: 2, ms: 30_000 };
const idle: SheetWorker[] = [];

function takeWorker(): SheetWorker {
  for (let worker = idle.pop(); worker; worker = idle.pop()) {
    clearTimeout(worker.idleTimer);
    if (worker.alive) return worker;
  }
  return new SheetWorker();
}

/**
 * Ends the workers kept for the next read. A command that read sheets (the demo seed) calls it when it is
 * done: from the TypeScript sources an idle worker holds the process open until its timer ends it.
 */
export async function endIdleSheetWorkers() {
  const ending = idle.splice(0);
  for (const worker of ending) clearTimeout(worker.idleTimer);
  await Promise.all(ending.map((worker) => worker.terminate()));
}

/** Keeps the worker for the next read when it is ready for one, else ends it. */
async function putBack(worker: SheetWorker, reusable: boolean) {
  if (reusable && worker.alive && idle.length < IDLE.max) {
    try {
      const reply = await worker.ask({ type: 'reset' });
      if (reply.type === 'ready') {
        worker.idleTimer = setTimeout(() => {
          const at = idle.indexOf(worker);
          if (at !== -1) idle.splice(at, 1);
          void worker.terminate();
        }, IDLE.ms);
        worker.idleTimer.unref();
        idle.push(worker);
        return;
      }
    } catch {
      // ended below
    }
  }
  await worker.terminate();
}

/** A slot (parse-slots.ts) and a worker for one read; `end` gives both back. */
async function startRead(options: SheetReadOptions, signal?: AbortSignal) {
  const release = options.user ? takeUploadSlot(options.user) : await waitForSlot(signal);
  let worker: SheetWorker;
  try {
    worker = takeWorker();
  } catch (error) {
    release();
    throw error;
  }
  let ended = false;
  return {
    worker,
    /** `reusable`: the read ended without an error, so the worker can serve another. */
    async end(reusable: boolean) {
      if (ended) return;
      ended = true;
      try {
        await putBack(worker, reusable);
      } finally {
        release();
      }
    },
  };
}

/** The format of the file from its content (detect.ts), read in a worker. */
export async function detectSheetFormat(
  filePath: string,
  options: SheetReadOptions = {},
): Promise<SheetFormat> {
  const { worker, end } = await startRead(options);
  let reusable = false;
  try {
    const reply = await worker.ask({ type: 'detect', filePath });
    if (reply.type !== 'detected') throw new Error(`unexpected answer ${reply.type}`);
    reusable = true;
    return reply.format;
  } catch (error) {
    reusable = error instanceof SheetError; // the reader's own refusal: the worker is sound
    throw error;
  } finally {
    await end(reusable);
  }
}

/**
 * Opens a sheet in a worker and reads its header; its rows arrive in batches as `rows()` is iterated,
 * the next batch read while the caller handles one. Same contract as openSheetHere (open.ts).
 */
export async function openSheet(
  filePath: string,
  options: OpenSheetOptions & SheetReadOptions = {},
): Promise<OpenedSheet> {
  const { signal } = options;
  signal?.throwIfAborted();
  const { worker, end } = await startRead(options, signal);
  // A clean end (every row read, or an error the sheet reader itself raised) leaves the worker ready
  // for another read; an abort or a close in the middle ends it (it may be busy reading ahead).
  let reusable = false;
  const onAbort = () => void end(false);
  signal?.addEventListener('abort', onAbort, { once: true });
  const close = async () => {
    signal?.removeEventListener('abort', onAbort);
    await end(reusable);
  };
  const orAbort = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw error;
    }
  };

  let opened: Extract<FromWorker, { type: 'opened' }>;
  try {
    const reply = await orAbort(
      worker.ask({
        type: 'open',
        filePath,
        ...(options.format ? { format: options.format } : {}),
        fromLine: options.fromLine ?? 0,
      }),
    );
    if (reply.type !== 'opened') throw new Error(`unexpected answer ${reply.type}`);
    opened = reply;
  } catch (error) {
    reusable = error instanceof SheetError; // the reader's own refusal (an out-of-memory ended the worker)
    await close();
    throw error;
  }

  let bytesRead = 0;
  let iterated = false;
  async function* rows(): AsyncGenerator<SheetRow> {
    if (iterated) throw new Error('The rows of an opened sheet can be iterated once.');
    iterated = true;
    let next: Promise<FromWorker> | undefined;
    // The batch read ahead can fail (an abort ends the worker) while the caller is busy with the last
    // one and nobody awaits it yet: marked handled at once, it still throws where it is awaited.
    const readAhead = () => {
      const batch = orAbort(worker.ask({ type: 'next' }));
      batch.catch(() => undefined);
      return batch;
    };
    try {
      next = readAhead();
      for (;;) {
        const reply = await next;
        if (reply.type !== 'rows') throw new Error(`unexpected answer ${reply.type}`);
        bytesRead = reply.bytesRead;
        // The next batch is read while the caller handles this one.
        if (!reply.done) next = readAhead();
        for (const row of reply.rows) {
          if (signal?.aborted) throw abortReason(signal);
          yield row;
        }
        if (reply.done) {
          reusable = true;
          return;
        }
      }
    } finally {
      await close();
    }
  }

  return {
    format: opened.format,
    headers: opened.headers,
    headerLine: opened.headerLine,
    rows,
    bytesRead: () => bytesRead,
    totalBytes: opened.totalBytes,
    close,
  };
}
