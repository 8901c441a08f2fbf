// Money on the offer and order pages: amounts travel as integer minor units (the server prices everything);
// the page only writes them for reading and reads what a person typed as a decimal, by string
// arithmetic, never through floating point.
import { formatMoney, moneyDigits } from '../../contracts/domain/currency';
import { minorToDecimal } from '../../contracts/domain/offer-pricing';

/** "€1,234.50" for 123450 EUR minor units. */
export function money(minor: number, currency: string): string {
  return formatMoney(Number(minorToDecimal(minor, currency)), currency);
}

/** The decimal an input shows for an amount ("12.50"; JPY "1250"). */
export const decimalOf = (minor: number, currency: string) => minorToDecimal(minor, currency);

/**
 * What a person typed ("12.5", "1,250.00", "0.05") as minor units of `currency`, or why it cannot be
 * one. Thousands separators (comma, space) are dropped; the decimal point is a dot.
 */
export function minorOf(text: string, currency: string): number | string {
  const digits = moneyDigits(currency);
  const cleaned = text.trim().replace(/[,\s\u00a0]/g, '');
  if (cleaned === '') return 'Enter a price.';
  const match = /^(\d{1,13})(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return 'Write a price as a number, e.g. 12.50.';
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > digits)
    return digits === 0
      ? `${currency} has no minor unit: enter whole amounts.`
      : `${currency} has ${digits} decimals at most.`;
  const minor = Number(`${whole}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) ? minor : 'The price is too large.';
}
