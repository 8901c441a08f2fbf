import currencyCodes from 'currency-codes';
import { describe, expect, it } from 'vitest';
import { isIso4217Code, iso4217Codes, iso4217Digits } from './iso-4217';

describe('the ISO 4217 table', () => {
  it('lists exactly the codes and minor units of the currency-codes package', () => {
    const fromPackage = Object.fromEntries(currencyCodes.data.map((entry) => [entry.code, entry.digits]));
    const fromTable = Object.fromEntries(iso4217Codes.map((code) => [code, iso4217Digits(code)]));
    expect(fromTable).toEqual(fromPackage);
  });

  it('knows the minor units that differ from two', () => {
    expect(iso4217Digits('JPY')).toBe(0);
    expect(iso4217Digits('KWD')).toBe(3);
    expect(iso4217Digits('BHD')).toBe(3);
    expect(iso4217Digits('CLF')).toBe(4);
    expect(iso4217Digits('INR')).toBe(2);
  });

  it('answers only for exact upper-case ISO codes', () => {
    expect(isIso4217Code('EUR')).toBe(true);
    expect(isIso4217Code('eur')).toBe(false);
    expect(isIso4217Code('Yen')).toBe(false);
    expect(isIso4217Code('XYZ')).toBe(false);
    expect(iso4217Digits('XYZ')).toBeUndefined();
    expect(isIso4217Code('constructor')).toBe(false);
  });
});
