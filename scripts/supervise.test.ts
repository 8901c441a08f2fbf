// FAULT test (issue 26): `npm start` (scripts/start.mjs) supervises the server. Killing the server
// outright (kill -9) brings it back on the same data, answering; SIGTERM on the supervisor stops both,
// the server closing its database first (its 'shutting down' log, exit code 0), and the data is there
// on the next start.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, freePort, signIn, until } from '../server/test-process';
import { SERVER_NODE_ARGS } from './server-node-args.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** The supervisor's children that are the server (dist-server/main.mjs), not a build helper. */
const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('dist-server/main.mjs'));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start supervises the server', () => {
  let dataDir: string;
  let supervisor: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    // Empty: the first start migrates and seeds the demo, as `npm start` on a new machine does.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-supervise-'));
  });

  afterAll(async () => {
    if (supervisor && supervisor.exitCode === null) supervisor.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('restarts the server after kill -9, and SIGTERM stops both cleanly', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    supervisor = spawn(process.execPath, [...SERVER_NODE_ARGS, 'scripts/start.mjs'], {
      cwd: root,
      env: childEnv(dataDir, {
        PORT: String(port),
        HOST: '127.0.0.1',
        SKIP_BUILD: 'true',
        LOG_LEVEL: 'info',
      }),
      stdio: 'pipe',
    });
    supervisor.stdout?.on('data', (chunk) => (output += chunk));
    supervisor.stderr?.on('data', (chunk) => (output += chunk));
    const parent = supervisor.pid as number;
    const healthy = async () =>
      (await fetch(`${base}/api/health`).catch(() => null))?.ok ? true : undefined;

    // The build (when dist-server/ is stale) and the first start.
    await until('the server to answer', healthy, 180_000);
    const [first] = childrenOf(parent);
    expect(first).toBeGreaterThan(0);
    const { token } = await signIn(base);
    expect(token).toBeTruthy();

    process.kill(first as number, 'SIGKILL');
    await until(
      'the killed server to be gone',
      async () => (alive(first as number) ? undefined : true),
      10_000,
    );
    await until('a new server', async () => (childrenOf(parent).length ? true : undefined), 30_000);
    await until('the new server to answer', healthy, 120_000);
    const [second] = childrenOf(parent);
    expect(second).not.toBe(first);
    expect(output).toMatch(/\[supervisor .*\] the server stopped: it was killed by SIGKILL .*restarting it/);
    // Same data dir: the demo accounts are still there.
    expect((await signIn(base)).token).toBeTruthy();

    const exited = once(supervisor, 'exit');
    supervisor.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(alive(second as number)).toBe(false);
    // The server ran its shutdown (HTTP server, then the database) before exiting 0.
    expect(output).toMatch(/shutting down/);
  }, 300_000);
});
