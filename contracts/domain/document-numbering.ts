/**
 * Invoice and credit-note numbers: a series' pattern, the fiscal year it counts in, and the checks the
 * law puts on it (../shared/ANCHORS.md §10). The company settings hold the patterns and the fiscal-year
 * start; the invoices module takes the sequence from one counter row per series and period, inside the
 * issuing transaction, and formats it here.
 *
 * Tokens: {seq} or {seq:N} (the sequence, zero-padded to N digits; exactly one), {YYYY} and {YY} (the
 * year the fiscal year starts in), {FY} ("2026-27", or "2026" when the fiscal year is the calendar year),
 * {FY2} ("26-27", or "26") and {MM} (the month of issue). The years are the fiscal year's, never the
 * calendar year of the issue date: with an April start, "INV-{YYYY}-{seq}" issued in March 2027 still
 * reads 2026, so the series that restarts in April cannot print a number it printed before.
 */

export type SeriesPreset = 'india' | 'eu';

/** A series restarts its sequence each fiscal year when its pattern shows the year; otherwise never. */
export type CounterPeriod = string;

export const SERIES_PRESETS: Readonly<Record<SeriesPreset, { invoice: string; creditNote: string }>> = {
  // CGST Rule 46(b): at most 16 characters; "INV/2026-27/00001" would be 17, so the short year.
  india: { invoice: 'INV/{FY2}/{seq:05}', creditNote: 'CN/{FY2}/{seq:05}' },
  eu: { invoice: 'INV-{YYYY}-{seq:06}', creditNote: 'CN-{YYYY}-{seq:06}' },
};

/** April while the marketplace's country is India (its financial year), January elsewhere. */
export function defaultFiscalYearStartMonth(country: string): number {
  return country.toUpperCase() === 'IN' ? 4 : 1;
}

/** A calendar day as the company's time zone sees it (month 1–12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The calendar day of `instant` in `timeZone` (an IANA name): invoices are dated where they are issued. */
export function calendarDateIn(instant: Date, timeZone: string): CalendarDate {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** The year the fiscal year containing `date` starts in. */
export function fiscalYearStart(date: CalendarDate, startMonth: number): number {
  assertMonth(startMonth);
  return date.month >= startMonth ? date.year : date.year - 1;
}

const TOKEN = /\{([A-Za-z0-9]+)(?::(\d+))?\}/g;
const YEAR_TOKENS = new Set(['YYYY', 'YY', 'FY', 'FY2']);
const KNOWN_TOKENS = new Set([...YEAR_TOKENS, 'MM', 'seq']);
/** Digits a padded sequence may ask for: wider would only be zeros. */
const MAX_PADDING = 12;
/** Rule 46(b): letters, digits, hyphen and slash; at most 16; not starting with 0, / or - (IRP). */
const INDIA_MAX_LENGTH = 16;
const INDIA_CHARACTERS = /^[A-Za-z0-9/-]*$/;

/** What is wrong with a pattern, as sentences for the settings form; empty when it is usable. */
export function seriesPatternProblems(pattern: string, preset?: SeriesPreset): string[] {
  const problems: string[] = [];
  const tokens = [...pattern.matchAll(TOKEN)];
  const unknown = tokens.filter((match) => !KNOWN_TOKENS.has(match[1] as string));
  for (const match of unknown) problems.push(`Unknown placeholder ${match[0]}.`);
  for (const match of tokens.filter((m) => m[1] !== 'seq' && m[2] !== undefined)) {
    problems.push(`Only {seq} takes a width: ${match[0]}.`);
  }
  const sequences = tokens.filter((match) => match[1] === 'seq');
  if (sequences.length !== 1) problems.push('The pattern needs exactly one {seq} placeholder.');
  for (const match of sequences) {
    const width = match[2] === undefined ? 1 : Number(match[2]);
    if (width < 1 || width > MAX_PADDING) problems.push(`{seq:N} pads to 1–${MAX_PADDING} digits.`);
  }
  const literal = pattern.replace(TOKEN, '');
  if (/[{}]/.test(literal)) problems.push('Braces are only allowed around a placeholder.');
  if (/[\s\p{Cc}]/u.test(literal)) problems.push('The pattern may not contain spaces or control characters.');
  if (preset === 'india' && problems.length === 0) problems.push(...indiaProblems(pattern));
  return problems;
}

function indiaProblems(pattern: string): string[] {
  const problems: string[] = [];
  if (!INDIA_CHARACTERS.test(pattern.replace(TOKEN, ''))) {
    problems.push('Indian invoice numbers may contain only letters, digits, "-" and "/".');
  }
  // The longest number the pattern prints at its padded width (a fiscal year spanning two years).
  const longest = formatDocumentNumber(pattern, {
    sequence: 10 ** paddingOf(pattern) - 1,
    issuedOn: { year: 2026, month: 12, day: 1 },
    fiscalYearStartMonth: 4,
  });
  if (longest.length > INDIA_MAX_LENGTH) {
    problems.push(
      `Indian invoice numbers may have at most ${INDIA_MAX_LENGTH} characters; this pattern prints ${longest.length} (${longest}).`,
    );
  }
  if (/^[0/-]/.test(pattern)) problems.push('Indian invoice numbers may not start with "0", "/" or "-".');
  return problems;
}

function paddingOf(pattern: string): number {
  const match = [...pattern.matchAll(TOKEN)].find((m) => m[1] === 'seq');
  return match?.[2] === undefined ? 1 : Number(match[2]);
}

export interface NumberInput {
  /** 1, 2, 3… within the series and period. */
  sequence: number;
  /** The issue date in the company's time zone (calendarDateIn). */
  issuedOn: CalendarDate;
  fiscalYearStartMonth: number;
}

/** The document number `pattern` prints for this sequence and date. @throws on an unusable pattern. */
export function formatDocumentNumber(pattern: string, input: NumberInput): string {
  const problems = seriesPatternProblems(pattern);
  if (problems.length) throw new RangeError(problems.join(' '));
  if (!Number.isSafeInteger(input.sequence) || input.sequence < 1) {
    throw new RangeError(`The sequence must be a whole number from 1, got ${input.sequence}.`);
  }
  const startYear = fiscalYearStart(input.issuedOn, input.fiscalYearStartMonth);
  const spansTwoYears = input.fiscalYearStartMonth !== 1;
  const two = (year: number) => String(year % 100).padStart(2, '0');
  const values: Record<string, string> = {
    YYYY: String(startYear),
    YY: two(startYear),
    FY: spansTwoYears ? `${startYear}-${two(startYear + 1)}` : String(startYear),
    FY2: spansTwoYears ? `${two(startYear)}-${two(startYear + 1)}` : two(startYear),
    MM: String(input.issuedOn.month).padStart(2, '0'),
  };
  return pattern.replace(TOKEN, (_, name: string, width?: string) =>
    name === 'seq' ? String(input.sequence).padStart(Number(width ?? 1), '0') : (values[name] as string),
  );
}

/**
 * The counter a number is drawn from: the fiscal year ("2026") when the pattern shows the year, so the
 * sequence restarts each fiscal year (India asks for a new series each financial year); "all" when it
 * does not, since restarting would print the same number twice.
 */
export function counterPeriod(
  pattern: string,
  issuedOn: CalendarDate,
  fiscalYearStartMonth: number,
): CounterPeriod {
  const showsYear = [...pattern.matchAll(TOKEN)].some((match) => YEAR_TOKENS.has(match[1] as string));
  return showsYear ? String(fiscalYearStart(issuedOn, fiscalYearStartMonth)) : 'all';
}

function assertMonth(month: number): void {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`A fiscal year starts in month 1–12, got ${month}.`);
  }
}

/** What a preview of the next numbers needs from the settings (structurally AllSettings). */
export interface NumberingSettings {
  company: { invoiceSeries: string; creditNoteSeries: string; fiscalYearStartMonth: number };
  localization: { timeZone: string };
}

/**
 * The last sequence drawn per series in the current period, from the invoices issue's counter table
 * (one row per series and `counterPeriod`); absent or 0 means nothing was issued yet.
 */
export interface LastSequences {
  invoice?: number;
  creditNote?: number;
}

export interface NextNumbers {
  invoice: string;
  creditNote: string;
}

/**
 * The numbers the next invoice and credit note would get if issued at `now`: sequence 1 of the current
 * period unless `last` says otherwise. The settings page shows it beside the series; the invoices issue
 * passes its counters. Null for a series that cannot be formatted (the form shows that series' problem).
 */
export function nextDocumentNumberPreview(
  settings: NumberingSettings,
  now: Date,
  last: LastSequences = {},
): { invoice: string | null; creditNote: string | null } {
  const issuedOn = calendarDateIn(now, settings.localization.timeZone);
  const { fiscalYearStartMonth } = settings.company;
  const next = (pattern: string, lastSequence = 0) =>
    seriesPatternProblems(pattern).length > 0 || fiscalYearStartMonth < 1 || fiscalYearStartMonth > 12
      ? null
      : formatDocumentNumber(pattern, { sequence: lastSequence + 1, issuedOn, fiscalYearStartMonth });
  return {
    invoice: next(settings.company.invoiceSeries, last.invoice),
    creditNote: next(settings.company.creditNoteSeries, last.creditNote),
  };
}
