import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayIn,
  defaultValidUntil,
  isWithinValidity,
  validityEnd,
  validityProblem,
} from './validity-day';

describe('validity day', () => {
  it('ends at the first instant of the next day in the zone', () => {
    expect(validityEnd('2026-07-10', 'Europe/Berlin').toISOString()).toBe('2026-07-10T22:00:00.000Z');
    expect(validityEnd('2026-01-10', 'Europe/Berlin').toISOString()).toBe('2026-01-10T23:00:00.000Z');
    expect(validityEnd('2026-01-10', 'UTC').toISOString()).toBe('2026-01-11T00:00:00.000Z');
    expect(validityEnd('2026-01-10', 'America/New_York').toISOString()).toBe('2026-01-11T05:00:00.000Z');
    expect(validityEnd('2026-01-10', 'Asia/Kolkata').toISOString()).toBe('2026-01-10T18:30:00.000Z');
  });

  it('follows daylight saving: the short and the long night', () => {
    // Berlin springs forward on 2026-03-29 (CET → CEST); the 28th ends in CET, the 29th in CEST.
    expect(validityEnd('2026-03-28', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(validityEnd('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // Falls back on 2026-10-25.
    expect(validityEnd('2026-10-24', 'Europe/Berlin').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(validityEnd('2026-10-25', 'Europe/Berlin').toISOString()).toBe('2026-10-25T23:00:00.000Z');
    // New York springs forward on 2026-03-08.
    expect(validityEnd('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('is valid at 23:59 of the day and not at 00:00 of the next, in the seller zone', () => {
    const end = validityEnd('2026-05-31', 'Europe/Berlin');
    expect(isWithinValidity(end, new Date('2026-05-31T21:59:00Z'))).toBe(true); // 23:59 Berlin
    expect(isWithinValidity(end, new Date('2026-05-31T21:59:59.999Z'))).toBe(true);
    expect(isWithinValidity(end, new Date('2026-05-31T22:00:00Z'))).toBe(false); // 00:00 on June 1st
  });

  it('reads today in the zone and adds days across months and years', () => {
    expect(dayIn(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin')).toBe('2027-01-01');
    expect(dayIn(new Date('2026-12-31T23:30:00Z'), 'America/Los_Angeles')).toBe('2026-12-31');
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(defaultValidUntil(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin', 30)).toBe('2027-01-31');
  });

  it('refuses a day already over and a malformed one', () => {
    const now = new Date('2026-05-10T10:00:00Z');
    expect(validityProblem('2026-05-10', now, 'UTC')).toBeNull();
    expect(validityProblem('2026-05-09', now, 'UTC')).toBe('Choose a validity date that is today or later.');
    expect(validityProblem('2026-5-9', now, 'UTC')).toBe('A date is written YYYY-MM-DD.');
    expect(() => validityEnd('nope', 'UTC')).toThrow(RangeError);
  });
});
