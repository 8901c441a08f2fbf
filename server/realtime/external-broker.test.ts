import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { redactedUrl } from '../lib/redacted-url';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';

const MQTT_URL = process.env.TEST_MQTT_URL;
// A prefix of this run's own: other tests may share the same Mosquitto.
const prefix = () => `t${Math.random().toString(36).slice(2, 10)}`;

function nextMessage(client: mqtt.MqttClient) {
  return new Promise<{ topic: string; body: unknown }>((resolve) =>
    client.once('message', (topic, payload) => resolve({ topic, body: JSON.parse(payload.toString()) })),
  );
}

it('never puts broker credentials into messages', () => {
  expect(redactedUrl('mqtt://server:s3cret@broker.example:1883')).toBe('mqtt://broker.example:1883');
  expect(redactedUrl('not a url')).toBe('(invalid URL)');
});

describe.skipIf(!MQTT_URL)('external broker mode (MQTT_URL) against Mosquitto', () => {
  let t: TestApp;
  let subscriber: mqtt.MqttClient;
  const topicPrefix = prefix();

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MQTT_URL: MQTT_URL as string,
        MQTT_WS_URL: 'wss://broker.example.test/mqtt',
        MQTT_TOPIC_PREFIX: topicPrefix,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    subscriber = await mqtt.connectAsync(MQTT_URL as string, { reconnectPeriod: 0 });
  });
  afterAll(async () => {
    await subscriber?.endAsync(true);
    await t?.close();
  });

  it('says so in /api/health and sends browsers to MQTT_WS_URL', async () => {
    expect(t.app.broker.kind).toBe('external');
    const admin = await signInAs(t.app, demoEmails.Admin);
    const health = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(health.json()).toMatchObject({ broker: 'external' });
    const runtime = await t.app.inject({ method: 'GET', url: '/api/v1/globalConfigs/runtime' });
    expect(runtime.json()).toMatchObject({ mqttUrl: 'wss://broker.example.test/mqtt' });
  });

  it("publishes a user's message to Mosquitto, where a plain MQTT client receives it", async () => {
    const { userId } = await signInAs(t.app, demoEmails.Staff);
    const topic = `${topicPrefix}_${userId}_message`;
    await subscriber.subscribeAsync(topic, { qos: 2 });
    const received = nextMessage(subscriber);
    await t.app.broker.publishToUser(userId, { type: 'NOTIFICATION', message: 'hello from the server' });
    expect(await received).toEqual({
      topic,
      body: { type: 'NOTIFICATION', message: 'hello from the server' },
    });
  });

  it('publishes on any topic with the QoS asked for', async () => {
    const topic = `/chatBot/salesBot/${topicPrefix}/session-7`;
    await subscriber.subscribeAsync(topic, { qos: 2 });
    const received = new Promise<mqtt.IPublishPacket>((resolve) =>
      subscriber.once('message', (_topic, _payload, packet) => resolve(packet)),
    );
    await t.app.broker.publish(topic, { response: 'ok', result: [1] }, { qos: 1 });
    const packet = await received;
    expect(JSON.parse(packet.payload.toString())).toEqual({ response: 'ok', result: [1] });
    expect(packet.qos).toBe(1);
    expect(packet.retain).toBe(false);
  });

  it('listens on a filter: hears JSON from any publisher on matching topics, drops the rest', async () => {
    const heard: { topic: string; message: unknown }[] = [];
    await t.app.broker.listen(`/chatBot/salesBot/${topicPrefix}/+`, (topic, message) =>
      heard.push({ topic, message }),
    );
    await subscriber.publishAsync(`/chatBot/salesBot/${topicPrefix}/s1`, 'not json', { qos: 1 });
    await subscriber.publishAsync(`/chatBot/salesBot/${topicPrefix}-other/s1`, '{"x":0}', { qos: 1 });
    await subscriber.publishAsync(`/chatBot/salesBot/${topicPrefix}/s2`, '{"x":1}', { qos: 1 });
    // Published in order by one client: had the first two been heard, they would have come first.
    await expect.poll(() => heard.length).toBe(1);
    expect(heard).toEqual([{ topic: `/chatBot/salesBot/${topicPrefix}/s2`, message: { x: 1 } }]);
  });

  it('does not serve the embedded broker at /mqtt', async () => {
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const error = await new Promise<Error>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/mqtt`, 'mqtt');
      socket.on('error', resolve);
      socket.on('open', () => resolve(new Error('opened')));
    });
    expect(error.message).toMatch(/404/);
  });
});

describe('external broker mode: start-up', () => {
  it('refuses to start with an unreachable MQTT_URL, saying which variable and without its password', async () => {
    const port = await freePort(); // nothing listens there
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await database.migrate();
      const config = loadConfig({ LOG_LEVEL: 'silent', MQTT_URL: `mqtt://server:s3cret@127.0.0.1:${port}` });
      const failure = await buildApp({ config, database }).then(
        () => new Error('started'),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(
        /^Cannot connect to the MQTT broker at mqtt:\/\/127\.0\.0\.1:\d+\/? \(MQTT_URL\)/,
      );
      expect(failure.message).not.toContain('s3cret');
    } finally {
      await database.close();
    }
  });
});

// A Mosquitto of the test's own (the binary this machine kind has), so it can be restarted.
const MOSQUITTO = '/usr/sbin/mosquitto';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startMosquitto(port: number): Promise<ChildProcess> {
  // Without a config file Mosquitto 2 listens on loopback only and allows anonymous clients.
  const child = spawn(MOSQUITTO, ['-p', String(port)], { stdio: 'ignore' });
  for (let attempt = 0; attempt < 50; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('mosquitto did not start');
}

async function stopMosquitto(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe.skipIf(!MQTT_URL || !existsSync(MOSQUITTO))('external broker mode: broker restart', () => {
  let mosquitto: ChildProcess | undefined;
  let t: TestApp | undefined;
  let subscriber: mqtt.MqttClient | undefined;
  afterEach(async () => {
    await subscriber?.endAsync(true);
    await t?.close();
    if (mosquitto) await stopMosquitto(mosquitto);
  });

  it('reconnects by itself after the broker restarts and publishes again', async () => {
    const port = await freePort();
    const url = `mqtt://127.0.0.1:${port}`;
    mosquitto = await startMosquitto(port);
    t = await createTestApp({ seed: false, env: { MQTT_URL: url } });
    const userId = '11111111-1111-4111-8111-111111111111';
    const topic = `mp_${userId}_message`;

    await stopMosquitto(mosquitto);
    mosquitto = await startMosquitto(port);
    subscriber = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    await subscriber.subscribeAsync(topic, { qos: 2 });
    const received = nextMessage(subscriber);
    // The server's client reconnects within its 1 s period; a publish meanwhile waits for it.
    await t.app.broker.publishToUser(userId, { type: 'NOTIFICATION', message: 'after the restart' });
    expect((await received).body).toEqual({ type: 'NOTIFICATION', message: 'after the restart' });
  });
});
