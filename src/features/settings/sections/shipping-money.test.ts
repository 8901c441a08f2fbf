import { describe, expect, it } from 'vitest';
import { formatMinorUnits, fromMinorUnits, toMinorUnits } from './shipping-money';

describe('shipping rates as money', () => {
  it("stores an amount in the currency's minor units", () => {
    expect(toMinorUnits('12.5', 'INR')).toBe(1250);
    expect(toMinorUnits('12,50', 'EUR')).toBe(1250);
    expect(toMinorUnits('1200', 'JPY')).toBe(1200);
    expect(toMinorUnits('1.234', 'KWD')).toBe(1234);
    expect(toMinorUnits('-3', 'INR')).toBe(-300);
  });

  it('refuses what is not an amount of that currency', () => {
    expect(toMinorUnits('12.505', 'INR')).toBeNull();
    expect(toMinorUnits('5.5', 'JPY')).toBeNull();
    expect(toMinorUnits('abc', 'INR')).toBeNull();
    expect(toMinorUnits('', 'INR')).toBeNull();
  });

  it('shows stored minor units as the amount again', () => {
    expect(fromMinorUnits(1250, 'INR')).toBe('12.50');
    expect(fromMinorUnits(1200, 'JPY')).toBe('1200');
    expect(fromMinorUnits(1234, 'KWD')).toBe('1.234');
    expect(formatMinorUnits(25000, 'INR')).toBe('₹250.00');
  });
});
