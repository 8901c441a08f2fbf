import { describe, expect, it } from 'vitest';
import { contrastRatio, isHexColour, readableTextOn, relativeLuminance } from './colour-contrast';

describe('relativeLuminance', () => {
  it('is 0 for black, 1 for white, and weighs green most', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(relativeLuminance('#00ff00')).toBeCloseTo(0.7152, 4);
    expect(relativeLuminance('#ff0000')).toBeCloseTo(0.2126, 4);
  });

  it('refuses what is not #rrggbb', () => {
    for (const bad of ['#fff', 'red', '', '#12345g', 'rgb(0,0,0)'])
      expect(() => relativeLuminance(bad)).toThrow(RangeError);
    expect(isHexColour('#2b6cB0')).toBe(true);
    expect(isHexColour('#fff')).toBe(false);
    expect(isHexColour(null)).toBe(false);
  });
});

describe('contrastRatio', () => {
  it.each([
    ['#000000', '#ffffff', '21.00'],
    ['#777777', '#ffffff', '4.48'],
    ['#767676', '#ffffff', '4.54'],
    ['#2b6cb0', '#ffffff', '5.42'],
    ['#ffffff', '#ffffff', '1.00'],
  ])('%s on %s is %s:1, in either order', (a, b, ratio) => {
    expect(contrastRatio(a, b).toFixed(2)).toBe(ratio);
    expect(contrastRatio(b, a).toFixed(2)).toBe(ratio);
  });
});

describe('readableTextOn', () => {
  it('keeps the preferred text colour when it reads at 4.5:1', () => {
    expect(readableTextOn('#2b6cb0', '#ffffff')).toBe('#ffffff');
    expect(readableTextOn('#ffffff', '#767676')).toBe('#767676');
  });

  it('falls back to black or white, whichever contrasts more, below 4.5:1', () => {
    expect(readableTextOn('#ffff00', '#ffffff')).toBe('#000000');
    expect(readableTextOn('#ffffff', '#777777')).toBe('#000000'); // 4.48:1 is not enough
    expect(readableTextOn('#1a1a1a', '#333333')).toBe('#ffffff');
    expect(readableTextOn('#2b6cb0', '#2b6cb0')).toBe('#ffffff');
  });
});
