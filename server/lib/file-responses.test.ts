import { describe, expect, it } from 'vitest';
import { contentDisposition, etagMatches, fileEtag, requestedRange } from './file-responses';

describe('requestedRange', () => {
  const etag = fileEtag('x', 1000, 1);
  const range = (header: string | undefined, extra: { 'if-range'?: string } = {}) =>
    requestedRange({ range: header, ...extra }, 1000, etag);

  it('reads one range in each of its forms, clamped to the file', () => {
    expect(range('bytes=0-99')).toEqual({ start: 0, end: 99 });
    expect(range('bytes=900-')).toEqual({ start: 900, end: 999 });
    expect(range('bytes=-100')).toEqual({ start: 900, end: 999 });
    expect(range('bytes=-5000')).toEqual({ start: 0, end: 999 });
    expect(range('bytes=990-5000')).toEqual({ start: 990, end: 999 });
  });

  it('sends the whole file for no range, a malformed or multi-part one, or another version', () => {
    expect(range(undefined)).toBeNull();
    expect(range('bytes=-')).toBeNull();
    expect(range('items=0-1')).toBeNull();
    expect(range('bytes=5-1')).toBeNull();
    expect(range('bytes=0-1,5-9')).toBeNull();
    expect(range('bytes=0-99', { 'if-range': '"older"' })).toBeNull();
    expect(range('bytes=0-99', { 'if-range': etag })).toEqual({ start: 0, end: 99 });
  });

  it('is unsatisfiable outside the file', () => {
    expect(range('bytes=1000-')).toBe('unsatisfiable');
    expect(range('bytes=-0')).toBe('unsatisfiable');
    expect(requestedRange({ range: 'bytes=-1' }, 0, etag)).toBe('unsatisfiable');
  });
});

describe('etags', () => {
  it('changes with the size and the time written', () => {
    expect(fileEtag('a', 10, 1000)).not.toBe(fileEtag('a', 11, 1000));
    expect(fileEtag('a', 10, 1000)).not.toBe(fileEtag('a', 10, 2000));
  });

  it('matches any listed tag, weak or not, and *', () => {
    const etag = fileEtag('a', 10, 1000);
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches(`"other", W/${etag}`, etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
    expect(etagMatches('"other"', etag)).toBe(false);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name, with nothing that breaks the header', () => {
    expect(contentDisposition('inline', 'façade "1"\\x.jpg')).toBe(
      `inline; filename="fa_ade _1__x.jpg"; filename*=UTF-8''fa%C3%A7ade%20%221%22%5Cx.jpg`,
    );
  });
});
