import { afterEach, describe, expect, it } from 'vitest';
import {
  currencyCodes,
  currencySymbol,
  currencySymbols,
  formatMoney,
  isCurrencyCode,
  moneyDigits,
} from './currency';
import { configureFormats, resetFormats } from './format';

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

  // The ISO codes of the plain names (JPY, CHF, DZD) now find their symbols: the settings store ISO
  // codes (issue 29). Before, "JPY" fell back to "JPY" and "DZD" to "DZD".
  it.each([
    ['JPY', '¥'],
    ['CHF', 'CHF'],
    ['dzd', 'DA'],
  ])('finds the symbol of the ISO code %j of a plain name', (code, symbol) => {
    expect(currencySymbol(code)).toBe(symbol);
  });

  it.each(['SEK', 'KWD', 'XYZ', '', 'constructor', 'toString', '__proto__'])(
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

  it.each([
    [1234.5, 'JPY', '¥1,235'],
    [1234.5, 'CHF', 'CHF 1,234.50'],
    [12.5, 'DZD', '12.50 DA'],
  ])('formats the ISO code of a plain name like the name: formatMoney(%d, %j) → %j', (amount, code, out) => {
    expect(formatMoney(amount, code)).toBe(out);
  });

  it('writes ISO minor units for any ISO code: none for JPY, three for KWD and BHD', () => {
    expect(formatMoney(1234.5678, 'JPY')).toBe('¥1,235');
    expect(formatMoney(1234.5, 'KWD')).toBe('KWD 1,234.500');
    expect(formatMoney(0.1234, 'BHD')).toBe('BHD 0.123');
    expect(formatMoney(-7.5, 'KWD')).toBe('-KWD 7.500');
    expect(formatMoney(1234.5, 'SEK')).toBe('SEK 1,234.50');
    expect(formatMoney(3.25, 'CLF')).toBe('CLF 3.2500');
    expect(moneyDigits('KWD')).toBe(3);
    expect(moneyDigits('Yen')).toBe(0);
    expect(moneyDigits('XYZ')).toBe(2);
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

describe('formatMoney with the settings locale', () => {
  afterEach(() => resetFormats());

  it('groups digits as the locale does, keeping the symbol map', () => {
    configureFormats({ locale: 'de-DE' });
    expect(formatMoney(1234.5, 'EUR')).toBe('€1.234,50');
    expect(formatMoney(1234.5, 'PLN')).toBe('1.234,50 zł');
    expect(formatMoney(1234.5, 'KWD')).toBe('1.234,500 KWD');
    configureFormats({ locale: 'en-IN' });
    expect(formatMoney(100000, 'INR')).toBe('₹1,00,000.00');
  });

  it('takes another locale for a preview', () => {
    expect(formatMoney(1234.5, 'EUR', 'de-DE')).toBe('€1.234,50');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
  });
});
