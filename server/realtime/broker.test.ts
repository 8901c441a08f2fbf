import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salesBotFilter, salesBotTopic } from '../../contracts/broker-topics';
import { createTokenService } from '../modules/auth/tokens';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';

const JWT_SECRET = 'broker-test-secret-0123456789abcdefghijklmnop';

// The real embedded broker on a real port, spoken to by the real MQTT.js client over WebSocket.
describe('embedded MQTT broker at /mqtt', () => {
  let t: TestApp;
  let url: string;
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    // A known secret, so a test can sign a token that expires in seconds (the config minimum is 30 s).
    t = await createTestApp({ env: { JWT_SECRET } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t.close();
  });

  const connect = async (username: string, password: string, options: mqtt.IClientOptions = {}) => {
    const client = await mqtt.connectAsync(url, {
      username,
      password,
      reconnectPeriod: 0,
      connectTimeout: 4000,
      clientId: `test_${Math.random().toString(36).slice(2)}`,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const session = async (email: string) => {
    const { token, userId } = await signInAs(t.app, email);
    return { client: await connect(userId, token), userId };
  };

  it('lets a user subscribe to their own topic and delivers what the server publishes there', async () => {
    const { client, userId } = await session(demoEmails.Staff);
    const granted = await client.subscribeAsync(`mp_${userId}_message`, { qos: 2 });
    expect(granted[0]?.qos).toBe(2);
    const received = new Promise<unknown>((resolve) =>
      client.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    await t.app.broker.publishToUser(userId, { type: 'NOTIFICATION', message: 'hello' });
    expect(await received).toEqual({ type: 'NOTIFICATION', message: 'hello' });
  });

  it("refuses another user's topic with a SUBACK failure and keeps the connection", async () => {
    const { client } = await session(demoEmails.Staff);
    const { userId: adminId } = await session(demoEmails.Admin);
    // MQTT.js rejects a subscription the broker answered with the failure code (0x80).
    await expect(client.subscribeAsync(`mp_${adminId}_message`, { qos: 2 })).rejects.toThrow(
      /Subscribe error/,
    );
    await expect(client.subscribeAsync('#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(client.connected).toBe(true);
    // Still usable for what is theirs.
    const { userId } = await signInAs(t.app, demoEmails.Staff);
    expect((await client.subscribeAsync(`mp_${userId}_message`, { qos: 2 }))[0]?.qos).toBe(2);
  });

  it('acknowledges and drops a publish off the client’s topics, keeping the connection (MQTT 3.1.1 §3.3.5)', async () => {
    const { userId: adminId, client: admin } = await session(demoEmails.Admin);
    await admin.subscribeAsync(`mp_${adminId}_message`, { qos: 1 });
    const heard: string[] = [];
    admin.on('message', (_topic, payload) => heard.push(payload.toString()));
    // A third-party client with a kept session and QoS 1: were the publish refused by closing the
    // connection, it would resend the packet on every reconnect.
    const { token, userId } = await signInAs(t.app, demoEmails.Staff);
    const staff = await connect(userId, token, { clean: false });
    let closes = 0;
    staff.on('close', () => closes++);
    // Resolves once the broker acknowledged it (PUBACK; PUBCOMP at QoS 2).
    await staff.publishAsync(`mp_${adminId}_message`, 'forged', { qos: 1 });
    await staff.publishAsync(`mp_${adminId}_admin`, 'forged', { qos: 2 });
    // Its own topic still works after that, on the same connection.
    await staff.subscribeAsync(`mp_${userId}_message`, { qos: 1 });
    const own = new Promise<string>((resolve) =>
      staff.once('message', (_t, payload) => resolve(payload.toString())),
    );
    await staff.publishAsync(`mp_${userId}_message`, 'mine', { qos: 1 });
    expect(await own).toBe('mine');
    expect(staff.connected).toBe(true);
    expect(closes).toBe(0);
    // What the server publishes to the admin arrives; the forged messages never did.
    const next = new Promise<string>((resolve) =>
      admin.once('message', (_t, payload) => resolve(payload.toString())),
    );
    await t.app.broker.publishToUser(adminId, { type: 'NOTIFICATION', message: 'real' });
    expect(JSON.parse(await next)).toEqual({ type: 'NOTIFICATION', message: 'real' });
    expect(heard.some((text) => text === 'forged')).toBe(false);
  });

  it('refuses a bad token, and a token used under another username', async () => {
    const { token } = await signInAs(t.app, demoEmails.Staff);
    await expect(connect('someone', 'not-a-token')).rejects.toThrow(/Bad username or password/i);
    await expect(connect('00000000-0000-4000-8000-000000000000', token)).rejects.toThrow(/Not authorized/i);
  });

  it('says it is the embedded broker, and tells browsers to use same-origin /mqtt', async () => {
    const admin = await signInAs(t.app, demoEmails.Admin);
    const health = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(health.json()).toMatchObject({ broker: 'embedded' });
    expect(t.app.broker.kind).toBe('embedded');
    const runtime = await t.app.inject({ method: 'GET', url: '/api/v1/globalConfigs/runtime' });
    expect(runtime.json()).toMatchObject({ mqttUrl: null, mqttTopicPrefix: 'mp', mqttKeepaliveSeconds: 120 });
  });

  it("publishes on any topic with app.broker.publish: a seller's sales-bot chat reaches that seller", async () => {
    const { token, userId } = await signInAs(t.app, demoEmails.Seller);
    const { sellerId } = await t.app.tokens.verify(token);
    const client = await connect(userId, token);
    await client.subscribeAsync(salesBotFilter(sellerId as string), { qos: 2 });
    const received = new Promise<[string, unknown]>((resolve) =>
      client.once('message', (topic, payload) => resolve([topic, JSON.parse(payload.toString())])),
    );
    const topic = salesBotTopic(sellerId as string, 'session-1');
    await t.app.broker.publish(topic, { response: 'Hi', result: [] }, { qos: 1 });
    expect(await received).toEqual([topic, { response: 'Hi', result: [] }]);
  });

  it('ends the connection when the access token expires; a fresh token connects again', async () => {
    const { token, userId } = await signInAs(t.app, demoEmails.Staff);
    const user = await t.app.tokens.verify(token);
    const shortLived = await createTokenService(t.database.db, {
      secret: JWT_SECRET,
      ttlSeconds: 2,
      sessions: t.app.sessions,
    });
    const shortToken = await shortLived.sign(user);
    const expiring = await connect(userId, shortToken);
    const lasting = await connect(userId, token);
    const { exp } = JSON.parse(Buffer.from(shortToken.split('.')[1] ?? '', 'base64url').toString());
    await new Promise<void>((resolve) => expiring.once('close', () => resolve()));
    // Closed because the token ran out: not before its expiry (a connection that stayed would leave
    // this test waiting until its time limit).
    expect(Date.now()).toBeGreaterThanOrEqual((exp as number) * 1000);
    expect(expiring.connected).toBe(false);
    expect(lasting.connected).toBe(true);
    // The expired token is refused outright; the browser reconnects with its fresh one.
    await expect(connect(userId, shortToken)).rejects.toThrow(/Bad username or password/i);
    const again = await connect(userId, (await signInAs(t.app, demoEmails.Staff)).token);
    expect(again.connected).toBe(true);
  });

  it("refuses a client id that another user's session holds, so nobody inherits its queued messages", async () => {
    const staff = await signInAs(t.app, demoEmails.Staff);
    const admin = await signInAs(t.app, demoEmails.Admin);
    const clientId = `browser_${Math.random().toString(36).slice(2)}`;
    const first = await connect(staff.userId, staff.token, { clientId, clean: false });
    await first.subscribeAsync(`mp_${staff.userId}_message`, { qos: 2 });
    await first.endAsync();
    // A notification arrives while the staff member is away: the broker queues it for the session.
    await t.app.broker.publishToUser(staff.userId, { type: 'NOTIFICATION', message: 'for staff only' });
    await expect(connect(admin.userId, admin.token, { clientId, clean: false })).rejects.toThrow(
      /Identifier rejected/i,
    );
    // The owner comes back and gets what was queued.
    // Listening before the CONNACK: the queued message follows it at once.
    const back = mqtt.connect(url, {
      username: staff.userId,
      password: staff.token,
      clientId,
      clean: false,
      reconnectPeriod: 0,
    });
    clients.push(back);
    const message = await new Promise<unknown>((resolve) =>
      back.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    expect(message).toEqual({ type: 'NOTIFICATION', message: 'for staff only' });
  });
});
