// The SSRF-safe fetcher: what it refuses, and how it downloads from a local server posing as a public one.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FeedFetchError,
  type FeedFetchErrorCode,
  fetchToFile,
  isPublicAddress,
  type SafeFetchOptions,
} from './safe-fetch';

type Answer = { address: string; family: 4 | 6 };

let dir: string;
let destination: string;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'safe-fetch-'));
  destination = join(dir, 'feed.csv');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

interface TestServer {
  port: number;
  /** Path and Host header of every request the server received. */
  requests: { path: string; host: string | undefined }[];
}

/** An HTTP server on 127.0.0.1 and an ephemeral port, closed after the test. */
async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? '', host: req.headers.host });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address() as net.AddressInfo;
  return { port: address.port, requests };
}

/** A lookup override answering from a table, recording every hostname asked. */
function fakeDns(table: Record<string, Answer[]>) {
  const asked: string[] = [];
  const lookup = async (hostname: string): Promise<Answer[]> => {
    asked.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers;
  };
  return { asked, lookup };
}

const loopback: Answer[] = [{ address: '127.0.0.1', family: 4 }];

/** Options for the success paths: feed.test and cdn.test are "public" names of the local server. */
function localOptions(overrides: Partial<SafeFetchOptions> = {}) {
  const dns = fakeDns({ 'feed.test': loopback, 'cdn.test': loopback });
  const options: SafeFetchOptions = {
    maxBytes: 1024,
    timeoutMs: 5_000,
    isAllowedAddress: () => true,
    lookup: dns.lookup,
    ...overrides,
  };
  return { options, asked: dns.asked };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the fetch to fail');
    },
    (error: unknown) => error,
  );
}

async function expectFeedError(promise: Promise<unknown>, code: FeedFetchErrorCode): Promise<FeedFetchError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(FeedFetchError);
  expect((error as FeedFetchError).code).toBe(code);
  expect((error as FeedFetchError).message).toMatch(/^The feed .+\.$/);
  return error as FeedFetchError;
}

async function expectNoFiles() {
  expect(await readdir(dir)).toEqual([]);
}

// ---------------------------------------------------------------- isPublicAddress

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.255.255.255',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.1',
    '192.0.2.10',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
  ])('refuses IPv4 %s', (address) => {
    expect(isPublicAddress(address, 4)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
  ])('accepts public IPv4 %s', (address) => {
    expect(isPublicAddress(address, 4)).toBe(true);
  });

  it.each([
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'febf:ffff::1',
    'fe80::1%eth0',
    'ff02::1',
    'ff0e::1',
    '2001:db8::1',
    '2001:0db8:ffff::1',
    '100::1',
    '100::ffff:ffff:ffff:ffff',
    // IPv4-mapped, in both notations, and with private embedded addresses.
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:7F00:0001',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:0.0.0.0',
    // IPv4-compatible.
    '::127.0.0.1',
    '::7f00:1',
    '::10.1.2.3',
    // SIIT, NAT64 and 6to4 with a private IPv4 inside.
    '::ffff:0:127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::192.168.0.1',
    '64:ff9b:1::8.8.8.8',
    '2002:7f00:1::1',
    '2002:a00:1::',
  ])('refuses IPv6 %s', (address) => {
    expect(isPublicAddress(address, 6)).toBe(false);
  });

  it.each([
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('accepts public IPv6 %s', (address) => {
    expect(isPublicAddress(address, 6)).toBe(true);
  });

  // The IANA special-purpose ranges as ipaddr.js names them, reached in every form that carries one.
  it.each([
    // Carrier-grade NAT, multicast, reserved and broadcast, plain and inside IPv6.
    ['100.64.0.1', 4],
    ['100.100.100.200', 4], // a cloud's metadata address in the CGNAT block
    ['::ffff:100.64.0.1', 6],
    ['::ffff:224.0.0.251', 6],
    ['::ffff:240.0.0.1', 6],
    ['::ffff:255.255.255.255', 6],
    ['::ffff:0:10.0.0.1', 6],
    ['64:ff9b::100.64.0.1', 6],
    ['64:ff9b::e000:1', 6],
    ['2002:6440:1::1', 6], // 6to4 of 100.64.0.1
    ['2002:e000:1::1', 6], // 6to4 of 224.0.0.1
    ['2002:c0a8:101::1', 6], // 6to4 of 192.168.1.1
    // Teredo hides its IPv4 addresses (obfuscated), so every Teredo address is refused.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 6],
    ['2001::1', 6],
    // Other IPv6 special-purpose blocks.
    ['2001:2::1', 6], // benchmarking
    ['2001:10::1', 6], // ORCHID
    ['2001:20::1', 6], // ORCHIDv2
    ['3fff::1', 6], // documentation (RFC 9637)
    ['5f00::1', 6], // segment routing
    ['ff05::1:3', 6], // site-local multicast
    // Anycast service blocks (AS112, AMT): globally routed, but no feed lives there.
    ['192.175.48.1', 4],
    ['192.52.193.1', 4],
    ['2001:4:112::1', 6],
    ['2001:3::1', 6],
    // IPv4-compatible (deprecated) spelled out, and a zone id, even around a public address.
    ['0::808:808', 6],
    ['::0:8.8.8.8', 6],
    ['2606:4700:4700::1111%eth0', 6],
    // Not a plain dotted quad: a leading zero reads as octal in some parsers.
    ['010.0.0.1', 4],
  ] as const)('refuses the special-purpose %s (IPv%i)', (address, family) => {
    expect(isPublicAddress(address, family)).toBe(false);
  });

  // ipaddr.js reads the short IPv4-compatible form ::a.b.c.d as mapped: judged by its IPv4 address.
  it.each(['::ffff:0:8.8.8.8', '64:ff9b::1.1.1.1', '2002:101:101::', '2a01:4f8::1', '::8.8.8.8'])(
    'accepts %s, which stands for a public address',
    (address) => {
      expect(isPublicAddress(address, 6)).toBe(true);
    },
  );

  it.each([
    ['127.1', 4],
    ['2130706433', 4],
    ['0x7f.0.0.1', 4],
    ['0177.0.0.1', 4],
    ['localhost', 4],
    ['', 4],
    ['8.8.8.8', 6],
    ['2606:4700:4700::1111', 4],
    ['not an address', 6],
  ] as const)(
    'refuses %j given as family %i (not a well-formed address of that family)',
    (address, family) => {
      expect(isPublicAddress(address, family)).toBe(false);
    },
  );
});

// ---------------------------------------------------------------- Refusals before any connection

describe('fetchToFile refuses', () => {
  it.each([
    'ftp://example.com/feed.csv',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://',
    'http:///feed.csv',
    'https://user:pass@example.com/feed.csv',
    'https://user@example.com/feed.csv',
    'https://example.com@127.0.0.1/feed.csv',
    'example.com/feed.csv',
    'https://exa mple.com/feed.csv',
    'https://intranet/feed.csv',
    '',
  ])('the invalid URL %j without asking DNS', async (url) => {
    const dns = fakeDns({});
    await expectFeedError(
      fetchToFile(url, destination, { maxBytes: 1024, timeoutMs: 1_000, lookup: dns.lookup }),
      'INVALID_URL',
    );
    expect(dns.asked).toEqual([]);
    await expectNoFiles();
  });

  it('says what is wrong with a URL carrying credentials', async () => {
    const error = await expectFeedError(
      fetchToFile('https://user:pass@example.com/feed.csv', destination, {
        maxBytes: 1024,
        timeoutMs: 1_000,
      }),
      'INVALID_URL',
    );
    expect(error.message).toBe('The feed URL must not contain a user name or password.');
  });

  it.each([
    'http://127.0.0.1/feed.csv',
    'http://127.0.0.1:8080/feed.csv',
    'https://127.1.2.3/',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://192.168.1.1/admin',
    'http://172.16.0.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
  ])('the private or local address %s', async (url) => {
    const error = await expectFeedError(
      fetchToFile(url, destination, { maxBytes: 1024, timeoutMs: 1_000 }),
      'BLOCKED_ADDRESS',
    );
    expect(error.message).toBe(
      'The feed URL points to a private or local network address, which the server does not fetch.',
    );
    await expectNoFiles();
  });

  it('localhost, which passes the URL check but resolves to a loopback address (real DNS)', async () => {
    await expectFeedError(
      fetchToFile('http://localhost:8080/feed.csv', destination, { maxBytes: 1024, timeoutMs: 5_000 }),
      'BLOCKED_ADDRESS',
    );
  });

  it.each([
    'http://[::1]/feed.csv',
    'http://[::ffff:127.0.0.1]/',
    'http://[fe80::1]/',
    'http://[2606:4700:4700::1111]/',
  ])('the IPv6 literal %s, which the URL check (SPEC §5) does not accept', async (url) => {
    const dns = fakeDns({});
    await expectFeedError(
      fetchToFile(url, destination, { maxBytes: 1024, timeoutMs: 1_000, lookup: dns.lookup }),
      'INVALID_URL',
    );
    expect(dns.asked).toEqual([]);
  });

  it.each([
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0x7f.0.0.1/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://0/',
    'http://%31%32%37.0.0.1/',
    'http://127.0.0.1./',
    'http://１２７.０.０.１/',
  ])('the loopback address in the odd form %s', async (url) => {
    const dns = fakeDns({});
    const error = await failure(
      fetchToFile(url, destination, { maxBytes: 1024, timeoutMs: 1_000, lookup: dns.lookup }),
    );
    // The URL check refuses most of these outright; whatever it lets through, the WHATWG parser
    // turns into 127.0.0.1, which the address policy refuses. Either way, nothing is resolved.
    expect(error).toBeInstanceOf(FeedFetchError);
    expect(['INVALID_URL', 'BLOCKED_ADDRESS']).toContain((error as FeedFetchError).code);
    expect(dns.asked).toEqual([]);
  });

  it.each([
    [
      'one public and one private IPv4 address',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    ],
    [
      'a private address listed first',
      [
        { address: '192.168.0.10', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ],
    ],
    [
      'a public IPv4 and a loopback IPv6 address',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '::1', family: 6 },
      ],
    ],
    ['an IPv4-mapped loopback address', [{ address: '::ffff:127.0.0.1', family: 6 }]],
    ['the cloud metadata address', [{ address: '169.254.169.254', family: 4 }]],
    ['a NAT64 address wrapping a private one', [{ address: '64:ff9b::10.0.0.1', family: 6 }]],
  ] as [string, Answer[]][])('a hostname that resolves to %s', async (_label, answers) => {
    const dns = fakeDns({ 'feed.example.com': answers });
    await expectFeedError(
      fetchToFile('https://feed.example.com/products.csv', destination, {
        maxBytes: 1024,
        timeoutMs: 1_000,
        lookup: dns.lookup,
      }),
      'BLOCKED_ADDRESS',
    );
    expect(dns.asked).toEqual(['feed.example.com']);
    await expectNoFiles();
  });

  it('a hostname that does not resolve (DNS_FAILED)', async () => {
    const dns = fakeDns({});
    const error = await expectFeedError(
      fetchToFile('https://nowhere.example.com/feed.csv', destination, {
        maxBytes: 1024,
        timeoutMs: 1_000,
        lookup: dns.lookup,
      }),
      'DNS_FAILED',
    );
    expect(error.message).toContain('nowhere.example.com');
    await expectNoFiles();
  });

  it('a hostname with no addresses at all (DNS_FAILED)', async () => {
    await expectFeedError(
      fetchToFile('https://empty.example.com/feed.csv', destination, {
        maxBytes: 1024,
        timeoutMs: 1_000,
        lookup: async () => [],
      }),
      'DNS_FAILED',
    );
  });

  it('a DNS lookup that never answers, within the timeout (TIMEOUT)', async () => {
    await expectFeedError(
      fetchToFile('https://slow.example.com/feed.csv', destination, {
        maxBytes: 1024,
        timeoutMs: 200,
        lookup: () => new Promise(() => {}),
      }),
      'TIMEOUT',
    );
  });
});

// ---------------------------------------------------------------- Downloads from a local server

describe('fetchToFile downloads', () => {
  const csv = 'sku,title,price\nA-1,Mug,9.90\nB-2,Plate,12.50\n';

  it('writes the body to the destination, keeping the URL hostname in the Host header', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      res.end(csv);
    });
    const { options, asked } = localOptions();
    const url = `http://feed.test:${server.port}/exports/products.csv?token=abc#ignored`;
    const result = await fetchToFile(url, destination, options);
    expect(result).toEqual({
      bytes: Buffer.byteLength(csv),
      contentType: 'text/csv; charset=utf-8',
      finalUrl: url,
    });
    expect(await readFile(destination, 'utf8')).toBe(csv);
    expect(await readdir(dir)).toEqual(['feed.csv']);
    expect(server.requests).toEqual([
      { path: '/exports/products.csv?token=abc', host: `feed.test:${server.port}` },
    ]);
    // One lookup, by the fetcher: the socket was handed its answer and did not ask the system DNS
    // (which does not know feed.test and would have failed the fetch).
    expect(asked).toEqual(['feed.test']);
  });

  it('accepts a body of exactly maxBytes and replaces an existing file', async () => {
    await writeFile(destination, 'old feed');
    const body = 'x'.repeat(1024);
    const server = await startServer((_req, res) => res.end(body));
    const { options } = localOptions({ maxBytes: 1024 });
    const result = await fetchToFile(`http://feed.test:${server.port}/feed`, destination, options);
    expect(result.bytes).toBe(1024);
    expect(result.contentType).toBeNull();
    expect(await readFile(destination, 'utf8')).toBe(body);
    expect(await readdir(dir)).toEqual(['feed.csv']);
  });

  it('refuses a Content-Length above maxBytes before reading the body (TOO_LARGE)', async () => {
    const server = await startServer((_req, res) => {
      // Announce 50 KB, send a little and never finish: only the header can end this quickly.
      res.writeHead(200, { 'content-length': String(50 * 1024) });
      res.write('sku,price\n');
    });
    const { options } = localOptions({ maxBytes: 20 * 1024, timeoutMs: 15_000 });
    const error = await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/big`, destination, options),
      'TOO_LARGE',
    );
    expect(error.message).toBe('The feed is larger than 20 KB.');
    await expectNoFiles();
  });

  it('stops a chunked body that grows past maxBytes (TOO_LARGE) and leaves no file behind', async () => {
    await writeFile(destination, 'previous import');
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      const timer = setInterval(() => res.write('y'.repeat(512)), 2);
      req.socket.on('close', () => clearInterval(timer));
    });
    const { options } = localOptions({ maxBytes: 4096, timeoutMs: 15_000 });
    await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/endless`, destination, options),
      'TOO_LARGE',
    );
    // The earlier file is untouched and no temporary file is left.
    expect(await readdir(dir)).toEqual(['feed.csv']);
    expect(await readFile(destination, 'utf8')).toBe('previous import');
  });

  it('gives up on a body that never ends (TIMEOUT)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('sku,price\n');
    });
    const { options } = localOptions({ timeoutMs: 300 });
    const error = await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/slow`, destination, options),
      'TIMEOUT',
    );
    expect(error.message).toBe('The feed server did not answer within 0.3 seconds.');
    await expectNoFiles();
  });

  it('gives up on a server that never sends headers (TIMEOUT)', async () => {
    const server = await startServer(() => {});
    const { options } = localOptions({ timeoutMs: 300 });
    await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/silent`, destination, options),
      'TIMEOUT',
    );
    await expectNoFiles();
  });

  it('counts the timeout over the whole fetch, not per redirect', async () => {
    // Each hop answers in 120 ms, well within 300 ms, but four of them are not.
    const server = await startServer((req, res) => {
      const n = Number(req.url?.slice(1));
      setTimeout(() => {
        if (n < 3) res.writeHead(302, { location: `/${n + 1}` }).end();
        else res.end('done');
      }, 120);
    });
    const { options } = localOptions({ timeoutMs: 300 });
    await expectFeedError(fetchToFile(`http://feed.test:${server.port}/0`, destination, options), 'TIMEOUT');
    await expectNoFiles();
  });

  it('fails a body cut short of its Content-Length (NETWORK) and leaves no file behind', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part of it', () => res.socket?.destroy());
    });
    const { options } = localOptions();
    await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/cut`, destination, options),
      'NETWORK',
    );
    await expectNoFiles();
  });

  it.each([
    [404, 'The feed server answered 404 Not Found.'],
    [500, 'The feed server answered 500 Internal Server Error.'],
    [304, 'The feed server answered 304 Not Modified.'],
    [302, 'The feed server answered 302 Found.'], // a redirect without a Location
  ])('refuses a %i answer (HTTP_STATUS)', async (status, message) => {
    const server = await startServer((_req, res) => res.writeHead(status).end('not a feed'));
    const { options } = localOptions();
    const error = await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/feed`, destination, options),
      'HTTP_STATUS',
    );
    expect(error.message).toBe(message);
    await expectNoFiles();
  });

  it('rejects with the reason of an aborted signal and leaves no file behind', async () => {
    let started!: () => void;
    const bodyStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('sku,price\n', () => started());
    });
    const controller = new AbortController();
    const { options } = localOptions({ signal: controller.signal });
    const fetching = failure(fetchToFile(`http://feed.test:${server.port}/feed`, destination, options));
    // (If the fetch fails before the body starts, the race ends at once and the asserts below fail.)
    await Promise.race([bodyStarted, fetching]);
    controller.abort();
    const error = await fetching;
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    await expectNoFiles();
  });

  it('does not start with an already aborted signal', async () => {
    const server = await startServer((_req, res) => res.end(csv));
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    const { options, asked } = localOptions({ signal: controller.signal });
    const error = await failure(fetchToFile(`http://feed.test:${server.port}/feed`, destination, options));
    expect((error as Error).message).toBe('shutting down');
    expect(asked).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});

// ---------------------------------------------------------------- Redirects

describe('fetchToFile redirects', () => {
  /** /hop/N redirects to /hop/N+1 until N reaches `last`, which answers the feed. */
  async function chain(last: number) {
    return startServer((req, res) => {
      const n = Number(req.url?.split('/')[2]);
      if (n < last) res.writeHead(302, { location: `/hop/${n + 1}` }).end();
      else res.end(`feed after ${n} redirects`);
    });
  }

  it('follows a redirect chain within the limit, across hosts, checking each hop', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/a') res.writeHead(301, { location: '/b' }).end();
      else if (req.url === '/b')
        res.writeHead(307, { location: `http://cdn.test:${server.port}/c?x=1` }).end();
      else if (req.url === '/c?x=1') res.writeHead(308, { location: 'd' }).end();
      else res.writeHead(200, { 'content-type': 'text/csv' }).end('sku\nA-1\n');
    });
    const allowed: string[] = [];
    const { options, asked } = localOptions({
      isAllowedAddress: (address) => {
        allowed.push(address);
        return true;
      },
    });
    const result = await fetchToFile(`http://feed.test:${server.port}/a`, destination, options);
    expect(result.finalUrl).toBe(`http://cdn.test:${server.port}/d`);
    expect(await readFile(destination, 'utf8')).toBe('sku\nA-1\n');
    expect(server.requests).toEqual([
      { path: '/a', host: `feed.test:${server.port}` },
      { path: '/b', host: `feed.test:${server.port}` },
      { path: '/c?x=1', host: `cdn.test:${server.port}` },
      { path: '/d', host: `cdn.test:${server.port}` },
    ]);
    // Every hop was resolved and vetted again.
    expect(asked).toEqual(['feed.test', 'feed.test', 'cdn.test', 'cdn.test']);
    expect(allowed).toHaveLength(4);
  });

  it('follows exactly maxRedirects redirects', async () => {
    const server = await chain(3);
    const { options } = localOptions();
    const result = await fetchToFile(`http://feed.test:${server.port}/hop/0`, destination, options);
    expect(await readFile(destination, 'utf8')).toBe('feed after 3 redirects');
    expect(result.finalUrl).toBe(`http://feed.test:${server.port}/hop/3`);
  });

  it('refuses a fourth redirect with the default maxRedirects of 3 (TOO_MANY_REDIRECTS)', async () => {
    const server = await chain(4);
    const { options } = localOptions();
    const error = await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/hop/0`, destination, options),
      'TOO_MANY_REDIRECTS',
    );
    expect(error.message).toBe('The feed URL redirected more than 3 times.');
    expect(server.requests.map((r) => r.path)).toEqual(['/hop/0', '/hop/1', '/hop/2', '/hop/3']);
    await expectNoFiles();
  });

  it('refuses any redirect with maxRedirects 0', async () => {
    const server = await chain(1);
    const { options } = localOptions({ maxRedirects: 0 });
    await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/hop/0`, destination, options),
      'TOO_MANY_REDIRECTS',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an endless redirect loop', async () => {
    const server = await startServer((_req, res) => res.writeHead(302, { location: '/loop' }).end());
    const { options } = localOptions();
    await expectFeedError(
      fetchToFile(`http://feed.test:${server.port}/loop`, destination, options),
      'TOO_MANY_REDIRECTS',
    );
  });

  describe('checks every hop with the default address policy', () => {
    // feed.test is let through once (it stands in for a public server); every later address is
    // judged by the real default rule, so the redirect target below must be refused on its own.
    function firstHopOnly(extraDns: Record<string, Answer[]> = {}) {
      let calls = 0;
      const dns = fakeDns({ 'feed.test': loopback, ...extraDns });
      const options: SafeFetchOptions = {
        maxBytes: 1024,
        timeoutMs: 5_000,
        lookup: dns.lookup,
        isAllowedAddress: (address, family) => (calls++ === 0 ? true : isPublicAddress(address, family)),
      };
      return options;
    }

    it.each([
      ['the loopback address', (port: number) => `http://127.0.0.1:${port}/secret`, 'BLOCKED_ADDRESS'],
      ['a hex form of loopback', (port: number) => `http://0x7f.1:${port}/secret`, 'BLOCKED_ADDRESS'],
      ['a decimal form of loopback', (port: number) => `http://2130706433:${port}/secret`, 'BLOCKED_ADDRESS'],
      ['localhost', (port: number) => `http://localhost:${port}/secret`, 'BLOCKED_ADDRESS'],
      ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', 'BLOCKED_ADDRESS'],
      [
        'a name that resolves privately',
        (port: number) => `http://internal.test:${port}/secret`,
        'BLOCKED_ADDRESS',
      ],
      ['an IPv6 loopback literal', (port: number) => `http://[::1]:${port}/secret`, 'INVALID_URL'],
      [
        'a URL with credentials',
        (port: number) => `http://admin:admin@feed.test:${port}/secret`,
        'INVALID_URL',
      ],
      ['a non-http scheme', () => 'file:///etc/passwd', 'INVALID_URL'],
      ['a name that does not resolve', (port: number) => `http://gone.test:${port}/secret`, 'DNS_FAILED'],
    ] as const)('refuses a redirect to %s', async (_label, target, code) => {
      const server = await startServer((req, res) => {
        if (req.url === '/start') res.writeHead(302, { location: target(server.port) }).end();
        else res.end('internal secrets');
      });
      const options = firstHopOnly({
        'internal.test': [{ address: '10.0.0.1', family: 4 }],
        localhost: [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      });
      const error = await expectFeedError(
        fetchToFile(`http://feed.test:${server.port}/start`, destination, options),
        code,
      );
      if (code === 'BLOCKED_ADDRESS') {
        expect(error.message).toBe(
          'The feed server redirected to a private or local network address, which the server does not fetch.',
        );
      }
      // Only the redirect itself was served: the second hop never reached the server.
      expect(server.requests.map((r) => r.path)).toEqual(['/start']);
      await expectNoFiles();
    });
  });
});

// ---------------------------------------------------------------- Pinning

describe('fetchToFile pins the vetted address', () => {
  it('connects to the first answer even when the name would resolve elsewhere later (DNS rebinding)', async () => {
    const server = await startServer((_req, res) => res.end('internal secrets'));
    // First answer: an address the policy accepts (127.0.0.2 stands in for a public server; nothing
    // listens there). Every later answer: the loopback server the policy would refuse.
    let lookups = 0;
    const options: SafeFetchOptions = {
      maxBytes: 1024,
      timeoutMs: 2_000,
      isAllowedAddress: (address) => address === '127.0.0.2',
      lookup: async () => [{ address: lookups++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }],
    };
    const error = await failure(fetchToFile(`http://rebind.test:${server.port}/`, destination, options));
    expect(error).toBeInstanceOf(FeedFetchError);
    expect(['NETWORK', 'TIMEOUT']).toContain((error as FeedFetchError).code);
    expect(lookups).toBe(1);
    expect(server.requests).toEqual([]);
    await expectNoFiles();
  });

  it('reaches the server only through the vetted answer, never a second lookup', async () => {
    const server = await startServer((_req, res) => res.end('feed'));
    // The reverse: the first (vetted) answer is the server; a second lookup would give an address
    // the policy refuses and where nothing listens.
    let lookups = 0;
    const options: SafeFetchOptions = {
      maxBytes: 1024,
      timeoutMs: 2_000,
      isAllowedAddress: (address) => address === '127.0.0.1',
      lookup: async () => [{ address: lookups++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }],
    };
    await fetchToFile(`http://rebind.test:${server.port}/`, destination, options);
    expect(lookups).toBe(1);
    expect(await readFile(destination, 'utf8')).toBe('feed');
  });

  it('sends the URL hostname, not the address, as the TLS servername', async () => {
    // A bare TCP server that reads the TLS ClientHello, notes its SNI and hangs up.
    const names: (string | null)[] = [];
    const tcp = net.createServer((socket) => {
      let buffered = Buffer.alloc(0);
      socket.on('data', (data) => {
        buffered = Buffer.concat([buffered, data]);
        if (buffered.length >= 5 && buffered.length >= 5 + buffered.readUInt16BE(3)) {
          names.push(serverName(buffered));
          socket.destroy();
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => tcp.close(() => resolve())));
    const { port } = tcp.address() as net.AddressInfo;
    const { options } = localOptions();
    await expectFeedError(fetchToFile(`https://feed.test:${port}/feed.csv`, destination, options), 'NETWORK');
    expect(names).toEqual(['feed.test']);
    await expectNoFiles();
  });
});

/** The server_name in a TLS ClientHello record, or null. */
function serverName(record: Buffer): string | null {
  // Record header (5) + handshake header (4) + version (2) + random (32).
  let at = 5 + 4 + 2 + 32;
  at += 1 + record.readUInt8(at); // session id
  at += 2 + record.readUInt16BE(at); // cipher suites
  at += 1 + record.readUInt8(at); // compression methods
  const end = at + 2 + record.readUInt16BE(at);
  at += 2;
  while (at + 4 <= end) {
    const type = record.readUInt16BE(at);
    const length = record.readUInt16BE(at + 2);
    if (type === 0) {
      // server_name_list length (2), name type (1), name length (2), name.
      const nameLength = record.readUInt16BE(at + 4 + 3);
      return record.toString('latin1', at + 4 + 5, at + 4 + 5 + nameLength);
    }
    at += 4 + length;
  }
  return null;
}
