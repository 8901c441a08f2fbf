import { describe, expect, it } from 'vitest';
import { type OfficeHours, settingsDefaults, weekdays } from '../settings';
import { closedNotice, isOpen, nextOpening, zonedInstant } from './office-hours';

// Weekdays 09:00–18:00, weekends closed: the default.
const hours = settingsDefaults().communication.officeHours;
const KOLKATA = 'Asia/Kolkata';
const BERLIN = 'Europe/Berlin';
const at = (iso: string) => new Date(iso);

describe('isOpen', () => {
  it('is open inside a span of the local weekday and closed outside it', () => {
    // Monday 30 Nov 2026, 10:00 in Kolkata (UTC+05:30).
    expect(isOpen(at('2026-11-30T04:30:00Z'), hours, [], KOLKATA)).toBe(true);
    // 08:59 local, and 18:00 local (a span ends before its `to`).
    expect(isOpen(at('2026-11-30T03:29:00Z'), hours, [], KOLKATA)).toBe(false);
    expect(isOpen(at('2026-11-30T12:30:00Z'), hours, [], KOLKATA)).toBe(false);
  });

  it('judges the weekday by the local clock, not UTC', () => {
    // Sunday 29 Nov 23:00 UTC is already Monday 04:30 in Kolkata (closed) and still Sunday in UTC.
    const hoursEveryNight: OfficeHours = { ...hours, monday: [{ from: '04:00', to: '05:00' }] };
    expect(isOpen(at('2026-11-29T23:00:00Z'), hoursEveryNight, [], KOLKATA)).toBe(true);
    expect(isOpen(at('2026-11-29T23:00:00Z'), hoursEveryNight, [], 'UTC')).toBe(false);
  });

  it('reads a span until 23:59 as until midnight, so a whole day is open', () => {
    const allDay: OfficeHours = { ...hours, sunday: [{ from: '00:00', to: '23:59' }] };
    expect(isOpen(at('2026-11-29T23:59:30Z'), allDay, [], 'UTC')).toBe(true);
  });

  it('is closed all day on a holiday', () => {
    expect(isOpen(at('2026-11-30T04:30:00Z'), hours, ['2026-11-30'], KOLKATA)).toBe(false);
  });
});

describe('nextOpening', () => {
  it('is now while open', () => {
    const now = at('2026-11-30T04:30:00Z');
    expect(nextOpening(now, hours, [], KOLKATA)).toEqual(now);
  });

  it('is later the same day before the first span', () => {
    // Monday 07:00 in Kolkata → 09:00 = 03:30 UTC.
    expect(nextOpening(at('2026-11-30T01:30:00Z'), hours, [], KOLKATA)).toEqual(at('2026-11-30T03:30:00Z'));
  });

  it('takes the later span of a split day', () => {
    const split: OfficeHours = {
      ...hours,
      monday: [
        { from: '14:00', to: '18:00' },
        { from: '09:00', to: '12:00' },
      ],
    };
    // Monday 12:30 in UTC → 14:00.
    expect(nextOpening(at('2026-11-30T12:30:00Z'), split, [], 'UTC')).toEqual(at('2026-11-30T14:00:00Z'));
  });

  it("crosses midnight at the week's end: Friday evening and Sunday night → Monday 09:00", () => {
    const monday = at('2026-11-30T03:30:00Z');
    // Friday 27 Nov 19:00 and Sunday 29 Nov 23:59 in Kolkata.
    expect(nextOpening(at('2026-11-27T13:30:00Z'), hours, [], KOLKATA)).toEqual(monday);
    expect(nextOpening(at('2026-11-29T18:29:00Z'), hours, [], KOLKATA)).toEqual(monday);
  });

  it('skips a day without hours and a holiday', () => {
    // Saturday has no hours; Monday is a holiday → Tuesday 1 Dec 09:00.
    expect(nextOpening(at('2026-11-28T06:00:00Z'), hours, ['2026-11-30'], KOLKATA)).toEqual(
      at('2026-12-01T03:30:00Z'),
    );
  });

  it('follows daylight saving time: 09:00 is 08:00 UTC before the change and 07:00 after', () => {
    // Berlin springs forward on Sunday 29 March 2026.
    expect(nextOpening(at('2026-03-26T20:00:00Z'), hours, [], BERLIN)).toEqual(at('2026-03-27T08:00:00Z'));
    expect(nextOpening(at('2026-03-27T20:00:00Z'), hours, [], BERLIN)).toEqual(at('2026-03-30T07:00:00Z'));
    // And falls back on Sunday 25 October 2026.
    expect(nextOpening(at('2026-10-23T20:00:00Z'), hours, [], BERLIN)).toEqual(at('2026-10-26T08:00:00Z'));
  });

  it('places a time the clocks skip just after the gap', () => {
    // 02:30 does not exist in Berlin on 29 March 2026: the watch reads 03:30 CEST then.
    expect(zonedInstant({ year: 2026, month: 3, day: 29, minutes: 150 }, BERLIN)).toEqual(
      at('2026-03-29T01:30:00Z'),
    );
  });

  it('is null when no weekday has hours', () => {
    const none = Object.fromEntries(weekdays.map((day) => [day, []])) as unknown as OfficeHours;
    expect(nextOpening(at('2026-11-30T04:30:00Z'), none, [], KOLKATA)).toBeNull();
  });

  it('reaches past a run of holidays longer than a week', () => {
    const twoWeeks = Array.from({ length: 14 }, (_, index) => {
      const day = new Date(Date.UTC(2026, 11, 20 + index));
      return day.toISOString().slice(0, 10);
    });
    // Closed from Sunday 20 Dec to Saturday 2 Jan → Monday 4 Jan 2027 09:00 in Kolkata.
    expect(nextOpening(at('2026-12-19T06:00:00Z'), hours, twoWeeks, KOLKATA)).toEqual(
      at('2027-01-04T03:30:00Z'),
    );
  });
});

describe('closedNotice', () => {
  it('says when a person answers, in the marketplace time zone', () => {
    expect(closedNotice(at('2026-11-27T13:30:00Z'), hours, [], KOLKATA)).toBe(
      'Our team answers from Monday 09:00 (Asia/Kolkata). Leave a message and a person will reply then.',
    );
  });

  it('names the date of an opening more than a week away', () => {
    const twoWeeks = Array.from({ length: 14 }, (_, index) =>
      new Date(Date.UTC(2026, 11, 20 + index)).toISOString().slice(0, 10),
    );
    expect(closedNotice(at('2026-12-19T06:00:00Z'), hours, twoWeeks, KOLKATA)).toContain(
      'Monday 4 Jan 09:00 (Asia/Kolkata)',
    );
  });
});
