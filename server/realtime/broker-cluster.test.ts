// Two instances of the app on one database and one Redis (REDIS_URL), each with its embedded broker:
// messages, kept sessions, retained messages and the per-user caps are shared, and each instance still
// runs the ACL. Real MQTT.js clients over WebSocket on 127.0.0.1.
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SALES_BOT_CHATS, adminTopic, userMessageTopic } from '../../contracts/broker-topics';
import { buildApp } from '../app';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';
import { dropRedisNamespace } from './broker-redis-test-support';

const REDIS_URL = process.env.TEST_REDIS_URL;
const JWT_SECRET = 'broker-cluster-secret-0123456789abcdefghijk';
const LIMITS = { connectionsPerUser: 2, sessionsPerUser: 50, maxPacketBytes: 64 * 1024 };
if (!REDIS_URL) console.warn('TEST_REDIS_URL is not set: the clustered broker tests are skipped');

function brokerUrl(app: FastifyInstance): string {
  const address = app.server.address();
  return `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
}

/** Waits for the condition (returning as soon as it holds); a loaded machine may take seconds. */
async function until(condition: () => boolean, timeoutMs = 15_000) {
  const start = Date.now();
  while (!condition() && Date.now() - start < timeoutMs) await new Promise((r) => setTimeout(r, 10));
}

describe.skipIf(!REDIS_URL)('the embedded broker clustered over Redis (two instances)', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let staff: { userId: string; token: string };
  let admin: { userId: string; token: string };
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    a = await createTestApp({
      env: { JWT_SECRET, REDIS_URL: REDIS_URL as string },
      jobs: { enabled: false },
      rateLimits: { broker: LIMITS },
    });
    // The second instance: same database and secret, same Redis key space (as two servers would be).
    b = await buildApp({
      config: a.config,
      database: a.database,
      jobs: { enabled: false },
      rateLimits: { namespace: a.rateLimitNamespace, broker: LIMITS },
    });
    await Promise.all([
      a.app.listen({ port: 0, host: '127.0.0.1' }),
      b.listen({ port: 0, host: '127.0.0.1' }),
    ]);
    staff = await signInAs(a.app, demoEmails.Staff);
    admin = await signInAs(a.app, demoEmails.Admin);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await b?.close();
    await a?.close();
    await dropRedisNamespace(REDIS_URL as string, `${a.rateLimitNamespace}broker:`);
  });

  const connect = async (
    app: FastifyInstance,
    who: { userId: string; token: string },
    options: mqtt.IClientOptions = {},
  ) => {
    const client = mqtt.connect(brokerUrl(app), {
      username: who.userId,
      password: who.token,
      reconnectPeriod: 0,
      connectTimeout: 4000,
      clientId: `cluster_${Math.random().toString(36).slice(2)}`,
      ...options,
    });
    clients.push(client);
    const received: number[] = [];
    client.on('message', (_topic, payload) => {
      const n = (JSON.parse(payload.toString()) as { n?: number }).n;
      if (typeof n === 'number') received.push(n);
    });
    const connack = await new Promise<mqtt.IConnackPacket>((resolve, reject) => {
      client.once('connect', resolve);
      client.once('error', reject);
    });
    return { client, received, sessionPresent: connack.sessionPresent };
  };

  it('a burst published on A reaches a subscriber connected to B, each message once at QoS 2', async () => {
    const { client, received } = await connect(b, staff);
    const topic = userMessageTopic(a.config.MQTT_TOPIC_PREFIX, staff.userId);
    expect((await client.subscribeAsync(topic, { qos: 2 }))[0]?.qos).toBe(2);
    const sent = Array.from({ length: 30 }, (_, n) => n);
    await Promise.all(sent.map((n) => a.app.broker.publishToUser(staff.userId, { n })));
    await until(() => received.length >= sent.length);
    // A barrier from A: a duplicate of the burst would have come before it.
    await a.app.broker.publishToUser(staff.userId, { n: 999 });
    await until(() => received.includes(999));
    expect([...received].sort((x, y) => x - y)).toEqual([...sent, 999]);
    await client.endAsync(true);
  });

  it('a kept session subscribing to several topics in one SUBSCRIBE gets its SUBACK, and messages from B', async () => {
    // As the browser does: clean session false, its three topics in one packet.
    const clientId = `tab_${Math.random().toString(36).slice(2)}`;
    const { client, received } = await connect(a.app, admin, { clientId, clean: false });
    const prefix = a.config.MQTT_TOPIC_PREFIX;
    const granted = await client.subscribeAsync({
      [userMessageTopic(prefix, admin.userId)]: { qos: 2 },
      [adminTopic(prefix, admin.userId)]: { qos: 2 },
      [ALL_SALES_BOT_CHATS]: { qos: 2 },
    });
    expect(granted.map((each) => each.qos)).toEqual([2, 2, 2]);
    await b.broker.publishToUser(admin.userId, { n: 7 });
    await until(() => received.includes(7));
    expect(received).toEqual([7]);
    await client.endAsync(true);
  });

  it('a kept session left on A is resumed on B with what was queued meanwhile, each once', async () => {
    const clientId = `kept_${Math.random().toString(36).slice(2)}`;
    const topic = userMessageTopic(a.config.MQTT_TOPIC_PREFIX, staff.userId);
    const first = await connect(a.app, staff, { clientId, clean: false });
    await first.client.subscribeAsync(topic, { qos: 2 });
    await first.client.endAsync(true);
    const sent = [1, 2, 3, 4, 5];
    // Published on both instances while the tab is away.
    for (const n of sent) await (n % 2 ? a.app : b).broker.publishToUser(staff.userId, { n });
    const again = await connect(b, staff, { clientId, clean: false });
    expect(again.sessionPresent).toBe(true);
    await until(() => again.received.length >= sent.length);
    await b.broker.publishToUser(staff.userId, { n: 6 });
    await until(() => again.received.includes(6));
    expect(again.received).toEqual([...sent, 6]);
    await again.client.endAsync(true);
  });

  it('a retained message published through A is there for a subscriber on B', async () => {
    const topic = userMessageTopic(a.config.MQTT_TOPIC_PREFIX, admin.userId);
    const publisher = await connect(a.app, admin);
    await publisher.client.publishAsync(topic, JSON.stringify({ n: 42 }), { qos: 1, retain: true });
    await publisher.client.endAsync(true);
    const onB = await connect(b, admin);
    await onB.client.subscribeAsync(topic, { qos: 1 });
    await until(() => onB.received.includes(42));
    expect(onB.received).toEqual([42]);
    // Cleared (an empty retained message), so the other tests do not meet it.
    await onB.client.publishAsync(topic, '', { qos: 1, retain: true });
    await onB.client.endAsync(true);
  });

  it("refuses another user's topic on both instances, and delivers nothing of it", async () => {
    const adminTopic = userMessageTopic(a.config.MQTT_TOPIC_PREFIX, admin.userId);
    for (const app of [a.app, b]) {
      const { client, received } = await connect(app, staff);
      await expect(client.subscribeAsync(adminTopic, { qos: 2 })).rejects.toThrow(/Subscribe error/);
      await expect(client.subscribeAsync('#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
      await (app === a.app ? b : a.app).broker.publishToUser(admin.userId, { n: 7 });
      // The admin's own tab, as a barrier: once it has the message, staff would have had it too.
      const own = await connect(app, admin);
      await own.client.subscribeAsync(adminTopic, { qos: 2 });
      await a.app.broker.publishToUser(admin.userId, { n: 8 });
      await until(() => own.received.includes(8));
      expect(received).toEqual([]);
      expect(client.connected).toBe(true);
      await Promise.all([client.endAsync(true), own.client.endAsync(true)]);
    }
  });

  it('counts connections per user across instances: cap 2, one on A and one on B, a third refused', async () => {
    const onA = await connect(a.app, staff);
    const onB = await connect(b, staff);
    await expect(connect(a.app, staff)).rejects.toThrow(/Server unavailable/);
    await expect(connect(b, staff)).rejects.toThrow(/Server unavailable/);
    // A tab reconnecting with its own client id takes its old place over, on the other instance too.
    const takeover = await connect(b, staff, { clientId: onA.client.options.clientId });
    expect(takeover.client.connected).toBe(true);
    // Once a place is free, on either instance, another tab gets in.
    await onB.client.endAsync(true);
    await takeover.client.endAsync(true);
    await onA.client.endAsync(true);
    let third: Awaited<ReturnType<typeof connect>> | null = null;
    const start = Date.now();
    while (!third && Date.now() - start < 5000) third = await connect(a.app, staff).catch(() => null);
    expect(third?.client.connected).toBe(true);
    await third?.client.endAsync(true);
  });

  it("refuses on B a client id that holds another user's kept session from A", async () => {
    const clientId = `owned_${Math.random().toString(36).slice(2)}`;
    const first = await connect(a.app, admin, { clientId, clean: false });
    await first.client.endAsync(true);
    await expect(connect(b, staff, { clientId, clean: false })).rejects.toThrow(/Identifier rejected/);
  });
});
