/**
 * ISO codes the settings speak in (issue 29): countries (ISO 3166-1 alpha-2, English names from
 * `i18n-iso-countries`), currencies (ISO 4217 with their minor units, iso-4217.ts) and the legacy
 * spellings the marketplace stored before it spoke ISO (SPEC §9's symbol map: Yen, Franc, Dinar).
 *
 * Only the English names are registered (8 KB), not the package's 80 languages. Nothing on the sign-in
 * page imports this module (src/app/entry-weight.test.ts keeps the package out of the entry chunk).
 */
import countries from 'i18n-iso-countries/index.js';
// A relative path, not the package's: the server's bundle keeps npm packages external and its Node
// target drops import attributes, so Node would refuse a bare JSON import; a relative one is bundled.
import english from '../../node_modules/i18n-iso-countries/langs/en.json';
import { isIso4217Code, iso4217Digits } from './iso-4217';

countries.registerLocale(english);

export { iso4217Codes as currencyCodesIso } from './iso-4217';

/** Whether `code` is a known ISO 3166-1 alpha-2 country code, exactly (upper case: "IN", not "in"). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/** A country's English name ("India"); undefined for an unknown code. */
export function countryName(code: string): string | undefined {
  return isCountryCode(code) ? countries.getName(code, 'en') : undefined;
}

/** Every country, by English name. */
export function countryList(): { code: string; name: string }[] {
  const names = countries.getNames('en');
  return Object.entries(names)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/**
 * SPEC §9's plain names, as products and users stored them, and the ISO code each means. "Franc" is
 * the Swiss franc and "Dinar" the Algerian dinar, as contracts/domain/currency.ts explains.
 */
export const legacyCurrencyCodes: Readonly<Record<string, string>> = Object.freeze({
  YEN: 'JPY',
  FRANC: 'CHF',
  DINAR: 'DZD',
});

/** The ISO code of a stored currency spelling: "Yen" → "JPY", " usd " → "USD"; undefined if none. */
export function toIsoCurrency(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  const legacy = Object.hasOwn(legacyCurrencyCodes, upper) ? legacyCurrencyCodes[upper] : undefined;
  const iso = legacy ?? upper;
  return isIso4217Code(iso) ? iso : undefined;
}

/** Whether `code` is an ISO 4217 code, exactly (the settings store ISO codes only). */
export function isCurrencyCode(code: string): boolean {
  return isIso4217Code(code);
}

/** ISO minor-unit digits of a currency, legacy spellings included (Yen → 0); undefined if unknown. */
export function currencyDigits(code: string): number | undefined {
  const iso = toIsoCurrency(code);
  return iso === undefined ? undefined : iso4217Digits(iso);
}
