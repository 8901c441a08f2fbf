// Whether a CSS media query matches now, kept current as the window changes. Chakra's own hook needs
// `window.matchMedia`, which some environments (jsdom) lack: there this answers `fallback`.
import { useCallback, useSyncExternalStore } from 'react';

const mediaList = (query: string) =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;

export function useMediaQuery(query: string, fallback = false): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = mediaList(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => mediaList(query)?.matches ?? fallback,
    () => fallback,
  );
}

/** Below Chakra's `lg` breakpoint (1024 px): phones and small tablets, where side panels stack. */
export const NARROW_SCREEN = '(max-width: 1023.98px)';
