// `notify`: how the whole app shows a toast (SPEC §8/§9: top-right, 3000 ms, the "default" type
// 5000 ms, six types), callable from anywhere: event handlers, services, machine actions.
//
// The toaster (Chakra's toast store and its UI, with zag's toast machine) loads with the first toast
// rather than with the entry chunk, so the sign-in page renders without it; `UiProvider` mounts
// `<AppToaster />` once it has loaded. Until then calls wait in order, and `notify` still answers the
// toast's id at once.
import { useSyncExternalStore } from 'react';
import type { NotifyOptions } from './toast-options';

export type { NotifyOptions, ToastAction, ToastType } from './toast-options';
export { DEFAULT_TOAST_DURATION, TOAST_DURATION, TOAST_PLACEMENT, TOAST_TYPES } from './toast-options';

type ToasterModule = typeof import('./toaster');

let loaded: ToasterModule | null = null;
let loading: Promise<ToasterModule> | null = null;
const listeners = new Set<() => void>();
let lastId = 0;

function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster').then((module) => {
    loaded = module;
    for (const listener of listeners) listener();
    return module;
  });
  return loading;
}

function withToaster(task: (toaster: ToasterModule) => void): void {
  if (loaded) {
    task(loaded);
    return;
  }
  loadToaster().then(task, (error: unknown) => console.warn('Could not load the toaster', error));
}

/** Shows a toast and returns its id (for `dismissToast`, or to update it by notifying the same id). */
export function notify(options: NotifyOptions): string {
  const id = options.id ?? `toast-${++lastId}`;
  withToaster((toaster) => toaster.notify({ ...options, id }));
  return id;
}

/** Dismisses one toast by id, or every toast without an id. */
export function dismissToast(id?: string): void {
  if (!loaded && !loading) return; // nothing was ever shown
  withToaster((toaster) => toaster.dismissToast(id));
}

/** The toaster's UI once it has loaded (with the first toast), else null. */
export function useLoadedToaster(): ToasterModule['AppToaster'] | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => loaded?.AppToaster ?? null,
  );
}
