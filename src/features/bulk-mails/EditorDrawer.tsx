// The full-width drawer the template editor and the campaign composer live in. One drawer stays open
// while its content changes from "loading" to the form: swapping two drawers made the closing one give
// focus back to the button that opened it, which the new one took for a click outside and closed.
// The form inside decides what closing means (ask before discarding changes) through `guard`.
import { CloseButton, chakra, Drawer, Portal } from '@chakra-ui/react';
import { type MutableRefObject, type ReactNode, useEffect, useRef } from 'react';

export type CloseGuard = MutableRefObject<() => void>;

/** What closing the drawer does: `onClose`, unless the form inside registers its own check. */
export function useCloseGuard(onClose: () => void): CloseGuard {
  const guard = useRef(onClose);
  const fallback = useRef(onClose);
  fallback.current = onClose;
  useEffect(() => {
    guard.current = () => fallback.current();
  }, []);
  return guard;
}

/** The form inside registers how it closes for as long as it is shown. */
export function useRegisterClose(guard: CloseGuard, close: () => void, onClose: () => void) {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    guard.current = () => latest.current();
    return () => {
      guard.current = onClose;
    };
  }, [guard, onClose]);
}

export function EditorDrawer({ guard, children }: { guard: CloseGuard; children: ReactNode }) {
  return (
    <Drawer.Root
      open
      onOpenChange={(event) => !event.open && guard.current()}
      // Only Escape, the close button or a click outside close it: focus handed back by a dialog or
      // drawer closing under it (a send's confirmation, the drawer it replaced) is no reason to.
      onFocusOutside={(event) => event.preventDefault()}
      size="full"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            {children}
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

/** A form that lays its header, body and footer out as the drawer's own parts. */
export const DrawerForm = chakra('form', { base: { display: 'contents' } });
