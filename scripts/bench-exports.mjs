// Exports at scale, for `npm run bench` (`exports` in bench/results.json): the sellers export of
// every seller (100,000 seeded with the real seed command, plus the demo's), newest first, as XLSX and
// as CSV, through HTTP to the real server on PGlite, as the demo admin.
//
// What is measured, per export: the POST → the task seen Completed (polled every 50 ms; the job's
// queue pick-up included) as `readyMs`, and the job's own span (the task's createdAt → finishedAt) as
// `jobMs`; the server's CPU time over the same span (user + system, every thread: on a shared machine
// it varies far less than the wall-clock figures); rows/s over readyMs; the file's size (downloaded
// after the clock); the server's RSS growth over its idle baseline while the export runs. Each export
// runs ROUNDS times (XLSX, CSV, XLSX, …) and the medians are kept.
//
// Issue 27 compared exceljs's streaming writer with xlsx.ts here (commit fc8d00a had both, on two
// servers taking turns A B A B; `exports.xlsxWriterAB` in bench/results.json): exceljs was slower by
// more than the 10 % allowed, so xlsx.ts stays (its header comment has the figures).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startServer } from './bench-children.mjs';
import { rssSampler } from './bench-imports.mjs';
import { seedBulk } from './bench-lists.mjs';
import { signIn } from './bench-sellers.mjs';

const SELLERS = Number(process.env.BENCH_EXPORT_SELLERS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const POLL_MS = 50;
/** An export not ready by then fails the bench. */
const EXPORT_LIMIT_MS = 300_000;
const ADMIN = 'admin@demo.local';

/** The process's CPU time so far (user + system, all threads) in ms: /proc/<pid>/stat counts 100 ticks/s. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function call(server, method, url, body) {
  const response = await fetch(`${server.base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    // Generous: on a shared machine under load a poll can wait long behind other processes.
    signal: AbortSignal.timeout(120_000),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** One export, from the request to the file ready, then its download (after the clock). */
async function measureExport(server, format, body = {}) {
  const rss = rssSampler(server.pid);
  await sleep(1_200); // the idle baseline before the request
  try {
    rss.mark();
    const cpuBefore = cpuMs(server.pid);
    const started = performance.now();
    const accepted = await call(server, 'POST', '/api/v1/exports/sellers', { format, ...body });
    const { taskId } = (await accepted.json()).taskStatus;
    let task;
    for (;;) {
      task = await (await call(server, 'GET', `/api/v1/tasks/${taskId}`)).json();
      if (task.status === 'Completed') break;
      if (task.status === 'Failed') throw new Error(`the ${format} export failed: ${task.error}`);
      if (performance.now() - started > EXPORT_LIMIT_MS) {
        throw new Error(`the ${format} export was not ready within ${EXPORT_LIMIT_MS / 1000} s`);
      }
      await sleep(POLL_MS);
    }
    const readyMs = Math.round(performance.now() - started);
    const serverCpuMs = cpuMs(server.pid) - cpuBefore;
    const memory = rss.stop();
    const file = Buffer.from(
      await (await call(server, 'GET', `/api/v1/exports/${taskId}/download`)).arrayBuffer(),
    );
    const looksRight = format === 'xlsx' ? file.subarray(0, 2).toString() === 'PK' : file.includes('\r\n');
    if (!looksRight) throw new Error(`the ${format} export's file is not a ${format.toUpperCase()} file`);
    return {
      readyMs,
      jobMs: Date.parse(task.finishedAt) - Date.parse(task.createdAt),
      serverCpuMs,
      fileBytes: file.length,
      rssGrowthMb: memory.growthMb,
      rssPeakMb: memory.peakMb,
    };
  } finally {
    rss.stop();
  }
}

/** The medians of a format's runs, with rows/s over the median readyMs and every run's readyMs. */
function summary(runs, rows) {
  const readyMs = median(runs.map((r) => r.readyMs));
  return {
    readyMs,
    jobMs: median(runs.map((r) => r.jobMs)),
    serverCpuMs: median(runs.map((r) => r.serverCpuMs)),
    rowsPerSecond: Math.round(rows / (readyMs / 1000)),
    fileMb: Math.round(median(runs.map((r) => r.fileBytes)) / 104857.6) / 10,
    rssGrowthMb: median(runs.map((r) => r.rssGrowthMb)),
    rssPeakMb: Math.max(...runs.map((r) => r.rssPeakMb)),
    readyMsEachRun: runs.map((r) => r.readyMs),
  };
}

function print(label, s) {
  console.info(
    `  ${label.padEnd(16)} ready ${String(s.readyMs).padStart(6)} ms (job ${s.jobMs} ms, server CPU ${s.serverCpuMs} ms), ${s.rowsPerSecond} rows/s, ${s.fileMb} MB, RSS +${s.rssGrowthMb} MB (peak ${s.rssPeakMb} MB); runs ${s.readyMsEachRun.join(', ')} ms`,
  );
}

export async function benchExports(root, port) {
  const dataDir = path.join(root, '.tmp', `bench-exports-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  let server;
  try {
    console.info(`\n▶ exports: seeding ${SELLERS.toLocaleString('en')} sellers…`);
    await seedBulk(root, { DATA_DIR: dataDir }, 'sellers', SELLERS, 300_000);
    server = await startServer(root, { DATA_DIR: dataDir }, port);
    const base = `http://127.0.0.1:${port}`;
    Object.assign(server, { base, token: await signIn(base, ADMIN) });
    const { count: rows } = await (await call(server, 'GET', '/api/v1/sellers/listSellers?limit=1')).json();
    // Warm-up: a small export of each format, so no first-use cost lands in a figure.
    for (const format of ['xlsx', 'csv']) await measureExport(server, format, { query: 'saffron' });
    const runs = { xlsx: [], csv: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const format of ['xlsx', 'csv']) runs[format].push(await measureExport(server, format));
      console.info(
        `  round ${round}/${ROUNDS}: xlsx ${runs.xlsx.at(-1).readyMs} ms, csv ${runs.csv.at(-1).readyMs} ms`,
      );
    }
    const results = { sellers: rows, database: 'pglite', list: 'sellers, newest first', rounds: ROUNDS };
    for (const format of ['xlsx', 'csv']) {
      results[format] = summary(runs[format], rows);
      print(format, results[format]);
    }
    return results;
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
