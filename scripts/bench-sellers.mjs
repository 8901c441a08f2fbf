// The seller list at scale, for `npm run bench`: seeds 100k sellers with the real seed command, starts
// the real server on 127.0.0.1, signs in as the demo admin and measures what the Manage Sellers page
// waits for, through HTTP: list pages (shallow, middle, deep), each tab at random depths, and searches.
// Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (in a
// database of its own, dropped afterwards). Every step has a time limit, so the bench always ends.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { childEnv, startServer, track } from './bench-children.mjs';

const SELLERS = 100_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
// One admin at a time (the latency of a page as such), then four at once (PGlite answers one query
// at a time, so there the latency also holds the wait behind the others).
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,4').split(',').map(Number);
const WARMUP = 30;
const SCENARIO_LIMIT_MS = 30_000;
const PAGE_SIZE = 10;
const TARGETS = { listP95Ms: 20, searchP95Ms: 50 };

// Fragments people type: a word of a shop name (about 2% of sellers each) and a person's e-mail name
// (about 0.2% each); see server/seed/bulk-sellers.ts for how the names are made.
const nameFragments = [
  'saffron',
  'lotus cer',
  'granite',
  'peacock app',
  'zenith',
  'orchid',
  'monsoon t',
  'tamar',
];
const emailFragments = [
  'meera.iyer',
  'arjun.patel',
  'kavya.nair',
  'rohan.kap',
  'sana.khan',
  'vikram.rao',
  'ishaan.me',
];
const tabs = [
  { key: 'active', filter: 'isActive=true', countKey: 'isActive', search: 'isActive=true' },
  {
    key: 'pendingVerification',
    filter: 'isActive=false&isEmailVerified=false',
    countKey: 'isEmailVerified',
    search: 'isActive=false&isEmailVerified=false',
  },
  {
    key: 'pendingKyc',
    filter: 'isActive=false&isEmailVerified=true&isKycDone=false',
    countKey: 'isKycDone',
    // SPEC §4: the Pending KYC search filters only isActive and isKycDone.
    search: 'isActive=false&isKycDone=false',
  },
  {
    key: 'inactive',
    filter: 'isActive=false&isEmailVerified=true&isKycDone=true',
    countKey: 'isInActive',
    search: 'isActive=false&isEmailVerified=true&isKycDone=true',
  },
];

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (ms) => Math.round(ms * 10) / 10;

/** Runs a command to its end (bounded by `limitMs`); rejects with its output when it fails. */
export function run(command, args, env, limitMs) {
  return new Promise((resolve, reject) => {
    const child = track(spawn(command, args, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(args[1] ?? command)} failed (${code ?? 'killed'}):\n${output}`));
    });
  });
}

/** A demo user's access token (the admin unless told otherwise). */
export async function signIn(base, email = 'admin@demo.local') {
  const response = await fetch(`${base}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Demo@12345' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return (await response.json()).accessToken;
}

/** `requests` GETs of `urlOf(i)`, `concurrency` at a time; latency of each as the client sees it. */
export async function measure(base, token, urlOf, requests, concurrency) {
  const headers = { authorization: `Bearer ${token}` };
  const times = [];
  const deadline = Date.now() + SCENARIO_LIMIT_MS;
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < requests && Date.now() < deadline) {
      const url = `${base}${urlOf(next++)}`;
      const started = performance.now();
      const response = await fetch(url, { headers });
      const body = await response.arrayBuffer();
      times.push(performance.now() - started);
      if (!response.ok) {
        failures++;
        if (failures === 1) console.error(`  ${response.status} for ${url}: ${Buffer.from(body).toString()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    failures,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(times[times.length - 1]),
  };
}

async function scenarios(base, token) {
  const first = await fetch(`${base}/api/v1/sellers/listSellers?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { count, countHash } = await first.json();
  if (count < SELLERS) throw new Error(`expected at least ${SELLERS} sellers, the list counts ${count}`);
  // Spread over the whole tab, the same spread on every database.
  const depth = (i, total) => Math.floor((((i * 7919) % 1000) / 1000) * Math.max(0, total - PAGE_SIZE));
  const list = (query) => `/api/v1/sellers/listSellers?${query}&limit=${PAGE_SIZE}`;
  // Every fragment in every tab: the tab moves on once all fragments had their turn.
  const tabOf = (i, fragments) => tabs[Math.floor(i / fragments.length) % tabs.length].search;
  const search = (query, fragment) =>
    `/api/v1/sellers/searchSellers?${query}&limit=${PAGE_SIZE}&query=${encodeURIComponent(fragment)}`;
  return {
    'list.shallow (skip 0)': { kind: 'list', url: () => list('skip=0') },
    'list.middle (skip 50,000)': { kind: 'list', url: () => list('skip=50000') },
    'list.deep (skip 90,000)': { kind: 'list', url: () => list('skip=90000') },
    ...Object.fromEntries(
      tabs.map((tab) => [
        `tab.${tab.key} (pages all through the tab)`,
        {
          kind: 'list',
          rows: countHash[tab.countKey],
          url: (i) => list(`${tab.filter}&skip=${depth(i, countHash[tab.countKey])}`),
        },
      ]),
    ),
    'search.name fragment': {
      kind: 'search',
      url: (i) => search(tabOf(i, nameFragments), nameFragments[i % nameFragments.length]),
    },
    'search.email fragment': {
      kind: 'search',
      url: (i) => search(tabOf(i, emailFragments), emailFragments[i % emailFragments.length]),
    },
  };
}

async function benchOne(root, label, env, port) {
  console.info(`\n▶ sellers on ${label}: seeding ${SELLERS.toLocaleString('en')} sellers…`);
  const seedStarted = Date.now();
  await run(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      path.join(root, 'server/seed/cli.ts'),
      '--sellers',
      String(SELLERS),
    ],
    env,
    180_000,
  );
  const seedMs = Date.now() - seedStarted;
  console.info(
    `  seeded in ${(seedMs / 1000).toFixed(1)} s (the whole command: start, migrations, demo seed, sellers, VACUUM)`,
  );
  const { stop } = await startServer(root, env, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const token = await signIn(base);
    const results = {};
    for (const [name, scenario] of Object.entries(await scenarios(base, token))) {
      const target = scenario.kind === 'list' ? TARGETS.listP95Ms : TARGETS.searchP95Ms;
      results[name] = { ...(scenario.rows ? { tabRows: scenario.rows } : {}), p95TargetMs: target };
      await measure(base, token, scenario.url, WARMUP, 1);
      for (const concurrency of CONCURRENCIES) {
        const result = await measure(base, token, scenario.url, REQUESTS, concurrency);
        results[name][`concurrency${concurrency}`] = {
          ...result,
          meetsTarget: result.p95 <= target && result.failures === 0,
        };
        console.info(
          `  ${name.padEnd(48)} ×${concurrency}  p50 ${String(result.p50).padStart(6)} ms  p95 ${String(result.p95).padStart(6)} ms  max ${String(result.max).padStart(6)} ms${result.failures ? `  ${result.failures} failed` : ''}`,
        );
      }
    }
    return { seedCommandMs: seedMs, scenarios: results };
  } finally {
    await stop();
  }
}

export async function withPostgresDatabase(adminUrl, use) {
  const name = `mp_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await use(url.toString());
  } finally {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
}

export async function benchSellers(root, port) {
  const dataDir = path.join(root, '.tmp', `bench-sellers-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const results = {
    sellers: SELLERS,
    requestsPerScenario: REQUESTS,
    concurrencies: CONCURRENCIES,
    pageSize: PAGE_SIZE,
    targets: TARGETS,
  };
  try {
    results.pglite = await benchOne(root, 'PGlite', { DATA_DIR: dataDir }, port);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const scratch = path.join(root, '.tmp', `bench-sellers-pg-${Date.now()}`);
    mkdirSync(scratch, { recursive: true });
    try {
      results.postgres = await withPostgresDatabase(adminUrl, (url) =>
        benchOne(root, 'PostgreSQL', { DATA_DIR: scratch, DATABASE_URL: url }, port),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } else {
    results.postgres = { skipped: 'set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL too' };
  }
  return results;
}
