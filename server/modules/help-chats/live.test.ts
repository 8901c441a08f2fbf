import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salesBotFilter, salesBotTopic } from '../../../contracts/broker-topics';
import {
  type ChatBrokerPayload,
  chatBrokerPayloadSchema,
  type WidgetChat,
  type WidgetEvent,
  widgetEventSchema,
} from '../../../contracts/help-chats';
import { chatSessions, sellers } from '../../db/schema';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../../test-support';
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

    const abort = new AbortController();
    const stream = await fetch(
      `http://${base}/api/v1/queryBot/widget/SEL-0001/chats/${chat.sessionId}/events`,
      {
        signal: abort.signal,
      },
    );
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
    // Wait for the stream's opening comment: the listener is registered.
    while (!buffer.includes(': connected')) buffer += decoder.decode((await reader.read()).value);

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
    abort.abort();
    await reader.cancel().catch(() => undefined);

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

describe('help chat streams on shutdown', () => {
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
