import { describe, expect, it } from 'vitest';
import { type DraftLine, draftLineSchema } from '../offers';
import {
  minorToDecimal,
  percentOf,
  priceOffer,
  taxOptionFor,
  taxRatesFor,
  unitPriceFor,
} from './offer-pricing';
import { taxOptions } from './tax-options';

const line = (over: Partial<DraftLine>): DraftLine =>
  draftLineSchema.parse({ name: 'Widget', quantity: 1, unitPriceMinor: 1000, ...over });
const price = (lines: DraftLine[], country: string | null = 'DE', currency = 'EUR', shipping = 0) =>
  priceOffer({
    lines,
    currency,
    shippingCountry: country,
    taxOptions,
    validUntil: '2026-06-30',
    notes: '',
    shipping: { amountMinor: shipping },
  });

describe('offer pricing', () => {
  it('picks the unit price from the largest quantity break reached', () => {
    const breaks = [
      { minQuantity: 100, unitPriceMinor: 700 },
      { minQuantity: 10, unitPriceMinor: 900 },
    ];
    expect(unitPriceFor(9, 1000, breaks)).toBe(1000);
    expect(unitPriceFor(10, 1000, breaks)).toBe(900);
    expect(unitPriceFor(99, 1000, breaks)).toBe(900);
    expect(unitPriceFor(100, 1000, breaks)).toBe(700);
    const priced = price([line({ quantity: 12, quantityBreaks: breaks })], null);
    expect(priced.lines[0]).toMatchObject({ unitPriceMinor: 900, grossMinor: 10_800, totalMinor: 10_800 });
    expect(priced.lines[0]!.quantityBreaks[0]!.minQuantity).toBe(10);
  });

  it('takes a percent discount (rounded half-up) or an amount, never more than the line', () => {
    expect(percentOf(1005, 10)).toBe(101); // 100.5 → 101
    expect(percentOf(1004, 10)).toBe(100); // 100.4 → 100
    expect(percentOf(333, 12.5)).toBe(42); // 41.625 → 42
    const priced = price([line({ quantity: 3, unitPriceMinor: 335, discountPercent: 10 })], null);
    expect(priced.lines[0]).toMatchObject({ grossMinor: 1005, discountTotalMinor: 101, netMinor: 904 });
    const capped = price([line({ discountMinor: 5000 })], null);
    expect(capped.lines[0]).toMatchObject({ discountTotalMinor: 1000, netMinor: 0, totalMinor: 0 });
    expect(() => line({ discountPercent: 5, discountMinor: 5 })).toThrow();
  });

  it('taxes with the named rates of the shipping country', () => {
    const de = price([line({ quantity: 1, unitPriceMinor: 999, taxOptionId: 'DE-reduced' })], 'DE');
    expect(de.lines[0]).toMatchObject({ taxRate: 7, taxMinor: 70, totalMinor: 1069 }); // 69.93 → 70
    const ca = price(
      [
        line({ unitPriceMinor: 10_000, taxOptionId: 'CA-gst' }),
        line({ name: 'B', unitPriceMinor: 10_000, taxOptionId: 'CA-pst' }),
      ],
      'CA',
      'CAD',
      1500,
    );
    expect(ca.totals).toEqual({
      subtotalMinor: 20_000,
      discountMinor: 0,
      taxMinor: 1200,
      shippingMinor: 1500,
      totalMinor: 22_700,
    });
    expect(ca.pricingErrors).toEqual([]);
    const br = price([line({ unitPriceMinor: 10_000, taxOptionId: 'BR-icms' })], 'BR', 'BRL');
    expect(br.totals.taxMinor).toBe(1800);
    expect(taxOptionFor('FR', 'EU-standard', taxOptions)).toMatchObject({ value: 20 });
  });

  it('reports a tax that is not the shipping country’s as a pricing error', () => {
    const wrong = price([line({ taxOptionId: 'DE-standard' })], 'CA', 'CAD');
    expect(wrong.pricingErrors).toEqual(['Widget: DE VAT 19% is not a tax of CA.']);
    expect(wrong.lines[0]!.taxMinor).toBe(0);
    const noCountry = price([line({ taxOptionId: 'DE-standard' })], null);
    expect(noCountry.pricingErrors[0]).toMatch(/Choose the shipping country/);
    const failedShipping = priceOffer({
      lines: [line({})],
      currency: 'EUR',
      shippingCountry: 'DE',
      taxOptions,
      validUntil: '2026-06-30',
      notes: '',
      shipping: { error: 'Shipping could not be quoted: no rate for DE.' },
    });
    expect(failedShipping.pricingErrors).toEqual(['Shipping could not be quoted: no rate for DE.']);
  });

  it('keeps JPY in whole yen and writes amounts with the currency digits', () => {
    const jpy = price(
      [line({ quantity: 3, unitPriceMinor: 333, discountPercent: 5, taxOptionId: 'JP-standard' })],
      'JP',
      'JPY',
    );
    // 999 − 49.95→50 = 949; tax 94.9 → 95
    expect(jpy.lines[0]).toMatchObject({
      discountTotalMinor: 50,
      netMinor: 949,
      taxMinor: 95,
      totalMinor: 1044,
    });
    expect(minorToDecimal(1044, 'JPY')).toBe('1044');
    expect(minorToDecimal(123450, 'EUR')).toBe('1234.50');
    expect(minorToDecimal(5, 'EUR')).toBe('0.05');
    expect(minorToDecimal(1234, 'KWD')).toBe('1.234');
  });

  it('stays exact for large amounts and refuses unsafe ones', () => {
    const big = price([line({ quantity: 1_000_000, unitPriceMinor: 9_000_000_000 })], null);
    expect(big.totals.totalMinor).toBe(9_000_000_000_000_000);
    expect(() => price([line({ quantity: 1_000_000, unitPriceMinor: 10_000_000_000_000 })], null)).toThrow(
      RangeError,
    );
  });

  it('takes the rates the settings hold, not a built-in list', () => {
    const settingsRates = [
      { id: 'DE-standard', label: 'DE VAT 19%', value: 19, country: 'DE' },
      { id: 'DE-custom', label: 'DE Tourist tax 3%', value: 3, country: 'DE' },
      { id: 'EU-standard', label: 'EU VAT 21%', value: 21, country: 'EU' },
    ];
    const priced = priceOffer({
      lines: [line({ unitPriceMinor: 10_000, taxOptionId: 'DE-custom' })],
      currency: 'EUR',
      shippingCountry: 'DE',
      taxOptions: settingsRates,
      validUntil: '2026-06-30',
      notes: '',
      shipping: { amountMinor: 0 },
    });
    expect(priced.lines[0]).toMatchObject({ taxRate: 3, taxLabel: 'DE Tourist tax 3%', taxMinor: 300 });
    // A rate removed from the settings is refused even though the built-in list has it.
    expect(taxOptionFor('DE', 'DE-reduced', settingsRates)).toMatch(/no tax option DE-reduced/);
    // An EU member without rates of its own gets the EU-wide ones; others get none.
    expect(taxRatesFor('fr', settingsRates).map((o) => o.id)).toEqual(['EU-standard']);
    expect(taxRatesFor('US', settingsRates)).toEqual([]);
    expect(taxRatesFor(null, settingsRates)).toEqual([]);
  });
});
