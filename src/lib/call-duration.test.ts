import { describe, expect, it } from 'vitest';
import { formatCallDuration } from './call-duration';

describe('formatCallDuration', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [59, '0:59'],
    [60, '1:00'],
    [65, '1:05'],
    [600, '10:00'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [36_000 + 61, '10:01:01'],
  ])('%i seconds reads %s', (seconds, text) => {
    expect(formatCallDuration(seconds)).toBe(text);
  });

  it('drops fractions of a second', () => {
    expect(formatCallDuration(65.9)).toBe('1:05');
  });

  it('reads 0:00 for negative or non-numeric durations', () => {
    expect(formatCallDuration(-3)).toBe('0:00');
    expect(formatCallDuration(Number.NaN)).toBe('0:00');
    expect(formatCallDuration(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
});
