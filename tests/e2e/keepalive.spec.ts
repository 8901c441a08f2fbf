// An idle page keeps its live connection: MQTT.js sends PINGREQ within every keepalive period and the
// broker answers, so the connection is never dropped for silence (it was, every ~180 s, when the
// keepalive timer could not run). The keepalive is shortened for this test only, through the server's
// configuration (MQTT_KEEPALIVE_SECONDS, served to the browser at run time); the product keeps SPEC
// §9's 120 s. This spec starts a server of its own for that.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SERVER_NODE_ARGS } from '../../scripts/server-node-args.mjs';
import { fillSignIn, liveUpdatesOn } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3199) + 7;
const KEEPALIVE_SECONDS = 2;
const PINGREQ = 'c000';
const PINGRESP = 'd000';

let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-keepalive-'));
  server = spawn(process.execPath, [...SERVER_NODE_ARGS, 'scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SKIP_BUILD: 'true',
      LOG_LEVEL: 'warn',
      MQTT_KEEPALIVE_SECONDS: String(KEEPALIVE_SECONDS),
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${PORT}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 60_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((resolve) => server?.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
});

const hex = (payload: string | Buffer) =>
  (typeof payload === 'string' ? Buffer.from(payload) : payload).toString('hex');

test('an idle page pings the broker within every keepalive period and keeps its one connection', async ({
  page,
}) => {
  const sockets: { pings: number; pongs: number; closed: boolean }[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/mqtt')) return;
    const record = { pings: 0, pongs: 0, closed: false };
    sockets.push(record);
    socket.on('framesent', ({ payload }) => {
      if (hex(payload) === PINGREQ) record.pings += 1;
    });
    socket.on('framereceived', ({ payload }) => {
      if (hex(payload) === PINGRESP) record.pongs += 1;
    });
    socket.on('close', () => {
      record.closed = true;
    });
  });
  await page.goto(`http://127.0.0.1:${PORT}/signin`);
  await fillSignIn(page, 'staff@demo.local');
  await liveUpdatesOn(page);
  // Idle for several keepalive periods (the broker drops a client silent for 1.5 of them): the pings
  // go out and are answered on the same connection.
  await expect.poll(() => sockets[0]?.pongs ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  expect(sockets).toHaveLength(1);
  expect(sockets[0]?.closed).toBe(false);
  expect(sockets[0]?.pings).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole('button', { name: 'Notifications' })).toHaveAttribute('data-live', 'connected');
});
