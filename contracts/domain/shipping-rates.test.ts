import { describe, expect, it } from 'vitest';
import {
  bandOverlaps,
  chargeableWeight,
  quoteShipping,
  type ShippingZone,
  shippingRulesFor,
  shippingZoneSchema,
  shippingZonesSchema,
} from './shipping-rates';

const domestic: ShippingZone = {
  id: 'in',
  name: 'India',
  countries: ['IN'],
  currency: 'INR',
  bands: [
    { fromKg: 0, toKg: 1, rateMinor: 5_000 },
    { fromKg: 1, toKg: 5, rateMinor: 12_000 },
    { fromKg: 5, toKg: null, rateMinor: 30_000 },
  ],
};
const europe: ShippingZone = {
  id: 'eu',
  name: 'Europe',
  countries: ['DE', 'FR'],
  currency: 'EUR',
  bands: [{ fromKg: 0, toKg: 10, rateMinor: 2_500 }],
};
const rules = { sellerZones: [], marketplaceZones: [domestic, europe] };

describe('chargeable weight', () => {
  it('is the greater of the actual and the volumetric weight', () => {
    // 50 × 40 × 30 cm / 5000 = 12 kg volumetric against 3 kg actual.
    const box = { length: 50, width: 40, height: 30, unit: 'cm' as const };
    expect(chargeableWeight({ actualKg: 3, dimensions: box })).toEqual({
      chargeableKg: 12,
      volumetricKg: 12,
    });
    expect(chargeableWeight({ actualKg: 20, dimensions: box })).toEqual({
      chargeableKg: 20,
      volumetricKg: 12,
    });
    expect(chargeableWeight({ actualKg: 3 })).toEqual({ chargeableKg: 3, volumetricKg: 0 });
  });

  it("follows the settings' divisor and units", () => {
    const box = { length: 0.5, width: 0.4, height: 0.3, unit: 'm' as const };
    expect(chargeableWeight({ actualKg: 1, dimensions: box }, 4000).chargeableKg).toBe(15);
    expect(() => chargeableWeight({ actualKg: 1, dimensions: box }, 0)).toThrow(RangeError);
    expect(() => chargeableWeight({ actualKg: -1 })).toThrow(RangeError);
  });
});

describe('quoting', () => {
  it('prices the band the chargeable weight falls in, the upper bound exclusive', () => {
    const quote = (actualKg: number) => quoteShipping({ country: 'IN', actualKg }, rules);
    expect(quote(0.5)).toMatchObject({ ok: true, rateMinor: 5_000, currency: 'INR', scope: 'marketplace' });
    expect(quote(1)).toMatchObject({ ok: true, rateMinor: 12_000 });
    expect(quote(4.999)).toMatchObject({ ok: true, rateMinor: 12_000 });
    expect(quote(5)).toMatchObject({ ok: true, rateMinor: 30_000 });
    expect(quote(500)).toMatchObject({ ok: true, rateMinor: 30_000 });
  });

  it('prices a light but bulky parcel by its volume', () => {
    const bulky = { length: 50, width: 40, height: 30, unit: 'cm' as const }; // 12 kg volumetric
    expect(quoteShipping({ country: 'IN', actualKg: 0.8, dimensions: bulky }, rules)).toMatchObject({
      ok: true,
      chargeableKg: 12,
      rateMinor: 30_000,
    });
  });

  it("looks up the seller's own zone first, then the marketplace's", () => {
    const own: ShippingZone = {
      ...domestic,
      id: 'own',
      name: 'My India',
      bands: [{ fromKg: 0, toKg: null, rateMinor: 999 }],
    };
    const withOwn = { ...rules, sellerZones: [own] };
    expect(quoteShipping({ country: 'IN', actualKg: 2 }, withOwn)).toMatchObject({
      ok: true,
      scope: 'seller',
      rateMinor: 999,
      zone: { name: 'My India' },
    });
    // A country the seller's zones do not cover falls back to the marketplace's.
    expect(quoteShipping({ country: 'de', actualKg: 2 }, withOwn)).toMatchObject({
      ok: true,
      scope: 'marketplace',
      rateMinor: 2_500,
    });
  });

  it('says why it cannot price: no zone, or no band for the weight', () => {
    expect(quoteShipping({ country: 'US', actualKg: 1 }, rules)).toMatchObject({
      ok: false,
      reason: 'No shipping zone covers US.',
    });
    expect(quoteShipping({ country: 'FR', actualKg: 12.3456 }, rules)).toMatchObject({
      ok: false,
      reason: 'Europe has no rate for 12.346 kg.',
    });
  });
});

describe('zone settings', () => {
  it('accept a valid zone', () => {
    expect(shippingZoneSchema.safeParse(domestic).success).toBe(true);
    expect(shippingZonesSchema.safeParse([domestic, europe]).success).toBe(true);
  });

  it('refuse overlapping bands, naming them; gaps are allowed', () => {
    expect(
      bandOverlaps([
        { fromKg: 4, toKg: 10, rateMinor: 1 },
        { fromKg: 0, toKg: 5, rateMinor: 1 },
      ]),
    ).toEqual(['0–5 kg overlaps 4–10 kg.']);
    expect(
      bandOverlaps([
        { fromKg: 0, toKg: null, rateMinor: 1 },
        { fromKg: 10, toKg: 20, rateMinor: 1 },
      ]),
    ).toEqual(['0–∞ kg overlaps 10–20 kg.']);
    expect(
      bandOverlaps([
        { fromKg: 0, toKg: 1, rateMinor: 1 },
        { fromKg: 2, toKg: 3, rateMinor: 1 },
      ]),
    ).toEqual([]);
    const result = shippingZoneSchema.safeParse({
      ...domestic,
      bands: [...domestic.bands, { fromKg: 3, toKg: 4, rateMinor: 1 }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['1–5 kg overlaps 3–4 kg.']);
  });

  it('refuse negative or fractional rates, backwards bands, bad codes and a country in two zones', () => {
    const messages = (zone: unknown) =>
      shippingZoneSchema.safeParse(zone).error?.issues.map((issue) => issue.message) ?? [];
    expect(messages({ ...europe, bands: [{ fromKg: 0, toKg: 1, rateMinor: -5 }] })).toEqual([
      'A rate may not be negative.',
    ]);
    expect(messages({ ...europe, bands: [{ fromKg: 0, toKg: 1, rateMinor: 2.5 }] })).toEqual([
      'A rate is a whole number of minor units.',
    ]);
    expect(messages({ ...europe, bands: [{ fromKg: 3, toKg: 1, rateMinor: 1 }] })).toEqual([
      'A band must end above where it starts.',
    ]);
    expect(messages({ ...europe, countries: ['Germany'] })).toEqual([
      'Countries are ISO 3166 alpha-2 codes, e.g. IN.',
    ]);
    expect(messages({ ...europe, currency: 'euro' })).toEqual(['A currency is an ISO 4217 code, e.g. INR.']);
    const twice = shippingZonesSchema.safeParse([europe, { ...domestic, countries: ['IN', 'FR'] }]);
    expect(twice.error?.issues.map((issue) => issue.message)).toEqual([
      'FR is in two zones: Europe and India.',
    ]);
  });
});

describe('shippingRulesFor', () => {
  const zone = (id: string, rateMinor: number): ShippingZone => ({
    id,
    name: id,
    countries: ['IN'],
    currency: 'INR',
    bands: [{ fromKg: 0, toKg: null, rateMinor }],
  });
  const marketplace = { divisor: 5000, zones: [zone('mp', 9900)] };

  it("quotes a seller's own zones first, with the seller's divisor", () => {
    const rules = shippingRulesFor(marketplace, {
      divisor: 4000,
      zones: [zone('own', 5000)],
      overridesZones: true,
    });
    expect(rules).toEqual({
      sellerZones: [zone('own', 5000)],
      marketplaceZones: [zone('mp', 9900)],
      volumetricDivisor: 4000,
    });
    const quote = quoteShipping({ country: 'IN', actualKg: 1 }, rules);
    expect(quote).toMatchObject({ ok: true, rateMinor: 5000, scope: 'seller' });
  });

  it('an inheriting seller is quoted from the marketplace zones, as the marketplace', () => {
    const rules = shippingRulesFor(marketplace, { ...marketplace, overridesZones: false });
    expect(quoteShipping({ country: 'IN', actualKg: 1 }, rules)).toMatchObject({
      ok: true,
      rateMinor: 9900,
      scope: 'marketplace',
    });
  });
});
