// Shipping rates are typed as money ("12.50") and stored as integer minor units of the zone's currency
// (ISO 4217's digits: INR 2, JPY 0, KWD 3), so no rate is ever a floating-point amount.
import { formatMoney, moneyDigits } from '../../../../contracts/domain/currency';

/** "12.5" in INR → 1250; null when the text is not an amount of that currency (or too precise). */
export function toMinorUnits(text: string, currency: string): number | null {
  const digits = moneyDigits(currency);
  const match = /^(-?)(\d+)(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[3] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(match[2]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
  if (!Number.isSafeInteger(minor)) return null;
  return match[1] === '-' ? -minor : minor;
}

/** 1250 in INR → "12.50": the amount as the rate's input shows it. */
export function fromMinorUnits(minor: number, currency: string): string {
  const digits = moneyDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** 1250 in INR → "₹12.50", in the marketplace's format. */
export function formatMinorUnits(minor: number, currency: string): string {
  return formatMoney(minor / 10 ** moneyDigits(currency), currency);
}
