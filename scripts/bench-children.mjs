// What every benchmark needs of its child processes: tracking them so the bench's watchdog can kill
// whatever still runs, an environment that never reaches the caller's own services, and starting the
// real server (`scripts/start.mjs`, the built SPA) until it answers /api/health, and running the
// "… → visible in Chromium" benches (bench/*-visible.ts), each a child process holding its own server.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { SERVER_NODE_ARGS } from './server-node-args.mjs';

const children = new Set();

/** Kills whatever the bench still runs (seed commands, servers, brokers): for the bench's watchdog. */
export function stopChildren() {
  for (const child of children) child.kill('SIGKILL');
}

export function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** The bench's own settings: never the caller's database, data dir, external broker or Redis. */
export function childEnv(env) {
  const {
    DATABASE_URL: _url,
    DATA_DIR: _dir,
    MQTT_URL: _mqtt,
    MQTT_WS_URL: _mqttWs,
    REDIS_URL: _redis,
    ...rest
  } = process.env;
  return { ...rest, ...env };
}

/**
 * Starts the real server on 127.0.0.1:`port` with `env` and waits (≤ 60 s) until it is healthy.
 * It runs with SERVER_NODE_ARGS, as `npm start` runs it; `BENCH_SERVER_NODE_ARGS` (space-separated) adds to them, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
 * to profile the server under a benchmark (NODE_OPTIONS refuses --cpu-prof).
 * Answers the server's pid, its health answer and `stop()` (SIGTERM, then SIGKILL after 10 s).
 */
const serverNodeArgs = () => [
  ...SERVER_NODE_ARGS,
  ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
];

/**
 * How long a server is left alone before its idle RSS is read. V8 hands the start's garbage back only
 * when its memory reducer runs in a quiet spell, 20–30 s after the start here (measured: 300–308 MB
 * until then, 269–271 MB after); a figure taken earlier measures the start, not the idle server.
 */
export const IDLE_SETTLE_MS = 40_000;

/**
 * The server's own pid: `scripts/start.mjs` runs it as the child of a supervisor (scripts/supervise.mjs),
 * and what a bench measures (RSS, CPU time) is the server, not that small parent.
 */
function supervisedPid(parentPid) {
  try {
    const children = readFileSync(`/proc/${parentPid}/task/${parentPid}/children`, 'utf8')
      .trim()
      .split(/\s+/);
    const server = children.find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist-server/main.mjs'),
    );
    return Number(server) || parentPid;
  } catch {
    return parentPid;
  }
}

export async function startServer(root, env, port) {
  const child = track(
    spawn(process.execPath, [...serverNodeArgs(), path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1', SKIP_BUILD: 'true', LOG_LEVEL: 'warn' }),
      stdio: 'ignore',
    }),
  );
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(killer);
  };
  for (let i = 0; i < 600; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return { pid: supervisedPid(child.pid), health: await response.json(), stop };
    } catch {}
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('the server did not become healthy within 60 s');
}

/**
 * Runs a "… → visible in Chromium" bench (`script`, relative to the root, with tsx) and answers the JSON
 * of its `RESULT {json}` line; `{ skipped }` when a file it needs (`needs`, e.g. the built SPA) or
 * Chromium is missing, `{ failed }` with its last output lines when it fails or outlives `timeoutMs`.
 */
export function runVisibleBench(root, script, args, { needs = [], timeoutMs = 180_000 } = {}) {
  const missing = ['dist/index.html', ...needs].filter((file) => !existsSync(path.join(root, file)));
  if (missing.length) return Promise.resolve({ skipped: `not built yet: ${missing.join(', ')}` });
  let chromium;
  try {
    chromium = ensureChromium();
  } catch (error) {
    return Promise.resolve({ skipped: error.message });
  }
  return new Promise((resolve) => {
    const child = track(
      spawn(
        process.execPath,
        [
          path.join(root, 'node_modules/tsx/dist/cli.mjs'),
          path.join(root, script),
          ...args,
          '--chromium',
          chromium,
        ],
        { cwd: root, env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = output.split('\n').find((candidate) => candidate.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)));
      else
        resolve({ failed: `exit ${code ?? 'killed'}: ${output.trim().split('\n').slice(-15).join('\n')}` });
    });
  });
}

/** A visible bench's result with its target: whether p95 meets it with nothing missed. */
export function againstTarget(visible, targetMs) {
  if (visible.skipped || visible.failed) return visible;
  return { ...visible, p95TargetMs: targetMs, meetsTarget: visible.p95 <= targetMs && visible.missed === 0 };
}

/** A TCP port free on 127.0.0.1 right now (the OS's pick); never `avoid` (e.g. the e2e server's). */
export async function freePort(avoid = []) {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
    });
    if (!avoid.includes(port)) return port;
  }
}
