/**
 * The file name a URL's path ends with, decoded, for naming a fetched file (a feed, an image). A
 * malformed escape (`%E0%A4%A`, a lone `%`) is kept as it was written rather than thrown, so a URL
 * anyone may submit cannot turn into a 500 after its fetch.
 */
export function fileNameOfUrl(url: string, fallback: string, maxLength = 200): string {
  let last = '';
  try {
    last = new URL(url).pathname.split('/').pop() ?? '';
  } catch {
    return fallback;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    decoded = last;
  }
  // A decoded name may hold a path separator or control characters: neither belongs in a file name.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = decoded.replace(/[\u0000-\u001f\u007f/\\]/g, '').trim();
  return cleaned.slice(0, maxLength) || fallback;
}
