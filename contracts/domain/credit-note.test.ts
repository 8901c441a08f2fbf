import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateMinor, creditLinesFor, includedTaxMinor, splitIncluded } from './credit-note';
import { percentOf } from './offer-pricing';

describe('credit notes', () => {
  it('takes the tax out of a tax-included amount, half-up', () => {
    expect(includedTaxMinor(11_900, 19)).toBe(1_900);
    expect(includedTaxMinor(100, 19)).toBe(16);
    expect(includedTaxMinor(1_075, 7.5)).toBe(75);
    expect(includedTaxMinor(500, 0)).toBe(0);
  });

  it('splits by the largest remainder so the parts add up exactly', () => {
    expect(allocateMinor(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateMinor(1_000, [11_900, 2_140])).toEqual([848, 152]);
    expect(allocateMinor(7, [0, 0])).toEqual([7, 0]);
  });

  it('credits an amount over the invoice’s rates, shipping at 0 %, each line tax = net × rate', () => {
    const lines = creditLinesFor(
      {
        lines: [
          { taxRate: 19, totalMinor: 11_900 },
          { taxRate: 7, totalMinor: 2_140 },
        ],
        shippingMinor: 495,
      },
      1_000,
      'Late delivery',
    );
    expect(lines.map((line) => line.taxRate)).toEqual([0, 7, 19]);
    expect(lines.reduce((sum, line) => sum + line.totalMinor, 0)).toBe(1_000);
    for (const line of lines) {
      expect(line.netMinor + line.taxMinor).toBe(line.totalMinor);
      expect(line.name).toContain('Late delivery');
    }
  });

  it('keeps net + tax = gross and tax = net × rate rounded, for any amount and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom(0, 5, 7, 7.5, 10, 19, 20, 21, 27),
        (gross, rate) => {
          const { net, tax } = splitIncluded(gross, rate);
          expect(net + tax).toBe(gross);
          expect(Math.abs(tax - percentOf(net, rate))).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});
