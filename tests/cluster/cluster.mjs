// Two instances of the built server behind HAProxy, as on two machines (issue 28): one PostgreSQL
// database of their own (created here, dropped after), one Redis database, an S3-compatible server
// (s3rver) when it is installed, a shared JWT_SECRET, and a DATA_DIR each. The balancer runs the
// repository's deploy/haproxy.cfg. Used by the cluster tests (vitest and Playwright) and the cluster
// bench. 127.0.0.1 only; every wait is bounded; `stop()` kills every process group it started.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverEntry, serverIsStale } from '../../scripts/build-server.mjs';
import { SERVER_NODE_ARGS } from '../../scripts/server-node-args.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HAPROXY_CONFIG = path.join(root, 'deploy/haproxy.cfg');
const HAPROXY_CANDIDATES = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'];
export const DEFAULT_PORTS = { balancer: 3370, a: 3371, b: 3372, s3: 4571 };
const REDIS_DB = 6;
const START_TIMEOUT_MS = 90_000;
const live = new Set(); // process groups to kill if this process ends before stop()

function killAll() {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
}
process.once('exit', killAll);
// A runner stopped by a signal (a timeout, Ctrl-C) runs no 'exit' handlers: kill the groups, then let
// the signal do what it would have done.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why the cluster cannot run here (PostgreSQL or Redis missing or silent), or null when it can. */
export async function clusterSkipReason(env = process.env) {
  if (!env.TEST_DATABASE_URL || !env.TEST_REDIS_URL)
    return 'cluster tests skipped: they need TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)';
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: env.TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return `cluster tests skipped: PostgreSQL at TEST_DATABASE_URL does not answer (${error.message})`;
  } finally {
    await client.end().catch(() => {});
  }
  const { Redis } = await import('ioredis');
  const redis = new Redis(env.TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `cluster tests skipped: Redis at TEST_REDIS_URL does not answer (${error.message})`;
  } finally {
    redis.disconnect();
  }
  return null;
}

/** Debian's HAProxy, installed with apt-get when missing and running as root (as Chromium is). */
export function ensureHaproxy() {
  const found = () => HAPROXY_CANDIDATES.find((candidate) => existsSync(candidate));
  if (found()) return found();
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.info('HAProxy is missing: installing Debian’s haproxy package…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'haproxy'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (found()) return found();
  }
  throw new Error(
    'The cluster tests need HAProxy and none was found.\n  On Debian/Ubuntu: sudo apt-get install -y haproxy',
  );
}

async function withAdmin(adminUrl, work) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl, name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function redisUrl(base) {
  const url = new URL(base);
  url.pathname = `/${REDIS_DB}`;
  return url.toString();
}

async function flushRedis(url) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/** s3rver on 127.0.0.1 when the package is installed (the storage work of issue 28 adds it), else null. */
async function startS3(port, directory) {
  let S3rver;
  try {
    S3rver = (await import('s3rver')).default;
  } catch {
    return null;
  }
  const bucket = 'cluster';
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: () => server.close(),
  };
}

/** A child in a process group of its own, its output kept (the last 64 KB) for error messages. */
function spawnGroup(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child.pid);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', () => live.delete(child.pid));
  return { child, output: () => output };
}

async function killGroup(child, signal, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, signal);
  } catch {}
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

async function healthy(base, processOf, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { child, output } = processOf();
    if (child.exitCode !== null) throw new Error(`${base} exited early (${child.exitCode}):\n${output()}`);
    const answer = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (answer?.ok) return;
    await wait(100);
  }
  throw new Error(`${base} did not become healthy within ${timeoutMs / 1000} s:\n${processOf().output()}`);
}

/**
 * Starts the cluster. `start` names the instances to start now (default both; the others are started
 * later with `instance.start()`). `env` is added to both instances' environment; `spa` serves the built
 * web app (dist/) for the browser tests.
 */
export async function startCluster(options = {}) {
  const ports = { ...DEFAULT_PORTS, ...options.ports };
  const adminUrl = options.databaseUrl ?? process.env.TEST_DATABASE_URL;
  const baseRedis = options.redisUrl ?? process.env.TEST_REDIS_URL;
  if (!adminUrl || !baseRedis) throw new Error('startCluster needs TEST_DATABASE_URL and TEST_REDIS_URL');
  const haproxy = ensureHaproxy();
  // CLUSTER_SERVER_ENTRY: a server bundle built elsewhere (e.g. from a commit, while the checkout is
  // being edited); by default the checkout's own, rebuilt when its sources are newer.
  const entry = process.env.CLUSTER_SERVER_ENTRY ?? serverEntry;
  if (!process.env.CLUSTER_SERVER_ENTRY && serverIsStale()) {
    await buildServer();
    (await import('esbuild')).stop();
  }
  const work = path.join(root, '.tmp', `cluster-${Date.now().toString(36)}-${process.pid}`);
  mkdirSync(work, { recursive: true });
  const name = `cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const redis = redisUrl(baseRedis);
  await flushRedis(redis);
  const stops = [];
  const cluster = {
    balancer: `http://127.0.0.1:${ports.balancer}`,
    databaseUrl: databaseUrl(adminUrl, name),
    s3: false,
    instances: {},
    haproxy: null,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch((error) => console.error(error));
      stops.length = 0;
    },
  };
  stops.push(async () => {
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    await flushRedis(redis).catch(() => {});
    rmSync(work, { recursive: true, force: true });
  });
  try {
    const s3 = options.s3 === false ? null : await startS3(ports.s3, path.join(work, 's3'));
    if (s3) {
      cluster.s3 = true;
      stops.push(s3.close);
    }
    const shared = {
      DATABASE_URL: cluster.databaseUrl,
      REDIS_URL: redis,
      JWT_SECRET: randomBytes(32).toString('hex'),
      MAIL_LINK_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_URL: cluster.balancer,
      TRUST_PROXY: 'loopback',
      JOB_LEASE_SECONDS: '3',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // CLUSTER_STATIC_DIR: a web app built elsewhere (as CLUSTER_SERVER_ENTRY).
      STATIC_DIR: options.spa
        ? (process.env.CLUSTER_STATIC_DIR ?? path.join(root, 'dist'))
        : path.join(work, 'no-spa'),
      ...s3?.env,
      ...options.env,
    };
    // The caller's own services never leak in (only what is set here).
    const base = { ...process.env };
    for (const variable of [
      'DATABASE_URL',
      'MQTT_URL',
      'MQTT_WS_URL',
      'REDIS_URL',
      'SMTP_URL',
      'NODE_OPTIONS',
    ])
      delete base[variable];
    for (const id of ['a', 'b']) {
      const dataDir = path.join(work, `data-${id}`);
      const instance = {
        id,
        port: ports[id],
        base: `http://127.0.0.1:${ports[id]}`,
        dataDir,
        process: null,
        get pid() {
          return this.process?.child.pid;
        },
        output() {
          return this.process?.output() ?? '';
        },
        running() {
          const child = this.process?.child;
          return Boolean(child && child.exitCode === null && child.signalCode === null);
        },
        async start() {
          if (this.running()) return;
          mkdirSync(dataDir, { recursive: true });
          this.process = spawnGroup(process.execPath, [...SERVER_NODE_ARGS, entry], {
            cwd: root,
            env: { ...base, ...shared, PORT: String(this.port), DATA_DIR: dataDir },
          });
          await healthy(this.base, () => this.process, START_TIMEOUT_MS);
        },
        /** SIGKILL: the machine dies, nothing is closed. */
        kill(signal = 'SIGKILL') {
          return this.process ? killGroup(this.process.child, signal) : Promise.resolve();
        },
      };
      cluster.instances[id] = instance;
      stops.push(() => instance.kill('SIGTERM'));
    }
    // One after the other: the first runs the migrations and the demo seed on the empty database.
    for (const id of options.start ?? ['a', 'b']) await cluster.instances[id].start();

    cluster.haproxy = spawnGroup(haproxy, ['-db', '-f', HAPROXY_CONFIG], {
      cwd: root,
      env: {
        ...process.env,
        LB_BIND: `127.0.0.1:${ports.balancer}`,
        INSTANCE_A: `127.0.0.1:${ports.a}`,
        INSTANCE_B: `127.0.0.1:${ports.b}`,
      },
    });
    stops.push(() => killGroup(cluster.haproxy.child, 'SIGTERM'));
    await healthy(cluster.balancer, () => cluster.haproxy, 15_000);
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** Waits until the balancer has sent a health check answer from each named instance (X-Served-By). */
export async function balancerReaches(cluster, ids = ['a', 'b'], timeoutMs = 15_000) {
  const seen = new Set();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = await fetch(`${cluster.balancer}/api/health`).catch(() => null);
    const by = answer?.headers.get('x-served-by');
    if (answer?.ok && by) seen.add(by);
    if (ids.every((id) => seen.has(id))) return;
    await wait(100);
  }
  throw new Error(`the balancer did not reach ${ids.join(' and ')} within ${timeoutMs / 1000} s`);
}
