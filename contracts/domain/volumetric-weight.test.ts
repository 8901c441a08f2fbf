import { describe, expect, it } from 'vitest';
import {
  CM_PER_UNIT,
  type ParcelDimensions,
  VOLUMETRIC_DIVISOR,
  volumetricWeight,
} from './volumetric-weight';

describe('constants', () => {
  it('use the spec divisor and conversions', () => {
    expect(VOLUMETRIC_DIVISOR).toBe(5000);
    expect(CM_PER_UNIT).toEqual({ cm: 1, m: 100, in: 2.54 });
  });
});

describe('volumetricWeight', () => {
  it.each<[ParcelDimensions, number]>([
    [{ length: 10, width: 20, height: 30, unit: 'cm' }, 1.2],
    [{ length: 50, width: 40, height: 30, unit: 'cm' }, 12],
    [{ length: 100, width: 50, height: 50, unit: 'cm' }, 50],
    // meters × 100: same box as 50×40×30 cm
    [{ length: 0.5, width: 0.4, height: 0.3, unit: 'm' }, 12],
    [{ length: 1, width: 1, height: 1, unit: 'm' }, 200],
    // inches × 2.54: 10 in cube = 25.4³ cm³ = 16387.064 cm³
    [{ length: 10, width: 10, height: 10, unit: 'in' }, 3.2774128],
    [{ length: 1, width: 1, height: 1, unit: 'in' }, 0.0032774128],
    [{ length: 0, width: 20, height: 30, unit: 'cm' }, 0],
  ])('%j → %d kg', (dims, kg) => {
    expect(volumetricWeight(dims)).toBeCloseTo(kg, 9);
  });

  it('converts each unit before multiplying, not the product', () => {
    // 1 m³ must be 100³ cm³, not 100 cm³
    expect(volumetricWeight({ length: 1, width: 1, height: 1, unit: 'm' })).toBe(
      volumetricWeight({ length: 100, width: 100, height: 100, unit: 'cm' }),
    );
  });

  it.each([
    { length: -1, width: 1, height: 1 },
    { length: 1, width: -0.01, height: 1 },
    { length: 1, width: 1, height: -5 },
    { length: Number.NaN, width: 1, height: 1 },
    { length: 1, width: Number.POSITIVE_INFINITY, height: 1 },
    { length: 1, width: 1, height: Number.NEGATIVE_INFINITY },
  ])('throws RangeError for %j', (dims) => {
    expect(() => volumetricWeight({ ...dims, unit: 'cm' })).toThrow(RangeError);
  });

  it('throws RangeError for values that are not numbers at runtime', () => {
    const dims = { length: '10', width: 1, height: 1, unit: 'cm' } as unknown as ParcelDimensions;
    expect(() => volumetricWeight(dims)).toThrow(/length must be a finite number/);
  });

  it.each(['mm', 'ft', '', 'toString'])('throws RangeError for unknown unit %j', (unit) => {
    const dims = { length: 1, width: 1, height: 1, unit } as unknown as ParcelDimensions;
    expect(() => volumetricWeight(dims)).toThrow(RangeError);
  });
});
