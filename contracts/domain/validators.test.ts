import { describe, expect, it } from 'vitest';
import {
  isSingleWord,
  isValidUrl,
  MAX_URL_LENGTH,
  parseRange,
  rangeSchema,
  singleWordSchema,
  urlSchema,
  validationMessages,
} from './validators';

const validUrls = [
  // spec
  'http://example.com',
  'https://sub.example.co.uk:8080/path?x=1',
  'http://localhost:3000',
  'http://127.0.0.1/x',
  // more
  'https://example.com/',
  'HTTPS://EXAMPLE.COM',
  'http://localhost',
  'http://localhost/health',
  'http://0.0.0.0',
  'http://255.255.255.255:65535',
  'http://10.0.0.1:1',
  'https://my-shop.example.com/a/b/c.html',
  'https://example.com/search?q=a&b=c#top',
  'https://example.com#section',
  'https://xn--bcher-kva.de',
  'https://bücher.de',
  'https://123.example.com',
];

const invalidUrls = [
  // spec
  'ftp://example.com',
  'example.com',
  'http://',
  'http://-bad-.com',
  'http://999.1.1.1',
  'http://exa mple.com',
  'http://example.com/a path',
  ' http://example.com',
  'http://example.com ',
  // more
  '',
  'https:/example.com',
  'https//example.com',
  'mailto:a@example.com',
  'javascript:alert(1)',
  '//example.com',
  'http://example',
  'http://example.c',
  'http://example.123',
  'http://bad-.com',
  'http://-bad.com',
  'http://ex..ample.com',
  'http://.example.com',
  'http://example.com.',
  'http://exa_mple.com',
  `http://${'a'.repeat(64)}.com`,
  'http://256.1.1.1',
  'http://1.2.3',
  'http://1.2.3.4.5',
  'http://01.2.3.4',
  'http://localhost:0',
  'http://localhost:65536',
  'http://localhost:99999',
  'http://localhost:',
  'http://localhost:abc',
  'http://user:pass@example.com',
  'http://[::1]/',
  'http://example.com\n',
];

describe('isValidUrl', () => {
  it.each(validUrls)('accepts %j', (url) => {
    expect(isValidUrl(url)).toBe(true);
  });

  it.each(invalidUrls)('rejects %j', (url) => {
    expect(isValidUrl(url)).toBe(false);
  });

  it('accepts a 63-character label but not a 64-character one', () => {
    expect(isValidUrl(`http://${'a'.repeat(63)}.com`)).toBe(true);
  });

  it('enforces the length cap', () => {
    const base = 'https://example.com/';
    expect(isValidUrl(base + 'a'.repeat(MAX_URL_LENGTH - base.length))).toBe(true);
    expect(isValidUrl(base + 'a'.repeat(MAX_URL_LENGTH - base.length + 1))).toBe(false);
  });
});

describe('urlSchema', () => {
  it('accepts and trims a valid URL', () => {
    expect(urlSchema.parse('  https://example.com/x  ')).toBe('https://example.com/x');
  });

  it.each(['ftp://example.com', 'example.com', 'http://999.1.1.1'])(
    'rejects %j with the URL message',
    (url) => {
      const result = urlSchema.safeParse(url);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([validationMessages.url]);
    },
  );

  it('rejects non-strings', () => {
    expect(urlSchema.safeParse(42).success).toBe(false);
  });
});

describe('parseRange', () => {
  it.each([
    ['1-5', 1, 5],
    ['0-1', 0, 1],
    ['4-5', 4, 5],
    ['10-200', 10, 200],
    ['1 - 5', 1, 5],
    ['  2-3  ', 2, 3],
    ['0.5-2', 0.5, 2],
    ['1.5-1.75', 1.5, 1.75],
    ['007-8', 7, 8],
  ])('%j → {start: %d, end: %d}', (input, start, end) => {
    expect(parseRange(input)).toEqual({ start, end });
  });

  it.each([
    // spec
    '5-1',
    '3-3',
    'a-5',
    '1-',
    // more
    '-5',
    '-',
    '',
    ' ',
    '1',
    '1-5-9',
    '1-b',
    '-1-5',
    '1--5',
    '1 5',
    '1–5',
    '1.-5',
    '.5-1',
    '1e2-1e3',
    '0x1-0x5',
    '1,5',
    '2.5-2.5',
    `1-${'9'.repeat(400)}`,
  ])('rejects %j', (input) => {
    expect(parseRange(input)).toBeNull();
  });
});

describe('rangeSchema', () => {
  it('outputs the parsed range', () => {
    expect(rangeSchema.parse(' 1-5 ')).toEqual({ start: 1, end: 5 });
  });

  it.each([
    ['5-1', validationMessages.rangeOrder],
    ['3-3', validationMessages.rangeOrder],
    ['a-5', validationMessages.rangeFormat],
    ['1-', validationMessages.rangeFormat],
    ['', validationMessages.rangeFormat],
  ])('rejects %j with %j', (input, message) => {
    const result = rangeSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([message]);
  });

  it('rejects non-strings', () => {
    expect(rangeSchema.safeParse(15).success).toBe(false);
  });
});

describe('isSingleWord', () => {
  it.each(['hello', 'Hello', 'A', 'ÄÖÜß', 'café', 'cafe\u0301', 'Москва', '東京', 'हिन्दी', 'مرحبا'])(
    'accepts %j',
    (word) => {
      expect(isSingleWord(word)).toBe(true);
    },
  );

  it.each([
    '',
    ' ',
    'two words',
    ' hello',
    'hello ',
    'hello1',
    '123',
    'well-known',
    "O'Brien",
    'snake_case',
    'hi!',
    '\u0301e',
    'tab\there',
    '😀',
  ])('rejects %j', (word) => {
    expect(isSingleWord(word)).toBe(false);
  });
});

describe('singleWordSchema', () => {
  it('accepts and trims a single word', () => {
    expect(singleWordSchema.parse('  Hello ')).toBe('Hello');
  });

  it.each(['two words', 'abc1', '', '   '])('rejects %j with the single-word message', (word) => {
    const result = singleWordSchema.safeParse(word);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([validationMessages.singleWord]);
  });
});
