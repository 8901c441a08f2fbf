// The instance's timers and background work (signalling.ts): a failed task is logged, never thrown
// into a timer; once closed nothing new is armed, and close waits for what runs.
import type { CallsState } from './state';

export const ringKey = (callId: string) => `ring:${callId}`;
export const graceKey = (callId: string, userId: string) => `grace:${callId}:${userId}`;

export function track(calls: CallsState, task: () => Promise<void>, what: string) {
  const running: Promise<void> = task()
    .catch((error) => calls.log.error({ err: error }, `video calls: ${what} failed`))
    .finally(() => calls.work.delete(running));
  calls.work.add(running);
}

/** Runs `task` after `ms` under `key`, replacing a timer armed under the same key. */
export function later(calls: CallsState, key: string, ms: number, task: () => Promise<void>) {
  if (calls.closed) return;
  clearTimeout(calls.timers.get(key));
  const timer = setTimeout(() => {
    calls.timers.delete(key);
    if (!calls.closed) track(calls, task, key);
  }, ms);
  calls.timers.set(key, timer);
}

export function cancel(calls: CallsState, key: string) {
  clearTimeout(calls.timers.get(key));
  calls.timers.delete(key);
}

/** Stops every timer and the sweep, and waits for the work under way. */
export async function closeTimers(calls: CallsState) {
  calls.closed = true;
  clearInterval(calls.sweeper);
  for (const timer of calls.timers.values()) clearTimeout(timer);
  calls.timers.clear();
  await Promise.allSettled([...calls.work]);
}
