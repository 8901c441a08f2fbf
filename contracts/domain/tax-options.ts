/**
 * Tax rates offered when configuring a product or seller. `value` is the rate in percent
 * (7.5 means 7.5 %), not a fraction, because that is how the rates are entered and shown.
 */

export const taxCountries = [
  'US',
  'CA',
  'EU',
  'DE',
  'GB',
  'AU',
  'NZ',
  'IN',
  'JP',
  'AE',
  'SA',
  'ZA',
  'BR',
  'CH',
  'NO',
] as const;

/** ISO 3166-1 alpha-2 codes, plus 'EU' for the bloc-wide default rate. */
export type TaxCountry = (typeof taxCountries)[number];

export interface TaxOption {
  /**
   * Stable key for selects and storage. Needed because `value` is not unique:
   * DE standard and DE import VAT are both 19 %.
   */
  readonly id: string;
  readonly label: string;
  /** Rate in percent. */
  readonly value: number;
  readonly country: TaxCountry;
}

function option(country: TaxCountry, key: string, name: string, value: number): TaxOption {
  // Labels are derived rather than hand-written so every option follows one pattern:
  // "<country> <tax name> <rate>%".
  return Object.freeze({ id: `${country}-${key}`, label: `${country} ${name} ${value}%`, value, country });
}

export const taxOptions: readonly TaxOption[] = Object.freeze([
  option('US', 'sales', 'Sales Tax', 7.5),
  option('CA', 'gst', 'GST', 5),
  option('CA', 'hst', 'HST', 13),
  option('CA', 'pst', 'PST', 7),
  option('EU', 'standard', 'VAT', 20),
  option('DE', 'standard', 'VAT', 19),
  option('DE', 'reduced', 'VAT reduced', 7),
  option('DE', 'small-business', 'VAT small business', 0),
  option('DE', 'import', 'VAT import', 19),
  option('GB', 'standard', 'VAT', 20),
  option('AU', 'standard', 'GST', 10),
  option('NZ', 'standard', 'GST', 15),
  option('IN', 'standard', 'GST', 18),
  option('JP', 'standard', 'Consumption Tax', 10),
  option('AE', 'standard', 'VAT', 5),
  option('SA', 'standard', 'VAT', 15),
  option('ZA', 'standard', 'VAT', 15),
  option('BR', 'icms', 'ICMS', 18),
  option('BR', 'iss', 'ISS', 5),
  // 7.7 is the rate the spec prescribes; Switzerland's statutory standard rate is 8.1 % since 2024.
  option('CH', 'standard', 'VAT', 7.7),
  option('NO', 'standard', 'VAT', 25),
]);

/** Options for one country, in list order. Case-insensitive; unknown countries get an empty list. */
export function taxOptionsFor(country: string): readonly TaxOption[] {
  const code = country.trim().toUpperCase();
  return taxOptions.filter((o) => o.country === code);
}

export function taxOptionById(id: string): TaxOption | undefined {
  return taxOptions.find((o) => o.id === id);
}
