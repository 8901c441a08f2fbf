/**
 * The one place that formats dates, numbers and counts for display (issue 26). Every page, the
 * notifications and the server's sentences go through it, so "27 Nov 2026" and "3,016" read the same
 * everywhere. Money has its own module (contracts/domain/currency.ts); relative times ("5 mins ago") are
 * src/lib/relative-time.ts. It sits in contracts/domain, the pure helpers both sides may import, because
 * the server's sentences use it too.
 *
 * Why "27 Nov 2026" (en-GB, day · short month · year) and a 24-hour clock: a date written in digits
 * only is ambiguous between readers (11/12/2026 is 11 December in Britain and India, 12 November in the
 * USA), a named month is not; day-month-year is what most of the marketplace's people write; a 24-hour
 * time needs no am/pm. Grouping is in thousands ("1,234,567"), never the Indian lakh grouping, so a
 * count reads the same in a table and in a sentence.
 *
 * The locale and time zone are one module-level setting (`configureFormats`), so a settings page can
 * change them later without touching a caller. Intl formatters are costly to build: they are cached
 * per setting and dropped when it changes. Pure (Intl only, no DOM): the server imports it too, for
 * the counts in its sentences (as it imports currency.ts), and never changes the setting.
 */

export interface FormatSettings {
  /** BCP 47 locale of dates and numbers. */
  locale: string;
  /** IANA time zone of dates and times; undefined: the device's own. */
  timeZone: string | undefined;
}

const DEFAULT_SETTINGS: FormatSettings = { locale: 'en-GB', timeZone: undefined };

let settings: FormatSettings = { ...DEFAULT_SETTINGS };
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

/** Changes the locale or time zone of every format from now on (a settings page; tests). */
export function configureFormats(next: Partial<FormatSettings>): void {
  settings = { ...settings, ...next };
  cache.clear();
}

/** Back to the default setting (tests). */
export function resetFormats(): void {
  configureFormats(DEFAULT_SETTINGS);
}

export function formatSettings(): Readonly<FormatSettings> {
  return settings;
}

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let found = cache.get(key) as T | undefined;
  if (!found) {
    found = make();
    cache.set(key, found);
  }
  return found;
}

const dateParts = {
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  time: { hour: '2-digit', minute: '2-digit' },
  month: { month: 'short', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

type DatePart = keyof typeof dateParts;

export type DateValue = Date | string | number;

/** What a missing or unreadable date shows: a dash, never "Invalid Date" or a thrown render. */
export const NO_DATE = '—';

function formatWith(part: DatePart, value: DateValue | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return NO_DATE;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return NO_DATE;
  const zone = timeZone ?? settings.timeZone;
  const format = cached(
    `date:${part}:${zone ?? ''}`,
    () =>
      new Intl.DateTimeFormat(settings.locale, { ...dateParts[part], ...(zone ? { timeZone: zone } : {}) }),
  );
  return format.format(date);
}

/** "27 Nov 2026". */
export const formatDate = (value: DateValue | null | undefined): string => formatWith('date', value);

/** "29 Dec 2026" for the calendar day "2026-12-29", whatever the reader's time zone. */
export const formatDay = (day: string | null | undefined): string =>
  formatWith('date', day ? `${day}T00:00:00Z` : day, 'UTC');

/** "27 Nov 2026, 14:05". */
export const formatDateTime = (value: DateValue | null | undefined): string => formatWith('dateTime', value);

/** "14:05"; `timeZone` for a text that must not depend on the reader (a server's notice says "UTC"). */
export const formatTime = (value: DateValue | null | undefined, timeZone?: string): string =>
  formatWith('time', value, timeZone);

/**
 * "Nov 2026". `timeZone` for a calendar month given as its first instant in UTC ("2026-11-01T00:00Z"),
 * which west of Greenwich would otherwise read as October.
 */
export const formatMonth = (value: DateValue | null | undefined, timeZone?: string): string =>
  formatWith('month', value, timeZone);

/**
 * The text an `<input type="datetime-local">` holds for a moment, in the reader's own time zone:
 * "2026-01-31T15:30" (no seconds, no zone). '' for a missing or unreadable date.
 */
export function dateTimeInputValue(value: DateValue | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** The UTC calendar day of a moment, "2026-01-31": file names and period bounds, never for reading. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** "3,016"; "1,234.5". At most `maximumFractionDigits` decimals (default 2, none shown when whole). */
export function formatNumber(value: number, maximumFractionDigits = 2): string {
  if (!Number.isFinite(value)) return '—';
  return cached(
    `number:${maximumFractionDigits}`,
    () => new Intl.NumberFormat(settings.locale, { maximumFractionDigits }),
  ).format(value);
}

/** A share already in per cent (0–100): 12.345 → "12.3%". */
export function formatPercent(percent: number, maximumFractionDigits = 1): string {
  if (!Number.isFinite(percent)) return '—';
  return cached(
    `percent:${maximumFractionDigits}`,
    () => new Intl.NumberFormat(settings.locale, { style: 'percent', maximumFractionDigits }),
  ).format(percent / 100);
}

// The nouns are English whatever the number locale is, so English plural rules choose between them.
const englishPlurals = new Intl.PluralRules('en');

/** Whether an English noun takes the singular for this count: 1, not 0 or 1.5. */
export function isSingular(count: number): boolean {
  return englishPlurals.select(count) === 'one';
}

/**
 * A count with its noun: "1 notification", "0 notifications", "3,016 products". `many` for nouns
 * that do not just take an s ("category" → "categories", "is" → "are" in a phrase).
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${isSingular(count) ? one : many}`;
}
