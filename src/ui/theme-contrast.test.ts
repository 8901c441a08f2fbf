// Colour contrast of the theme's tokens, in all four looks (back-office and seller, light and dark):
// every text colour the pages use on the backgrounds they use it on, and every palette's solid fill
// under its contrast text, reads at WCAG AA (4.5:1). Checked on the tokens, so a page cannot fall
// below it by picking a palette; axe.spec.ts checks the pages themselves.
import { describe, expect, it } from 'vitest';
import { contrastRatio as contrast } from '../../contracts/domain/colour-contrast';
import { system } from './theme';

type Look = 'default' | 'default-dark' | 'seller' | 'seller-dark';

/** Which of a token's conditions applies in a look, most specific first. */
const conditionsOf: Record<Look, string[]> = {
  default: ['_light', 'base'],
  'default-dark': ['_dark', 'base'],
  seller: ['_seller', '_light', 'base'],
  'seller-dark': ['_sellerDark', '_dark', 'base'],
};

/** The colour a token (`fg.error`, `teal.solid`, `white`) has in a look, as #rrggbb. */
function colour(name: string, look: Look): string {
  const token = system.tokens.getByName(`colors.${name}`);
  if (!token) {
    if (name === 'white') return '#ffffff';
    if (name === 'black') return '#000000';
    throw new Error(`No colour token ${name}`);
  }
  const conditions = (token.extensions.conditions ?? {}) as Record<string, string>;
  const key = conditionsOf[look].find((condition) => condition in conditions);
  const value = key ? conditions[key] : token.originalValue;
  const reference = /^\{colors\.(.+)\}$/.exec(String(value));
  if (reference?.[1]) return colour(reference[1], look);
  if (value === 'white' || value === 'black') return colour(value, look);
  return String(value).toLowerCase();
}

const LOOKS: Look[] = ['default', 'default-dark', 'seller', 'seller-dark'];
const PALETTES = [
  'brand',
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'cyan',
  'purple',
  'pink',
];
const TEXTS = ['fg', 'fg.muted', 'fg.subtle', 'fg.error', 'fg.warning', 'fg.success', 'fg.info'];
const BACKGROUNDS = ['bg', 'bg.panel', 'bg.subtle'];

describe.each(LOOKS)('the %s look', (look) => {
  it('text colours read at 4.5:1 on the page, panel and subtle backgrounds', () => {
    const low: string[] = [];
    for (const text of [...TEXTS, ...PALETTES.map((palette) => `${palette}.fg`)]) {
      for (const background of BACKGROUNDS) {
        const ratio = contrast(colour(text, look), colour(background, look));
        if (ratio < 4.5) low.push(`${text} on ${background}: ${ratio.toFixed(2)}`);
      }
    }
    expect(low).toEqual([]);
  });

  it('every palette: the contrast text on its solid fill, its text on its subtle fill (badges, buttons)', () => {
    const low: string[] = [];
    for (const palette of PALETTES) {
      const solid = contrast(colour(`${palette}.contrast`, look), colour(`${palette}.solid`, look));
      if (solid < 4.5) low.push(`${palette}.contrast on ${palette}.solid: ${solid.toFixed(2)}`);
      const subtle = contrast(colour(`${palette}.fg`, look), colour(`${palette}.subtle`, look));
      if (subtle < 4.5) low.push(`${palette}.fg on ${palette}.subtle: ${subtle.toFixed(2)}`);
    }
    expect(low).toEqual([]);
  });
});

it('the resolver reads the theme: white on the seller teal was 3.74:1 with Chakra’s teal.600', () => {
  expect(colour('teal.600', 'seller')).toBe('#0d9488');
  expect(contrast('#ffffff', colour('teal.600', 'seller')).toFixed(2)).toBe('3.74');
  expect(colour('brand.solid', 'seller')).toBe(colour('teal.700', 'seller'));
  expect(colour('brand.solid', 'default')).toBe(colour('indigo.600', 'default'));
});
