import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { userMessageTopic } from '../../contracts/broker-topics';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';
import { TOO_MANY_CONNECTIONS_MESSAGE } from './embedded-broker';

const LIMITS = { connectionsPerUser: 3, sessionsPerUser: 4, maxPacketBytes: 64 * 1024 };

// One account must not be able to fill the embedded broker's memory: big packets, many connections,
// many kept sessions.
describe('embedded broker limits', () => {
  let t: TestApp;
  let url: string;
  let staff: { userId: string; token: string };
  let admin: { userId: string; token: string };
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false }, rateLimits: { broker: LIMITS } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
    staff = await signInAs(t.app, demoEmails.Staff);
    admin = await signInAs(t.app, demoEmails.Admin);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t.close();
  });

  const connect = async (who: { userId: string; token: string }, options: mqtt.IClientOptions = {}) => {
    const client = await mqtt.connectAsync(url, {
      username: who.userId,
      password: who.token,
      reconnectPeriod: 0,
      connectTimeout: 4000,
      clientId: `limits_${Math.random().toString(36).slice(2)}`,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const closed = (client: mqtt.MqttClient) =>
    new Promise<void>((resolve) => client.once('close', () => resolve()));

  it('drops a connection that publishes a packet over the limit (16 MB), and keeps the others', async () => {
    const big = await connect(staff);
    const bystander = await connect(admin);
    const gone = closed(big);
    big.publish(userMessageTopic('mp', staff.userId), Buffer.alloc(16 * 1024 * 1024, 1), { qos: 0 });
    await gone;
    expect(big.connected).toBe(false);
    expect(bystander.connected).toBe(true);
    // Within the limit is fine.
    const small = await connect(staff);
    await small.publishAsync(userMessageTopic('mp', staff.userId), Buffer.alloc(10 * 1024, 1), { qos: 1 });
    expect(small.connected).toBe(true);
    await Promise.all([small.endAsync(true), bystander.endAsync(true)]);
  });

  it('drops a connection whose packet header declares too much, though it arrives in small messages', async () => {
    const socket = new WebSocket(url, 'mqtt');
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const connack = new Promise<void>((resolve) => socket.once('message', () => resolve()));
    socket.send(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: `raw_${Math.random().toString(36).slice(2)}`,
        keepalive: 60,
        username: staff.userId,
        password: Buffer.from(staff.token),
      } as mqttPacket.IConnectPacket),
    );
    await connack;
    const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const packet = mqttPacket.generate({
      cmd: 'publish',
      topic: userMessageTopic('mp', staff.userId),
      payload: Buffer.alloc(1024 * 1024, 1),
      qos: 0,
      retain: false,
      dup: false,
    } as mqttPacket.IPublishPacket);
    // Only the first kilobyte is ever sent, 16 bytes a message.
    for (let start = 0; start < 1024 && socket.readyState === WebSocket.OPEN; start += 16) {
      socket.send(packet.subarray(start, start + 16));
    }
    await gone;
    expect(socket.readyState).toBe(WebSocket.CLOSED);
  });

  it('refuses a connection beyond the per-user cap, and lets one in again once another closes', async () => {
    const open = [await connect(staff), await connect(staff), await connect(staff)];
    await expect(connect(staff)).rejects.toThrow(/Server unavailable/);
    // Another user is not affected.
    const other = await connect(admin);
    // A closed tab frees its place.
    const first = open[0] as mqtt.MqttClient;
    await first.endAsync(true);
    const again = await vi.waitFor(() => connect(staff), { timeout: 5000, interval: 50 });
    expect(again.connected).toBe(true);
    await Promise.all([...open.slice(1), again, other].map((client) => client.endAsync(true)));
    expect(TOO_MANY_CONNECTIONS_MESSAGE).toBe('Too many connections for this user');
  });

  it('keeps a user to a few kept sessions, forgetting the ones away the longest', async () => {
    const ids = Array.from({ length: 6 }, (_, n) => `kept_${n}_${Math.random().toString(36).slice(2)}`);
    for (const clientId of ids) {
      const client = await connect(staff, { clientId, clean: false });
      await client.subscribeAsync(userMessageTopic('mp', staff.userId), { qos: 1 });
      await client.endAsync(true);
    }
    // The two away the longest were forgotten to make room; the newest are still kept.
    const sessionPresent = async (clientId: string) => {
      const client = mqtt.connect(url, {
        username: staff.userId,
        password: staff.token,
        clientId,
        clean: false,
        reconnectPeriod: 0,
      });
      const connack = await new Promise<mqtt.IConnackPacket>((resolve, reject) => {
        client.once('connect', resolve);
        client.once('error', reject);
      });
      await client.endAsync(true);
      return connack.sessionPresent;
    };
    expect(await sessionPresent(ids[5] as string)).toBe(true);
    expect(await sessionPresent(ids[0] as string)).toBe(false);
  });
});
