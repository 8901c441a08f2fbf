import { describe, expect, it } from 'vitest';
import { type StatusPalette, statusColor } from './status-color';

const table: [string, StatusPalette][] = [
  // spec: green words
  ['paid', 'green'],
  ['completed', 'green'],
  ['active', 'green'],
  ['success', 'green'],
  ['approved', 'green'],
  ['connected', 'green'],
  // spec: red words
  ['unpaid', 'red'],
  ['failed', 'red'],
  ['rejected', 'red'],
  ['error', 'red'],
  ['blocked', 'red'],
  ['cancelled', 'red'],
  // spec: orange / yellow / blue
  ['overdue', 'orange'],
  ['pending', 'yellow'],
  ['processing', 'yellow'],
  ['in progress', 'yellow'],
  ['draft', 'blue'],
  ['new', 'blue'],
  // staging products' lifecycle (issue 14)
  ['In review', 'yellow'],
  ['in_review', 'yellow'],
  ['Live', 'green'],
  ['Inactive', 'gray'],
  ['Not live', 'red'],
  ['info', 'blue'],
  // spec: anything else
  ['archived', 'gray'],
  ['', 'gray'],
  ['   ', 'gray'],
  ['unknown', 'gray'],
  // spec: call statuses
  ['Not Picked', 'orange'],
  ['Connected', 'green'],
  ['Call Cancelled', 'red'],
  ['Call Disconnected', 'red'],
  ['Rejected', 'red'],
  ['Call Ignored', 'orange'],
  // campaigns, their recipients and contacts (issue 17)
  ['Sent', 'green'],
  ['Sending', 'yellow'],
  ['Scheduled', 'yellow'],
  ['Paused', 'orange'],
  ['Failed', 'red'],
  ['Queued', 'yellow'],
  ['Deferred', 'yellow'],
  ['Skipped', 'gray'],
  ['Subscribed', 'green'],
  ['Unsubscribed', 'orange'],
  ['Bounced', 'red'],
];

describe('statusColor', () => {
  it.each(table)('%j → %s', (status, palette) => {
    expect(statusColor(status)).toBe(palette);
  });

  it.each([
    ['PAID', 'green'],
    ['  Paid  ', 'green'],
    ['OverDue', 'orange'],
    ['IN PROGRESS', 'yellow'],
    ['in_progress', 'yellow'],
    ['in-progress', 'yellow'],
    ['in   progress', 'yellow'],
    ['\tPending\n', 'yellow'],
  ] as const)('normalises case and spacing: %j → %s', (status, palette) => {
    expect(statusColor(status)).toBe(palette);
  });

  it.each([
    ['Payment Failed', 'red'],
    ['Payment Completed', 'green'],
    ['Invoice overdue', 'orange'],
    ['Review pending', 'yellow'],
    ['New order', 'blue'],
    ['Refund: pending', 'yellow'],
    ['Canceled by user', 'red'],
    ['Card declined', 'red'],
  ] as const)('finds the word inside %j → %s', (status, palette) => {
    expect(statusColor(status)).toBe(palette);
  });

  it.each([
    // substrings of other words must not match
    ['unpaid', 'red'],
    ['inactive', 'gray'],
    ['prepaid', 'gray'],
    ['newsletter', 'gray'],
    ['errors', 'gray'],
    ['disconnected', 'red'],
    ['progress', 'gray'],
    ['in', 'gray'],
  ] as const)('matches whole words only: %j → %s', (status, palette) => {
    expect(statusColor(status)).toBe(palette);
  });

  it.each([
    ['Paid, refund failed', 'red'],
    ['Completed with error', 'red'],
    ['Pending approval, overdue', 'orange'],
    ['Draft pending', 'yellow'],
    ['Active draft', 'green'],
  ] as const)('lets the more alarming state win: %j → %s', (status, palette) => {
    expect(statusColor(status)).toBe(palette);
  });

  it.each([
    ['Not paid', 'red'],
    ['not approved', 'red'],
    ['Not connected', 'red'],
    ['non-active', 'red'],
    ['Not paid, overdue', 'orange'],
    ['Not paid yet but pending', 'yellow'],
    ['Not new', 'gray'],
    ['not', 'gray'],
  ] as const)('treats a negated word as not matching: %j → %s', (status, palette) => {
    expect(statusColor(status)).toBe(palette);
  });
});
