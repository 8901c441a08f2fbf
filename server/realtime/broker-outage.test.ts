// A Redis outage under a clustered broker: a throwaway redis-server of the test's own is stopped and
// started again on the same port. Meanwhile HTTP keeps answering, admins see the broker degraded in
// /api/health (the public answer keeps its shape), notifications are stored, nothing crashes (vitest
// fails the run on an unhandled rejection or exception); when Redis is back, publishing works again
// without a restart.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessageTopic } from '../../contracts/broker-topics';
import { createTestApp, demoEmails, json, signInAs, type TestApp } from '../test-support';

const PORT = 16390;
const REDIS_URL = `redis://127.0.0.1:${PORT}`;

function redisServerBinary(): string | null {
  try {
    return execFileSync('which', ['redis-server']).toString().trim() || null;
  } catch {
    return null;
  }
}
const binary = redisServerBinary();
if (!binary) console.warn('redis-server is not installed: the broker Redis outage test is skipped');

/** Starts redis-server on PORT, without persistence (so a restart is an empty Redis), once it listens. */
async function startRedis(): Promise<ChildProcess> {
  const server = spawn(binary as string, ['--port', String(PORT), '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Ready to accept connections')) return;
      // Its pipe must not keep the test process alive.
      server.stdout?.destroy();
      resolve();
    });
    server.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return server;
}

async function stopRedis(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, 'exit');
  server.kill('SIGKILL');
  await exited;
}

async function until<T>(probe: () => Promise<T>, holds: (value: T) => boolean, timeoutMs = 20_000) {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (holds(value) || Date.now() - start > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!binary)('the clustered broker through a Redis outage', () => {
  let redis: ChildProcess;
  let t: TestApp;
  let url: string;
  let admin: { userId: string; token: string };
  let staff: { userId: string; token: string };
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApp({ env: { REDIS_URL }, jobs: { enabled: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
    admin = await signInAs(t.app, demoEmails.Admin);
    staff = await signInAs(t.app, demoEmails.Staff);
  });
  afterAll(async () => {
    for (const client of clients) client.end(true);
    try {
      await t?.close();
    } finally {
      // Even if closing the app failed, no redis-server is left holding the port.
      if (redis) await stopRedis(redis);
    }
  }, 30_000);

  const health = async (app: FastifyInstance, token?: string) =>
    json<{ status: string; brokerCluster?: string }>(
      await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    );

  /** A subscriber to the staff user's own topic; answers what it receives. */
  const subscriber = async () => {
    const client = await mqtt.connectAsync(url, {
      username: staff.userId,
      password: staff.token,
      reconnectPeriod: 0,
      connectTimeout: 4000,
      clientId: `outage_${Math.random().toString(36).slice(2)}`,
    });
    clients.push(client);
    const received: unknown[] = [];
    client.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString())));
    await client.subscribeAsync(userMessageTopic(t.config.MQTT_TOPIC_PREFIX, staff.userId), { qos: 2 });
    return { client, received };
  };

  it('reports degraded to admins, keeps HTTP and notifications going, and recovers by itself', async () => {
    expect(await health(t.app, admin.token)).toMatchObject({ status: 'ok', brokerCluster: 'ok' });
    const before = await subscriber();
    await t.app.broker.publishToUser(staff.userId, { n: 1 });
    await until(
      async () => before.received.length,
      (n) => n >= 1,
    );
    expect(before.received).toEqual([{ n: 1 }]);

    await stopRedis(redis);
    const degraded = await until(
      () => health(t.app, admin.token),
      (answer) => answer.brokerCluster === 'degraded',
    );
    expect(degraded).toEqual({
      status: 'ok',
      db: t.database.kind,
      broker: 'embedded',
      brokerCluster: 'degraded',
    });
    // The public answer keeps its shape.
    expect(await health(t.app)).toEqual({ status: 'ok' });
    // A publish fails at once rather than hold its caller.
    const started = Date.now();
    await expect(t.app.broker.publishToUser(staff.userId, { n: 2 })).rejects.toThrow(/degraded/);
    expect(Date.now() - started).toBeLessThan(1000);
    // A notification is stored all the same, and HTTP answers with it.
    const stored = await t.app.notifications.notify(staff.userId, { title: 'Stored through the outage' });
    expect(stored).not.toBeNull();
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/localEventMessage/listEventMessages?skip=0&limit=10',
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(json(list))).toContain('Stored through the outage');
    // A new broker connection is refused as unavailable (the registry cannot count it), not left hanging.
    await expect(subscriber()).rejects.toThrow(/Server unavailable|connack timeout|closed/i);

    redis = await startRedis();
    const whole = await until(
      () => health(t.app, admin.token),
      (answer) => answer.brokerCluster === 'ok',
    );
    expect(whole.brokerCluster).toBe('ok');
    const after = await until(
      () => subscriber().catch(() => null),
      (connected) => connected !== null,
    );
    expect(after).not.toBeNull();
    // Publishing recovers without a restart: the new subscriber hears it.
    await t.app.broker.publishToUser(staff.userId, { n: 3 });
    await until(
      async () => after?.received.length ?? 0,
      (n) => n >= 1,
    );
    expect(after?.received).toEqual([{ n: 3 }]);
  });
});
