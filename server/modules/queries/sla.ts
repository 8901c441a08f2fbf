// SLA clocks computed from a query's event log (issue 30, ANCHORS §7 "Beyond every anchor" 3), never
// kept as running counters that can drift: each clock counts office-hour minutes (the communication
// settings' hours and holidays, in the marketplace's time zone) while the query is new or open. It
// pauses while waiting for the customer, and stops at resolve or close — it never runs on after a
// resolve (Chatwoot #10178). A reopened query's resolution clock runs again from where it stopped.
// Pure: the server passes `now`, so tests decide at fixed clock times.

import { addOfficeMinutes, officeMinutesBetween } from '../../../contracts/domain/office-hours';
import type { QueryStatus } from '../../../contracts/domain/query-status';
import type { SlaClock } from '../../../contracts/queries';
import type { OfficeHours } from '../../../contracts/settings';

export interface SlaCalendar {
  hours: OfficeHours;
  holidays: readonly string[];
  timeZone: string;
}

export interface SlaInput {
  createdAt: Date;
  /** Every status the query took after creation, oldest first (the 'status' events). */
  moves: readonly { at: Date; to: QueryStatus }[];
  /** The first answer to the customer (a reply, a logged outgoing call or e-mail), if any. */
  firstResponseAt: Date | null;
  targets: { firstResponseMinutes: number; resolutionMinutes: number };
  calendar: SlaCalendar;
  now: Date;
}

const counts = (status: QueryStatus) => status === 'new' || status === 'open';

/** The intervals in which the clocks count, up to `end`. */
function countingIntervals(input: SlaInput, end: Date): { from: Date; to: Date }[] {
  const intervals: { from: Date; to: Date }[] = [];
  let status: QueryStatus = 'new';
  let since = input.createdAt;
  for (const move of input.moves) {
    const at = move.at.getTime() < end.getTime() ? move.at : end;
    if (counts(status) && at.getTime() > since.getTime()) intervals.push({ from: since, to: at });
    status = move.to;
    since = at;
    if (move.at.getTime() >= end.getTime()) return intervals;
  }
  if (counts(status) && end.getTime() > since.getTime()) intervals.push({ from: since, to: end });
  return intervals;
}

function used(intervals: { from: Date; to: Date }[], calendar: SlaCalendar): number {
  return intervals.reduce(
    (sum, { from, to }) =>
      sum + officeMinutesBetween(from, to, calendar.hours, calendar.holidays, calendar.timeZone),
    0,
  );
}

function clock(input: SlaInput, target: number, stoppedAt: Date | null, status: QueryStatus): SlaClock {
  const end = stoppedAt ?? input.now;
  const usedMinutes = Math.round(used(countingIntervals(input, end), input.calendar) * 10) / 10;
  const over = usedMinutes > target;
  if (stoppedAt || !(counts(status) || status === 'waiting')) {
    return { targetMinutes: target, state: over ? 'breached' : 'met', dueAt: null, usedMinutes };
  }
  if (over) return { targetMinutes: target, state: 'breached', dueAt: null, usedMinutes };
  if (status === 'waiting') return { targetMinutes: target, state: 'paused', dueAt: null, usedMinutes };
  const { hours, holidays, timeZone } = input.calendar;
  const due = addOfficeMinutes(input.now, target - usedMinutes, hours, holidays, timeZone);
  return { targetMinutes: target, state: 'running', dueAt: due?.toISOString() ?? null, usedMinutes };
}

/** Both clocks of a query as they stand at `input.now`. */
export function slaClocks(input: SlaInput): { firstResponse: SlaClock; resolution: SlaClock } {
  const status = input.moves.at(-1)?.to ?? 'new';
  const resolvedAt = status === 'resolved' || status === 'closed' ? (input.moves.at(-1)?.at ?? null) : null;
  return {
    firstResponse: clock(
      input,
      input.targets.firstResponseMinutes,
      input.firstResponseAt ?? resolvedAt,
      status,
    ),
    resolution: clock(input, input.targets.resolutionMinutes, resolvedAt, status),
  };
}
