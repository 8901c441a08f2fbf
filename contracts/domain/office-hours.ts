/**
 * Office hours (issue 29, communication): whether a person answers the chat now, and when one will
 * next. The hours are wall-clock spans per weekday in the marketplace's time zone
 * (`localization.timeZone`), and holidays are local calendar days. Pure (Intl only): the server's bot
 * and the widget's "available" flag use it, and the settings page previews it.
 *
 * Spans never cross midnight (the settings schema wants `from < to`); a night shift is two spans.
 */
import type { OfficeHours, Weekday } from '../settings';
import { formatSettings, formatTime } from './format';

/** Sunday first, as `Date.getUTCDay()` counts. */
const DAY_NAMES: readonly Weekday[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

interface LocalMoment {
  year: number;
  month: number;
  day: number;
  /** Minutes since local midnight. */
  minutes: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `date` in `timeZone`. */
function localMoment(date: Date, timeZone: string): LocalMoment & { seconds: number } {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    minutes: (parts.hour ?? 0) * 60 + (parts.minute ?? 0),
    seconds: parts.second ?? 0,
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `date`, in ms. */
function zoneOffset(date: Date, timeZone: string): number {
  const local = localMoment(date, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, 0, local.minutes, local.seconds);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

/**
 * The instant a local wall-clock time happens in `timeZone`. A time the clocks skip (spring forward)
 * falls on the instant just after the gap, the way a person's watch reads it.
 */
export function zonedInstant(moment: LocalMoment, timeZone: string): Date {
  const guess = Date.UTC(moment.year, moment.month - 1, moment.day, 0, moment.minutes);
  // The offset at the guess may be the other side of a change; the offset at the first answer is not.
  const first = guess - zoneOffset(new Date(guess), timeZone);
  return new Date(guess - zoneOffset(new Date(first), timeZone));
}

const isoDate = (moment: Pick<LocalMoment, 'year' | 'month' | 'day'>) =>
  `${moment.year}-${String(moment.month).padStart(2, '0')}-${String(moment.day).padStart(2, '0')}`;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** The local calendar day `offset` days after the given one, and its weekday. */
function dayAfter(moment: LocalMoment, offset: number) {
  const date = new Date(Date.UTC(moment.year, moment.month - 1, moment.day + offset));
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: DAY_NAMES[date.getUTCDay()] as Weekday,
  };
}

/** A span "until 23:59" runs to midnight: the clock cannot say 24:00, a person means the whole day. */
const endOf = (clock: string) => (clock === '23:59' ? 24 * 60 : minutesOf(clock));

function spansOf(hours: OfficeHours, weekday: Weekday) {
  return [...(hours[weekday] ?? [])]
    .map((span) => ({ from: minutesOf(span.from), to: endOf(span.to) }))
    .sort((a, b) => a.from - b.from);
}

/** Whether someone answers at `now`: a span of today's weekday holds it and today is no holiday. */
export function isOpen(
  now: Date,
  hours: OfficeHours,
  holidays: readonly string[],
  timeZone: string,
): boolean {
  const local = localMoment(now, timeZone);
  const today = dayAfter(local, 0);
  if (holidays.includes(isoDate(today))) return false;
  return spansOf(hours, today.weekday).some((span) => span.from <= local.minutes && local.minutes < span.to);
}

/**
 * When someone answers next: `now` itself while open, else the start of the next span on a day that is
 * no holiday. Null when no weekday has hours (nobody ever answers).
 */
export function nextOpening(
  now: Date,
  hours: OfficeHours,
  holidays: readonly string[],
  timeZone: string,
): Date | null {
  if (isOpen(now, hours, holidays, timeZone)) return now;
  const local = localMoment(now, timeZone);
  const holidaySet = new Set(holidays);
  // A week past the last holiday always reaches a working day if there is one.
  const horizon = 8 + holidaySet.size;
  for (let offset = 0; offset <= horizon; offset++) {
    const day = dayAfter(local, offset);
    if (holidaySet.has(isoDate(day))) continue;
    for (const span of spansOf(hours, day.weekday)) {
      const start = zonedInstant({ ...day, minutes: span.from }, timeZone);
      if (start.getTime() > now.getTime()) return start;
    }
  }
  return null;
}

/**
 * "Monday 09:00" for an opening within the coming week, "Monday 5 Jan 09:00" beyond it (after a
 * long holiday), in the marketplace's time zone.
 */
export function describeOpening(opening: Date, now: Date, timeZone: string): string {
  const { locale } = formatSettings();
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone }).format(opening);
  const time = formatTime(opening, timeZone);
  if (opening.getTime() - now.getTime() < 6 * 24 * 60 * 60_000) return `${weekday} ${time}`;
  const date = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone }).format(opening);
  return `${weekday} ${date} ${time}`;
}

/** What the bot says outside office hours: when a person will answer. */
export function closedNotice(
  now: Date,
  hours: OfficeHours,
  holidays: readonly string[],
  timeZone: string,
): string {
  const opening = nextOpening(now, hours, holidays, timeZone);
  if (!opening) return 'Our team is not answering chats at the moment. Leave a message and we will reply.';
  return `Our team answers from ${describeOpening(opening, now, timeZone)} (${timeZone}). Leave a message and a person will reply then.`;
}

/** The office-hour spans of the days from `start`'s local day on, as instants, in order (bounded). */
function* officeSpans(
  start: Date,
  hours: OfficeHours,
  holidays: readonly string[],
  timeZone: string,
  days: number,
) {
  const local = localMoment(start, timeZone);
  const holidaySet = new Set(holidays);
  for (let offset = 0; offset <= days; offset++) {
    const day = dayAfter(local, offset);
    if (holidaySet.has(isoDate(day))) continue;
    for (const span of spansOf(hours, day.weekday)) {
      yield {
        from: zonedInstant({ ...day, minutes: span.from }, timeZone).getTime(),
        to: zonedInstant({ ...day, minutes: span.to }, timeZone).getTime(),
      };
    }
  }
}

const MINUTE = 60_000;
/** How far SLA maths looks ahead: a target never reaches past a year of calendar days. */
const HORIZON_DAYS = 400;

/**
 * Office-hour minutes between two instants (an SLA clock's use, issue 30): only time inside a span
 * of a working day counts. Fractions of a minute are kept.
 */
export function officeMinutesBetween(
  start: Date,
  end: Date,
  hours: OfficeHours,
  holidays: readonly string[],
  timeZone: string,
): number {
  if (end.getTime() <= start.getTime()) return 0;
  const days = Math.min(HORIZON_DAYS, Math.ceil((end.getTime() - start.getTime()) / (24 * 60 * MINUTE)) + 1);
  let total = 0;
  for (const span of officeSpans(start, hours, holidays, timeZone, days)) {
    if (span.from >= end.getTime()) break;
    const from = Math.max(span.from, start.getTime());
    const to = Math.min(span.to, end.getTime());
    if (to > from) total += (to - from) / MINUTE;
  }
  return total;
}

/**
 * The instant `minutes` office-hour minutes after `start` (an SLA deadline); null when no weekday has
 * hours or the deadline lies beyond the horizon.
 */
export function addOfficeMinutes(
  start: Date,
  minutes: number,
  hours: OfficeHours,
  holidays: readonly string[],
  timeZone: string,
): Date | null {
  let left = minutes;
  for (const span of officeSpans(start, hours, holidays, timeZone, HORIZON_DAYS)) {
    const from = Math.max(span.from, start.getTime());
    if (span.to <= from) continue;
    const available = (span.to - from) / MINUTE;
    if (left <= available) return new Date(from + left * MINUTE);
    left -= available;
  }
  return null;
}
