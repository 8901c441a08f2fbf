import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../test-support';

// The real embedded broker on a real port, spoken to by the real MQTT.js client over WebSocket.
describe('embedded MQTT broker at /mqtt', () => {
  let t: TestApp;
  let url: string;
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t.close();
  });

  const connect = async (username: string, password: string) => {
    const client = await mqtt.connectAsync(url, {
      username,
      password,
      reconnectPeriod: 0,
      connectTimeout: 4000,
      clientId: `test_${Math.random().toString(36).slice(2)}`,
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

  it('refuses a bad token, and a token used under another username', async () => {
    const { token } = await signInAs(t.app, demoEmails.Staff);
    await expect(connect('someone', 'not-a-token')).rejects.toThrow(/Bad username or password/i);
    await expect(connect('00000000-0000-4000-8000-000000000000', token)).rejects.toThrow(/Not authorized/i);
  });
});
