// The colour theme: which palette (back-office or seller) and which mode (light or dark).
//
// SPEC: "Sellers see a seller theme" and "The theme toggles between a default and a "-dark"
// variant, stored as color-theme". The two axes have different owners:
// - the mode is the user's preference, so it is persisted and survives reloads;
// - the palette follows the role, so it is never trusted from storage: a seller who last used
//   the app on a shared machine as 'default-dark' still gets 'seller-dark'.
// The DOM contract read by `theme.ts` is `class="dark"` and `data-theme="seller"` on <html>.
import { useCallback, useEffect, useLayoutEffect, useState } from 'react';

/**
 * Value of `data-theme` on <html> that selects the seller palette. Defined here, not in theme.ts,
 * so that importing the early theme script does not pull the whole Chakra system into the entry.
 */
export const SELLER_THEME_ATTRIBUTE_VALUE = 'seller';

export type ColorTheme = 'default' | 'default-dark' | 'seller' | 'seller-dark';

export const COLOR_THEME_STORAGE_KEY = 'color-theme';

export const COLOR_THEMES: readonly ColorTheme[] = ['default', 'default-dark', 'seller', 'seller-dark'];

const DARK_SUFFIX = '-dark';

export function isColorTheme(value: unknown): value is ColorTheme {
  return typeof value === 'string' && (COLOR_THEMES as readonly string[]).includes(value);
}

export function isDarkTheme(value: ColorTheme): boolean {
  return value.endsWith(DARK_SUFFIX);
}

/** The theme a user of this role gets in the given mode. */
export function themeFor(isSeller: boolean, dark: boolean): ColorTheme {
  const base = isSeller ? 'seller' : 'default';
  return dark ? `${base}-dark` : base;
}

/** The same palette with the mode flipped: 'seller' ⇄ 'seller-dark', 'default' ⇄ 'default-dark'. */
export function toggleDark(value: ColorTheme): ColorTheme {
  return themeFor(value.startsWith('seller'), !isDarkTheme(value));
}

// Storage can throw (Safari private mode, disabled cookies, quota); a theme is never worth a crash.
function readStored(): ColorTheme | null {
  try {
    const stored = globalThis.localStorage?.getItem(COLOR_THEME_STORAGE_KEY);
    return isColorTheme(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function writeColorTheme(value: ColorTheme): void {
  try {
    globalThis.localStorage?.setItem(COLOR_THEME_STORAGE_KEY, value);
  } catch (error) {
    console.warn('Could not persist the colour theme', error);
  }
}

/**
 * The theme to show for this role: the stored mode (light when nothing valid is stored) on the
 * role's own palette.
 */
export function readColorTheme(isSeller: boolean): ColorTheme {
  const stored = readStored();
  return themeFor(isSeller, stored !== null && isDarkTheme(stored));
}

/** Puts a theme on <html>: `.dark` for Chakra's dark condition, `data-theme` for the palette. */
export function applyColorTheme(value: ColorTheme, root: HTMLElement = document.documentElement): void {
  const dark = isDarkTheme(value);
  root.classList.toggle('dark', dark);
  // Chakra's `_light` condition also matches `.light`; keep it off so only `.dark` decides.
  root.classList.remove('light');
  if (value.startsWith('seller')) root.setAttribute('data-theme', SELLER_THEME_ATTRIBUTE_VALUE);
  else root.removeAttribute('data-theme');
  // Native form controls, scrollbars and the canvas colour follow this.
  root.style.colorScheme = dark ? 'dark' : 'light';
}

/**
 * Applies the stored theme before React mounts, so a dark-mode user never sees a white flash.
 * The role is not known yet, so the stored value is applied as-is (it was the last theme this
 * browser showed, normally to the same user); `useColorTheme` corrects it once auth is known.
 *
 * Self-contained on purpose (no imports, no module-level helpers): it can be called from
 * `main.tsx` or stringified into an inline <script> in index.html, e.g.
 * `<script>(${applyStoredThemeEarly.toString()})()</script>`.
 */
export function applyStoredThemeEarly(): void {
  try {
    const value = localStorage.getItem('color-theme');
    if (value !== 'default' && value !== 'default-dark' && value !== 'seller' && value !== 'seller-dark')
      return;
    const root = document.documentElement;
    const dark = value.slice(-5) === '-dark';
    root.classList.toggle('dark', dark);
    if (value.indexOf('seller') === 0) root.setAttribute('data-theme', 'seller');
    else root.removeAttribute('data-theme');
    root.style.colorScheme = dark ? 'dark' : 'light';
  } catch {
    // No storage, no early theme: React applies the default shortly after.
  }
}

export interface UseColorTheme {
  theme: ColorTheme;
  isDark: boolean;
  /** Flips light/dark, keeps the role's palette, persists the result. */
  toggle: () => void;
}

// Layout effect in the browser so the DOM is updated before paint; plain effect where there is
// no DOM, to keep React quiet if this is ever rendered on a server.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Current theme for this user. The palette is derived from `isSeller` on every render, so when
 * the role becomes known (sign-in) or changes (sign-out) the palette follows while the mode stays.
 */
export function useColorTheme(isSeller: boolean): UseColorTheme {
  const [isDark, setIsDark] = useState(() => isDarkTheme(readColorTheme(isSeller)));
  const theme = themeFor(isSeller, isDark);

  useIsomorphicLayoutEffect(() => {
    applyColorTheme(theme);
    writeColorTheme(theme);
  }, [theme]);

  // Another tab toggled the mode: follow it, so two open tabs never disagree.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== COLOR_THEME_STORAGE_KEY || !isColorTheme(event.newValue)) return;
      setIsDark(isDarkTheme(event.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const toggle = useCallback(() => setIsDark((dark) => !dark), []);

  return { theme, isDark, toggle };
}
