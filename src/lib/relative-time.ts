const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Calendar-free approximations so the result depends only on the elapsed milliseconds.
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

// Largest first; the first unit that fits at least once wins.
const units = [
  { ms: YEAR, singular: 'year', plural: 'years' },
  { ms: MONTH, singular: 'month', plural: 'months' },
  { ms: DAY, singular: 'day', plural: 'days' },
  { ms: HOUR, singular: 'hr', plural: 'hrs' },
  { ms: MINUTE, singular: 'min', plural: 'mins' },
  { ms: SECOND, singular: 'sec', plural: 'secs' },
] as const;

export type DateInput = Date | string | number;

function toTime(value: DateInput, name: string): number {
  const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(time)) throw new RangeError(`relativeTime: invalid ${name} ${String(value)}`);
  return time;
}

/**
 * Short relative time: "just now", "5 secs ago", "1 min ago", "in 3 days".
 *
 * Counts are truncated, never rounded up: 59.9 s is "59 secs ago", so a label never claims more
 * time has passed than really has. Differences under one second are "just now" in both directions.
 * A month is 30 days and a year 365 days, so 360–364 days read "12 months ago".
 *
 * @param date Date, ISO string or epoch milliseconds (API payloads carry strings).
 * @throws RangeError if either date is invalid.
 */
export function relativeTime(date: DateInput, now: DateInput = new Date()): string {
  const diff = toTime(now, 'now') - toTime(date, 'date');
  const elapsed = Math.abs(diff);
  for (const unit of units) {
    const count = Math.floor(elapsed / unit.ms);
    if (count >= 1) {
      const phrase = `${count} ${count === 1 ? unit.singular : unit.plural}`;
      return diff > 0 ? `${phrase} ago` : `in ${phrase}`;
    }
  }
  return 'just now';
}
