import { randomBytes } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isValidUrl } from '../../contracts/domain/validators';
import { CodedError } from './coded-error';

/*
 * Downloads a URL a user gave us (a seller's product feed, later other user-given URLs) without
 * letting that user make the server reach its own network (SSRF). Every hop, the first URL and each
 * redirect target alike, is checked the same way:
 *
 *  1. the URL must pass the SPEC §5 check (isValidUrl), be http(s) and carry no user:password@;
 *  2. its host is resolved, and the hop is refused if ANY address is not public (a name that
 *     answers with one public and one private address is as dangerous as a private one);
 *  3. the connection is made to the vetted addresses only: they are handed to the socket through
 *     the request's `lookup` option, so no second DNS query happens and a DNS rebinding between the
 *     check and the connect cannot move the connection. The Host header and the TLS servername
 *     (and certificate check) still use the URL's hostname.
 *
 * The whole fetch (DNS, redirects, headers and body) runs under one deadline, and the body is
 * streamed to a temporary file next to the destination that is renamed into place when complete
 * and removed on any failure.
 */

export type FeedFetchErrorCode =
  | 'INVALID_URL'
  | 'BLOCKED_ADDRESS'
  | 'DNS_FAILED'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'NETWORK';

/** A URL the server refuses to fetch, or a fetch that failed; `message` is a sentence for the user. */
export class FeedFetchError extends CodedError<FeedFetchErrorCode> {
  override name = 'FeedFetchError';
}

export interface SafeFetchOptions {
  /** Stop and fail (TOO_LARGE) past this many body bytes; reject early on a larger Content-Length. */
  maxBytes: number;
  /** The WHOLE fetch (all redirects, headers and body) must end within this. */
  timeoutMs: number;
  /** Default 3; each hop is checked again like the first URL. */
  maxRedirects?: number;
  /** Aborting it stops the fetch; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Tests only: decides whether a resolved address may be contacted (default: public addresses only). */
  isAllowedAddress?: (address: string, family: 4 | 6) => boolean;
  /** Tests only: DNS lookup override (default dns.promises.lookup with all: true). */
  lookup?: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;
}

export interface SafeFetchResult {
  bytes: number;
  contentType: string | null;
  finalUrl: string;
}

const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// ---------------------------------------------------------------- Address policy

// ipaddr.js names the IANA special-purpose ranges (RFC 6890 and later); only its `unicast`, the
// address in none of them, may be contacted. That also refuses the anycast service blocks (AS112,
// AMT) and the rest of 2001::/23: no feed lives there.
const PUBLIC = 'unicast';

/** The IPv4 address in the last 32 bits of an IPv6 address. */
const lowIPv4 = (address: ipaddr.IPv6) => new ipaddr.IPv4(address.toByteArray().slice(12));

/**
 * The IPv4 address an IPv6 address stands for, if any: mapped (::ffff:a.b.c.d), SIIT translated
 * (::ffff:0:a.b.c.d), the well-known NAT64 prefix (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::/48);
 * ipaddr.js reads the deprecated IPv4-compatible ::a.b.c.d as mapped, so it is judged the same way
 * (its other spellings fall outside 2000::/3).
 * `null` for the forms whose IPv4 address cannot be judged (Teredo obfuscates it; local-use NAT64
 * 64:ff9b:1::/48 translates into a private network), which are refused outright.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | undefined {
  switch (address.range()) {
    case 'ipv4Mapped':
      return address.toIPv4Address();
    case 'rfc6145':
      return lowIPv4(address);
    case 'rfc6052':
      return address.parts[2] === 0 ? lowIPv4(address) : null;
    case '6to4': {
      const [, high = 0, low = 0] = address.parts;
      return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
    }
    case 'teredo':
      return null;
    default:
      return undefined;
  }
}

/** 2000::/3, the only IPv6 block handed out for global unicast. */
const globalUnicast = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Whether `address` is a public unicast address the server may contact. Anything that is not a
 * well-formed address of the stated family (a plain dotted quad for IPv4, no zone id for IPv6) is
 * refused. IPv6 addresses that embed an IPv4 address are judged by that IPv4 address; other IPv6
 * addresses must be global unicast (2000::/3) and outside the special-purpose ranges.
 */
export function isPublicAddress(address: string, family: 4 | 6): boolean {
  if (family === 4) {
    return ipaddr.IPv4.isValidFourPartDecimal(address) && ipaddr.IPv4.parse(address).range() === PUBLIC;
  }
  if (family !== 6 || !ipaddr.IPv6.isValid(address)) return false;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.zoneId !== undefined) return false;
  const v4 = embeddedIPv4(v6);
  if (v4 !== undefined) return v4 !== null && v4.range() === PUBLIC;
  return v6.match(globalUnicast) && v6.range() === PUBLIC;
}

// ---------------------------------------------------------------- Messages

function formatBytes(bytes: number): string {
  const round = (n: number) => String(Math.round(n * 10) / 10);
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`;
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** Messages for the first URL and for a redirect target. */
function invalidUrl(hop: number, what: 'scheme' | 'credentials' | 'shape'): FeedFetchError {
  const subject = hop === 0 ? 'The feed URL' : 'The feed server redirected to a URL that';
  const messages = {
    scheme:
      hop === 0
        ? 'The feed URL must start with http:// or https:// and name a server.'
        : 'The feed server redirected to a URL that does not start with http:// or https://.',
    credentials:
      hop === 0
        ? 'The feed URL must not contain a user name or password.'
        : `${subject} contains a user name or password, which the server does not fetch.`,
    shape:
      hop === 0
        ? 'The feed URL must start with http:// or https:// and name a server.'
        : `${subject} is not a valid http:// or https:// address.`,
  };
  return new FeedFetchError(messages[what], 'INVALID_URL');
}

function blockedAddress(hop: number): FeedFetchError {
  return new FeedFetchError(
    hop === 0
      ? 'The feed URL points to a private or local network address, which the server does not fetch.'
      : 'The feed server redirected to a private or local network address, which the server does not fetch.',
    'BLOCKED_ADDRESS',
  );
}

function networkMessage(code: string): string {
  if (code === 'ECONNREFUSED') return 'The feed server refused the connection.';
  if (code === 'ECONNRESET') return 'The feed server closed the connection before the feed was complete.';
  if (code.startsWith('HPE_')) return 'The feed server sent a response that is not valid HTTP.';
  const tls = [
    'EPROTO',
    'ERR_TLS',
    'ERR_SSL',
    'CERT_',
    'UNABLE_TO_',
    'DEPTH_ZERO_SELF_SIGNED',
    'SELF_SIGNED',
  ];
  if (tls.some((prefix) => code.startsWith(prefix))) {
    return "The feed server's secure (https) connection could not be verified.";
  }
  return 'The feed could not be downloaded because the connection to its server failed.';
}

function networkError(cause: unknown): FeedFetchError {
  const code = (cause as { code?: unknown } | null)?.code;
  return new FeedFetchError(networkMessage(typeof code === 'string' ? code : ''), 'NETWORK', { cause });
}

// ---------------------------------------------------------------- Fetching

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Checks a URL's shape; `raw` is the URL as given (first hop) or the resolved redirect target. */
function checkUrl(raw: string, hop: number): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl(hop, 'shape');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidUrl(hop, 'scheme');
  if (url.username !== '' || url.password !== '') throw invalidUrl(hop, 'credentials');
  if (!isValidUrl(raw)) throw invalidUrl(hop, 'shape');
  return url;
}

/** The URL's hostname as a socket wants it (IPv6 literals lose their brackets). */
function bareHostname(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dns.lookup(hostname, { all: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/** Rejects with the signal's reason as soon as it aborts, whatever `promise` is doing. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Resolves the URL's host and refuses it unless every address is allowed. */
async function vetHost(
  url: URL,
  hop: number,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const hostname = bareHostname(url);
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal === 4 || literal === 6) {
    addresses = [{ address: hostname, family: literal }];
  } else {
    try {
      addresses = await untilAborted((options.lookup ?? defaultLookup)(hostname), signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new FeedFetchError(`The feed server's name (${hostname}) could not be found.`, 'DNS_FAILED', {
        cause: error,
      });
    }
    if (addresses.length === 0) {
      throw new FeedFetchError(`The feed server's name (${hostname}) could not be found.`, 'DNS_FAILED');
    }
  }
  const allowed = options.isAllowedAddress ?? isPublicAddress;
  if (!addresses.every(({ address, family }) => allowed(address, family))) throw blockedAddress(hop);
  return addresses;
}

/** A `lookup` for the socket that answers with the vetted addresses and never asks DNS again. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
    const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
    process.nextTick(() => {
      const first = usable[0];
      if (!first) {
        const error: NodeJS.ErrnoException = new Error('No vetted address of the requested family');
        error.code = 'ENOTFOUND';
        callback(error, '');
      } else if (lookupOptions.all) {
        callback(
          null,
          usable.map(({ address, family }) => ({ address, family })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

/** Sends a GET for `url` to the vetted addresses; resolves when the response headers arrive. */
function sendRequest(
  url: URL,
  addresses: ResolvedAddress[],
  signal: AbortSignal,
): { request: http.ClientRequest; response: Promise<IncomingMessage> } {
  const hostname = bareHostname(url);
  const transport = url.protocol === 'https:' ? https : http;
  const request = transport.request({
    protocol: url.protocol,
    hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    // A fresh socket per request: a pooled one might have been opened to an address nobody vetted.
    agent: false,
    lookup: pinnedLookup(addresses),
    // The certificate is checked against the URL's hostname; an IP literal sends no SNI.
    ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
    headers: {
      accept: '*/*',
      // Counting compressed bytes against maxBytes and writing them as-is keeps limits honest.
      'accept-encoding': 'identity',
      'user-agent': 'marketplace-backoffice-feed-fetcher/1',
    },
    signal,
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.on('error', (error) => reject(signal.aborted ? signal.reason : networkError(error)));
  });
  // Errors after the response are handled while reading it; keep them from going uncaught.
  response.catch(() => {});
  request.end();
  return { request, response };
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** Streams the body to a temporary file next to `destination`, then renames it into place. */
async function saveBody(
  response: IncomingMessage,
  destination: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<number> {
  const tooLarge = () => new FeedFetchError(`The feed is larger than ${formatBytes(maxBytes)}.`, 'TOO_LARGE');
  const declared = response.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge();

  const onAbort = () => response.destroy(new Error('The fetch was aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  const temporary = `${destination}.${randomBytes(8).toString('hex')}.part`;
  let handle: FileHandle | undefined;
  let done = false;
  try {
    handle = await open(temporary, 'wx', 0o600);
    let bytes = 0;
    const chunks = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw networkError(error);
      }
      if (signal.aborted) throw signal.reason;
      if (next.done) break;
      bytes += next.value.length;
      if (bytes > maxBytes) throw tooLarge();
      await writeAll(handle, next.value);
    }
    if (!response.complete) {
      throw new FeedFetchError(
        'The feed server closed the connection before the feed was complete.',
        'NETWORK',
      );
    }
    await handle.close();
    handle = undefined;
    await rename(temporary, destination);
    done = true;
    return bytes;
  } finally {
    signal.removeEventListener('abort', onAbort);
    response.destroy();
    if (!done) {
      await handle?.close().catch(() => {});
      await rm(temporary, { force: true }).catch(() => {});
    }
  }
}

function checkOptions(options: SafeFetchOptions): number {
  const { maxBytes, timeoutMs, maxRedirects = DEFAULT_MAX_REDIRECTS } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError('maxBytes must be a whole number ≥ 0');
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a number > 0');
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0) {
    throw new RangeError('maxRedirects must be a whole number ≥ 0');
  }
  return maxRedirects;
}

/**
 * Checks the URL (isValidUrl, http or https only, no user:password@), resolves it, refuses it if ANY
 * resolved address is not public, connects to the vetted address only (pinned through the
 * request's `lookup` option; the Host header and TLS servername stay the URL's hostname), follows up
 * to maxRedirects 3xx Location hops (each re-checked), accepts only 2xx, and streams the body to
 * `destination` (a temporary name renamed when complete, removed on any failure).
 *
 * Rejects with a FeedFetchError for anything the user can act on; if `options.signal` aborts, with
 * the signal's reason; file-system errors (e.g. a missing destination folder) are passed through.
 */
export async function fetchToFile(
  url: string,
  destination: string,
  options: SafeFetchOptions,
): Promise<SafeFetchResult> {
  const maxRedirects = checkOptions(options);
  options.signal?.throwIfAborted();

  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => {
    controller.abort(
      new FeedFetchError(
        `The feed server did not answer within ${formatDuration(options.timeoutMs)}.`,
        'TIMEOUT',
      ),
    );
  }, options.timeoutMs);
  const forwardAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', forwardAbort, { once: true });

  let request: http.ClientRequest | undefined;
  try {
    let current = checkUrl(url, 0);
    for (let hop = 0; ; hop++) {
      const addresses = await vetHost(current, hop, options, signal);
      const sent = sendRequest(current, addresses, signal);
      request = sent.request;
      const response = await sent.response;
      const status = response.statusCode ?? 0;
      const location = response.headers.location;

      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        response.destroy();
        request.destroy();
        if (hop >= maxRedirects) {
          throw new FeedFetchError(
            `The feed URL redirected more than ${maxRedirects} ${maxRedirects === 1 ? 'time' : 'times'}.`,
            'TOO_MANY_REDIRECTS',
          );
        }
        let next: string;
        try {
          next = new URL(location, current).href;
        } catch {
          throw invalidUrl(hop + 1, 'shape');
        }
        current = checkUrl(next, hop + 1);
        continue;
      }

      if (status < 200 || status > 299) {
        response.destroy();
        const reason = http.STATUS_CODES[status];
        throw new FeedFetchError(
          `The feed server answered ${status}${reason ? ` ${reason}` : ''}.`,
          'HTTP_STATUS',
        );
      }

      const bytes = await saveBody(response, destination, options.maxBytes, signal);
      const contentType = response.headers['content-type'] ?? null;
      return { bytes, contentType, finalUrl: current.href };
    }
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
    request?.destroy();
  }
}
