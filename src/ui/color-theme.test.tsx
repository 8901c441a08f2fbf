import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyColorTheme,
  applyStoredThemeEarly,
  COLOR_THEME_STORAGE_KEY,
  readColorTheme,
  toggleDark,
  useColorTheme,
} from './color-theme';

const root = document.documentElement;
const stored = () => localStorage.getItem(COLOR_THEME_STORAGE_KEY);

function resetRoot() {
  root.className = '';
  root.removeAttribute('data-theme');
  root.style.colorScheme = '';
}

beforeEach(() => {
  localStorage.clear();
  resetRoot();
});

afterEach(() => vi.restoreAllMocks());

describe('storage key', () => {
  it('is color-theme, as the SPEC names it', () => {
    expect(COLOR_THEME_STORAGE_KEY).toBe('color-theme');
  });
});

describe('readColorTheme', () => {
  it('defaults to light on the role palette when nothing is stored', () => {
    expect(readColorTheme(false)).toBe('default');
    expect(readColorTheme(true)).toBe('seller');
  });

  it.each([
    ['default', false, 'default'],
    ['default-dark', false, 'default-dark'],
    ['seller-dark', false, 'default-dark'],
    ['seller', false, 'default'],
    ['seller', true, 'seller'],
    ['seller-dark', true, 'seller-dark'],
    ['default-dark', true, 'seller-dark'],
    ['default', true, 'seller'],
  ] as const)('stored %s, seller=%s -> %s (mode kept, palette follows role)', (value, isSeller, expected) => {
    localStorage.setItem(COLOR_THEME_STORAGE_KEY, value);
    expect(readColorTheme(isSeller)).toBe(expected);
  });

  it('ignores garbage in storage', () => {
    localStorage.setItem(COLOR_THEME_STORAGE_KEY, 'dark');
    expect(readColorTheme(false)).toBe('default');
  });

  it('survives storage that throws', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(readColorTheme(true)).toBe('seller');
  });
});

describe('toggleDark', () => {
  it('flips the mode and keeps the palette', () => {
    expect(toggleDark('default')).toBe('default-dark');
    expect(toggleDark('default-dark')).toBe('default');
    expect(toggleDark('seller')).toBe('seller-dark');
    expect(toggleDark('seller-dark')).toBe('seller');
  });
});

describe('applyColorTheme', () => {
  it('sets .dark, data-theme and color-scheme on <html>', () => {
    applyColorTheme('seller-dark');
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.getAttribute('data-theme')).toBe('seller');
    expect(root.style.colorScheme).toBe('dark');

    applyColorTheme('default');
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.hasAttribute('data-theme')).toBe(false);
    expect(root.style.colorScheme).toBe('light');

    applyColorTheme('seller');
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.getAttribute('data-theme')).toBe('seller');
  });

  it('leaves unrelated classes alone', () => {
    root.classList.add('keep-me');
    applyColorTheme('default-dark');
    applyColorTheme('default');
    expect(root.classList.contains('keep-me')).toBe(true);
  });
});

describe('applyStoredThemeEarly', () => {
  it('applies the stored value before React knows the role', () => {
    localStorage.setItem(COLOR_THEME_STORAGE_KEY, 'seller-dark');
    applyStoredThemeEarly();
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.getAttribute('data-theme')).toBe('seller');
    expect(root.style.colorScheme).toBe('dark');
  });

  it('does nothing without a valid stored value', () => {
    localStorage.setItem(COLOR_THEME_STORAGE_KEY, 'purple');
    applyStoredThemeEarly();
    expect(root.className).toBe('');
    expect(root.hasAttribute('data-theme')).toBe(false);
  });

  it('is self-contained, so it can be inlined into index.html', () => {
    localStorage.setItem(COLOR_THEME_STORAGE_KEY, 'default-dark');
    // Evaluating its source text in a fresh scope proves it references no module bindings.
    new Function(`(${applyStoredThemeEarly.toString()})()`)();
    expect(root.classList.contains('dark')).toBe(true);
  });
});

describe('useColorTheme', () => {
  it('toggles, applies and persists; the mode survives a reload', () => {
    const first = renderHook(() => useColorTheme(false));
    expect(first.result.current).toMatchObject({ theme: 'default', isDark: false });
    expect(root.classList.contains('dark')).toBe(false);

    act(() => first.result.current.toggle());
    expect(first.result.current).toMatchObject({ theme: 'default-dark', isDark: true });
    expect(root.classList.contains('dark')).toBe(true);
    expect(stored()).toBe('default-dark');
    first.unmount();

    // "Reload": a fresh hook instance reads the stored preference.
    resetRoot();
    const second = renderHook(() => useColorTheme(false));
    expect(second.result.current.theme).toBe('default-dark');
    expect(root.classList.contains('dark')).toBe(true);
  });

  it("gives a seller with a stored 'default-dark' the 'seller-dark' theme and stores it", () => {
    localStorage.setItem(COLOR_THEME_STORAGE_KEY, 'default-dark');
    const { result } = renderHook(() => useColorTheme(true));
    expect(result.current).toMatchObject({ theme: 'seller-dark', isDark: true });
    expect(root.getAttribute('data-theme')).toBe('seller');
    expect(stored()).toBe('seller-dark');

    act(() => result.current.toggle());
    expect(result.current.theme).toBe('seller');
    expect(stored()).toBe('seller');
  });

  it('switches palette when the role changes, keeping the mode', () => {
    const { result, rerender } = renderHook(({ isSeller }) => useColorTheme(isSeller), {
      initialProps: { isSeller: false },
    });
    act(() => result.current.toggle());
    rerender({ isSeller: true });
    expect(result.current.theme).toBe('seller-dark');
    expect(root.getAttribute('data-theme')).toBe('seller');
    rerender({ isSeller: false });
    expect(result.current.theme).toBe('default-dark');
    expect(root.hasAttribute('data-theme')).toBe(false);
  });

  it('follows a mode change made in another tab', () => {
    const { result } = renderHook(() => useColorTheme(false));
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: COLOR_THEME_STORAGE_KEY, newValue: 'seller-dark' }),
      );
    });
    expect(result.current.theme).toBe('default-dark');
  });
});
