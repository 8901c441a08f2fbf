// List pages against the database's own speed (`server.throughput` in bench/results.json): the real
// server on PostgreSQL, 50 connections (wrk) on the sellers list, the staging products search and the
// contacts list, each measured back to back with pgbench running, with 50 clients, the very statements
// that request sends (captured from the server's pg driver by scripts/bench-sql-capture.mjs). The
// ratio req/s ÷ tps says how near the product is to its database (goal ≥ 0.5, p99 ≤ 100 ms), against
// pgbench planning each statement anew (`-M extended`); the ratio to pgbench with the statements
// prepared (`ratioToPrepared`, the database's best) is recorded beside it. Each
// figure is run 3 times (median, with the load average: on a shared machine the load generator, Node
// and PostgreSQL share the CPU). PGlite's req/s are recorded beside. Needs wrk and pgbench on PATH.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { IDLE_SETTLE_MS, startServer } from './bench-children.mjs';
import { signIn, withPostgresDatabase } from './bench-sellers.mjs';
import { CAPTURE_POLL_MS } from './bench-sql-capture.mjs';

const run = promisify(execFile);
const CONNECTIONS = 50;
const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 8);
const RATIO_GOAL = 0.5;
const P99_GOAL_MS = 100;
const IDLE_GOAL_MB = 300;
const rssMb = (pid) =>
  Math.round(Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1]) / 1024);
const captureHook = fileURLToPath(new URL('./bench-sql-capture.mjs', import.meta.url));

export const SCENARIOS = [
  { name: 'sellersList', method: 'GET', url: '/api/v1/sellers/listSellers?isActive=true&skip=0&limit=10' },
  {
    name: 'stagingProductsSearch',
    method: 'POST',
    url: '/api/v1/stagingProducts/method/search',
    body: { search: '', limit: 10 },
  },
  { name: 'contactsList', method: 'GET', url: '/api/v1/contacts?limit=25' },
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const loadAverage = () => os.loadavg().map((value) => Math.round(value * 100) / 100);

/** wrk's `--latency` figures in ms: "1.23ms", "850.00us", "1.02s". */
function wrkMs(text) {
  const [, number, unit] = text.match(/([\d.]+)(us|ms|s|m)/) ?? [];
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
  return Math.round(Number(number) * factor * 10) / 10;
}

async function call(base, token, scenario) {
  const response = await fetch(`${base}${scenario.url}`, {
    method: scenario.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(scenario.body ? { 'content-type': 'application/json' } : {}),
    },
    body: scenario.body ? JSON.stringify(scenario.body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${scenario.url}: ${response.status} ${text}`);
  return text;
}

/** 50 connections for SECONDS: requests/s, p50/p99 and the non-2xx count (must be 0). */
async function wrk(base, token, scenario, dir) {
  const script = path.join(dir, `${scenario.name}.lua`);
  writeFileSync(
    script,
    [
      `wrk.method = ${JSON.stringify(scenario.method)}`,
      `wrk.headers["Authorization"] = ${JSON.stringify(`Bearer ${token}`)}`,
      ...(scenario.body
        ? [
            'wrk.headers["Content-Type"] = "application/json"',
            `wrk.body = ${JSON.stringify(JSON.stringify(scenario.body))}`,
          ]
        : []),
    ].join('\n'),
  );
  const { stdout } = await run(
    'wrk',
    ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, `${base}${scenario.url}`],
    { timeout: (SECONDS + 30) * 1000 },
  );
  const percentile = (p) => wrkMs(stdout.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm'))?.[1] ?? '');
  return {
    requestsPerSecond: Math.round(Number(stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1])),
    p50: percentile(50),
    p99: percentile(99),
    non2xx: Number(stdout.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0),
  };
}

/** `$n` replaced by the captured parameter as a literal, so pgbench sends the same statement. */
function inlined({ text, values }) {
  const sql = text.replace(/\$(\d+)/g, (_, n) => {
    const value = values[Number(n) - 1];
    return value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`;
  });
  // One line per statement for pgbench: line comments go first, or they would swallow the rest.
  return `${sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()};`;
}

/** The capture hook looks for its file every CAPTURE_POLL_MS; give it a few looks to notice. */
const waitForCapture = () => new Promise((resolve) => setTimeout(resolve, CAPTURE_POLL_MS * 4));

/**
 * The statements one request sends, after a warm-up (the session check is then answered from memory
 * as under load). Captured three times; the sequence seen most wins, so a background job's statement
 * that happened to fall into one capture is left out.
 */
async function captureStatements(base, token, scenario, logFile) {
  for (let i = 0; i < 5; i++) await call(base, token, scenario);
  const seen = new Map();
  for (let i = 0; i < 3; i++) {
    writeFileSync(logFile, '');
    await waitForCapture();
    const startedAt = Date.now();
    await call(base, token, scenario);
    const endedAt = Date.now();
    // Only what was sent while the request ran: a background job's statement just before or after is not
    // the request's (the server and the bench share the machine's clock).
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.at === undefined || (line.at >= startedAt && line.at <= endedAt));
    rmSync(logFile, { force: true });
    await waitForCapture();
    const statements = lines.map(inlined);
    const key = JSON.stringify(statements);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const [best] = [...seen.entries()].sort((a, b) => b[1] - a[1])[0];
  return JSON.parse(best);
}

/**
 * pgbench, 50 clients for SECONDS, replaying `statements` as one transaction script: its tps. `extended`
 * parses and plans every statement each time, as a driver sending unnamed statements does (the ratio's
 * denominator, as the goal was set); `prepared` plans each once per connection, as the server does for
 * the statements a connection repeats (server/db/prepared-statements.ts): the database's best.
 */
async function pgbench(databaseUrl, statements, scenario, dir, mode = 'extended') {
  const script = path.join(dir, `${scenario.name}.sql`);
  writeFileSync(script, `${statements.join('\n')}\n`);
  const { stdout } = await run(
    'pgbench',
    ['-n', `-c${CONNECTIONS}`, '-j2', `-T${SECONDS}`, '-M', mode, '-f', script, databaseUrl],
    { timeout: (SECONDS + 60) * 1000 },
  ).catch((error) => {
    throw new Error(`pgbench failed on\n${statements.join('\n')}\n${error.stderr?.slice(0, 500)}`);
  });
  return Math.round(Number(stdout.match(/tps = ([\d.]+)/)?.[1]));
}

async function measureScenarios(base, scenarios, { databaseUrl, logFile, dir }) {
  const results = {};
  for (const scenario of scenarios) {
    // A fresh token per scenario: access tokens live 15 minutes.
    const token = await signIn(base);
    const statements = databaseUrl ? await captureStatements(base, token, scenario, logFile) : undefined;
    await wrk(base, token, { ...scenario }, dir); // warm-up round, not counted
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const product = await wrk(base, token, scenario, dir);
      const tps = statements ? await pgbench(databaseUrl, statements, scenario, dir) : undefined;
      const preparedTps = statements
        ? await pgbench(databaseUrl, statements, scenario, dir, 'prepared')
        : undefined;
      // Each round's raw figures under names `--compare` skips: the medians are the figures.
      rounds.push({
        rps: product.requestsPerSecond,
        p50ms: product.p50,
        p99ms: product.p99,
        non2xx: product.non2xx,
        tps,
        preparedTps,
        loadAverage: loadAverage(),
      });
    }
    const requestsPerSecond = median(rounds.map((r) => r.rps));
    const result = {
      method: scenario.method,
      url: scenario.url,
      ...(scenario.body ? { body: scenario.body } : {}),
      requestsPerSecond,
      p50: median(rounds.map((r) => r.p50ms)),
      p99: median(rounds.map((r) => r.p99ms)),
      // Answers other than 2xx under load: any is a fault.
      failures: rounds.reduce((sum, r) => sum + r.non2xx, 0),
      rounds,
    };
    if (statements) {
      result.statements = statements;
      result.statementCount = statements.length;
      result.pgbenchTps = median(rounds.map((r) => r.tps));
      result.ratio = Math.round((requestsPerSecond / result.pgbenchTps) * 100) / 100;
      result.pgbenchPreparedTps = median(rounds.map((r) => r.preparedTps));
      result.ratioToPrepared = Math.round((requestsPerSecond / result.pgbenchPreparedTps) * 100) / 100;
      result.meetsGoal = result.ratio >= RATIO_GOAL && result.p99 <= P99_GOAL_MS;
    }
    console.info(
      `  ${scenario.name.padEnd(22)} ${String(requestsPerSecond).padStart(6)} req/s  p99 ${result.p99} ms` +
        (statements
          ? `  pgbench ${result.pgbenchTps} tps (${statements.length} statements)  ratio ${result.ratio}` +
            `  prepared ${result.pgbenchPreparedTps} tps, ratio ${result.ratioToPrepared}`
          : '') +
        `  load ${rounds.at(-1).loadAverage.join(' ')}`,
    );
    results[scenario.name] = result;
  }
  return results;
}

/** On PostgreSQL (a database of its own, dropped after) and on PGlite; `serverRoot` is the code run. */
// BENCH_THROUGHPUT_SCENARIOS (names, comma-separated) and BENCH_THROUGHPUT_BACKENDS (postgres,pglite)
// narrow a run, e.g. to profile one list.
const only = (variable, all) => process.env[variable]?.split(',').filter(Boolean) ?? all;

export async function benchThroughput(
  serverRoot,
  port,
  {
    scenarios = SCENARIOS.filter((s) =>
      only(
        'BENCH_THROUGHPUT_SCENARIOS',
        SCENARIOS.map((x) => x.name),
      ).includes(s.name),
    ),
    backends = only('BENCH_THROUGHPUT_BACKENDS', ['postgres', 'pglite']),
  } = {},
) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mp-bench-throughput-'));
  const results = {
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    ratioGoal: RATIO_GOAL,
    p99GoalMs: P99_GOAL_MS,
    cores: os.cpus().length,
  };
  try {
    const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (!backends.includes('postgres')) {
      results.postgres = { skipped: 'not asked for (BENCH_THROUGHPUT_BACKENDS)' };
    } else if (!adminUrl) {
      results.postgres = { skipped: 'set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL' };
    } else {
      console.info('\n▶ throughput on PostgreSQL (wrk, then pgbench on the same statements)');
      const logFile = path.join(dir, 'statements.jsonl');
      results.postgres = await withPostgresDatabase(adminUrl, async (url) => {
        const env = { DATA_DIR: path.join(dir, 'pg-data'), DATABASE_URL: url, BENCH_SQL_LOG: logFile };
        const previousArgs = process.env.BENCH_SERVER_NODE_ARGS;
        process.env.BENCH_SERVER_NODE_ARGS = `${previousArgs ?? ''} --import ${captureHook}`;
        let server;
        try {
          server = await startServer(serverRoot, env, port);
        } finally {
          if (previousArgs === undefined) delete process.env.BENCH_SERVER_NODE_ARGS;
          else process.env.BENCH_SERVER_NODE_ARGS = previousArgs;
        }
        try {
          return await measureScenarios(`http://127.0.0.1:${port}`, scenarios, {
            databaseUrl: url,
            logFile,
            dir,
          });
        } finally {
          await server.stop();
        }
      });
    }
    console.info('\n▶ throughput on PGlite (wrk)');
    if (!backends.includes('pglite'))
      results.pglite = { skipped: 'not asked for (BENCH_THROUGHPUT_BACKENDS)' };
    else
      try {
        const server = await startServer(serverRoot, { DATA_DIR: path.join(dir, 'pglite-data') }, port);
        try {
          // The server process alone (the supervisor counted apart), left alone for a while first.
          await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
          const idleRssMb = rssMb(server.pid);
          results.pglite = {
            idleRssMb,
            idleRssGoalMb: IDLE_GOAL_MB,
            meetsIdleGoal: idleRssMb <= IDLE_GOAL_MB,
            ...(await measureScenarios(`http://127.0.0.1:${port}`, scenarios, { dir })),
          };
          console.info(`  idle RSS of the server process ${idleRssMb} MB (goal ≤ ${IDLE_GOAL_MB} MB)`);
        } finally {
          await server.stop();
        }
      } catch (error) {
        // PostgreSQL's figures stand on their own; say why PGlite's are missing.
        results.pglite = { failed: error instanceof Error ? error.message : String(error) };
        console.error(`  PGlite failed: ${results.pglite.failed}`);
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

// `node scripts/bench-throughput.mjs [server root] [port] [out.json]`: the throughput figures alone,
// e.g. of a baseline worktree, without touching bench/results.json.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [serverRoot = path.resolve(path.dirname(captureHook), '..'), port = '3351', out] =
    process.argv.slice(2);
  const results = await benchThroughput(path.resolve(serverRoot), Number(port));
  const json = `${JSON.stringify(results, null, 2)}\n`;
  if (out) writeFileSync(out, json);
  else process.stdout.write(json);
}
