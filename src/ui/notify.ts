// `notify`: how the whole app shows a toast (SPEC §8/§9: top-right, 3000 ms, the "default" type
// 5000 ms, six types), callable from anywhere: event handlers, services, machine actions.
//
// The toaster (Chakra's toast store and its UI, with zag's toast machine) loads with the first toast
// rather than with the entry chunk, so the sign-in page renders without it; `UiProvider` mounts
// `<AppToaster />` once it has loaded. Until then calls wait in order, and `notify` still answers the
// toast's id at once.
import { useSyncExternalStore } from 'react';

/** The product's toast types (SPEC §8 "Toast types"). */
export type ToastType = 'success' | 'notification' | 'error' | 'info' | 'warning' | 'default';

export const TOAST_TYPES: readonly ToastType[] = [
  'success',
  'notification',
  'error',
  'info',
  'warning',
  'default',
];

/** SPEC §9: toasts last 3000 ms… */
export const TOAST_DURATION = 3000;
/** …except the "default" toast, which lasts 5000 ms. */
export const DEFAULT_TOAST_DURATION = 5000;
/** SPEC §9: "position top-right"; Chakra spells it logically so it flips in RTL. */
export const TOAST_PLACEMENT = 'top-end';

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface NotifyOptions {
  type: ToastType;
  title: string;
  description?: string;
  /** Milliseconds; defaults per type. `Infinity` keeps the toast until it is closed or dismissed. */
  duration?: number;
  /** The primary button (e.g. "See Details"); clicking it also dismisses the toast. */
  action?: ToastAction;
  /** Further buttons after the primary one (e.g. an incoming call's Reject / Ignore); each dismisses. */
  actions?: readonly ToastAction[];
  /** The close button is shown unless this is `false`. */
  closable?: boolean;
  /** Re-using an id updates the visible toast instead of stacking a copy. */
  id?: string;
}

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
