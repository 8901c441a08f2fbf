import { describe, expect, it } from 'vitest';
import { taxCountries, taxOptionById, taxOptions, taxOptionsFor } from './tax-options';

// Every rate in the spec, with the label and id we promise to keep stable.
const expected = [
  { id: 'US-sales', country: 'US', value: 7.5, label: 'US Sales Tax 7.5%' },
  { id: 'CA-gst', country: 'CA', value: 5, label: 'CA GST 5%' },
  { id: 'CA-hst', country: 'CA', value: 13, label: 'CA HST 13%' },
  { id: 'CA-pst', country: 'CA', value: 7, label: 'CA PST 7%' },
  { id: 'EU-standard', country: 'EU', value: 20, label: 'EU VAT 20%' },
  { id: 'DE-standard', country: 'DE', value: 19, label: 'DE VAT 19%' },
  { id: 'DE-reduced', country: 'DE', value: 7, label: 'DE VAT reduced 7%' },
  { id: 'DE-small-business', country: 'DE', value: 0, label: 'DE VAT small business 0%' },
  { id: 'DE-import', country: 'DE', value: 19, label: 'DE VAT import 19%' },
  { id: 'GB-standard', country: 'GB', value: 20, label: 'GB VAT 20%' },
  { id: 'AU-standard', country: 'AU', value: 10, label: 'AU GST 10%' },
  { id: 'NZ-standard', country: 'NZ', value: 15, label: 'NZ GST 15%' },
  { id: 'IN-standard', country: 'IN', value: 18, label: 'IN GST 18%' },
  { id: 'JP-standard', country: 'JP', value: 10, label: 'JP Consumption Tax 10%' },
  { id: 'AE-standard', country: 'AE', value: 5, label: 'AE VAT 5%' },
  { id: 'SA-standard', country: 'SA', value: 15, label: 'SA VAT 15%' },
  { id: 'ZA-standard', country: 'ZA', value: 15, label: 'ZA VAT 15%' },
  { id: 'BR-icms', country: 'BR', value: 18, label: 'BR ICMS 18%' },
  { id: 'BR-iss', country: 'BR', value: 5, label: 'BR ISS 5%' },
  { id: 'CH-standard', country: 'CH', value: 7.7, label: 'CH VAT 7.7%' },
  { id: 'NO-standard', country: 'NO', value: 25, label: 'NO VAT 25%' },
] as const;

describe('taxOptions', () => {
  it('lists exactly the spec rates, in order', () => {
    expect(taxOptions).toEqual(expected);
  });

  it.each(expected)('$id is $label', ({ id, label, value, country }) => {
    expect(taxOptionById(id)).toEqual({ id, label, value, country });
  });

  it('has unique ids and labels even where rates coincide', () => {
    expect(new Set(taxOptions.map((o) => o.id)).size).toBe(taxOptions.length);
    expect(new Set(taxOptions.map((o) => o.label)).size).toBe(taxOptions.length);
    const de19 = taxOptions.filter((o) => o.country === 'DE' && o.value === 19);
    expect(de19.map((o) => o.id)).toEqual(['DE-standard', 'DE-import']);
  });

  it('covers every declared country and nothing else', () => {
    expect(new Set(taxOptions.map((o) => o.country))).toEqual(new Set(taxCountries));
  });

  it('is frozen so a consumer cannot corrupt the shared list', () => {
    expect(Object.isFrozen(taxOptions)).toBe(true);
    expect(taxOptions.every((o) => Object.isFrozen(o))).toBe(true);
  });
});

describe('taxOptionsFor', () => {
  it.each([
    ['US', ['US-sales']],
    ['CA', ['CA-gst', 'CA-hst', 'CA-pst']],
    ['DE', ['DE-standard', 'DE-reduced', 'DE-small-business', 'DE-import']],
    ['BR', ['BR-icms', 'BR-iss']],
    ['EU', ['EU-standard']],
    ['NO', ['NO-standard']],
  ])('%s → %j', (country, ids) => {
    expect(taxOptionsFor(country).map((o) => o.id)).toEqual(ids);
  });

  it('ignores case and surrounding whitespace', () => {
    expect(taxOptionsFor(' de ').map((o) => o.id)).toEqual(taxOptionsFor('DE').map((o) => o.id));
  });

  it.each(['', 'FR', 'XX', 'D', 'DEU'])('returns an empty list for unknown %j', (country) => {
    expect(taxOptionsFor(country)).toEqual([]);
  });
});

describe('taxOptionById', () => {
  it.each(['', 'DE', 'de-import', 'DE-import '])('returns undefined for %j', (id) => {
    expect(taxOptionById(id)).toBeUndefined();
  });
});
