/**
 * Currency display. The keys are the exact strings stored by the marketplace, which mix ISO codes
 * (USD, EUR, …) with plain names (Yen, Franc, Dinar), so they are not all ISO 4217 codes.
 */

interface CurrencyFormat {
  readonly symbol: string;
  /** Local convention: Polish and Algerian prices put the symbol after the amount. */
  readonly position: 'before' | 'after';
  /** Minor-unit digits; yen has no minor unit in everyday use. */
  readonly decimals: number;
}

const formats = {
  USD: { symbol: '$', position: 'before', decimals: 2 },
  EUR: { symbol: '€', position: 'before', decimals: 2 },
  GBP: { symbol: '£', position: 'before', decimals: 2 },
  Yen: { symbol: '¥', position: 'before', decimals: 0 },
  // "Franc" means the Swiss franc (the only franc still widely traded). "CHF" is what Swiss
  // retailers print and, unlike "Fr.", cannot be confused with an abbreviation for France.
  Franc: { symbol: 'CHF', position: 'before', decimals: 2 },
  INR: { symbol: '₹', position: 'before', decimals: 2 },
  // "Dinar" does not say which dinar; we follow the Algerian dinar and use its Latin abbreviation
  // "DA" rather than "د.ج", because Arabic script next to digits gets reordered by the bidi algorithm
  // in left-to-right tables and would render confusingly.
  Dinar: { symbol: 'DA', position: 'after', decimals: 2 },
  PLN: { symbol: 'zł', position: 'after', decimals: 2 },
} as const satisfies Record<string, CurrencyFormat>;

export type CurrencyCode = keyof typeof formats;

export const currencyCodes = Object.freeze(Object.keys(formats)) as readonly CurrencyCode[];

export const currencySymbols: Readonly<Record<CurrencyCode, string>> = Object.freeze(
  Object.fromEntries(currencyCodes.map((code) => [code, formats[code].symbol])) as Record<
    CurrencyCode,
    string
  >,
);

// Lookup is case-insensitive because the stored spelling ("Yen" vs "YEN") has drifted over time.
// A Map, not an object, so that codes like "constructor" do not hit Object.prototype.
const byUpperCode = new Map<string, CurrencyFormat>(
  currencyCodes.map((code) => [code.toUpperCase(), formats[code]]),
);

function formatFor(code: string): CurrencyFormat | undefined {
  return byUpperCode.get(code.trim().toUpperCase());
}

export function isCurrencyCode(code: string): code is CurrencyCode {
  return Object.hasOwn(formats, code);
}

/** Symbol for a currency; unknown codes are returned unchanged so the amount is still labelled. */
export function currencySymbol(code: string): string {
  return formatFor(code)?.symbol ?? code;
}

/**
 * Formats an amount for display, e.g. "$1,234.50", "¥1,235", "CHF 9.90", "12.50 zł".
 * Grouping is fixed to en-US so output does not depend on the browser or server locale.
 * Unknown codes are written before the amount, separated by a space ("XYZ 5.00").
 * @throws RangeError for NaN or ±Infinity — better than rendering "$NaN" on an invoice.
 */
export function formatMoney(amount: number, code: string): string {
  if (!Number.isFinite(amount)) {
    throw new RangeError(`formatMoney: amount must be a finite number, got ${amount}`);
  }
  const format = formatFor(code);
  const symbol = format?.symbol ?? code;
  const decimals = format?.decimals ?? 2;
  const position = format?.position ?? 'before';
  const digits = new Intl.NumberFormat('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    // 'negative' drops the sign when the rounded value is zero, so -0.001 does not become "-$0.00".
    signDisplay: 'negative',
  }).format(amount);
  const negative = digits.startsWith('-');
  const magnitude = negative ? digits.slice(1) : digits;
  const sign = negative ? '-' : '';
  if (position === 'after') return `${sign}${magnitude} ${symbol}`;
  // Letter symbols need a space ("CHF 5.00"); sign-like symbols sit flush ("$5.00").
  const gap = /\p{L}$/u.test(symbol) ? ' ' : '';
  return `${sign}${symbol}${gap}${magnitude}`;
}
