import { describe, expect, it } from 'vitest';
import { addOfficeMinutes, officeMinutesBetween } from '../../../contracts/domain/office-hours';
import type { OfficeHours } from '../../../contracts/settings';
import { type SlaInput, slaClocks } from './sla';

const day = [{ from: '09:00', to: '17:00' }];
const hours: OfficeHours = {
  monday: day,
  tuesday: day,
  wednesday: day,
  thursday: day,
  friday: day,
  saturday: [],
  sunday: [],
};
const calendar = { hours, holidays: ['2030-01-08'], timeZone: 'Europe/Berlin' };
// Monday 7 January 2030, 10:00 in Berlin (UTC+1).
const at = (local: string) => new Date(`${local}+01:00`);

const input = (over: Partial<SlaInput>): SlaInput => ({
  createdAt: at('2030-01-07T10:00:00'),
  moves: [],
  firstResponseAt: null,
  targets: { firstResponseMinutes: 120, resolutionMinutes: 8 * 60 },
  calendar,
  now: at('2030-01-07T11:00:00'),
  ...over,
});

describe('office-hour minutes', () => {
  it('counts only time inside the spans of working days, in the time zone', () => {
    expect(
      officeMinutesBetween(at('2030-01-07T08:00:00'), at('2030-01-07T10:00:00'), hours, [], 'Europe/Berlin'),
    ).toBe(60);
    // Friday 16:00 → Monday 10:00: one hour on Friday and one on Monday.
    expect(
      officeMinutesBetween(at('2030-01-04T16:00:00'), at('2030-01-07T10:00:00'), hours, [], 'Europe/Berlin'),
    ).toBe(120);
    // A holiday counts nothing.
    expect(
      officeMinutesBetween(
        at('2030-01-08T08:00:00'),
        at('2030-01-08T18:00:00'),
        hours,
        calendar.holidays,
        'Europe/Berlin',
      ),
    ).toBe(0);
  });

  it('finds the deadline that many office minutes later, across nights, weekends and holidays', () => {
    expect(
      addOfficeMinutes(at('2030-01-07T16:00:00'), 120, hours, calendar.holidays, 'Europe/Berlin'),
    ).toEqual(at('2030-01-09T10:00:00'));
    expect(addOfficeMinutes(at('2030-01-05T12:00:00'), 30, hours, [], 'Europe/Berlin')).toEqual(
      at('2030-01-07T09:30:00'),
    );
    expect(
      addOfficeMinutes(
        at('2030-01-07T10:00:00'),
        30,
        { ...hours, monday: [], tuesday: [], wednesday: [], thursday: [], friday: [] },
        [],
        'UTC',
      ),
    ).toBeNull();
  });
});

describe('SLA clocks from the event log', () => {
  it('runs while new or open and gives the deadline in office hours', () => {
    const clocks = slaClocks(input({}));
    expect(clocks.firstResponse).toMatchObject({
      state: 'running',
      usedMinutes: 60,
      dueAt: at('2030-01-07T12:00:00').toISOString(),
    });
    expect(clocks.resolution).toMatchObject({ state: 'running', usedMinutes: 60 });
  });

  it('pauses while waiting for the customer and resumes when the query reopens', () => {
    const moves = [
      { at: at('2030-01-07T10:30:00'), to: 'waiting' as const },
      { at: at('2030-01-07T15:30:00'), to: 'open' as const },
    ];
    const waiting = slaClocks(input({ moves: moves.slice(0, 1), now: at('2030-01-07T15:00:00') }));
    expect(waiting.resolution).toMatchObject({ state: 'paused', usedMinutes: 30, dueAt: null });
    const reopened = slaClocks(input({ moves, now: at('2030-01-07T16:00:00') }));
    expect(reopened.resolution).toMatchObject({ state: 'running', usedMinutes: 60 });
  });

  it('stops at resolve and never runs on after it (Chatwoot #10178)', () => {
    const moves = [{ at: at('2030-01-07T12:00:00'), to: 'resolved' as const }];
    const later = slaClocks(input({ moves, now: at('2030-02-07T12:00:00') }));
    expect(later.resolution).toMatchObject({ state: 'met', usedMinutes: 120, dueAt: null });
    // No first response before the resolve: that clock stopped too, past its two hours? Exactly two: met.
    expect(later.firstResponse).toMatchObject({ state: 'met', usedMinutes: 120 });
  });

  it('marks a clock breached once it used more than its target', () => {
    const clocks = slaClocks(input({ now: at('2030-01-07T16:00:00') }));
    expect(clocks.firstResponse).toMatchObject({ state: 'breached', usedMinutes: 360 });
    const answered = slaClocks(
      input({ firstResponseAt: at('2030-01-07T10:45:00'), now: at('2030-01-07T16:00:00') }),
    );
    expect(answered.firstResponse).toMatchObject({ state: 'met', usedMinutes: 45 });
  });
});
