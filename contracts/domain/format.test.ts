import { afterEach, describe, expect, it } from 'vitest';
import {
  configureFormats,
  dateTimeInputValue,
  formatDate,
  formatDateTime,
  formatDay,
  formatMonth,
  formatNumber,
  formatPercent,
  formatSettings,
  formatTime,
  isoDay,
  NO_DATE,
  plural,
  resetFormats,
} from './format';

// A fixed zone, so the expectations do not depend on the machine running the tests.
const utc = () => configureFormats({ timeZone: 'UTC' });
const at = '2026-11-27T14:05:09Z';

afterEach(resetFormats);

describe('dates', () => {
  it('writes one unambiguous date: day, short month name, year', () => {
    utc();
    expect(formatDate(at)).toBe('27 Nov 2026');
    expect(formatDate(new Date(at))).toBe('27 Nov 2026');
    expect(formatDate(Date.parse(at))).toBe('27 Nov 2026');
    // Never the digit-only forms the pages used to mix (11/27/2026, 27/11/2026).
    expect(formatDate(at)).not.toMatch(/\d+\/\d+/);
  });

  it('writes a date with its time on a 24-hour clock, and a time alone', () => {
    utc();
    expect(formatDateTime(at)).toBe('27 Nov 2026, 14:05');
    expect(formatTime(at)).toBe('14:05');
    expect(formatTime('2026-11-27T09:03:00Z')).toBe('09:03');
    resetFormats();
    // A given zone wins over the setting (the server's notices are written in UTC).
    expect(formatTime(at, 'Asia/Kolkata')).toBe('19:35');
  });

  it('writes a calendar day as that day in every zone (west of Greenwich too)', () => {
    configureFormats({ timeZone: 'America/Los_Angeles' });
    expect(formatDay('2026-12-29')).toBe('29 Dec 2026');
    configureFormats({ timeZone: 'Pacific/Kiritimati' });
    expect(formatDay('2026-12-29')).toBe('29 Dec 2026');
    expect(formatDay(null)).toBe(NO_DATE);
  });

  it('names a calendar month, in the zone it is given in', () => {
    configureFormats({ timeZone: 'America/New_York' });
    // The first instant of November in UTC is still October in New York…
    expect(formatMonth('2026-11-01T00:00:00Z')).toBe('Oct 2026');
    // …unless the month is read in UTC.
    expect(formatMonth('2026-11-01T00:00:00Z', 'UTC')).toBe('Nov 2026');
    // British usage, as the locale spells it.
    expect(formatMonth('2026-09-01T00:00:00Z', 'UTC')).toBe('Sept 2026');
  });

  it('shows a dash for a missing or unreadable date instead of "Invalid Date"', () => {
    for (const value of [null, undefined, '', 'not a date', Number.NaN]) {
      expect(formatDate(value)).toBe(NO_DATE);
      expect(formatDateTime(value)).toBe(NO_DATE);
    }
  });

  it('follows the configured locale and time zone from the next call on', () => {
    utc();
    expect(formatDateTime(at)).toBe('27 Nov 2026, 14:05');
    configureFormats({ locale: 'en-US', timeZone: 'Asia/Kolkata' });
    expect(formatSettings()).toEqual({ locale: 'en-US', timeZone: 'Asia/Kolkata' });
    expect(formatDateTime(at)).toBe('Nov 27, 2026, 07:35 PM');
    resetFormats();
    expect(formatSettings().locale).toBe('en-GB');
  });

  it('writes the text of a datetime-local input in the local zone, and a UTC day', () => {
    // Local parts: a moment built from local parts reads back as them, whatever the machine's zone.
    expect(dateTimeInputValue(new Date(2030, 0, 2, 9, 5, 59))).toBe('2030-01-02T09:05');
    expect(dateTimeInputValue(new Date(2030, 0, 2, 9, 5).toISOString())).toBe('2030-01-02T09:05');
    for (const value of [null, undefined, '', 'not a date']) expect(dateTimeInputValue(value)).toBe('');
    expect(isoDay(new Date('2026-11-27T23:59:59Z'))).toBe('2026-11-27');
  });
});

describe('numbers', () => {
  it('groups thousands the same way everywhere (never the lakh grouping)', () => {
    expect(formatNumber(3016)).toBe('3,016');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-1200)).toBe('-1,200');
  });

  it('keeps up to two decimals unless told otherwise, and dashes what is not a number', () => {
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatNumber(2.345678)).toBe('2.35');
    expect(formatNumber(2.6, 0)).toBe('3');
    expect(formatNumber(Number.NaN)).toBe('—');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('writes a share given in per cent', () => {
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
  });
});

describe('plural', () => {
  it('says "1 notification" and "n notifications", with the count formatted', () => {
    expect(plural(1, 'notification')).toBe('1 notification');
    expect(plural(0, 'notification')).toBe('0 notifications');
    expect(plural(2, 'duplicate')).toBe('2 duplicates');
    expect(plural(3016, 'product')).toBe('3,016 products');
    expect(plural(1.5, 'row')).toBe('1.5 rows');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'category', 'categories')).toBe('1 category');
    expect(plural(4, 'category', 'categories')).toBe('4 categories');
  });

  it('keeps English plural rules whatever the number locale is', () => {
    configureFormats({ locale: 'fr-FR' });
    // French counts 0 as singular; the English noun must not follow it.
    expect(plural(0, 'product')).toMatch(/^0 products$/);
    expect(plural(1, 'product')).toBe('1 product');
  });
});
