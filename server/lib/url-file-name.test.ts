import { describe, expect, it } from 'vitest';
import { fileNameOfUrl } from './url-file-name';

describe('fileNameOfUrl', () => {
  it('decodes the last path segment', () => {
    expect(fileNameOfUrl('https://shop.example/feeds/Price%20list.csv?x=1', 'feed')).toBe('Price list.csv');
    expect(fileNameOfUrl('https://shop.example/f/%E0%A4%95.xlsx', 'feed')).toBe('क.xlsx');
  });
  it('keeps a malformed escape as written instead of throwing', () => {
    expect(fileNameOfUrl('https://shop.example/feeds/100%.csv', 'feed')).toBe('100%.csv');
    expect(fileNameOfUrl('https://shop.example/feeds/%E0%A4%A.csv', 'feed')).toBe('%E0%A4%A.csv');
  });
  it('falls back when there is no name, and drops separators a decoded name may hold', () => {
    expect(fileNameOfUrl('https://shop.example/', 'feed')).toBe('feed');
    expect(fileNameOfUrl('not a url', 'feed')).toBe('feed');
    expect(fileNameOfUrl('https://shop.example/a%2F..%2Fb.csv', 'feed')).toBe('a..b.csv');
    expect(fileNameOfUrl(`https://shop.example/${'x'.repeat(300)}`, 'feed')).toHaveLength(200);
  });
});
