// The UI root: the app's Chakra system plus the single toast outlet.
//
// The toaster lives here (not in the app layout) so toasts raised before the layout mounts, on
// the sign-in page, or from a machine action during start-up still have somewhere to render.
// Colour mode is not a React provider: `color-theme.ts` switches it with a class on <html>.
import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useLoadedToaster } from './notify';
import { useUiSystem } from './ui-system';

export interface UiProviderProps {
  children: ReactNode;
}

export function UiProvider({ children }: UiProviderProps) {
  const AppToaster = useLoadedToaster();
  return (
    <ChakraProvider value={useUiSystem()}>
      {children}
      {AppToaster ? <AppToaster /> : null}
    </ChakraProvider>
  );
}
