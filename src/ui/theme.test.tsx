import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyColorTheme, type ColorTheme } from './color-theme';
import { system as fullSystem } from './theme';
import { publicSystem } from './theme-public';

// jsdom does not resolve CSS custom properties through the cascade layers Chakra emits, so this
// test does the cascade itself: it reads the token rules emotion injected, keeps those whose
// selector matches <html> in a given theme, and picks the winner by specificity, then source
// order. That exercises the real generated CSS and the real DOM contract of color-theme.ts.
interface Rule {
  selectors: string[];
  declarations: Map<string, string>;
}

function injectedRules(): Rule[] {
  const css = [...document.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n');
  const rules: Rule[] = [];
  for (const match of css.matchAll(/([^{}]*)\{([^{}]*)\}/g)) {
    const selectorText = match[1]?.trim() ?? '';
    if (!selectorText || selectorText.startsWith('@')) continue;
    const declarations = new Map<string, string>();
    for (const declaration of (match[2] ?? '').split(';')) {
      const colon = declaration.indexOf(':');
      if (colon > 0)
        declarations.set(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
    }
    rules.push({ selectors: selectorText.split(/,(?![^(]*\))/).map((s) => s.trim()), declarations });
  }
  return rules;
}

// Classes and attributes count; `:where(...)` counts zero. Enough for the selectors Chakra emits.
function specificity(selector: string): number {
  const withoutWhere = selector.replace(/:where\([^)]*\)/g, '');
  return (withoutWhere.match(/[.[]/g) ?? []).length;
}

function resolve(variable: string, rules: Rule[]): string | undefined {
  const root = document.documentElement;
  let best: { value: string; weight: number } | undefined;
  for (const rule of rules) {
    const value = rule.declarations.get(variable);
    if (value === undefined) continue;
    for (const selector of rule.selectors) {
      if (!root.matches(selector)) continue;
      const weight = specificity(selector);
      if (!best || weight >= best.weight) best = { value, weight };
    }
  }
  return best?.value;
}

// Both systems carry the app's theme: the public pages and the shell must look the same.
describe.each([
  ['public', publicSystem],
  ['full', fullSystem],
])('the %s theme system', (_name, system) => {
  let rules: Rule[] = [];

  beforeAll(() => {
    render(
      <ChakraProvider value={system}>
        <div />
      </ChakraProvider>,
    );
    rules = injectedRules();
    cleanup();
  });

  afterEach(() => applyColorTheme('default'));

  const cases: [ColorTheme, Record<string, string>][] = [
    ['default', { solid: 'indigo-600', fg: 'indigo-700', subtle: 'indigo-100', '500': 'indigo-500' }],
    // Solid fills carry white text: one shade darker than Chakra's usual where white would not read.
    ['default-dark', { solid: 'indigo-600', fg: 'indigo-300', subtle: 'indigo-900', '500': 'indigo-500' }],
    ['seller', { solid: 'teal-700', fg: 'teal-700', subtle: 'teal-100', '500': 'teal-500' }],
    ['seller-dark', { solid: 'teal-700', fg: 'teal-300', subtle: 'teal-900', '500': 'teal-500' }],
  ];

  it.each(cases)('%s resolves the brand palette', (theme, expected) => {
    applyColorTheme(theme);
    for (const [key, colour] of Object.entries(expected)) {
      expect(resolve(`--chakra-colors-brand-${key}`, rules), `brand.${key}`).toBe(
        `var(--chakra-colors-${colour})`,
      );
    }
  });

  // The readable text and fills of theme-config.ts reach the CSS in both modes (theme-contrast.test.ts
  // checks their contrast).
  it.each([
    ['default', { 'fg-error': 'red-700', 'fg-subtle': 'gray-500', 'green-solid': 'green-700' }],
    ['seller-dark', { 'fg-error': 'red-400', 'fg-subtle': 'gray-400', 'green-solid': 'green-700' }],
  ] as const)('%s: the readable text and fill colours apply', (theme, expected) => {
    applyColorTheme(theme);
    for (const [key, colour] of Object.entries(expected)) {
      expect(resolve(`--chakra-colors-${key}`, rules), key).toBe(`var(--chakra-colors-${colour})`);
    }
  });

  it('keeps Chakra dark mode working for its own tokens', () => {
    applyColorTheme('default');
    expect(resolve('--chakra-colors-bg', rules)).toBe('var(--chakra-colors-white)');
    applyColorTheme('seller-dark');
    expect(resolve('--chakra-colors-bg', rules)).toBe('var(--chakra-colors-black)');
  });

  it('exposes every key a colorPalette needs, plus the custom seller conditions', () => {
    for (const key of ['solid', 'contrast', 'fg', 'muted', 'subtle', 'emphasized', 'focusRing']) {
      expect(system.tokens.getByName(`colors.brand.${key}`), key).toBeDefined();
    }
    expect(system.conditions.has('_seller')).toBe(true);
    expect(system.conditions.has('_sellerDark')).toBe(true);
  });
});
