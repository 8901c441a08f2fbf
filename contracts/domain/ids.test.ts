import { describe, expect, it } from 'vitest';
import { isUuid, uuidsOnly } from './ids';

describe('isUuid', () => {
  it('takes a UUID of any version, in either case', () => {
    expect(isUuid('0b6f3c1e-8a4d-4f2b-9c7e-1d2e3f4a5b6c')).toBe(true);
    expect(isUuid('0B6F3C1E-8A4D-4F2B-9C7E-1D2E3F4A5B6C')).toBe(true);
    expect(isUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
  });

  it('refuses anything else', () => {
    for (const value of [
      '',
      'abc',
      '0b6f3c1e-8a4d-4f2b-9c7e-1d2e3f4a5b6',
      ' 0b6f3c1e-8a4d-4f2b-9c7e-1d2e3f4a5b6c',
      12,
      null,
    ]) {
      expect(isUuid(value)).toBe(false);
    }
  });

  it('keeps only the UUIDs of a list', () => {
    expect(uuidsOnly(['x', 7, '0b6f3c1e-8a4d-4f2b-9c7e-1d2e3f4a5b6c'])).toEqual([
      '0b6f3c1e-8a4d-4f2b-9c7e-1d2e3f4a5b6c',
    ]);
  });
});
