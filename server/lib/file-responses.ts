// The HTTP side of serving a stored file: its validator (ETag) and conditional requests, byte ranges
// (browsers seek in a video with them; Safari plays none without), and a Content-Disposition that is
// safe whatever the uploader named the file.

/** RFC 6266: a plain ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A strong ETag for one version of a file: what it is, its size and when it was written. */
export function fileEtag(key: string, size: number, modifiedMs: number): string {
  return `"${key}-${size.toString(36)}-${Math.floor(modifiedMs).toString(36)}"`;
}

/** If-None-Match: whether the client's copy (any of its tags, weak or not, or `*`) is this version. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

export type ByteRange = { start: number; end: number };

/**
 * The one byte range a request asks for (`bytes=0-99`, `bytes=100-`, `bytes=-100`), `'unsatisfiable'`
 * when it lies outside the file, or null to send the whole file: no Range, a malformed or multi-part
 * one (RFC 9110 lets a server ignore those), or an If-Range naming another version.
 */
export function requestedRange(
  headers: { range?: string; 'if-range'?: string },
  size: number,
  etag: string,
): ByteRange | 'unsatisfiable' | null {
  const header = headers.range;
  if (!header) return null;
  if (headers['if-range'] !== undefined && headers['if-range'] !== etag) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1] as string, match[2] as string];
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
