import { describe, expect, it } from 'vitest';
import { decimalOf, minorOf, money } from './money';

describe('money on the pages', () => {
  it('reads typed decimals as minor units without floating point', () => {
    expect(minorOf('12.5', 'EUR')).toBe(1250);
    expect(minorOf('0.07', 'EUR')).toBe(7);
    expect(minorOf('1,234.56', 'EUR')).toBe(123_456);
    expect(minorOf('0.29', 'EUR')).toBe(29); // 0.29 × 100 is 28.999… in floating point
    expect(minorOf('1250', 'JPY')).toBe(1250);
    expect(minorOf('1.234', 'KWD')).toBe(1234);
  });

  it('says why a text is no price', () => {
    expect(minorOf('', 'EUR')).toBe('Enter a price.');
    expect(minorOf('12.345', 'EUR')).toBe('EUR has 2 decimals at most.');
    expect(minorOf('12.5', 'JPY')).toBe('JPY has no minor unit: enter whole amounts.');
    expect(minorOf('-3', 'EUR')).toMatch(/as a number/);
    expect(minorOf('abc', 'EUR')).toMatch(/as a number/);
  });

  it('writes minor units back as the input and for reading', () => {
    expect(decimalOf(1250, 'EUR')).toBe('12.50');
    expect(decimalOf(1250, 'JPY')).toBe('1250');
    expect(money(123_450, 'EUR')).toMatch(/1,234\.50/);
  });
});
