import { describe, expect, it } from 'vitest';
import { currencyCodes, currencySymbol, currencySymbols, formatMoney, isCurrencyCode } from './currency';

describe('currencySymbols', () => {
  it('maps exactly the spec keys to their symbols', () => {
    expect(currencySymbols).toEqual({
      USD: '$',
      EUR: '€',
      GBP: '£',
      Yen: '¥',
      Franc: 'CHF',
      INR: '₹',
      Dinar: 'DA',
      PLN: 'zł',
    });
    expect(currencyCodes).toEqual(['USD', 'EUR', 'GBP', 'Yen', 'Franc', 'INR', 'Dinar', 'PLN']);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(currencySymbols)).toBe(true);
  });
});

describe('currencySymbol', () => {
  it.each([
    ['USD', '$'],
    ['EUR', '€'],
    ['GBP', '£'],
    ['Yen', '¥'],
    ['Franc', 'CHF'],
    ['INR', '₹'],
    ['Dinar', 'DA'],
    ['PLN', 'zł'],
  ])('%s → %s', (code, symbol) => {
    expect(currencySymbol(code)).toBe(symbol);
  });

  it.each([
    ['usd', '$'],
    ['YEN', '¥'],
    ['franc', 'CHF'],
    [' PLN ', 'zł'],
  ])('matches %j case-insensitively and trimmed', (code, symbol) => {
    expect(currencySymbol(code)).toBe(symbol);
  });

  it.each(['JPY', 'CHF', 'XYZ', '', 'constructor', 'toString', '__proto__'])(
    'falls back to the code itself for unknown %j',
    (code) => {
      expect(currencySymbol(code)).toBe(code);
    },
  );
});

describe('isCurrencyCode', () => {
  it('accepts only the exact spelling', () => {
    expect(isCurrencyCode('Yen')).toBe(true);
    expect(isCurrencyCode('YEN')).toBe(false);
    expect(isCurrencyCode('toString')).toBe(false);
  });
});

describe('formatMoney', () => {
  it.each([
    [1234.5, 'USD', '$1,234.50'],
    [1234.5, 'EUR', '€1,234.50'],
    [0.5, 'GBP', '£0.50'],
    [1234.5, 'Yen', '¥1,235'],
    [9.9, 'Franc', 'CHF 9.90'],
    [100000, 'INR', '₹100,000.00'],
    [12.5, 'Dinar', '12.50 DA'],
    [12.5, 'PLN', '12.50 zł'],
    [0, 'USD', '$0.00'],
    [-12.5, 'USD', '-$12.50'],
    [-12.5, 'Franc', '-CHF 12.50'],
    [-12.5, 'PLN', '-12.50 zł'],
    [1.999, 'USD', '$2.00'],
    [5, 'xyz', 'xyz 5.00'],
    [5, 'usd', '$5.00'],
  ])('formatMoney(%d, %j) → %j', (amount, code, out) => {
    expect(formatMoney(amount, code)).toBe(out);
  });

  it('does not show a sign for values that round to zero', () => {
    expect(formatMoney(-0.001, 'USD')).toBe('$0.00');
    expect(formatMoney(-0, 'USD')).toBe('$0.00');
    expect(formatMoney(-0.4, 'Yen')).toBe('¥0');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'throws RangeError for %d',
    (n) => {
      expect(() => formatMoney(n, 'USD')).toThrow(RangeError);
    },
  );
});
