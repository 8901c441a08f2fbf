import { describe, expect, it } from 'vitest';
import {
  calendarDateIn,
  counterPeriod,
  defaultFiscalYearStartMonth,
  fiscalYearStart,
  formatDocumentNumber,
  nextDocumentNumberPreview,
  SERIES_PRESETS,
  seriesPatternProblems,
} from './document-numbering';

const on = (year: number, month: number, day = 15) => ({ year, month, day });

describe('fiscal years', () => {
  it('start in April in India and in January elsewhere', () => {
    expect(defaultFiscalYearStartMonth('IN')).toBe(4);
    expect(defaultFiscalYearStartMonth('in')).toBe(4);
    expect(defaultFiscalYearStartMonth('DE')).toBe(1);
  });

  it('counts March in the fiscal year that began the April before', () => {
    expect(fiscalYearStart(on(2027, 3, 31), 4)).toBe(2026);
    expect(fiscalYearStart(on(2027, 4, 1), 4)).toBe(2027);
    expect(fiscalYearStart(on(2027, 1, 1), 1)).toBe(2027);
    expect(() => fiscalYearStart(on(2027, 1), 13)).toThrow(RangeError);
  });

  it('dates an issue where the company is: 23:30 UTC on 31 March is 1 April in Kolkata', () => {
    const instant = new Date('2027-03-31T23:30:00Z');
    expect(calendarDateIn(instant, 'Asia/Kolkata')).toEqual({ year: 2027, month: 4, day: 1 });
    expect(calendarDateIn(instant, 'UTC')).toEqual({ year: 2027, month: 3, day: 31 });
  });
});

describe('document numbers', () => {
  const india = { fiscalYearStartMonth: 4 };
  const eu = { fiscalYearStartMonth: 1 };

  it('prints the presets', () => {
    expect(
      formatDocumentNumber(SERIES_PRESETS.india.invoice, { ...india, sequence: 7, issuedOn: on(2027, 2) }),
    ).toBe('INV/26-27/00007');
    expect(
      formatDocumentNumber(SERIES_PRESETS.eu.invoice, { ...eu, sequence: 42, issuedOn: on(2026, 11) }),
    ).toBe('INV-2026-000042');
    expect(
      formatDocumentNumber(SERIES_PRESETS.eu.creditNote, { ...eu, sequence: 1, issuedOn: on(2026, 1) }),
    ).toBe('CN-2026-000001');
  });

  it("prints the fiscal year's years, never the calendar year of the issue date", () => {
    const pattern = 'INV-{YYYY}-{FY}-{FY2}-{YY}-{MM}-{seq:03}';
    expect(formatDocumentNumber(pattern, { ...india, sequence: 5, issuedOn: on(2027, 3) })).toBe(
      'INV-2026-2026-27-26-27-26-03-005',
    );
    expect(formatDocumentNumber(pattern, { ...eu, sequence: 5, issuedOn: on(2027, 3) })).toBe(
      'INV-2027-2027-27-27-03-005',
    );
  });

  it('lets the sequence outgrow its padding rather than wrap', () => {
    expect(formatDocumentNumber('A{seq:02}', { ...eu, sequence: 123, issuedOn: on(2026, 5) })).toBe('A123');
    expect(formatDocumentNumber('A{seq}', { ...eu, sequence: 9, issuedOn: on(2026, 5) })).toBe('A9');
  });

  it('refuses a sequence that is not a whole number from 1', () => {
    for (const sequence of [0, -1, 1.5, Number.NaN]) {
      expect(() => formatDocumentNumber('A{seq}', { ...eu, sequence, issuedOn: on(2026, 5) })).toThrow(
        RangeError,
      );
    }
  });

  it('restarts each fiscal year only when the number shows the year', () => {
    expect(counterPeriod(SERIES_PRESETS.india.invoice, on(2027, 3), 4)).toBe('2026');
    expect(counterPeriod(SERIES_PRESETS.india.invoice, on(2027, 4), 4)).toBe('2027');
    expect(counterPeriod('INV-{seq:06}', on(2027, 4), 4)).toBe('all');
    expect(counterPeriod('INV-{MM}-{seq:06}', on(2027, 4), 4)).toBe('all');
  });

  it('never prints one number twice across a fiscal year boundary, whatever the year placeholder', () => {
    for (const pattern of [
      'INV-{YYYY}-{seq}',
      'INV-{YY}{seq}',
      'INV/{FY}/{seq}',
      'INV-{FY2}-{seq}',
      'INV-{seq}',
    ]) {
      const seen = new Map<string, string>();
      let counters = new Map<string, number>();
      for (let day = 0; day < 3 * 366; day += 3) {
        const date = new Date(Date.UTC(2026, 0, 1 + day));
        const issuedOn = {
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
        };
        const period = counterPeriod(pattern, issuedOn, 4);
        const sequence = (counters.get(period) ?? 0) + 1;
        counters = new Map(counters).set(period, sequence);
        const number = formatDocumentNumber(pattern, { sequence, issuedOn, fiscalYearStartMonth: 4 });
        expect(seen.get(number), `${pattern}: ${number}`).toBeUndefined();
        seen.set(number, `${issuedOn.year}-${issuedOn.month}-${issuedOn.day}`);
      }
    }
  });
});

describe('series patterns', () => {
  it('accepts the presets, under their own rules', () => {
    expect(seriesPatternProblems(SERIES_PRESETS.india.invoice, 'india')).toEqual([]);
    expect(seriesPatternProblems(SERIES_PRESETS.india.creditNote, 'india')).toEqual([]);
    expect(seriesPatternProblems(SERIES_PRESETS.eu.invoice, 'eu')).toEqual([]);
    expect(seriesPatternProblems(SERIES_PRESETS.eu.creditNote)).toEqual([]);
  });

  it('needs exactly one sequence, known placeholders and no stray braces or spaces', () => {
    expect(seriesPatternProblems('INV-{YYYY}')).toEqual(['The pattern needs exactly one {seq} placeholder.']);
    expect(seriesPatternProblems('{seq}-{seq}')).toEqual([
      'The pattern needs exactly one {seq} placeholder.',
    ]);
    expect(seriesPatternProblems('INV-{year}-{seq}')).toEqual(['Unknown placeholder {year}.']);
    expect(seriesPatternProblems('INV-{YYYY:2}-{seq}')).toEqual(['Only {seq} takes a width: {YYYY:2}.']);
    expect(seriesPatternProblems('INV-{seq:13}')).toEqual(['{seq:N} pads to 1–12 digits.']);
    expect(seriesPatternProblems('INV}-{seq}')).toEqual(['Braces are only allowed around a placeholder.']);
    expect(seriesPatternProblems('INV {seq}')).toEqual([
      'The pattern may not contain spaces or control characters.',
    ]);
  });

  it('holds an Indian series to Rule 46: 16 characters, letters, digits, "-" and "/", no leading 0, / or -', () => {
    // 17 characters at its widest: the long fiscal year does not fit.
    expect(seriesPatternProblems('INV/{FY}/{seq:05}', 'india')).toEqual([
      'Indian invoice numbers may have at most 16 characters; this pattern prints 17 (INV/2026-27/99999).',
    ]);
    expect(seriesPatternProblems('INV_{FY2}_{seq:04}', 'india')).toEqual([
      'Indian invoice numbers may contain only letters, digits, "-" and "/".',
    ]);
    expect(seriesPatternProblems('0INV{seq:04}', 'india')).toEqual([
      'Indian invoice numbers may not start with "0", "/" or "-".',
    ]);
    expect(seriesPatternProblems('/{FY2}/{seq:04}', 'india')).toHaveLength(1);
    // The same patterns are fine outside India.
    expect(seriesPatternProblems('INV/{FY}/{seq:05}', 'eu')).toEqual([]);
    expect(seriesPatternProblems('INV_{FY2}_{seq:04}')).toEqual([]);
  });

  it('refuses to format with a broken pattern', () => {
    expect(() =>
      formatDocumentNumber('INV-{nope}', { sequence: 1, issuedOn: on(2026, 1), fiscalYearStartMonth: 1 }),
    ).toThrow(/Unknown placeholder \{nope\}/);
  });
});

describe('the next numbers preview', () => {
  const settings = (invoiceSeries: string, creditNoteSeries: string, fiscalYearStartMonth: number) => ({
    company: { invoiceSeries, creditNoteSeries, fiscalYearStartMonth },
    localization: { timeZone: 'Asia/Kolkata' },
  });

  it('starts a new series at 1 of the current fiscal year', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    expect(nextDocumentNumberPreview(settings('INV-{YYYY}-{seq:06}', 'CN-{YYYY}-{seq:06}', 1), now)).toEqual({
      invoice: 'INV-2026-000001',
      creditNote: 'CN-2026-000001',
    });
    expect(nextDocumentNumberPreview(settings('INV/{FY2}/{seq:05}', 'CN/{FY2}/{seq:05}', 4), now)).toEqual({
      invoice: 'INV/26-27/00001',
      creditNote: 'CN/26-27/00001',
    });
  });

  it('continues from the counters the invoices issue keeps, and dates in the company time zone', () => {
    // 23:30 UTC on 31 March 2027 is already 1 April in Kolkata: the new fiscal year 2027-28.
    const now = new Date('2027-03-31T23:30:00Z');
    expect(
      nextDocumentNumberPreview(settings('INV/{FY2}/{seq:05}', 'CN/{FY2}/{seq:05}', 4), now, {
        invoice: 41,
        creditNote: 2,
      }),
    ).toEqual({ invoice: 'INV/27-28/00042', creditNote: 'CN/27-28/00003' });
  });

  it('answers null for a series that cannot be formatted', () => {
    expect(
      nextDocumentNumberPreview(settings('INV-{YYYY}', 'CN-{seq}', 1), new Date('2026-01-05T00:00:00Z')),
    ).toEqual({ invoice: null, creditNote: 'CN-1' });
  });
});
