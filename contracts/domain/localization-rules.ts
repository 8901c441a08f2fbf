/**
 * The checks of the Localization section (issue 29) beyond each field's format: the codes must be ones
 * the world knows (a country, ISO 4217 currencies, languages, a time zone and a locale that Intl can
 * format with), and the defaults must be among what the marketplace offers. Pure (Intl and the ISO
 * tables), so contracts/settings-rules.ts calls it on the server and the page may check a draft.
 */
import type { SectionValues } from '../settings';
import { isCountryCode, isCurrencyCode } from './iso-codes';

export interface LocalizationProblem {
  field: string;
  message: string;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Whether a two-letter language code ("EN", "hi") names a language ICU knows. */
export function isLanguageCode(code: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(code)) return false;
  return languageNames.of(code.toLowerCase()) !== undefined;
}

/** Whether Intl accepts `zone` as an IANA time zone ("Asia/Kolkata", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() !== zone || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether `locale` is a BCP 47 tag that dates and numbers can actually be formatted in ("en-IN"). */
export function isFormatLocale(locale: string): boolean {
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    return canonical !== undefined && Intl.NumberFormat.supportedLocalesOf(canonical).length > 0;
  } catch {
    return false;
  }
}

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

export function localizationProblems(values: SectionValues<'localization'>): LocalizationProblem[] {
  const problems: LocalizationProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });

  if (!isCountryCode(values.defaultCountry)) {
    add('defaultCountry', `${values.defaultCountry} is not an ISO 3166 country code.`);
  }

  const unknownCurrencies = values.currencies.filter((code) => !isCurrencyCode(code));
  if (unknownCurrencies.length > 0) {
    add('currencies', `Not ISO 4217 currency codes: ${unknownCurrencies.join(', ')}.`);
  } else if (duplicates(values.currencies).length > 0) {
    add('currencies', `Offer each currency once (${duplicates(values.currencies).join(', ')}).`);
  }
  if (!isCurrencyCode(values.defaultCurrency)) {
    add('defaultCurrency', `${values.defaultCurrency} is not an ISO 4217 currency code.`);
  } else if (!values.currencies.includes(values.defaultCurrency)) {
    add('defaultCurrency', 'The default currency must be one of the currencies offered.');
  }

  const unknownLanguages = values.languages.filter((code) => !isLanguageCode(code));
  if (unknownLanguages.length > 0) {
    add('languages', `Unknown language codes: ${unknownLanguages.join(', ')}.`);
  } else if (duplicates(values.languages).length > 0) {
    add('languages', `Offer each language once (${duplicates(values.languages).join(', ')}).`);
  }
  if (!isLanguageCode(values.defaultLanguage)) {
    add('defaultLanguage', `${values.defaultLanguage} is not a language code.`);
  } else if (!values.languages.includes(values.defaultLanguage)) {
    add('defaultLanguage', 'The default language must be one of the languages offered.');
  }

  if (!isTimeZone(values.timeZone)) {
    add('timeZone', `${values.timeZone} is not a time zone (e.g. Asia/Kolkata).`);
  }
  if (!isFormatLocale(values.locale)) {
    add('locale', `${values.locale} is not a locale dates and numbers can be written in (e.g. en-GB).`);
  }
  return problems;
}
