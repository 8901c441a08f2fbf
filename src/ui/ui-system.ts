// Which Chakra system the app renders with: the light public one until the shell asks for the
// full one (see `theme-public.ts`). The switch happens once, before the shell first renders, and
// is never undone: a user who signs out keeps the full system, which styles the public pages too.
import type { SystemContext } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { publicSystem } from './theme-public';

let current: SystemContext = publicSystem;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUiSystem(): SystemContext {
  return useSyncExternalStore(subscribe, () => current);
}

/** Loads the full system and renders with it from now on. */
export async function loadFullSystem(): Promise<void> {
  const { system } = await import('./theme');
  if (current === system) return;
  current = system;
  for (const listener of listeners) listener();
}
