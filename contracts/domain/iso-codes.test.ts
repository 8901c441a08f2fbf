import { describe, expect, it } from 'vitest';
import {
  countryList,
  countryName,
  currencyDigits,
  isCountryCode,
  isCurrencyCode,
  legacyCurrencyCodes,
  toIsoCurrency,
} from './iso-codes';

describe('countries', () => {
  it('knows ISO 3166-1 alpha-2 codes, exactly', () => {
    expect(isCountryCode('IN')).toBe(true);
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('in')).toBe(false);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('IND')).toBe(false);
    expect(isCountryCode('')).toBe(false);
  });

  it('names them in English', () => {
    expect(countryName('IN')).toBe('India');
    expect(countryName('JP')).toBe('Japan');
    expect(countryName('ZZ')).toBeUndefined();
  });

  it('lists every country once, sorted by name', () => {
    const list = countryList();
    expect(list.length).toBeGreaterThanOrEqual(249);
    expect(new Set(list.map((c) => c.code)).size).toBe(list.length);
    expect(list).toContainEqual({ code: 'IN', name: 'India' });
    const names = list.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});

describe('currencies', () => {
  it('accepts ISO 4217 codes only, exactly', () => {
    expect(isCurrencyCode('INR')).toBe(true);
    expect(isCurrencyCode('KWD')).toBe(true);
    expect(isCurrencyCode('inr')).toBe(false);
    expect(isCurrencyCode('Yen')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
  });

  it('maps the legacy spellings of SPEC §9 to ISO codes', () => {
    expect(legacyCurrencyCodes).toEqual({ YEN: 'JPY', FRANC: 'CHF', DINAR: 'DZD' });
    expect(toIsoCurrency('Yen')).toBe('JPY');
    expect(toIsoCurrency('Franc')).toBe('CHF');
    expect(toIsoCurrency('dinar')).toBe('DZD');
    expect(toIsoCurrency(' usd ')).toBe('USD');
    expect(toIsoCurrency('Rupee')).toBeUndefined();
    expect(toIsoCurrency('constructor')).toBeUndefined();
  });

  it('gives ISO minor units: JPY 0, KWD and BHD 3, legacy Yen 0', () => {
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('Yen')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('BHD')).toBe(3);
    expect(currencyDigits('INR')).toBe(2);
    expect(currencyDigits('Dinar')).toBe(2);
    expect(currencyDigits('XYZ')).toBeUndefined();
  });
});
