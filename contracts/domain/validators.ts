import { z } from 'zod';

/*
 * Form/API validators (SPEC §5). Each check exists as a plain predicate/parser for ad-hoc use and as
 * a zod schema so the SPA forms and the Fastify routes reject exactly the same inputs with the same
 * messages. The predicates judge the raw string; the schemas trim first, because stray whitespace
 * around pasted form input should not be a validation error.
 */

export const validationMessages = Object.freeze({
  url: 'Enter a valid http:// or https:// URL, e.g. https://example.com',
  rangeFormat: 'Enter a range as start-end, e.g. 1-5',
  rangeOrder: 'The start of the range must be below the end',
  singleWord: 'Use a single word made of letters only',
});

// ---------------------------------------------------------------- URL

/** Generous upper bound: longer values are almost certainly pasted junk and break some proxies. */
export const MAX_URL_LENGTH = 2048;

// scheme :// host [:port] [/path] [?query] [#fragment]. No userinfo ("user:pass@host"): it is not in
// the spec and is a common way to disguise the real host in phishing links.
const URL_SHAPE = /^https?:\/\/([^\s/?#:@]+)(?::(\d{1,5}))?(\/[^\s?#]*)?(\?[^\s#]*)?(#\S*)?$/iu;

// 0–255 without leading zeros: "010" is octal to some parsers and decimal to others.
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

// Letters/digits with inner hyphens, at most 63 characters. Unicode letters are allowed so that
// internationalised domains typed by users (bücher.de) pass, as they do in a browser.
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
// The top-level label must not be numeric, which is what stops "999.1.1.1" passing as a domain.
const TLD = /^(?:\p{L}{2,63}|xn--[a-z\d-]{1,59})$/iu;

function isValidHost(host: string): boolean {
  const lower = host.toLowerCase();
  if (lower === 'localhost' || IPV4.test(lower)) return true;
  if (lower.length > 253) return false;
  const labels = lower.split('.');
  const tld = labels[labels.length - 1] ?? '';
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && TLD.test(tld);
}

/**
 * http(s) URL with a domain, "localhost" or an IPv4 address, an optional port (1–65535) and an
 * optional path, query and fragment. Single-label hosts other than localhost, IPv6 literals,
 * credentials and any whitespace are rejected.
 */
export function isValidUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH) return false;
  const match = URL_SHAPE.exec(value);
  if (!match) return false;
  const [, host = '', port] = match;
  if (port !== undefined) {
    const n = Number(port);
    if (n < 1 || n > 65535) return false;
  }
  return isValidHost(host);
}

export const urlSchema = z.string().trim().refine(isValidUrl, { error: validationMessages.url });

// ---------------------------------------------------------------- Range

export interface NumericRange {
  start: number;
  end: number;
}

// Non-negative numbers only: the hyphen is the separator, so "-3-5" would be ambiguous.
const RANGE = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)$/;

type RangeResult = { ok: true; range: NumericRange } | { ok: false; message: string };

function checkRange(value: string): RangeResult {
  const match = RANGE.exec(value.trim());
  if (!match) return { ok: false, message: validationMessages.rangeFormat };
  const start = Number(match[1]);
  const end = Number(match[2]);
  // Digit strings too long for a double parse to Infinity or lose precision; refuse rather than guess.
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    return { ok: false, message: validationMessages.rangeFormat };
  }
  if (start >= end) return { ok: false, message: validationMessages.rangeOrder };
  return { ok: true, range: { start, end } };
}

/**
 * Parses "start-end" (e.g. "1-5", "0.5 - 2") where both are non-negative numbers and start is
 * strictly below end. Surrounding whitespace is ignored. Returns null for anything else.
 */
export function parseRange(value: string): NumericRange | null {
  const result = checkRange(value);
  return result.ok ? result.range : null;
}

/** Validates a range string and outputs `{ start, end }`, with a message saying what was wrong. */
export const rangeSchema = z.string().transform((value, ctx): NumericRange => {
  const result = checkRange(value);
  if (result.ok) return result.range;
  ctx.addIssue(result.message);
  return z.NEVER;
});

// ---------------------------------------------------------------- Single word

// Any script's letters; combining marks are allowed after a letter because many scripts
// (Devanagari, decomposed accents) cannot be written with \p{L} alone.
const SINGLE_WORD = /^\p{L}[\p{L}\p{M}]*$/u;

/** One word of letters only (any alphabet): no spaces, digits, hyphens or apostrophes. */
export function isSingleWord(value: string): boolean {
  return SINGLE_WORD.test(value);
}

export const singleWordSchema = z
  .string()
  .trim()
  .regex(SINGLE_WORD, { error: validationMessages.singleWord });
