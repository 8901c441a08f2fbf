// How the queries pages word the server's values: channels, priorities, event kinds and SLA clocks.
import type { QueryChannel, QueryPriority } from '../../../contracts/domain/query-status';
import type { QueryEventKind, SlaClock } from '../../../contracts/queries';
import { relativeTime } from '../../lib/relative-time';

export const channelLabels: Record<QueryChannel, string> = {
  form: 'Enquiry form',
  chat: 'Help chat',
  call: 'Call',
  manual: 'Entered by hand',
  email: 'E-mail',
};

export const priorityLabels: Record<QueryPriority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  urgent: 'Urgent',
};

export const priorityPalette: Record<QueryPriority, string> = {
  low: 'gray',
  normal: 'blue',
  high: 'orange',
  urgent: 'red',
};

export const eventKindLabels: Record<QueryEventKind, string> = {
  message_in: 'Customer wrote',
  message_out: 'Reply sent',
  note: 'Note',
  call: 'Call',
  email: 'E-mail',
  status: 'Status changed',
  assign: 'Assignment',
  priority: 'Priority changed',
  follow_up: 'Follow-up',
  snooze: 'Snooze',
};

export const queryNumber = (number: number) => `Q-${number}`;

/** The SLA column of a row: breached, the time left to the nearest deadline, or nothing running. */
export function slaText(row: { slaBreached: boolean; slaDueAt: string | null }, now = new Date()): string {
  if (row.slaBreached) return 'Breached';
  if (!row.slaDueAt) return '—';
  return `Due ${relativeTime(row.slaDueAt, now)}`;
}

/** One clock on the query page: met, breached, paused or the time left. */
export function clockText(clock: SlaClock, now = new Date()): string {
  switch (clock.state) {
    case 'met':
      return 'Met';
    case 'breached':
      return 'Breached';
    case 'paused':
      return 'Paused while waiting for the customer';
    default:
      return clock.dueAt ? `Due ${relativeTime(clock.dueAt, now)}` : 'Running';
  }
}

export const clockPalette: Record<SlaClock['state'], string> = {
  met: 'green',
  breached: 'red',
  paused: 'gray',
  running: 'yellow',
};
