// The option lists of getDefaultSelects and getCountriesList (SPEC §7 Global configs), as the
// Localization settings decide them: countries from i18n-iso-countries, the currencies and languages the
// marketplace offers, each list with its default marked and first.
import currencyCodes from 'currency-codes';
import { countryList } from '../../../contracts/domain/iso-codes';

export interface SelectOption {
  value: string;
  label: string;
  default?: boolean;
}

/** The entry `isDefault` picks, marked `default: true` and moved first; the others keep their order. */
export function defaultFirst<T extends object>(
  list: T[],
  isDefault: (item: T) => boolean,
): (T & { default?: boolean })[] {
  const index = list.findIndex(isDefault);
  if (index < 0) return list;
  const chosen = { ...(list[index] as T), default: true };
  return [chosen, ...list.slice(0, index), ...list.slice(index + 1)];
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

export function countryOptions(defaultCountry: string): SelectOption[] {
  const options = countryList().map((country) => ({ value: country.code, label: country.name }));
  return defaultFirst(options, (option) => option.value === defaultCountry);
}

/** "INR — Indian Rupee": the code first, as prices show it. */
export function currencyOptions(offered: readonly string[], defaultCurrency: string): SelectOption[] {
  const options = offered.map((code) => {
    const name = currencyCodes.code(code)?.currency;
    return { value: code, label: name ? `${code} — ${name}` : code };
  });
  return defaultFirst(options, (option) => option.value === defaultCurrency);
}

/** "English" for EN: the settings store two-letter codes in capitals. */
export function languageOptions(offered: readonly string[], defaultLanguage: string): SelectOption[] {
  const options = offered.map((code) => ({
    value: code,
    label: languageNames.of(code.toLowerCase()) ?? code,
  }));
  return defaultFirst(options, (option) => option.value === defaultLanguage);
}
