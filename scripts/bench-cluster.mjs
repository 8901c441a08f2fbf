// Two instances behind the load balancer (`cluster` in bench/results.json, issue 28): the sellers list
// (one page of the active tab, as an admin) at 50 connections with wrk, for one instance directly, the
// same instance through HAProxy (deploy/haproxy.cfg) and two instances through HAProxy — the cluster of
// the cluster tests (tests/cluster/cluster.mjs) on PostgreSQL and Redis. Each figure is the median of
// 3 runs, with the 1-minute load average after each. On 2 cores wrk, HAProxy, both Node processes and
// PostgreSQL share the CPU: the two-instance figure is recorded, not expected to scale here.
// Needs wrk on PATH, TEST_DATABASE_URL (or BENCH_DATABASE_URL) and TEST_REDIS_URL; skipped otherwise.
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { balancerReaches, clusterSkipReason, startCluster } from '../tests/cluster/cluster.mjs';

const exec = promisify(execFile);
const CONNECTIONS = 50;
const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 8);
const LIST_URL = '/api/v1/sellers/listSellers?isActive=true&skip=0&limit=10';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** wrk's latency figures in ms: "1.23ms", "850.00us", "1.02s", "2.00m". */
function wrkMs(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2]];
}

async function wrk(base, token) {
  const { stdout } = await exec(
    'wrk',
    [
      '-t2',
      `-c${CONNECTIONS}`,
      `-d${SECONDS}s`,
      '--latency',
      '--timeout',
      '10s',
      '-H',
      `Authorization: Bearer ${token}`,
      `${base}${LIST_URL}`,
    ],
    { timeout: (SECONDS + 30) * 1000 },
  );
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p50 = wrkMs(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? '');
  const p99 = wrkMs(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { perSecond, p50, p99, failures: non2xx + socketErrors };
}

/** Three wrk runs after a short warm-up: medians, and each run's figures. */
async function scenario(label, base, token) {
  console.info(`  ${label}…`);
  await exec('wrk', ['-t1', '-c10', '-d2s', '-H', `Authorization: Bearer ${token}`, `${base}${LIST_URL}`]);
  const runs = [];
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    const result = await wrk(base, token);
    runs.push({ ...result, load: os.loadavg()[0] });
  }
  const pick = (key) => runs.map((run) => run[key]);
  return {
    requestsPerSecond: Math.round(median(pick('perSecond'))),
    p50Ms: round(median(pick('p50'))),
    p99Ms: round(median(pick('p99'))),
    failures: pick('failures').reduce((sum, n) => sum + n, 0),
    loadAverage1m: round(median(pick('load')), 2),
    samples: {
      requestsPerSecond: pick('perSecond').map((n) => Math.round(n)),
      p99Ms: pick('p99').map((n) => round(n)),
      loadAverage1m: pick('load').map((n) => round(n, 2)),
    },
  };
}

async function signIn(base) {
  const answer = await fetch(`${base}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.local', password: 'Demo@12345' }),
  });
  if (!answer.ok) throw new Error(`sign-in failed: ${answer.status} ${await answer.text()}`);
  return (await answer.json()).accessToken;
}

/** Until `count` answers in a row through the balancer all came from instance `id`. */
async function onlyServedBy(balancer, id, count = 10) {
  const deadline = Date.now() + 20_000;
  let inRow = 0;
  while (inRow < count && Date.now() < deadline) {
    const answer = await fetch(`${balancer}/api/health`).catch(() => null);
    inRow = answer?.headers.get('x-served-by') === id ? inRow + 1 : 0;
  }
  if (inRow < count) throw new Error(`the balancer still sends requests beside instance ${id}`);
}

export async function benchCluster() {
  console.info('\n▶ cluster: two instances behind HAProxy');
  const env = {
    ...process.env,
    TEST_DATABASE_URL: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  };
  const skipped = await clusterSkipReason(env);
  if (skipped) return { skipped };
  try {
    await exec('wrk', ['--version']).catch((error) => {
      if (error.code === 'ENOENT') throw error;
    });
  } catch {
    return { skipped: 'wrk is not installed (apt-get install -y wrk)' };
  }
  // Instance b starts after the one-instance figures, so they are one instance's alone.
  const cluster = await startCluster({ start: ['a'], databaseUrl: env.TEST_DATABASE_URL });
  try {
    const { a, b } = cluster.instances;
    const token = await signIn(a.base);
    // HAProxy takes b for up until two health checks fail (deploy/haproxy.cfg: inter 2s, fall 2);
    // until then half the requests would try b first and be redispatched.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await onlyServedBy(cluster.balancer, 'a');
    const oneInstanceDirect = await scenario('one instance, direct', a.base, token);
    const oneInstanceThroughBalancer = await scenario(
      'one instance through HAProxy',
      cluster.balancer,
      token,
    );
    await b.start();
    await balancerReaches(cluster, ['a', 'b']);
    const twoInstancesThroughBalancer = await scenario(
      'two instances through HAProxy',
      cluster.balancer,
      token,
    );
    return {
      url: LIST_URL,
      database: 'postgres',
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      cpus: os.cpus().length,
      note: 'medians of 3 wrk runs; wrk, HAProxy, the instances and PostgreSQL share the machine’s cores: two instances are recorded, not expected to scale here',
      oneInstanceDirect,
      oneInstanceThroughBalancer,
      twoInstancesThroughBalancer,
    };
  } finally {
    await cluster.stop();
  }
}
