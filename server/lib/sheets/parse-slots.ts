// How many sheets this server process reads at once: each read is a worker thread that may use up to
// its memory limit (in-worker.ts), so the caps bound the memory sheets can take in this process. They
// are per process on purpose: what they protect is this process's memory, so instances sharing a
// database need not share them.

import { formatNumber } from '../../../contracts/domain/format';
import { SheetError } from './errors';

export const PARSE_SLOTS = {
  /** Sheet reads at once in this process: uploads and import jobs together. */
  total: 4,
  /** Sheet reads at once started by one user's uploads. */
  perUser: 2,
};

export type ReleaseSlot = () => void;

let running = 0;
const byUser = new Map<string, number>();
/** Import jobs waiting for a slot, first come first served. */
const waiting: (() => void)[] = [];

function take(user: string | undefined): ReleaseSlot {
  running++;
  if (user) byUser.set(user, (byUser.get(user) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    if (user) {
      const left = (byUser.get(user) ?? 1) - 1;
      if (left > 0) byUser.set(user, left);
      else byUser.delete(user);
    }
    waiting.shift()?.();
  };
}

/**
 * A slot for an upload's read, now or never: over the user's cap a SheetError BUSY_USER (429), over the
 * process's a BUSY_SERVER (503), each saying to try again shortly.
 */
export function takeUploadSlot(user: string): ReleaseSlot {
  if ((byUser.get(user) ?? 0) >= PARSE_SLOTS.perUser) {
    throw new SheetError(
      `You are already uploading ${formatNumber(PARSE_SLOTS.perUser)} sheets; wait until they are read, then upload this one again.`,
      'BUSY_USER',
    );
  }
  if (running >= PARSE_SLOTS.total) {
    throw new SheetError(
      'The server is reading as many sheets as it can at once; upload this one again in a minute.',
      'BUSY_SERVER',
    );
  }
  return take(user);
}

/** A slot for a job's read: waits for one (a job has no one waiting on its answer). */
export async function waitForSlot(signal?: AbortSignal): Promise<ReleaseSlot> {
  while (running >= PARSE_SLOTS.total) {
    signal?.throwIfAborted();
    await new Promise<void>((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', wake);
        const at = waiting.indexOf(wake);
        if (at !== -1) waiting.splice(at, 1);
        resolve();
      };
      waiting.push(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }
  signal?.throwIfAborted();
  return take(undefined);
}

/** Reads running now, for tests. */
export const runningReads = () => running;
