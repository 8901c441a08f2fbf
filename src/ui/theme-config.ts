// The app's Chakra customisation, shared by its two styling systems (see `theme.ts` and
// `theme-public.ts`): the public pages get a system with only the recipes they draw, so the sign-in
// page stays light; the signed-in shell loads the full one with every Chakra recipe.
//
// Four looks come out of this one config: the back-office theme (indigo) and the seller theme
// (teal), each light or dark. Switching is pure CSS: `color-theme.ts` puts `class="dark"` and
// `data-theme="seller"` on <html>, and the semantic tokens below resolve to different CSS
// variables under those selectors. Themes are not systems: switching never
// re-creates emotion caches or re-renders the tree, and the pre-React script can set the
// attributes before the first paint without knowing anything about Chakra.
import { defineConfig } from '@chakra-ui/react';
import { SELLER_THEME_ATTRIBUTE_VALUE } from './color-theme';

// The default Chakra palette has no indigo; the back-office brand needs one so that it is
// visibly different from Chakra's own `blue` used for "info" states.
const indigo = {
  50: { value: '#eef2ff' },
  100: { value: '#e0e7ff' },
  200: { value: '#c7d2fe' },
  300: { value: '#a5b4fc' },
  400: { value: '#818cf8' },
  500: { value: '#6366f1' },
  600: { value: '#4f46e5' },
  700: { value: '#4338ca' },
  800: { value: '#3730a3' },
  900: { value: '#312e81' },
  950: { value: '#1e1b4b' },
};

const SHADES = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const;

type Shade = (typeof SHADES)[number];

/** Back-office palette name and seller palette name (both exist as raw colour tokens). */
const DEFAULT_PALETTE = 'indigo';
const SELLER_PALETTE = 'teal';

const ref = (palette: string, shade: Shade) => `{colors.${palette}.${shade}}`;

/**
 * A semantic token that follows both axes: the theme (data-theme) and the mode (.dark).
 * Chakra does not resolve nested conditions inside token values (`_seller: { _dark }` is emitted
 * as a literal, broken selector), so every combination is a flat condition of its own.
 */
const themed = (light: Shade, dark: Shade, seller: { light: Shade; dark: Shade } = { light, dark }) => ({
  value: {
    base: ref(DEFAULT_PALETTE, light),
    _dark: ref(DEFAULT_PALETTE, dark),
    _seller: ref(SELLER_PALETTE, seller.light),
    _sellerDark: ref(SELLER_PALETTE, seller.dark),
  },
});

/** A Chakra colour token with one shade in light mode and another in dark mode. */
const modal = (light: string, dark: string) => ({
  value: { _light: `{colors.${light}}`, _dark: `{colors.${dark}}` },
});

/**
 * Text and fills that must read at WCAG AA (4.5:1 for text) where Chakra's defaults do not: white
 * on its green, teal, cyan and orange 600 fills is 3.3–3.7:1, its red, orange and green text (500/600
 * shades) 3.3–3.8:1 on white and its "subtle" grey 2.6:1 (gray.400; 3.9:1 for gray.500 in dark mode).
 * Darker shades in light mode, lighter ones in dark mode; theme-contrast.test.ts checks every pair.
 */
const readableColors = {
  green: { solid: modal('green.700', 'green.700') },
  teal: { solid: modal('teal.700', 'teal.700') },
  cyan: { solid: modal('cyan.700', 'cyan.700') },
  orange: { solid: modal('orange.700', 'orange.500') },
  fg: {
    subtle: modal('gray.500', 'gray.400'),
    error: modal('red.700', 'red.400'),
    warning: modal('orange.700', 'orange.300'),
    success: modal('green.700', 'green.300'),
  },
};

// `brand.50` … `brand.950` follow the theme but not the mode, exactly like Chakra's own scales.
const brandScale = Object.fromEntries(
  SHADES.map((shade) => [
    shade,
    { value: { base: ref(DEFAULT_PALETTE, shade), _seller: ref(SELLER_PALETTE, shade) } },
  ]),
);

export const appThemeConfig = defineConfig({
  // Custom conditions become both token conditions and style props (`_seller`, `_sellerDark`).
  // Chakra emits token conditions at the root, where `&` collapses to nothing, so
  // `[data-theme=seller] &` styles the element carrying the attribute (normally <html>) and any
  // subtree that carries it. `.dark[data-theme=seller]` has higher specificity than `.dark` and
  // `[data-theme=seller]`, so seller-dark always wins when both are present.
  conditions: {
    seller: `[data-theme=${SELLER_THEME_ATTRIBUTE_VALUE}] &`,
    sellerDark: `.dark[data-theme=${SELLER_THEME_ATTRIBUTE_VALUE}] &, .dark [data-theme=${SELLER_THEME_ATTRIBUTE_VALUE}] &`,
  },
  theme: {
    tokens: {
      colors: { indigo },
    },
    semanticTokens: {
      colors: {
        ...readableColors,
        // The seven keys Chakra recipes read from a colour palette, so `colorPalette="brand"` works
        // on every component (Button, Badge, Tabs, Switch, ...). Shades mirror Chakra's defaults.
        brand: {
          ...brandScale,
          // White on teal.600 is 3.7:1 and on indigo.500 4.5:1 (just under AA): one shade darker.
          solid: themed('600', '600', { light: '700', dark: '700' }),
          contrast: { value: 'white' },
          fg: themed('700', '300'),
          muted: themed('200', '800'),
          subtle: themed('100', '900'),
          emphasized: themed('300', '700'),
          focusRing: themed('600', '500'),
          border: themed('500', '400'),
        },
      },
    },
  },
});
