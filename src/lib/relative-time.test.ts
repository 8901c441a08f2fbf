import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const now = new Date('2024-06-15T12:00:00.000Z');
const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

const ago = (ms: number) => new Date(now.getTime() - ms);
const ahead = (ms: number) => new Date(now.getTime() + ms);

// Each unit's lower and upper edge, plus the first plural value.
const cases: [number, string][] = [
  [0, 'just now'],
  [999, 'just now'],
  [1 * s, '1 sec'],
  [1 * s + 999, '1 sec'],
  [2 * s, '2 secs'],
  [59 * s, '59 secs'],
  [60 * s - 1, '59 secs'],
  [1 * m, '1 min'],
  [2 * m - 1, '1 min'],
  [2 * m, '2 mins'],
  [59 * m, '59 mins'],
  [60 * m - 1, '59 mins'],
  [1 * h, '1 hr'],
  [2 * h - 1, '1 hr'],
  [2 * h, '2 hrs'],
  [23 * h, '23 hrs'],
  [24 * h - 1, '23 hrs'],
  [1 * d, '1 day'],
  [2 * d - 1, '1 day'],
  [2 * d, '2 days'],
  [29 * d, '29 days'],
  [30 * d - 1, '29 days'],
  [30 * d, '1 month'],
  [60 * d - 1, '1 month'],
  [60 * d, '2 months'],
  [359 * d, '11 months'],
  [360 * d, '12 months'],
  [365 * d - 1, '12 months'],
  [365 * d, '1 year'],
  [730 * d - 1, '1 year'],
  [730 * d, '2 years'],
  [3650 * d, '10 years'],
];

describe('relativeTime', () => {
  it.each(cases)('%d ms in the past → "%s ago"', (ms, phrase) => {
    expect(relativeTime(ago(ms), now)).toBe(phrase === 'just now' ? phrase : `${phrase} ago`);
  });

  it.each(cases)('%d ms in the future → "in %s"', (ms, phrase) => {
    expect(relativeTime(ahead(ms), now)).toBe(phrase === 'just now' ? phrase : `in ${phrase}`);
  });

  it('gives the spec examples', () => {
    expect(relativeTime(ago(5 * s), now)).toBe('5 secs ago');
    expect(relativeTime(ago(1 * m), now)).toBe('1 min ago');
    expect(relativeTime(ago(2 * m), now)).toBe('2 mins ago');
    expect(relativeTime(ahead(3 * d), now)).toBe('in 3 days');
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    expect(relativeTime('2024-06-15T11:55:00.000Z', now)).toBe('5 mins ago');
    expect(relativeTime(now.getTime() - 3 * h, now.getTime())).toBe('3 hrs ago');
    expect(relativeTime(ago(d), now.toISOString())).toBe('1 day ago');
  });

  it('defaults now to the current time', () => {
    expect(relativeTime(new Date(Date.now() - 10 * d))).toBe('10 days ago');
    expect(relativeTime(new Date(Date.now() + 10 * d + h))).toBe('in 10 days');
  });

  it.each([new Date(Number.NaN), 'not a date', Number.NaN])(
    'throws RangeError for invalid date %j',
    (bad) => {
      expect(() => relativeTime(bad, now)).toThrow(RangeError);
      expect(() => relativeTime(now, bad)).toThrow(RangeError);
    },
  );
});
