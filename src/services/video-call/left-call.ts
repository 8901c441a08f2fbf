// What a call that was left tells the page after the reload (SPEC §4: leaving a call reloads the
// page): who it was with, how long it lasted and why it ended, kept in sessionStorage for that tab.
import { formatCallDuration } from '../../lib/call-duration';

export interface LeftCallSummary {
  peerName: string | null;
  durationSeconds: number;
  message: string | null;
}

const KEY = 'videoCall.left';

export function rememberLeftCall(summary: LeftCallSummary, storage: Storage = sessionStorage): void {
  try {
    storage.setItem(KEY, JSON.stringify(summary));
  } catch {
    // Storage full or denied: the reload still happens, without the note.
  }
}

/** The summary of the call this tab left before reloading, once (it is removed as it is read). */
export function takeLeftCall(storage: Storage = sessionStorage): LeftCallSummary | null {
  try {
    const raw = storage.getItem(KEY);
    storage.removeItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<LeftCallSummary>;
    return {
      peerName: typeof value.peerName === 'string' ? value.peerName : null,
      durationSeconds: typeof value.durationSeconds === 'number' ? value.durationSeconds : 0,
      message: typeof value.message === 'string' ? value.message : null,
    };
  } catch {
    return null;
  }
}

/** The toast the reloaded page shows. */
export function leftCallText(summary: LeftCallSummary): { title: string; description: string | undefined } {
  const title = summary.peerName ? `Video call with ${summary.peerName} ended` : 'Video call ended';
  const parts = [
    summary.durationSeconds > 0 ? `Duration ${formatCallDuration(summary.durationSeconds)}` : null,
    summary.message,
  ].filter(Boolean);
  return { title, description: parts.length > 0 ? parts.join('. ') : undefined };
}
