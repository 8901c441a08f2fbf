// A supplier's receiving tolerance as the form writes it: a percent with up to 2 decimals ("2.5") that
// travels as basis points (250), or whole units. Read and written by string arithmetic, never through a
// floating multiply, so "0.29" is 29 and not 28.999….
import type { Tolerance } from '../../../contracts/domain/purchase-order-state';

export const MAX_TOLERANCE = 10_000;

/** "2.5" → 250 basis points, or why it cannot be one (a percent from 0 to 100, 2 decimals at most). */
export function basisPointsOf(text: string): number | string {
  const cleaned = text.trim().replace(/\s*%$/, '');
  if (cleaned === '') return 'Enter a percent, e.g. 2.5.';
  const match = /^(\d{1,3})(?:[.,](\d*))?$/.exec(cleaned);
  if (!match) return 'Write a percent as a number, e.g. 2.5.';
  const fraction = match[2] ?? '';
  if (fraction.length > 2) return 'A percent has 2 decimals at most.';
  const value = Number(`${match[1]}${fraction.padEnd(2, '0')}`);
  return value > MAX_TOLERANCE ? 'A percent tolerance is at most 100 %.' : value;
}

/** 250 → "2.5", 1000 → "10", 5 → "0.05": what the form's field shows. */
export function percentTextOf(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const fraction = String(basisPoints % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** "3" → 3 units, or why it cannot be. */
export function unitsOf(text: string): number | string {
  const cleaned = text.trim();
  if (cleaned === '') return 'Enter a number of units, e.g. 2.';
  if (!/^\d{1,5}$/.test(cleaned)) return 'A tolerance in units is a whole number.';
  const value = Number(cleaned);
  return value > MAX_TOLERANCE ? `A tolerance is at most ${MAX_TOLERANCE} units.` : value;
}

/** The form's text and kind as the API's tolerance, or why it cannot be one. */
export function toleranceOf(kind: Tolerance['kind'], text: string): Tolerance | string {
  const value = kind === 'percent' ? basisPointsOf(text) : unitsOf(text);
  return typeof value === 'string' ? value : { kind, value };
}

/** What the form's field shows for a tolerance. */
export const toleranceInputOf = (tolerance: Tolerance) =>
  tolerance.kind === 'percent' ? percentTextOf(tolerance.value) : String(tolerance.value);
