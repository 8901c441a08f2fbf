import { describe, expect, it } from 'vitest';
import { centsToMinor } from './pricing';

describe('centsToMinor', () => {
  it('turns a two-decimal catalog price into the currency’s minor units, half-up', () => {
    expect(centsToMinor(1999, 'EUR')).toBe(1999);
    expect(centsToMinor(123_450, 'JPY')).toBe(1235);
    expect(centsToMinor(123_449, 'JPY')).toBe(1234);
    expect(centsToMinor(1999, 'KWD')).toBe(19_990);
  });
});
