// `npm run bench`: measures what a user waits for and writes bench/results.json.
// - bundle: gzip bytes of all JS a browser loads for /signin and for the signed-in shell (from Vite's
//   manifest: the entry, its static imports, and the lazy chunks that route loads, with their imports);
// - startup: ms from process start to a healthy server, on a fresh and on an existing data dir;
// - sellers: the seller list, tabs and search at 100k sellers through HTTP (scripts/bench-sellers.mjs);
// - broker: 500 MQTT clients at QoS 2 under 1,000 messages/s on the embedded broker and on Mosquitto,
//   side by side, and publish → notification visible in Chromium (scripts/bench-broker.mjs).
// - chats: the help chats' list and search at 50k chats, as the seller and as the admin, and a
//   customer's message → shown in the seller's open chat in Chromium (scripts/bench-chats.mjs).
// `npm run bench -- --sellers-only` measures only the sellers, `--broker-only` only the broker (with
// --broker-seconds, --broker-clients, --broker-rate, --broker-workers, --visible-samples for a shorter
// run), `--chats-only` only the chats, `--calls-only` only the calls, `--video-only` only the video
// calls (with --video-samples for fewer or more calls); each keeps the other figures of the file.
// - calls: dial → the callee's Incoming Call card in Chromium, and the call history's list and
//   searches at 100k calls, as the admin and as a seller (scripts/bench-calls.mjs).
// - video: press of "Video call" → the callee's ringing card, and Accept → the first remote video frame
//   on both sides, full calls between two Chromium pages (scripts/bench-video.mjs).
// - server: the server's RSS at idle on the demo data and under 50 concurrent sellers-list requests,
//   with that load's requests/s and latency, on PGlite and PostgreSQL (scripts/bench-server.mjs);
// - auth: "Forgot password?" answers as fast for an unknown e-mail as for an account
//   (scripts/bench-auth.mjs).
// `--server-only` and `--auth-only` measure only those. `--queries-only` measures the customer queries
// inbox at 100k queries and the offers list at 50k offers, on PGlite and PostgreSQL
// (scripts/bench-queries.mjs). `--commerce-only` measures the orders list at 200k orders
// (scripts/bench-commerce.mjs).
// - catalog: the staging grid at 200k products through HTTP on PGlite and PostgreSQL: a nested query's
//   first page with its total, a title search and the report of half the catalogue
//   (scripts/bench-catalog.mjs); `--catalog-only` measures only that, and `--catalog-large` (not in CI,
//   it seeds for many minutes) adds the nested query on PostgreSQL with 1,000,000 products.
// - imports: a 100,000-row, 30-column catalogue sheet, as CSV and as XLSX, uploaded through HTTP on
//   PGlite: upload → report ready, validation rows/s, move to staging, the server's RSS growth and the
//   longest wait between progress updates (scripts/bench-imports.mjs); `--imports-only` measures only that.
// - tags: the tag tree at 50,000 tags through HTTP on PGlite: the first two levels, expanding nodes,
//   search, moving a 5,000-node subtree, 500 draft changes published (preview and publish), the diff of
//   two versions and the level calculation, with the server's RSS (scripts/bench-tags.mjs);
//   `--tags-only` measures only that.
// - marketing: contact list pages and 3-filter audience counts at 100,000 contacts, a 100,000-row lead
//   import, and a 100,000-recipient campaign delivered to an SMTP server the bench runs (mails/s, the
//   server's RSS) and to the outbox, through HTTP on PGlite (scripts/bench-marketing.mjs);
//   `--marketing-only` measures only that.
// - exports: the sellers export of 100,000 sellers as XLSX and as CSV through HTTP on PGlite: request →
//   file ready, rows/s, file size and the server's RSS growth, medians of 3 runs
//   (scripts/bench-exports.mjs); `--exports-only` measures only that.
// - cluster: the sellers list at 50 connections (wrk) on one instance directly, through HAProxy, and two
//   instances through HAProxy (deploy/haproxy.cfg), on PostgreSQL and Redis, medians of 3 runs with the
//   load average (scripts/bench-cluster.mjs); `--cluster-only` measures only that.
// - auctions: 500 bids/s for 60 s on one auction through the public bid API with none lost (ledger =
//   accepted answers), 10 MQTT watchers and a bid → visible on the public page in Chromium, on PGlite and
//   PostgreSQL; and 1,000 watchers at 20 bids/s (scripts/bench-auctions.mjs); `--auctions-only` measures
//   only that (with --auctions-seconds, --auctions-rate, --auctions-watchers, --auctions-watchers-seconds
//   for a shorter run).
// `--compare` (with any of the above): then prints every figure of the measured sections more than 25 %
// worse than the committed bench/results.json and exits 1 if there is one (scripts/bench-compare.mjs);
// `--compare-file <file>` compares a results file written earlier instead of measuring.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchAuctions } from './bench-auctions.mjs';
import { benchAuth } from './bench-auth.mjs';
import { benchBroker, brokerOptionsFromArgs, stopBrokerChildren } from './bench-broker.mjs';
import { benchCalls } from './bench-calls.mjs';
import { benchCatalog, benchCatalogLarge } from './bench-catalog.mjs';
import { benchChats } from './bench-chats.mjs';
import { stopChildren } from './bench-children.mjs';
import { benchCluster } from './bench-cluster.mjs';
import { benchCommerce } from './bench-commerce.mjs';
import {
  committedResults,
  compareResults,
  DEFAULT_PERCENT,
  readResults,
  reportComparison,
} from './bench-compare.mjs';
import { benchExports } from './bench-exports.mjs';
import { benchImports } from './bench-imports.mjs';
import { benchMarketing } from './bench-marketing.mjs';
import { benchQueries } from './bench-queries.mjs';
import { benchSellers } from './bench-sellers.mjs';
import { benchServer } from './bench-server.mjs';
import { benchTags } from './bench-tags.mjs';
import { benchVideo, videoOptionsFromArgs } from './bench-video.mjs';
import { buildSpa, root } from './build-spa.mjs';
import { SERVER_NODE_ARGS } from './server-node-args.mjs';

const dist = path.join(root, 'dist');

function bundleReport() {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const closure = (keys, seen = new Set()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const gzipBytes = (keys) =>
    [...keys].reduce(
      (sum, key) => sum + gzipSync(readFileSync(path.join(dist, manifest[key].file)), { level: 9 }).length,
      0,
    );
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const page = (file) => Object.keys(manifest).find((key) => key.endsWith(file));
  const signin = closure([entry, page('features/auth/SignInPage.tsx')]);
  // The signed-in shell: its lazy chunk, the full styling system it loads with, and the first page.
  const shell = closure([
    entry,
    page('app/shell/Shell.tsx'),
    page('ui/theme.ts'),
    page('features/dashboard/DashboardPage.tsx'),
  ]);
  return {
    signinJsGzipBytes: gzipBytes(signin),
    signinGoalBytes: 150 * 1024,
    shellJsGzipBytes: gzipBytes(shell),
    entryJsGzipBytes: gzipBytes(closure([entry])),
  };
}

async function timeStart(dataDir, port) {
  const started = Date.now();
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SKIP_BUILD: 'true', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 600; i++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.ok) return Date.now() - started;
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('server did not become healthy within 60 s');
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
  }
}

const catalogLarge = process.argv.includes('--catalog-large');
// The bench ends by itself even if a child process hangs (the 1M-product catalogue seeds for long).
// The imports bench bounds each of its steps itself and adds several minutes to a full run; so does the
// marketing bench (a 100k seed and import, two 100k-recipient campaigns: about 10 minutes).
const watchdogMinutes = catalogLarge ? 90 : 60;
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${watchdogMinutes} minutes, giving up`);
  stopChildren();
  stopBrokerChildren();
  process.exit(1);
}, watchdogMinutes * 60_000);
watchdog.unref();

const resultsFile = path.join(root, 'bench', 'results.json');
const sellersOnly = process.argv.includes('--sellers-only');
const brokerOnly = process.argv.includes('--broker-only');
const chatsOnly = process.argv.includes('--chats-only');
const callsOnly = process.argv.includes('--calls-only');
const videoOnly = process.argv.includes('--video-only');
const serverOnly = process.argv.includes('--server-only');
const authOnly = process.argv.includes('--auth-only');
const catalogOnly = process.argv.includes('--catalog-only');
const importsOnly = process.argv.includes('--imports-only');
const tagsOnly = process.argv.includes('--tags-only');
const marketingOnly = process.argv.includes('--marketing-only');
const exportsOnly = process.argv.includes('--exports-only');
const clusterOnly = process.argv.includes('--cluster-only');
const queriesOnly = process.argv.includes('--queries-only');
const commerceOnly = process.argv.includes('--commerce-only');
const auctionsOnly = process.argv.includes('--auctions-only');
const only =
  sellersOnly ||
  brokerOnly ||
  chatsOnly ||
  callsOnly ||
  videoOnly ||
  serverOnly ||
  authOnly ||
  catalogOnly ||
  importsOnly ||
  tagsOnly ||
  marketingOnly ||
  exportsOnly ||
  clusterOnly ||
  queriesOnly ||
  commerceOnly ||
  auctionsOnly ||
  catalogLarge;
const brokerOptions = brokerOptionsFromArgs(process.argv);
const videoOptions = videoOptionsFromArgs(process.argv);
const previous = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {};

/** `--name value` or `--name=value`. */
function argValue(name) {
  const index = process.argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index < 0) return undefined;
  const arg = process.argv[index];
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : process.argv[index + 1];
}
// --compare: after the run, every figure of the sections it measured more than 25 % (--compare-percent)
// worse than the committed bench/results.json, exit code 1 if any. --compare-file <file> compares a
// results file written before (by another run or machine) instead of measuring anything.
const compareFile = argValue('--compare-file');
const compare = process.argv.includes('--compare') || compareFile !== undefined;
const comparePercent = Number(argValue('--compare-percent') ?? DEFAULT_PERCENT);
const committed = compare ? committedResults(root) : null;
const baseline = committed ?? previous;
const baselineName = committed ? 'the committed bench/results.json' : 'bench/results.json before this run';
if (compareFile !== undefined) {
  const worse = compareResults(baseline, readResults(path.resolve(compareFile)), { percent: comparePercent });
  process.exit(reportComparison(worse, { percent: comparePercent, baselineName }));
}
let measured;
if (only) {
  measured = previous;
  // Publish → visible and message → visible run the built SPA: build it from the current sources.
  if (brokerOnly || chatsOnly || callsOnly || videoOnly || serverOnly || authOnly || auctionsOnly) buildSpa();
} else {
  buildSpa();
  const bundle = bundleReport();
  const dataDir = path.join(root, '.tmp', `bench-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const freshMs = await timeStart(dataDir, 3299);
  const existingMs = await timeStart(dataDir, 3299);
  rmSync(dataDir, { recursive: true, force: true });
  measured = { bundle, startup: { freshDataDirMs: freshMs, existingDataDirMs: existingMs } };
}
/** The catalogue's figures: `--catalog-large` adds the 1M run to them, the default run keeps the last one. */
async function catalogFigures() {
  if (catalogLarge) return { ...previous.catalog, large: await benchCatalogLarge(root, 3293) };
  if (only && !catalogOnly) return previous.catalog;
  const large = previous.catalog?.large;
  return { ...(await benchCatalog(root, 3293)), ...(large ? { large } : {}) };
}
const os = await import('node:os');
const results = {
  measuredAt: new Date().toISOString(),
  // The load average says how busy the machine was: latencies on a shared machine vary with it.
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
  },
  bundle: measured.bundle,
  startup: measured.startup,
  sellers: only && !sellersOnly ? previous.sellers : await benchSellers(root, 3298),
  broker: only && !brokerOnly ? previous.broker : await benchBroker(root, brokerOptions),
  chats: only && !chatsOnly ? previous.chats : await benchChats(root, 3297),
  calls: only && !callsOnly ? previous.calls : await benchCalls(root, 3296),
  video: only && !videoOnly ? previous.video : await benchVideo(root, videoOptions),
  server: only && !serverOnly ? previous.server : await benchServer(root, 3295),
  auth: only && !authOnly ? previous.auth : await benchAuth(root, 3294),
  catalog: await catalogFigures(),
  imports: only && !importsOnly ? previous.imports : await benchImports(root, 3292),
  tags: only && !tagsOnly ? previous.tags : await benchTags(root, 3291),
  // The server on 3490, the bench's own SMTP server on 3491.
  marketing: only && !marketingOnly ? previous.marketing : await benchMarketing(root, 3490),
  exports: only && !exportsOnly ? previous.exports : await benchExports(root, 3324),
  // The cluster on 3370 (HAProxy), 3371 and 3372 (the instances).
  cluster: only && !clusterOnly ? previous.cluster : await benchCluster(),
  // One seeded database serves both the queries' and the offers' sections.
  ...(only && !queriesOnly
    ? { queries: previous.queries, offers: previous.offers }
    : await benchQueries(root, 3480)),
  commerce: only && !commerceOnly ? previous.commerce : await benchCommerce(root, 3482),
  // The server on 3484 (PGlite) and 3486 (PostgreSQL).
  auctions: only && !auctionsOnly ? previous.auctions : await benchAuctions(root, 3484),
};
mkdirSync(path.join(root, 'bench'), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.info(JSON.stringify(results, null, 2));
if (compare) {
  // Only what this run measured: an --x-only run copies the other sections from the file.
  const measuredSections = only
    ? Object.entries({
        sellers: sellersOnly,
        broker: brokerOnly,
        chats: chatsOnly,
        calls: callsOnly,
        video: videoOnly,
        server: serverOnly,
        auth: authOnly,
        catalog: catalogOnly || catalogLarge,
        imports: importsOnly,
        tags: tagsOnly,
        marketing: marketingOnly,
        exports: exportsOnly,
        cluster: clusterOnly,
        queries: queriesOnly,
        offers: queriesOnly,
        commerce: commerceOnly,
        auctions: auctionsOnly,
      }).flatMap(([section, measuredNow]) => (measuredNow ? [section] : []))
    : undefined;
  const worse = compareResults(baseline, results, { sections: measuredSections, percent: comparePercent });
  process.exitCode = reportComparison(worse, {
    percent: comparePercent,
    sections: measuredSections,
    baselineName,
  });
}
