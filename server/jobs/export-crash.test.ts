// FAULT test (issue 4): kill the real server with SIGKILL in the middle of an export, start it again
// on the same data dir, and the export still finishes — notified exactly once, in the database and on
// the broker. Everything runs on 127.0.0.1 with a temporary DATA_DIR; bounded well under 90 s.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDownloadPath } from '../../contracts/exports';
import type { NotificationList, NotificationMessage, Task } from '../../contracts/notifications';
import type { SellerList } from '../../contracts/sellers';

// Enough sellers that an export takes a few seconds on PGlite: long enough to be caught half-way and for
// the subscriber to connect to the restarted server before the second attempt ends.
const SELLERS = 50_000;
const root = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The machine's environment without anything that would point the server at outside services. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'MQTT_URL',
    'MQTT_WS_URL',
    'REDIS_URL',
    'SMTP_URL',
    'PORT',
    'NODE_OPTIONS',
  ])
    delete env[name];
  return { ...env, DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-spa'), LOG_LEVEL: 'warn', ...extra };
}

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${output}`);
}

interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: childEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1', JOB_LEASE_SECONDS: '2' }),
    stdio: 'pipe',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    const health = await fetch(`${base}/api/health`).catch(() => null);
    if (health?.ok) return { child, base, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start in 30 s:\n${output}`);
}

async function stop(server: Server, signal: NodeJS.Signals) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill(signal);
  await exited;
}

async function signIn(base: string) {
  const response = await fetch(`${base}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.local', password: 'Demo@12345' }),
  });
  const body = (await response.json()) as { accessToken: string; user: { id: string } };
  return { token: body.accessToken, userId: body.user.id };
}

async function api<T>(base: string, token: string, url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an export survives a server crash', () => {
  let dataDir: string;
  const servers: Server[] = [];
  let subscriber: mqtt.MqttClient | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-crash-'));
    // The seed command prepares the data dir as a start would (migrations, demo accounts) and adds sellers.
    await run(['server/db/seed/cli.ts', '--sellers', String(SELLERS)], childEnv(dataDir));
  }, 80_000);

  afterAll(async () => {
    await subscriber?.endAsync(true);
    for (const server of servers) await stop(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is picked up after the restart, completes, and is notified exactly once', async () => {
    // 1. First server: start an export and kill the server half-way through it.
    const first = await startServer(dataDir);
    servers.push(first);
    const admin = await signIn(first.base);
    const { taskStatus } = await api<{ taskStatus: { taskId: string } }>(
      first.base,
      admin.token,
      '/api/v1/exports/sellers',
      { method: 'POST', body: JSON.stringify({ format: 'csv' }) },
    );
    const taskId = taskStatus.taskId;
    const halfway = await until(
      'the export to be under way',
      async () => {
        const task = await api<Task>(first.base, admin.token, `/api/v1/tasks/${taskId}`);
        if (task.status === 'Completed')
          throw new Error('the export finished before it could be interrupted');
        return task.progress > 0 ? task : undefined;
      },
      20_000,
    );
    expect(halfway).toMatchObject({ status: 'Running', attempts: 1 });
    await stop(first, 'SIGKILL');
    const leftovers = await readdir(path.join(dataDir, 'files', 'exports'));
    expect(leftovers.some((name) => name.endsWith('.csv'))).toBe(false); // only a temporary file, if any

    // 2. Second server on the same data dir: subscribe as the admin, then wait for the job to finish.
    const second = await startServer(dataDir);
    servers.push(second);
    const again = await signIn(second.base);
    subscriber = await mqtt.connectAsync(`${second.base.replace('http', 'ws')}/mqtt`, {
      username: again.userId,
      password: again.token,
      reconnectPeriod: 0,
      clientId: `crash_test_${Date.now()}`,
    });
    const messages: NotificationMessage[] = [];
    subscriber.on('message', (_topic, payload) => messages.push(JSON.parse(payload.toString())));
    await subscriber.subscribeAsync(`mp_${again.userId}_message`, { qos: 2 });
    const beforeDone = await api<Task>(second.base, again.token, `/api/v1/tasks/${taskId}`);
    expect(beforeDone.status, 'the export finished before the subscriber was listening').not.toBe(
      'Completed',
    );

    const done = await until(
      'the export to complete after the restart',
      async () => {
        const task = await api<Task>(second.base, again.token, `/api/v1/tasks/${taskId}`);
        if (task.status === 'Failed') throw new Error(`the export failed: ${task.error}`);
        return task.status === 'Completed' ? task : undefined;
      },
      40_000,
    );
    expect(done).toMatchObject({ progress: 100, attempts: 2 });
    await until('the completion message', async () => (messages.length ? true : undefined), 5_000);
    // A duplicate would come on the same topic before any later message: a second (tiny) export's
    // completion is the barrier after which it can no longer arrive.
    const barrier = await api<{ taskStatus: { taskId: string } }>(
      second.base,
      again.token,
      '/api/v1/exports/sellers',
      { method: 'POST', body: JSON.stringify({ format: 'csv', query: 'no seller is called this' }) },
    );
    await until(
      'the barrier export to be announced',
      async () =>
        messages.some((message) => message.taskId === barrier.taskStatus.taskId) ? true : undefined,
      30_000,
    );
    const aboutTask = messages.filter((message) => message.taskId === taskId);
    expect(aboutTask).toHaveLength(1);
    expect(aboutTask[0]).toMatchObject({
      type: 'NOTIFICATION',
      taskName: 'Sellers export',
      status: 'Completed',
      link: exportDownloadPath(taskId),
    });

    const stored = await api<NotificationList>(
      second.base,
      again.token,
      '/api/v1/localEventMessage/listEventMessages?limit=100',
    );
    expect(stored.data.result.filter((n) => n.taskId === taskId)).toHaveLength(1);

    // The file is whole: every seller once, and no temporary file of the killed attempt is left.
    const sellers = await api<SellerList>(second.base, again.token, '/api/v1/sellers/listSellers?limit=1');
    const file = await fetch(`${second.base}${exportDownloadPath(taskId)}`, {
      headers: { authorization: `Bearer ${again.token}` },
    });
    expect(file.status).toBe(200);
    const lines = (await file.text()).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(sellers.count + 1);
    expect((await readdir(path.join(dataDir, 'files', 'exports'))).sort()).toEqual(
      [`${taskId}.csv`, `${barrier.taskStatus.taskId}.csv`].sort(),
    );
  }, 80_000);
});
