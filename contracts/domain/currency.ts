/**
 * Currency display. Products and users stored SPEC §9's spellings, which mix ISO codes (USD, EUR, …)
 * with plain names (Yen, Franc, Dinar); the settings store ISO 4217 codes (JPY, CHF, DZD). Both are
 * read here: the eight currencies of SPEC §9's symbol map keep their symbols under either spelling, and
 * every other ISO code is written by `Intl.NumberFormat`. Minor units are ISO 4217's for every ISO code
 * (JPY none, KWD and BHD three); digits are grouped as the settings' locale groups them
 * (contracts/domain/format.ts, en-GB by default).
 */
import { formatSettings } from './format';
import { isIso4217Code, iso4217Digits } from './iso-4217';

interface CurrencyFormat {
  readonly symbol: string;
  /** Local convention: Polish and Algerian prices put the symbol after the amount. */
  readonly position: 'before' | 'after';
  /** The ISO 4217 code this spelling means. */
  readonly iso: string;
}

const formats = {
  USD: { symbol: '$', position: 'before', iso: 'USD' },
  EUR: { symbol: '€', position: 'before', iso: 'EUR' },
  GBP: { symbol: '£', position: 'before', iso: 'GBP' },
  Yen: { symbol: '¥', position: 'before', iso: 'JPY' },
  // "Franc" means the Swiss franc (the only franc still widely traded). "CHF" is what Swiss
  // retailers print and, unlike "Fr.", cannot be confused with an abbreviation for France.
  Franc: { symbol: 'CHF', position: 'before', iso: 'CHF' },
  INR: { symbol: '₹', position: 'before', iso: 'INR' },
  // "Dinar" does not say which dinar; we follow the Algerian dinar and use its Latin abbreviation
  // "DA" rather than "د.ج", because Arabic script next to digits gets reordered by the bidi algorithm
  // in left-to-right tables and would render confusingly.
  Dinar: { symbol: 'DA', position: 'after', iso: 'DZD' },
  PLN: { symbol: 'zł', position: 'after', iso: 'PLN' },
} as const satisfies Record<string, CurrencyFormat>;

/** SPEC §9's spellings, as products store them. */
export type CurrencyCode = keyof typeof formats;

export const currencyCodes = Object.freeze(Object.keys(formats)) as readonly CurrencyCode[];

export const currencySymbols: Readonly<Record<CurrencyCode, string>> = Object.freeze(
  Object.fromEntries(currencyCodes.map((code) => [code, formats[code].symbol])) as Record<
    CurrencyCode,
    string
  >,
);

// Lookup is case-insensitive because the stored spelling ("Yen" vs "YEN") has drifted over time, and
// the ISO code of each of the eight (JPY, CHF, DZD) finds the same format as its plain name.
// A Map, not an object, so that codes like "constructor" do not hit Object.prototype.
const byUpperCode = new Map<string, CurrencyFormat>();
for (const code of currencyCodes) {
  byUpperCode.set(code.toUpperCase(), formats[code]);
  byUpperCode.set(formats[code].iso, formats[code]);
}

function formatFor(code: string): CurrencyFormat | undefined {
  return byUpperCode.get(code.trim().toUpperCase());
}

/** Whether `code` is one of SPEC §9's spellings, exactly (what a product's currency may be). */
export function isCurrencyCode(code: string): code is CurrencyCode {
  return Object.hasOwn(formats, code);
}

/** Symbol for a currency; codes outside the symbol map are returned unchanged so the amount is still labelled. */
export function currencySymbol(code: string): string {
  return formatFor(code)?.symbol ?? code;
}

/** Minor-unit digits of a currency: ISO 4217's (JPY 0, KWD 3), 2 for a code ISO does not know. */
export function moneyDigits(code: string): number {
  const format = formatFor(code);
  return iso4217Digits(format?.iso ?? code.trim().toUpperCase()) ?? 2;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let found = numberFormats.get(key);
  if (!found) {
    // Bounded: one per locale, currency and digits actually used.
    if (numberFormats.size > 200) numberFormats.clear();
    found = make();
    numberFormats.set(key, found);
  }
  return found;
}

// Intl separates a code from the amount with a no-break space (U+00A0 or U+202F); the symbol map's
// formats use a plain space, and so does every other currency, so texts compare and copy alike.
const spaces = /[\u00a0\u202f]/g;

/**
 * Formats an amount for display, e.g. "$1,234.50", "¥1,235", "CHF 9.90", "12.50 zł", "KWD 1,234.500".
 * Unknown codes are written before the amount, separated by a space ("XYZ 5.00"). `locale`: the
 * settings' one unless a preview shows another.
 * @throws RangeError for NaN or ±Infinity — better than rendering "$NaN" on an invoice.
 */
export function formatMoney(amount: number, code: string, locale = formatSettings().locale): string {
  if (!Number.isFinite(amount)) {
    throw new RangeError(`formatMoney: amount must be a finite number, got ${amount}`);
  }
  const decimals = moneyDigits(code);
  const format = formatFor(code);
  const iso = code.trim().toUpperCase();
  if (!format && isIso4217Code(iso)) {
    const currency = numberFormat(
      `${locale}:${iso}:${decimals}`,
      () =>
        new Intl.NumberFormat(locale, {
          style: 'currency',
          currency: iso,
          minimumFractionDigits: decimals,
          maximumFractionDigits: decimals,
          signDisplay: 'negative',
        }),
    );
    return currency.format(amount).replace(spaces, ' ');
  }
  const symbol = format?.symbol ?? code;
  const position = format?.position ?? 'before';
  const digits = numberFormat(
    `${locale}:${decimals}`,
    () =>
      new Intl.NumberFormat(locale, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        // 'negative' drops the sign when the rounded value is zero, so -0.001 does not become "-$0.00".
        signDisplay: 'negative',
      }),
  ).format(amount);
  // Some locales write the minus sign as U+2212.
  const negative = /^[-\u2212]/.test(digits);
  const magnitude = negative ? digits.slice(1) : digits;
  const sign = negative ? '-' : '';
  if (position === 'after') return `${sign}${magnitude} ${symbol}`;
  // Letter symbols need a space ("CHF 5.00"); sign-like symbols sit flush ("$5.00").
  const gap = /\p{L}$/u.test(symbol) ? ' ' : '';
  return `${sign}${symbol}${gap}${magnitude}`;
}

/** An amount in integer minor units (cents, whole yen), formatted in its currency. */
export function formatMinor(amountMinor: number, code: string, locale?: string): string {
  return formatMoney(amountMinor / 10 ** moneyDigits(code), code, locale);
}
