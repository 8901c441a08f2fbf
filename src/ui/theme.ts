// The styling system of the app: Chakra's whole default theme with every recipe, plus the app's theme
// (theme-config.ts). The shell loads it (see ui-system.ts); the public pages render with the lighter
// subset in theme-public.ts until then.
import { createSystem, defaultConfig } from '@chakra-ui/react';
import { appThemeConfig } from './theme-config';

export const system = createSystem(defaultConfig, appThemeConfig);
