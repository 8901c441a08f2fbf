// What a toast is (SPEC §8/§9): its types, durations, placement and options. notify.ts (which callers use)
// and toaster.tsx (which it loads with the first toast) both import it.
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
