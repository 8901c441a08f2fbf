// The server's footprint (`server` in bench/results.json): the real server (`scripts/start.mjs`, the
// built SPA) on the demo data, measured from outside through /proc:
// - idle RSS: first start on a fresh data dir (migrations and the demo seed ran), then the same data
//   dir started again (what every later `npm start` is), each after a quiet moment;
// - under load: 50 admins at once on the Manage Sellers list (one page of the active tab), with
//   requests/s, p50/p95 and the RSS peak while it lasts.
// - throughput: the list pages at 50 connections against pgbench on their very statements
//   (scripts/bench-throughput.mjs), `throughput` in the section.
// On PGlite, and on PostgreSQL in a database of its own when BENCH_DATABASE_URL or TEST_DATABASE_URL is
// set. Every wait is bounded, so the bench always ends.
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IDLE_SETTLE_MS, startServer } from './bench-children.mjs';
import { measure, signIn, withPostgresDatabase } from './bench-sellers.mjs';
import { benchThroughput } from './bench-throughput.mjs';

const LOAD_CONCURRENCY = 50;
const LOAD_REQUESTS = 3_000;
const IDLE_GOAL_MB = 300;
const LIST_URL = '/api/v1/sellers/listSellers?isActive=true&skip=0&limit=10';

/** The process's resident set and its peak so far, in MB (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

/** RSS once the server has been left alone for a while (timers, GC and the first queries settle). */
async function idleRss(pid) {
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  return memoryOf(pid);
}

async function underLoad(port, pid) {
  const base = `http://127.0.0.1:${port}`;
  const token = await signIn(base);
  let peak = memoryOf(pid).rssMb;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid).rssMb);
  }, 100);
  try {
    await measure(base, token, () => LIST_URL, 200, LOAD_CONCURRENCY); // warm-up
    const started = performance.now();
    const result = await measure(base, token, () => LIST_URL, LOAD_REQUESTS, LOAD_CONCURRENCY);
    const seconds = (performance.now() - started) / 1000;
    return {
      concurrency: LOAD_CONCURRENCY,
      ...result,
      requestsPerSecond: Math.round(result.requests / seconds),
      peakRssMb: Math.max(peak, memoryOf(pid).rssMb),
    };
  } finally {
    clearInterval(sampler);
  }
}

async function benchOne(label, root, env, port) {
  console.info(`\n▶ server on ${label}`);
  const first = await startServer(root, env, port);
  let result;
  try {
    result = { firstStart: await idleRss(first.pid) };
  } finally {
    await first.stop();
  }
  const again = await startServer(root, env, port);
  try {
    result.idle = await idleRss(again.pid);
    result.load = await underLoad(port, again.pid);
    result.afterLoad = memoryOf(again.pid);
  } finally {
    await again.stop();
  }
  result.idleGoalMb = IDLE_GOAL_MB;
  result.meetsIdleGoal = result.idle.rssMb <= IDLE_GOAL_MB && result.firstStart.rssMb <= IDLE_GOAL_MB;
  console.info(
    `  idle ${result.firstStart.rssMb} MB (fresh data dir), ${result.idle.rssMb} MB (started again); ` +
      `${LOAD_CONCURRENCY} at once: ${result.load.requestsPerSecond} req/s, p50 ${result.load.p50} ms, ` +
      `p95 ${result.load.p95} ms, RSS peak ${result.load.peakRssMb} MB`,
  );
  return result;
}

export async function benchServer(root, port) {
  const results = { loadUrl: LIST_URL };
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-bench-server-'));
  try {
    results.pglite = await benchOne('PGlite', root, { DATA_DIR: dataDir }, port);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  results.throughput = await benchThroughput(root, port);
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    results.postgres = { skipped: 'set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL too' };
    return results;
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mp-bench-server-pg-'));
  try {
    results.postgres = await withPostgresDatabase(adminUrl, (url) =>
      benchOne('PostgreSQL', root, { DATA_DIR: scratch, DATABASE_URL: url }, port),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}
