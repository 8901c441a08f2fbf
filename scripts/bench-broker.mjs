// The realtime backbone under load, for `npm run bench` (issue 4 "Speed"):
// - load: 500 MQTT clients (clean session false, each subscribed at QoS 2 to its own topic and
//   publishing on it at QoS 2) together send and receive 1,000 messages/s for 30 s: every message is
//   counted (lost, duplicated, delivered to the wrong client) and timed publish → receive. First against
//   the embedded broker of the real server (MQTT over WebSocket at /mqtt, started as `npm start` starts
//   it, on a fresh data dir; its RSS is sampled from /proc), then the same load against the Mosquitto on
//   this machine (MQTT over TCP at 127.0.0.1:1883: it has no WebSocket listener here), side by side, with
//   the ratios. That Mosquitto keeps the default `set_tcp_nodelay false`, which costs ~40 ms per QoS 2
//   message on loopback, so the same load also runs against a Mosquitto the bench starts with the
//   machine's binary and TCP_NODELAY on: that one shows what Mosquitto itself costs;
// - publish → visible: a notification published by the server until its title shows in Chromium
//   (bench/publish-visible.ts, which holds a server of its own in its process).
//
// The load generators run in worker threads (--broker-workers, 2 by default), each driving its share of
// the clients on its own event loop, so the generator's bookkeeping does not become what is measured.
// The broker lets a client in only with a live session: the access token's `sid` must name a session
// of an active user in the database (server/modules/auth/sessions.ts), and one user may hold at most 30
// connections (embedded-broker.ts), each client with its own topic. So before the server starts, the
// bench seeds its data dir with the server's own modules: 500 staff accounts (nobody can sign in to
// them: their password hash is of a random token), a session each (startSession, as a sign-in starts
// one) and an access token each, signed by the server's token service with the server's JWT_SECRET;
// plus an admin, whose token reads the broker's kind from /api/health.
//
// `node scripts/bench-broker.mjs [--broker-seconds 5 …]` runs this bench alone and prints its figures
// as JSON (bench/results.json is left alone; `npm run bench -- --broker-only` records them).
//
// Flags (defaults are the figures): --broker-clients 500, --broker-rate 1000 (messages/s, all
// clients together), --broker-seconds 30, --broker-workers 2, --visible-samples 100.
// Every step has a time limit, so the bench always ends.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import mqtt from 'mqtt';
import { freePort, runVisibleBench, startServer, stopChildren, track } from './bench-children.mjs';

const JWT_SECRET = 'bench-broker-jwt-secret-0123456789abcdef';
const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';
const MOSQUITTO_PID_FILE = '/run/mosquitto/mosquitto.pid';
const TOPIC_PREFIX = 'mp';
const DRAIN_MS = 10_000;
const TARGETS = { lost: 0, duplicated: 0, publishToVisibleP95Ms: 100 };

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bench's settings from the command line (`npm run bench -- --broker-seconds 5`). */
export function brokerOptionsFromArgs(argv) {
  const number = (name, fallback) => {
    const index = argv.indexOf(name);
    if (index === -1) return fallback;
    const value = Number(argv[index + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number`);
    return value;
  };
  return {
    clients: number('--broker-clients', 500),
    rate: number('--broker-rate', 1000),
    seconds: number('--broker-seconds', 30),
    workers: number('--broker-workers', 2),
    visibleSamples: number('--visible-samples', 100),
  };
}

const workers = new Set();

/** Kills the load workers (the child processes are the shared tracker's): for the bench's watchdog. */
export function stopBrokerChildren() {
  for (const worker of workers) worker.terminate();
}

/** Memory and CPU time of a process, from /proc (null when it cannot be read). */
function processStats(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
    // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      rssMb: kb('VmRSS') / 1024,
      hwmMb: kb('VmHWM') / 1024,
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
    };
  } catch {
    return null;
  }
}

/** What /api/health says the server runs on: only an admin's token is told. */
async function serverHealth(port, adminToken) {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  if (!response.ok) throw new Error(`/api/health answered ${response.status}`);
  return response.json();
}

/** The real server on the seeded data dir, with the embedded broker (never an external one). */
async function startBrokerServer(root, dataDir, port, adminToken) {
  const server = await startServer(
    root,
    { DATA_DIR: dataDir, SEED_DEMO: 'false', JWT_SECRET, MQTT_TOPIC_PREFIX: TOPIC_PREFIX },
    port,
  );
  const health = await serverHealth(port, adminToken).catch(async (error) => {
    await server.stop();
    throw error;
  });
  if (health.broker !== 'embedded') {
    await server.stop();
    throw new Error(
      `the server runs the ${health.broker ?? 'unreported'} broker (health: ${JSON.stringify(health)})`,
    );
  }
  return server;
}

/**
 * Seeds `dataDir` (PGlite, before the server opens it) with `count` staff accounts and an admin, each
 * with a live session and an access token for it, through the server's own modules: as the broker
 * knows them, an id and a token whose `sid` it finds live. Answers the staff and the admin's token.
 */
async function seedBenchUsers(root, dataDir, count, runId) {
  const { tsImport } = await import('tsx/esm/api');
  const load = (file) => tsImport(path.join(root, file), import.meta.url);
  const [
    { openDatabase },
    { users },
    { syncRolePermissions },
    { hashPassword },
    { randomToken },
    sessionsModule,
    { createTokenService },
  ] = await Promise.all([
    load('server/db/client.ts'),
    load('server/db/schema.ts'),
    load('server/modules/permissions/service.ts'),
    load('server/lib/passwords.ts'),
    load('server/lib/secrets.ts'),
    load('server/modules/auth/sessions.ts'),
    load('server/modules/auth/tokens.ts'),
  ]);
  const database = await openDatabase({ dataDir });
  try {
    // As a server start prepares it (the seed CLI does the same before it seeds).
    await database.migrate();
    await syncRolePermissions(database.db);
    // Nobody ever learns this password: as for an invited staff member who has not chosen one.
    const unusableHash = await hashPassword(randomToken());
    const account = (role, name) => ({
      email: `${name}@bench-broker.local`,
      passwordHash: unusableHash,
      firstName: 'Bench',
      lastName: name,
      role,
    });
    const staff = await database.db
      .insert(users)
      .values(Array.from({ length: count }, (_, index) => account('Staff', `${runId}-staff-${index}`)))
      .returning({ id: users.id, role: users.role });
    const [admin] = await database.db
      .insert(users)
      .values(account('Admin', `${runId}-admin`))
      .returning({ id: users.id, role: users.role });
    const gate = await sessionsModule.createSessionGate(database);
    try {
      const tokens = await createTokenService(database.db, {
        secret: JWT_SECRET,
        ttlSeconds: 900,
        sessions: gate,
      });
      const signed = async (user) => ({
        id: user.id,
        token: await tokens.sign({
          id: user.id,
          role: user.role,
          sellerId: null,
          sessionId: await sessionsModule.startSession(database.db, user.id),
        }),
      });
      const benchUsers = [];
      for (const user of staff) benchUsers.push(await signed(user));
      const adminUser = await signed(admin);
      // The server verifies them the same way (signature, claims, live session): fail here, not at connect.
      await tokens.verify(benchUsers[0].token);
      return { users: benchUsers, adminToken: adminUser.token };
    } finally {
      await gate.close();
    }
  } finally {
    await database.close();
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Runs the load against one broker: `clients` split over the workers, each worker its share of the
 * rate. `brokerPid` (when known) is sampled for memory and CPU while the load runs.
 */
async function runLoad({ url, clients, options, brokerPid, cleanupSessions }) {
  const workerCount = Math.min(options.workers, clients.length);
  const shares = Array.from({ length: workerCount }, (_, w) =>
    clients.filter((_, index) => index % workerCount === w),
  );
  const started = [];
  const messages = shares.map(() => []);
  const waiters = shares.map(() => []);
  const next = (w, type) =>
    new Promise((resolve, reject) => {
      const queued = messages[w].findIndex((message) => message.type === type);
      if (queued !== -1) return resolve(messages[w].splice(queued, 1)[0]);
      waiters[w].push({ type, resolve, reject });
    });
  for (const [w, share] of shares.entries()) {
    const worker = new Worker(new URL('./bench-broker-load.mjs', import.meta.url), {
      workerData: {
        url,
        clients: share,
        ratePerSecond: (options.rate * share.length) / clients.length,
        seconds: options.seconds,
        drainMs: DRAIN_MS,
        cleanupSessions,
      },
    });
    workers.add(worker);
    worker.on('message', (message) => {
      const waiter = waiters[w].findIndex((candidate) => candidate.type === message.type);
      if (waiter === -1) messages[w].push(message);
      else waiters[w].splice(waiter, 1)[0].resolve(message);
    });
    const fail = (error) => {
      for (const waiter of waiters[w].splice(0)) waiter.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      workers.delete(worker);
      fail(new Error(`load worker ${w} exited (${code})`));
    });
    started.push(worker);
  }
  try {
    const ready = await withTimeout(
      Promise.all(started.map((_, w) => next(w, 'ready'))),
      120_000,
      'connecting and subscribing the clients',
    );
    const connected = brokerPid ? processStats(brokerPid) : null;
    const cpuBefore = process.cpuUsage();
    const rssSamples = [];
    const sampler = setInterval(() => {
      const stats = brokerPid ? processStats(brokerPid) : null;
      if (stats) rssSamples.push(stats.rssMb);
    }, 250);
    const loadStarted = Date.now();
    for (const worker of started) worker.postMessage({ type: 'go', startAt: loadStarted + 300 });
    let done;
    try {
      done = await withTimeout(
        Promise.all(started.map((_, w) => next(w, 'done'))),
        options.seconds * 1000 + DRAIN_MS + 60_000,
        'the load',
      );
    } finally {
      clearInterval(sampler);
    }
    const atEnd = brokerPid ? processStats(brokerPid) : null;
    const generatorCpu = process.cpuUsage(cpuBefore);
    for (const worker of started) worker.postMessage({ type: 'close' });
    await withTimeout(
      Promise.all(started.map((_, w) => next(w, 'closed'))),
      60_000,
      'disconnecting the clients',
    );

    const sum = (key) => done.reduce((total, { stats }) => total + stats[key], 0);
    const latencies = Float64Array.from(done.flatMap(({ stats }) => [...stats.latencies])).sort();
    const sendSeconds = Math.max(...done.map(({ stats }) => stats.sendSeconds));
    const deliverySeconds = Math.max(...done.map(({ stats }) => stats.deliverySeconds));
    const sent = sum('sent');
    const received = sum('received');
    return {
      url,
      clients: clients.length,
      loadWorkers: workerCount,
      connectAndSubscribeMs: Math.round(Math.max(...ready.map((message) => message.connectMs))),
      sent,
      received,
      lost: sum('lost'),
      duplicated: sum('duplicated'),
      clientsWithLoss: sum('clientsWithLoss'),
      clientsWithDuplicates: sum('clientsWithDuplicates'),
      deliveredToWrongClient: sum('strays'),
      undecodable: sum('invalid'),
      publishErrors: sum('publishErrors'),
      droppedConnections: sum('disconnects'),
      sendRatePerSecond: Math.round(sent / sendSeconds),
      deliveredPerSecond: Math.round(received / deliverySeconds),
      latencyMs: {
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1) ?? null),
      },
      worstClientLatencyP95Ms: round(Math.max(...done.map(({ stats }) => stats.worstClientP95))),
      broker:
        connected && atEnd
          ? {
              rssMbWithClientsConnected: round(connected.rssMb),
              rssMbPeakDuringLoad: round(Math.max(connected.rssMb, ...rssSamples, atEnd.rssMb)),
              rssMbAtEnd: round(atEnd.rssMb),
              cpuSecondsDuringLoad: Math.round((atEnd.cpuSeconds - connected.cpuSeconds) * 100) / 100,
            }
          : { unmeasured: 'the broker process could not be read from /proc' },
      loadGeneratorCpuSeconds: round((generatorCpu.user + generatorCpu.system) / 1e6),
    };
  } finally {
    for (const worker of started) await worker.terminate();
  }
}

async function mqttReachable(url) {
  try {
    const client = await mqtt.connectAsync(url, {
      connectTimeout: 2000,
      reconnectPeriod: 0,
      clientId: `bench_probe_${randomUUID()}`,
    });
    await client.endAsync();
    return true;
  } catch {
    return false;
  }
}

function mosquittoPid() {
  try {
    const pid = Number(readFileSync(MOSQUITTO_PID_FILE, 'utf8').trim());
    return processStats(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * A Mosquitto of the bench's own, the machine's binary with TCP_NODELAY on: Mosquitto's default
 * (`set_tcp_nodelay false`) lets Nagle's algorithm meet the receiver's delayed ACKs on QoS 2's small
 * packets, about 40 ms a message on loopback; this one shows what Mosquitto itself costs.
 */
async function startPrivateMosquitto(root, runId) {
  const binary = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((candidate) => existsSync(candidate));
  if (!binary) return null;
  const port = await freePort();
  const config = path.join(root, '.tmp', `bench-mosquitto-${runId}.conf`);
  writeFileSync(
    config,
    `listener ${port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\npersistence false\n`,
  );
  const child = track(spawn(binary, ['-c', config], { stdio: 'ignore' }));
  const stop = async () => {
    rmSync(config, { force: true });
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
  };
  const url = `mqtt://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await mqttReachable(url)) return { url, pid: child.pid, stop };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  await stop();
  return null;
}

async function benchEmbedded(root, options, runId) {
  const dataDir = path.join(root, '.tmp', `bench-broker-${runId}`);
  mkdirSync(dataDir, { recursive: true });
  let server = null;
  try {
    const seedStarted = Date.now();
    const { users, adminToken } = await withTimeout(
      seedBenchUsers(root, dataDir, options.clients, runId),
      180_000,
      'seeding the bench users and sessions',
    );
    console.info(`  seeded ${users.length} staff with a session each in ${elapsed(seedStarted)}`);
    const port = await freePort();
    server = await startBrokerServer(root, dataDir, port, adminToken);
    await sleep(1000); // let the start's garbage settle before the idle figure
    const idle = processStats(server.pid);
    const load = await runLoad({
      url: `ws://127.0.0.1:${port}/mqtt`,
      clients: users.map((user, index) => ({
        clientId: `bench_${runId}_${index}`,
        username: user.id,
        password: user.token,
        topic: `${TOPIC_PREFIX}_${user.id}_message`,
      })),
      options,
      brokerPid: server.pid,
      cleanupSessions: false, // the server and its in-memory sessions go away with the data dir
    });
    const end = processStats(server.pid);
    return {
      load: { transport: 'MQTT over WebSocket (ws://…/mqtt), as browsers connect', ...load },
      serverRssMb: {
        idleAfterStart: round(idle?.rssMb ?? null),
        withClientsConnected: load.broker.rssMbWithClientsConnected ?? null,
        peakDuringLoad: load.broker.rssMbPeakDuringLoad ?? null,
        atEnd: load.broker.rssMbAtEnd ?? null,
        afterClientsLeft: round(end?.rssMb ?? null),
        // The kernel's high-water mark: includes the start (migrations), not only the load.
        vmHwm: round(end?.hwmMb ?? null),
      },
    };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function mosquittoLoad(url, pid, options, runId) {
  return runLoad({
    url,
    clients: Array.from({ length: options.clients }, (_, index) => ({
      clientId: `bench_${runId}_m${index}`,
      topic: `bench/${runId}/${index}`,
    })),
    options,
    brokerPid: pid,
    cleanupSessions: true, // Mosquitto persists sessions: leave none of ours behind
  });
}

/** The Mosquitto this machine runs, as it is configured. */
async function benchMosquitto(options, runId) {
  if (!(await mqttReachable(MOSQUITTO_URL))) return { skipped: `not reachable at ${MOSQUITTO_URL.slice(7)}` };
  return {
    transport: 'MQTT over TCP (it has no WebSocket listener here), no authentication, its own settings',
    ...(await mosquittoLoad(MOSQUITTO_URL, mosquittoPid(), options, runId)),
  };
}

async function benchPrivateMosquitto(root, options, runId) {
  const mosquitto = await startPrivateMosquitto(root, runId);
  if (!mosquitto) return { skipped: 'no mosquitto binary to start one with TCP_NODELAY' };
  try {
    return {
      transport:
        'MQTT over TCP, no authentication, set_tcp_nodelay true, no persistence (started by the bench)',
      ...(await mosquittoLoad(mosquitto.url, mosquitto.pid, options, `${runId}n`)),
    };
  } finally {
    await mosquitto.stop();
  }
}

/** Publish → visible in Chromium, in a child process of its own that holds the server. */
function benchPublishToVisible(root, samples) {
  return runVisibleBench(root, 'bench/publish-visible.ts', ['--samples', String(samples)], {
    needs: ['server/modules/notifications', 'src/app/shell/realtime.tsx'],
  });
}

/** A part that fails is reported as such; the other parts and the rest of the bench still run. */
async function attempt(part) {
  try {
    return await part();
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

const unmeasured = (load) => load.skipped ?? load.failed;

const elapsed = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

function printLoad(label, load) {
  if (unmeasured(load)) return console.info(`  ${label.padEnd(10)} not measured: ${unmeasured(load)}`);
  console.info(
    `  ${label.padEnd(10)} sent ${load.sent}  received ${load.received}  lost ${load.lost}  duplicated ${load.duplicated}  ` +
      `${load.sendRatePerSecond}/s  p50 ${load.latencyMs.p50} ms  p95 ${load.latencyMs.p95} ms  p99 ${load.latencyMs.p99} ms` +
      (load.broker.rssMbPeakDuringLoad ? `  broker RSS peak ${load.broker.rssMbPeakDuringLoad} MB` : ''),
  );
}

/** Embedded ÷ Mosquitto: above 1 the embedded broker is slower (latency) or needs more (memory, CPU). */
function ratios(embedded, mosquitto) {
  if (unmeasured(embedded) || unmeasured(mosquitto)) return { skipped: 'one side was not measured' };
  return {
    latencyP50: ratio(embedded.latencyMs.p50, mosquitto.latencyMs.p50),
    latencyP95: ratio(embedded.latencyMs.p95, mosquitto.latencyMs.p95),
    latencyP99: ratio(embedded.latencyMs.p99, mosquitto.latencyMs.p99),
    deliveredPerSecond: ratio(embedded.deliveredPerSecond, mosquitto.deliveredPerSecond),
    brokerRssPeak: ratio(embedded.broker.rssMbPeakDuringLoad, mosquitto.broker.rssMbPeakDuringLoad),
    brokerCpuSeconds: ratio(embedded.broker.cpuSecondsDuringLoad, mosquitto.broker.cpuSecondsDuringLoad),
  };
}

export async function benchBroker(root, options = brokerOptionsFromArgs([])) {
  const runId = Date.now().toString(36);
  console.info(
    `\n▶ broker: ${options.clients} clients, ${options.rate} messages/s for ${options.seconds} s, QoS 2, ${options.workers} load workers`,
  );
  let since = Date.now();
  const embeddedRun = await attempt(() => benchEmbedded(root, options, runId));
  const embedded = embeddedRun.failed ? { load: embeddedRun, serverRssMb: embeddedRun } : embeddedRun;
  printLoad('embedded', embedded.load);
  console.info(`             (${elapsed(since)} with the seed and the server's start)`);
  since = Date.now();
  const mosquitto = await attempt(() => benchMosquitto(options, runId));
  printLoad('mosquitto', mosquitto);
  console.info(`             (${elapsed(since)})`);
  since = Date.now();
  const mosquittoNoDelay = await attempt(() => benchPrivateMosquitto(root, options, runId));
  printLoad('mosquitto (TCP_NODELAY)', mosquittoNoDelay);
  console.info(`             (${elapsed(since)})`);
  since = Date.now();
  console.info(`\n▶ publish → visible in Chromium: ${options.visibleSamples} notifications…`);
  const publishToVisible = await benchPublishToVisible(root, options.visibleSamples);
  console.info(`  ${JSON.stringify(publishToVisible)} (${elapsed(since)})`);

  const withVerdict = (load) =>
    unmeasured(load)
      ? load
      : { ...load, meetsTarget: load.lost === TARGETS.lost && load.duplicated === TARGETS.duplicated };
  return {
    settings: {
      clients: options.clients,
      messagesPerSecond: options.rate,
      seconds: options.seconds,
      qos: 2,
      cleanSession: false,
      loadWorkers: options.workers,
      drainSeconds: DRAIN_MS / 1000,
    },
    targets: TARGETS,
    embedded: withVerdict(embedded.load),
    mosquitto: withVerdict(mosquitto),
    mosquittoTcpNoDelay: withVerdict(mosquittoNoDelay),
    ratio: {
      note:
        'embedded ÷ Mosquitto, above 1 = slower or needs more. The embedded broker is the whole server ' +
        '(Node, Fastify, PGlite) behind WebSocket; Mosquitto is a C broker over TCP. The machine’s ' +
        'Mosquitto runs with set_tcp_nodelay false (its default), which adds ~40 ms per QoS 2 message on ' +
        'loopback; vsMosquittoTcpNoDelay compares with the same binary without that delay.',
      ...ratios(embedded.load, mosquitto),
      vsMosquittoTcpNoDelay: ratios(embedded.load, mosquittoNoDelay),
    },
    serverRssMb: embedded.serverRssMb,
    publishToVisible:
      publishToVisible.skipped || publishToVisible.failed
        ? publishToVisible
        : {
            ...publishToVisible,
            p95TargetMs: TARGETS.publishToVisibleP95Ms,
            meetsTarget:
              publishToVisible.p95 <= TARGETS.publishToVisibleP95Ms && publishToVisible.missed === 0,
          },
  };
}

// Run alone: `node scripts/bench-broker.mjs [--broker-seconds 5 …]` prints the figures, records nothing.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const stop = () => {
    stopChildren();
    stopBrokerChildren();
    process.exit(1);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const results = await benchBroker(root, brokerOptionsFromArgs(process.argv));
  console.info(JSON.stringify(results, null, 2));
  process.exit(0);
}
