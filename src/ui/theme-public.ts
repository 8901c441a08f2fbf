// The styling system of the public pages (sign-in, password reset, unsubscribe, response collection)
// and of anything the entry chunk draws before the shell loads (toasts, the page spinner).
//
// Chakra's `defaultConfig` brings the recipes of all its components, about 120 kB of JavaScript:
// most of what the sign-in page would otherwise download. This system is Chakra's default theme
// without those recipes, plus the app's theme and only the recipes the public pages draw.
//
// Why deep imports (`@chakra-theme/...`, an alias for the package's `dist/esm/theme/`): the public
// index `@chakra-ui/react/theme` is one module that also assembles every recipe, and a bundler puts a
// module, whole, into the entry chunk as soon as the entry imports anything from it. Two tests keep
// this honest (`theme-public.test.tsx`): the assembled theme must equal `defaultConfig`'s, and every
// public page and the toaster must find each recipe it asks for (a missing one renders unstyled,
// silently).

import { breakpoints } from '@chakra-theme/breakpoints';
import { globalCss } from '@chakra-theme/global-css';
import { layerStyles } from '@chakra-theme/layer-styles';
import { animationStyles } from '@chakra-theme/motion-styles';
import { alertSlotRecipe } from '@chakra-theme/recipes/alert';
import { buttonRecipe } from '@chakra-theme/recipes/button';
import { cardSlotRecipe } from '@chakra-theme/recipes/card';
import { fieldSlotRecipe } from '@chakra-theme/recipes/field';
import { headingRecipe } from '@chakra-theme/recipes/heading';
import { inputRecipe } from '@chakra-theme/recipes/input';
import { linkRecipe } from '@chakra-theme/recipes/link';
import { radioGroupSlotRecipe } from '@chakra-theme/recipes/radio-group';
import { radiomarkRecipe } from '@chakra-theme/recipes/radiomark';
import { spinnerRecipe } from '@chakra-theme/recipes/spinner';
import { textareaRecipe } from '@chakra-theme/recipes/textarea';
import { toastSlotRecipe } from '@chakra-theme/recipes/toast';
import { semanticColors } from '@chakra-theme/semantic-tokens/colors';
import { semanticRadii } from '@chakra-theme/semantic-tokens/radii';
import { semanticShadows } from '@chakra-theme/semantic-tokens/shadows';
import { textStyles } from '@chakra-theme/text-styles';
import { animations } from '@chakra-theme/tokens/animations';
import { aspectRatios } from '@chakra-theme/tokens/aspect-ratios';
import { blurs } from '@chakra-theme/tokens/blurs';
import { borders } from '@chakra-theme/tokens/borders';
import { colors } from '@chakra-theme/tokens/colors';
import { cursor } from '@chakra-theme/tokens/cursor';
import { durations } from '@chakra-theme/tokens/durations';
import { easings } from '@chakra-theme/tokens/easings';
import { fontSizes } from '@chakra-theme/tokens/font-sizes';
import { fontWeights } from '@chakra-theme/tokens/font-weights';
import { fonts } from '@chakra-theme/tokens/fonts';
import { keyframes } from '@chakra-theme/tokens/keyframes';
import { letterSpacings } from '@chakra-theme/tokens/letter-spacing';
import { lineHeights } from '@chakra-theme/tokens/line-heights';
import { radii } from '@chakra-theme/tokens/radius';
import { sizes } from '@chakra-theme/tokens/sizes';
import { spacing } from '@chakra-theme/tokens/spacing';
import { zIndices } from '@chakra-theme/tokens/z-indices';
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import { appThemeConfig } from './theme-config';

/** Chakra's default theme (the same pieces `defaultConfig` is built from), minus its recipes. */
export const chakraThemeWithoutRecipes = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: {
      aspectRatios,
      animations,
      blurs,
      borders,
      colors,
      durations,
      easings,
      fonts,
      fontSizes,
      fontWeights,
      letterSpacings,
      lineHeights,
      radii,
      spacing,
      sizes,
      zIndex: zIndices,
      cursor,
    },
    semanticTokens: { colors: semanticColors, shadows: semanticShadows, radii: semanticRadii },
    textStyles,
    layerStyles,
    animationStyles,
  },
});

export const publicRecipes = {
  recipes: {
    button: buttonRecipe,
    heading: headingRecipe,
    input: inputRecipe,
    link: linkRecipe,
    radiomark: radiomarkRecipe,
    spinner: spinnerRecipe,
    textarea: textareaRecipe,
  },
  slotRecipes: {
    alert: alertSlotRecipe,
    card: cardSlotRecipe,
    field: fieldSlotRecipe,
    // The answer page (a campaign's answers as choices).
    radioGroup: radioGroupSlotRecipe,
    toast: toastSlotRecipe,
  },
};

export const publicSystem = createSystem(
  defaultBaseConfig,
  chakraThemeWithoutRecipes,
  { theme: publicRecipes },
  appThemeConfig,
);
