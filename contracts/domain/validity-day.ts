// An offer is valid through the whole of its validity day in the seller's time zone (issue 30; ANCHORS
// §8): "valid until 2026-03-29" in Europe/Berlin ends at the first instant of 2026-03-30 there, whatever
// the clocks do that night. Pure; the server and the public page use the same rule.
import { zonedInstant } from './office-hours';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(day: string) {
  const match = DAY.exec(day);
  if (!match) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** The day `days` after `day` (negative: before), both YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  const p = parts(day);
  return new Date(Date.UTC(p.year, p.month - 1, p.day + days)).toISOString().slice(0, 10);
}

/** The calendar day `now` falls on in `timeZone`, YYYY-MM-DD. */
export function dayIn(now: Date, timeZone: string): string {
  // en-CA writes dates YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The first instant after the validity day ends in `timeZone`: valid while now < this. */
export function validityEnd(day: string, timeZone: string): Date {
  const next = parts(addDays(day, 1));
  return zonedInstant({ ...next, minutes: 0 }, timeZone);
}

/** The default validity day: today in the seller's zone plus the company's offer validity days. */
export function defaultValidUntil(now: Date, timeZone: string, validityDays: number): string {
  return addDays(dayIn(now, timeZone), validityDays);
}

/** Still answerable at `now`? */
export const isWithinValidity = (expiresAt: Date, now: Date) => now.getTime() < expiresAt.getTime();

/** A validity day already over in the seller's zone cannot be chosen for a new version. */
export function validityProblem(day: string, now: Date, timeZone: string): string | null {
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return 'A date is written YYYY-MM-DD.';
  if (day < dayIn(now, timeZone)) return 'Choose a validity date that is today or later.';
  return null;
}
