import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALL_SALES_BOT_CHATS, salesBotFilter, salesBotTopic } from '../../../contracts/broker-topics';
import {
  type ChatBrokerPayload,
  chatBrokerPayloadSchema,
  chatUserEntrySchema,
  type WidgetChat,
  type WidgetEvent,
  widgetEventSchema,
} from '../../../contracts/help-chats';
import { chatSessions, sellers, users } from '../../db/schema';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../../test-support';
import { replaceUserOverrides } from '../permissions/service';
import { DEFAULT_FAQS } from './bot';

// The live paths on a real port: the seller's back-office subscribed with the real MQTT.js client, and
// the customer's widget reading its Server-Sent Events stream.
describe('help chats live', () => {
  let t: TestApp;
  let base: string;
  let seller: mqtt.MqttClient;
  let sellerToken: string;
  let demoSellerId: string;

  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const session = await signInAs(t.app, demoEmails.Seller);
    sellerToken = session.token;
    [{ id: demoSellerId }] = (await t.database.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.email, demoEmails.Seller))) as [{ id: string }];
    seller = await mqtt.connectAsync(`ws://${base}/mqtt`, {
      username: session.userId,
      password: session.token,
      reconnectPeriod: 0,
      connectTimeout: 4000,
      clientId: `test_${Math.random().toString(36).slice(2)}`,
    });
    await seller.subscribeAsync(salesBotFilter(demoSellerId), { qos: 1 });
  });
  afterAll(async () => {
    await seller?.endAsync(true);
    await t.close();
  });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  /** The next `count` payloads the seller's client receives. */
  const nextPayloads = (count: number) =>
    new Promise<{ topic: string; payload: ChatBrokerPayload }[]>((resolve, reject) => {
      const received: { topic: string; payload: ChatBrokerPayload }[] = [];
      const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} arrived`)), 5000);
      const onMessage = (topic: string, payload: Buffer) => {
        received.push({ topic, payload: chatBrokerPayloadSchema.parse(JSON.parse(payload.toString())) });
        if (received.length === count) {
          clearTimeout(timer);
          seller.off('message', onMessage);
          resolve(received);
        }
      };
      seller.on('message', onMessage);
    });

  it("delivers every event of a chat to the seller's subscription, with the chat as it stands", async () => {
    const greeting = nextPayloads(2);
    const start = await post('/api/v1/queryBot/widget/SEL-0001/start', {
      name: 'Live One',
      email: 'live@example.com',
    });
    expect(start.status).toBe(200);
    const chat = start.body as WidgetChat;
    const [welcome, menu] = await greeting;
    expect(welcome?.topic).toBe(salesBotTopic(demoSellerId, chat.sessionId));
    expect(welcome?.payload.response.welcomeMessage).toMatch(/^Hi Live One!/);
    expect(menu?.payload.response.menuOptions?.buttons.at(-1)?.value).toBe('__connect__');

    const answered = nextPayloads(2);
    await post('/api/v1/queryBot/widget/SEL-0001/messages', {
      sessionId: chat.sessionId,
      message: 'Where is my order?',
    });
    const [question, reply] = await answered;
    expect(question?.payload.response).toEqual({ userQuery: 'Where is my order?' });
    expect(question?.payload.result).toMatchObject({
      username: 'Live One',
      lastMessage: 'Where is my order?',
      newMessagesCount: 1,
    });
    expect(reply?.payload.response.chatBotResponse).toBe(DEFAULT_FAQS[3]?.answer);
  });

  it("the admins' and staff's all-chats inbox hears every seller's chats; without the permission it is refused", async () => {
    const connectAs = async (email: string) => {
      const session = await signInAs(t.app, email);
      return mqtt.connectAsync(`ws://${base}/mqtt`, {
        username: session.userId,
        password: session.token,
        reconnectPeriod: 0,
        clientId: `test_${Math.random().toString(36).slice(2)}`,
      });
    };
    const admin = await connectAs(demoEmails.Admin);
    const staff = await connectAs(demoEmails.Staff);
    try {
      for (const inbox of [admin, staff]) {
        expect((await inbox.subscribeAsync(ALL_SALES_BOT_CHATS, { qos: 1 }))[0]?.qos).toBe(1);
      }
      const heard = (client: mqtt.MqttClient) =>
        new Promise<string>((resolve) => client.once('message', (topic) => resolve(topic)));
      const [adminHeard, staffHeard] = [heard(admin), heard(staff)];
      const start = await post('/api/v1/queryBot/widget/SEL-0001/start', {
        name: 'Inbox Watcher',
        email: 'inbox@example.com',
      });
      const topic = salesBotTopic(demoSellerId, (start.body as WidgetChat).sessionId);
      expect(await adminHeard).toBe(topic);
      expect(await staffHeard).toBe(topic);
      // Nobody but the server speaks on a chat topic: a browser's publish there is acknowledged and
      // dropped (MQTT 3.1.1 §3.3.5), and its connection stays.
      const payloads: string[] = [];
      admin.on('message', (_topic, payload) => payloads.push(payload.toString()));
      await staff.publishAsync(topic, JSON.stringify({ response: { userQuery: 'forged' } }), { qos: 1 });
      const next = new Promise<void>((resolve) =>
        admin.on('message', (_topic, payload) => payload.toString().includes('from the server') && resolve()),
      );
      await t.app.broker.publish(topic, { response: 'from the server', result: [] }, { qos: 1 });
      await next;
      expect(payloads.some((payload) => payload.includes('forged'))).toBe(false);
      expect(payloads.some((payload) => payload.includes('from the server'))).toBe(true);
      expect(staff.connected).toBe(true);
    } finally {
      await Promise.all([admin.endAsync(true), staff.endAsync(true)]);
    }

    // A staff member whose permissions no longer open /customers/help-chats: refused from the next connection.
    const [staffUser] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, demoEmails.Staff));
    await replaceUserOverrides(t.database.db, staffUser?.id as string, { '/customers/help-chats': [] });
    t.app.permissionCache.forget();
    const revoked = await connectAs(demoEmails.Staff);
    try {
      // MQTT.js rejects a SUBACK failure; the connection stays up.
      await expect(revoked.subscribeAsync(ALL_SALES_BOT_CHATS, { qos: 1 })).rejects.toThrow(
        'Subscribe error',
      );
      expect(revoked.connected).toBe(true);
    } finally {
      await revoked.endAsync(true);
      await replaceUserOverrides(t.database.db, staffUser?.id as string, {});
      t.app.permissionCache.forget();
    }
  });

  it("streams the seller's manual answer to the customer's widget as it happens", async () => {
    const start = await post('/api/v1/queryBot/widget/SEL-0001/start', {
      name: 'Live Two',
      email: 'live2@example.com',
    });
    const chat = start.body as WidgetChat;
    const [row] = await t.database.db
      .select()
      .from(chatSessions)
      .where(eq(chatSessions.sessionId, chat.sessionId));

    const { nextEvent, close } = await openWidgetStream(base, chat.sessionId);

    const answer = await post(
      `/api/v1/queryBot/manualAnswer/${row?.id}`,
      { message: 'Hello from the shop <b>team</b>' },
      { authorization: `Bearer ${sellerToken}` },
    );
    expect(answer.status).toBe(200);
    const event = await nextEvent();
    expect(event.withPerson).toBe(true);
    expect(event.message).toMatchObject({
      sender: 'Bot',
      manual: true,
      message: 'Hello from the shop <b>team</b>',
    });

    // The customer's own message reaches the stream too (the widget dedupes by id).
    const asked = await post('/api/v1/queryBot/widget/SEL-0001/messages', {
      sessionId: chat.sessionId,
      message: 'Thanks!',
    });
    const own = await nextEvent();
    expect(own.message.id).toBe((asked.body as WidgetChat).messages[0]?.id);
    await close();

    // After the widget went away, publishing still works and nothing is written to a closed stream.
    const again = await post(
      `/api/v1/queryBot/manualAnswer/${row?.id}`,
      { message: 'Anyone there?' },
      { authorization: `Bearer ${sellerToken}` },
    );
    expect(again.status).toBe(200);
    const history = (await (
      await fetch(`http://${base}/api/v1/queryBot/widget/SEL-0001/chats/${chat.sessionId}`)
    ).json()) as WidgetChat;
    expect(history.messages.at(-1)).toMatchObject({ message: 'Anyone there?', manual: true });
    expect(history.withPerson).toBe(true);
  });
});

/** A customer's widget stream (Server-Sent Events), open: its listener is registered on the server. */
async function openWidgetStream(base: string, sessionId: string) {
  const abort = new AbortController();
  const stream = await fetch(`http://${base}/api/v1/queryBot/widget/SEL-0001/chats/${sessionId}/events`, {
    signal: abort.signal,
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const nextEvent = async (): Promise<WidgetEvent> => {
    for (;;) {
      const match = /event: message\nid: [^\n]+\ndata: ([^\n]+)\n\n/.exec(buffer);
      if (match) {
        buffer = buffer.slice((match.index ?? 0) + match[0].length);
        return widgetEventSchema.parse(JSON.parse(match[1] as string));
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  // The stream's opening comment: the listener is registered.
  while (!buffer.includes(': connected')) buffer += decoder.decode((await reader.read()).value);
  return {
    nextEvent,
    /** Whatever arrived and was not read yet. */
    pending: () => buffer,
    async close() {
      abort.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}

const listening = async (app: TestApp['app']) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
};

// With an external broker every instance hears every chat: a customer's stream on one instance gets
// what another instance stored and published, and what its own instance publishes exactly once.
// These tests start their own apps (with the demo data) inside the test: they get a hook's time.
describe.skipIf(!process.env.TEST_MQTT_URL)(
  'help chat streams across instances (MQTT_URL)',
  { timeout: 60_000 },
  () => {
    it("a customer's stream on instance A gets an answer published by instance B, and A's own once", async () => {
      const env = { MQTT_URL: process.env.TEST_MQTT_URL as string };
      const [a, b] = await Promise.all([
        createTestApp({ env, jobs: { enabled: false } }),
        createTestApp({ env, jobs: { enabled: false } }),
      ]);
      try {
        const baseA = await listening(a.app);
        const started = await fetch(`http://${baseA}/api/v1/queryBot/widget/SEL-0001/start`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Two Servers', email: 'two@example.com' }),
        });
        const chat = (await started.json()) as WidgetChat;
        const stream = await openWidgetStream(baseA, chat.sessionId);
        const [row] = await a.database.db
          .select()
          .from(chatSessions)
          .where(eq(chatSessions.sessionId, chat.sessionId));

        // Instance B stored an answer to this chat (sharing the database in production) and publishes it.
        const adminToken = (await signInAs(a.app, demoEmails.Admin)).token;
        const found = await a.app.inject({
          method: 'GET',
          url: '/api/v1/queryBot/searchQueryBotChats?query=two@example.com',
          headers: { authorization: `Bearer ${adminToken}` },
        });
        const entry = chatUserEntrySchema.parse(found.json().result[0]);
        const fromB = {
          id: 'message-from-b',
          sender: 'Bot',
          message: 'Answered on instance B',
          manual: true,
          timestamp: new Date().toISOString(),
        };
        await b.app.broker.publish(
          salesBotTopic(entry.sellerId, chat.sessionId),
          { response: { chatBotResponse: fromB.message }, result: entry, message: fromB },
          { qos: 1 },
        );
        expect((await stream.nextEvent()).message).toMatchObject({ id: 'message-from-b' });

        // A's own manual answer arrives once: through the broker, not also directly.
        const sellerToken = (await signInAs(a.app, demoEmails.Seller)).token;
        const answer = await a.app.inject({
          method: 'POST',
          url: `/api/v1/queryBot/manualAnswer/${row?.id}`,
          headers: { authorization: `Bearer ${sellerToken}` },
          payload: { message: 'Answered on instance A' },
        });
        expect(answer.statusCode).toBe(200);
        expect((await stream.nextEvent()).message.message).toBe('Answered on instance A');
        // A second answer as a barrier: a duplicate of the first would have come before it.
        const barrier = await a.app.inject({
          method: 'POST',
          url: `/api/v1/queryBot/manualAnswer/${row?.id}`,
          headers: { authorization: `Bearer ${sellerToken}` },
          payload: { message: 'Barrier answer' },
        });
        expect(barrier.statusCode).toBe(200);
        expect((await stream.nextEvent()).message.message).toBe('Barrier answer');
        await stream.close();
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  },
);

describe('help chat streams on shutdown', { timeout: 60_000 }, () => {
  it('ends open widget streams when the server closes, instead of hanging the shutdown', async () => {
    const t = await createTestApp({ jobs: { enabled: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const start = await fetch(`${base}/api/v1/queryBot/widget/SEL-0001/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Late Visitor', email: 'late@example.com' }),
    });
    const { sessionId } = (await start.json()) as WidgetChat;
    const stream = await fetch(`${base}/api/v1/queryBot/widget/SEL-0001/chats/${sessionId}/events`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();

    const closed = t.close().then(() => 'closed');
    const timeout = new Promise((resolve) => setTimeout(() => resolve('hung'), 5000));
    expect(await Promise.race([closed, timeout])).toBe('closed');
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});

describe('help chat stream caps', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({
      jobs: { enabled: false },
      rateLimits: { widget: { streamsPerChat: 2, streamsPerIp: 3 } },
    });
    base = await listening(t.app);
  });
  afterAll(() => t.close());

  const startChat = async (name: string) => {
    const started = await fetch(`http://${base}/api/v1/queryBot/widget/SEL-0001/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, email: `${name.toLowerCase().replace(' ', '.')}@example.com` }),
    });
    return ((await started.json()) as WidgetChat).sessionId;
  };
  const refused = async (sessionId: string) => {
    const response = await fetch(`http://${base}/api/v1/queryBot/widget/SEL-0001/chats/${sessionId}/events`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('caps the streams open at once per chat and per address, and frees a slot when one closes', async () => {
    const first = await startChat('Cap One');
    const second = await startChat('Cap Two');
    const a = await openWidgetStream(base, first);
    const b = await openWidgetStream(base, first);
    expect(await refused(first)).toEqual({
      status: 429,
      body: {
        message: 'This chat is open in too many windows. Close one and try again.',
        code: 'TOO_MANY_STREAMS',
      },
    });
    const c = await openWidgetStream(base, second);
    // Three open from this address: a fourth chat's stream is refused too.
    expect((await refused(second)).status).toBe(429);
    await a.close();
    // Once the server has seen the stream go, its slot is free again.
    await vi.waitFor(
      async () => {
        const again = await openWidgetStream(base, first);
        await again.close();
      },
      { timeout: 5000, interval: 50 },
    );
    await b.close();
    await c.close();
  });
});
