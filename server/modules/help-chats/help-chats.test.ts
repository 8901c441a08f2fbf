import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { salesBotTopic } from '../../../contracts/broker-topics';
import {
  type ChatBrokerPayload,
  type ChatDetail,
  type ChatEventResult,
  type ChatFaq,
  type ChatFaqList,
  type ChatList,
  chatBrokerPayloadSchema,
  type WidgetChat,
} from '../../../contracts/help-chats';
import { chatSessions, sellers } from '../../db/schema';
import { seedBulkChats } from '../../seed/bulk-chats';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { ALWAYS_OPEN, saveOfficeHours } from '../settings-communication/test-helpers';
import {
  CONNECT_VALUE,
  CONNECTING_MESSAGE,
  DEFAULT_FAQS,
  HAND_BACK_MESSAGE,
  NOT_UNDERSTOOD_MESSAGE,
} from './bot';
import { CHAT_COLORS } from './repository';

const WIDGET = '/api/v1/queryBot/widget';
const API = '/api/v1/queryBot';
const DEMO_CODE = 'SEL-0001';

describe.each(testBackends)('help chats on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let demoSellerId: string;
  let blockedSellerId: string;
  let ipCounter = 0;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    // A person answers at any hour: the bot connects instead of naming the office hours.
    await saveOfficeHours(as, ALWAYS_OPEN);
    const idOf = async (email: string) =>
      (await t.database.db.select({ id: sellers.id }).from(sellers).where(eq(sellers.email, email)))[0]!.id;
    demoSellerId = await idOf(demoEmails.Seller);
    blockedSellerId = await idOf(demoEmails.Blocked);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Each test speaks from an address of its own, so the per-address limits never mix tests. */
  const newIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  const widget = (method: 'GET' | 'POST', url: string, payload?: InjectOptions['payload'], ip = '10.9.9.9') =>
    t.app.inject({ method, url: `${WIDGET}${url}`, payload, remoteAddress: ip });

  async function startChat(name = 'Asha Rao', email = `asha.${randomUUID().slice(0, 8)}@example.com`) {
    const ip = newIp();
    const response = await widget('POST', `/${DEMO_CODE}/start`, { name, email }, ip);
    expect(response.statusCode, response.body).toBe(200);
    const chat = json<WidgetChat>(response);
    const say = (message: string) =>
      widget('POST', `/${DEMO_CODE}/messages`, { sessionId: chat.sessionId, message }, ip);
    return { chat, say, email, ip };
  }
  const chatRow = async (sessionId: string) =>
    (await t.database.db.select().from(chatSessions).where(eq(chatSessions.sessionId, sessionId)))[0]!;
  const spyPublish = () => vi.spyOn(t.app.broker, 'publish');
  const published = (spy: ReturnType<typeof spyPublish>) =>
    spy.mock.calls.map(([topic, payload, options]) => ({
      topic,
      options,
      payload: chatBrokerPayloadSchema.parse(payload) as ChatBrokerPayload,
    }));

  describe('the public widget', () => {
    it('names the shop; only Active shops chat, a blocked one is unavailable, an unknown one is not there', async () => {
      expect(json(await widget('GET', `/${DEMO_CODE}`))).toMatchObject({
        sellerName: 'Demo Seller Store',
        available: true,
        personAvailable: true,
        personNotice: null,
      });
      expect(json(await widget('GET', '/sel-0001'))).toMatchObject({ available: true });
      expect(json(await widget('GET', '/SEL-0002'))).toMatchObject({
        sellerName: 'Lapsed Goods Co',
        available: false,
        personAvailable: false,
      });
      const unknown = await widget('GET', '/NO-SUCH-SHOP');
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toEqual({
        message: "This shop's chat is not available",
        code: 'CHAT_NOT_AVAILABLE',
      });
      const blockedStart = await widget(
        'POST',
        '/SEL-0002/start',
        { name: 'A', email: 'a@example.com' },
        newIp(),
      );
      expect(blockedStart.statusCode).toBe(404);
      await t.database.db.update(sellers).set({ isActive: false }).where(eq(sellers.id, blockedSellerId));
      expect((await widget('GET', '/SEL-0002')).statusCode).toBe(404);
      await t.database.db.update(sellers).set({ isActive: true }).where(eq(sellers.id, blockedSellerId));
    });

    it('starts a chat without signing in: welcome by name, then the menu with a person button; published', async () => {
      const spy = spyPublish();
      const { chat } = await startChat('Asha Rao');
      expect(chat.sellerName).toBe('Demo Seller Store');
      expect(chat.withPerson).toBe(false);
      expect(chat.messages.map((m) => m.sender)).toEqual(['Bot', 'Bot']);
      expect(chat.messages[0]?.message).toBe('Hi Asha Rao! Welcome to Demo Seller Store. How can we help?');
      const buttons = chat.messages[1]?.buttons ?? [];
      expect(buttons.at(-1)).toEqual({ label: 'Talk to a person', value: CONNECT_VALUE });
      expect(buttons.slice(0, -1).map((b) => b.label)).toEqual(
        DEFAULT_FAQS.slice(0, 4).map((f) => f.question),
      );

      const row = await chatRow(chat.sessionId);
      expect(row.sellerId).toBe(demoSellerId);
      expect(CHAT_COLORS).toContain(row.color);
      const events = published(spy);
      expect(events.map((e) => e.topic)).toEqual([
        salesBotTopic(demoSellerId, chat.sessionId),
        salesBotTopic(demoSellerId, chat.sessionId),
      ]);
      expect(events.every((e) => e.options?.qos === 1)).toBe(true);
      expect(events[0]?.payload.response.welcomeMessage).toBe(chat.messages[0]?.message);
      expect(events[1]?.payload.response.menuOptions?.buttons).toEqual(buttons);
      expect(events[0]?.payload.result).toMatchObject({
        sessionId: chat.sessionId,
        username: 'Asha Rao',
        sellerId: demoSellerId,
      });
      expect(events[0]?.payload.message?.id).toBe(chat.messages[0]?.id);
    });

    it('validates the start form', async () => {
      const bad = await widget('POST', `/${DEMO_CODE}/start`, { name: ' ', email: 'nope' }, newIp());
      expect(bad.statusCode).toBe(400);
    });

    it('answers FAQ questions, falls back to a general reply, and counts unread messages', async () => {
      const { chat, say } = await startChat();
      const spy = spyPublish();
      const faq = json<WidgetChat>(await say('When will my delivery arrive?'));
      expect(faq.messages.map((m) => [m.sender, m.message])).toEqual([
        ['User', 'When will my delivery arrive?'],
        ['Bot', DEFAULT_FAQS[0]?.answer],
      ]);
      expect(faq.messages[1]?.questions?.length).toBeGreaterThan(0);

      const unknown = json<WidgetChat>(await say('Is the blue vase handmade?'));
      expect(unknown.messages[1]?.message).toBe(NOT_UNDERSTOOD_MESSAGE);
      expect(unknown.messages[1]?.generalReply?.actions.map((a) => a.label)).toEqual([
        'Show the menu',
        'Talk to a person',
      ]);

      const row = await chatRow(chat.sessionId);
      expect(row.newMessagesCount).toBe(2);
      expect(row.customerMessages).toBe(2);
      // The list's preview is the conversation's last message: here the bot's.
      expect(row.lastMessage).toBe(NOT_UNDERSTOOD_MESSAGE);
      expect(row.connectRequest).toBe(false);

      const responses = published(spy).map((e) => e.payload.response);
      expect(responses).toEqual([
        { userQuery: 'When will my delivery arrive?' },
        { chatBotResponse: DEFAULT_FAQS[0]?.answer, questions: faq.messages[1]?.questions },
        { userQuery: 'Is the blue vase handmade?' },
        { generalReply: unknown.messages[1]?.generalReply },
      ]);
      expect(published(spy)[3]?.payload.result.newMessagesCount).toBe(2);
    });

    it('raises a connect request for the person button and publishes it once, with the customer’s words', async () => {
      const { chat, say } = await startChat('Ravi');
      const spy = spyPublish();
      const answer = json<WidgetChat>(await say(CONNECT_VALUE));
      expect(answer.messages.map((m) => m.message)).toEqual(['Talk to a person', CONNECTING_MESSAGE]);
      expect((await chatRow(chat.sessionId)).connectRequest).toBe(true);
      const events = published(spy);
      // One customer action, one connect request: on the customer's message, so the back-office
      // toasts once (the connect request) and still counts the message.
      expect(events.map((event) => event.payload.response)).toEqual([
        { userQuery: 'Talk to a person', connectRequest: true },
        { chatBotResponse: CONNECTING_MESSAGE },
      ]);
      expect(events[0]?.payload.result).toMatchObject({ connectRequest: true, username: 'Ravi' });
    });

    it('refuses empty and oversized messages and keeps HTML as plain text', async () => {
      const { chat, say } = await startChat();
      for (const message of ['', '   ', 'x'.repeat(1001)]) {
        const response = await say(message);
        expect(response.statusCode, message.slice(0, 5)).toBe(400);
      }
      expect((await say('x'.repeat(1000))).statusCode).toBe(200);
      const html = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>';
      expect(json<WidgetChat>(await say(html)).messages[0]?.message).toBe(html);
      const history = json<WidgetChat>(await widget('GET', `/${DEMO_CODE}/chats/${chat.sessionId}`));
      expect(history.messages.filter((m) => m.sender === 'User').map((m) => m.message)).toEqual([
        'x'.repeat(1000),
        html,
      ]);
      expect((await chatRow(chat.sessionId)).lastMessage).toBe(history.messages.at(-1)?.message);
    });

    it('reloads the history in order, and answers 404 for unknown chats', async () => {
      const { chat, say } = await startChat();
      await say('Which payment methods do you accept?');
      const history = json<WidgetChat>(await widget('GET', `/${DEMO_CODE}/chats/${chat.sessionId}`));
      expect(history.messages.map((m) => m.sender)).toEqual(['Bot', 'Bot', 'User', 'Bot']);
      expect(history.messages[3]?.message).toBe(DEFAULT_FAQS[2]?.answer);

      for (const url of [
        `/${DEMO_CODE}/chats/${randomUUID()}`,
        `/${DEMO_CODE}/chats/not-a-session`,
        `/${DEMO_CODE}/chats/${randomUUID()}/events`,
      ]) {
        const response = await widget('GET', url);
        expect(response.statusCode, url).toBe(404);
        expect(json(response), url).toEqual({ message: 'Unknown chat', code: 'UNKNOWN_CHAT' });
      }
      const unknown = await widget(
        'POST',
        `/${DEMO_CODE}/messages`,
        { sessionId: randomUUID(), message: 'hi' },
        newIp(),
      );
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toMatchObject({ message: 'Unknown chat' });
      // Another shop's chat is unknown here.
      const [others] = await t.database.db
        .select()
        .from(chatSessions)
        .where(eq(chatSessions.sellerId, blockedSellerId));
      expect((await widget('GET', `/${DEMO_CODE}/chats/${others!.sessionId}`)).statusCode).toBe(404);
    });

    it('slows down a flood from one chat with a clear message', async () => {
      const { say } = await startChat();
      for (let index = 0; index < 20; index++) expect((await say(`message ${index}`)).statusCode).toBe(200);
      const flooded = await say('one more');
      expect(flooded.statusCode).toBe(429);
      expect(json(flooded)).toEqual({
        message: 'You are sending messages too fast. Please wait a moment.',
        code: 'RATE_LIMITED',
      });
    });
  });

  describe('the back-office inbox', () => {
    it('lists a seller only their own chats, newest interaction first, paged', async () => {
      await startChat('Paging One');
      const first = json<ChatList>(
        await as('Seller', 'GET', `${API}/listSellerQueryBotChats?skip=0&limit=3`),
      );
      expect(first.result).toHaveLength(3);
      expect(first.result[0]?.username).toBe('Paging One');
      const all = json<ChatList>(await as('Seller', 'GET', `${API}/listSellerQueryBotChats?limit=100`));
      expect(all.count).toBe(first.count);
      expect(all.result.every((c) => c.sellerId === demoSellerId)).toBe(true);
      const times = all.result.map((c) => c.lastInteractionOn);
      expect(times).toEqual([...times].sort().reverse());
      const second = json<ChatList>(
        await as('Seller', 'GET', `${API}/listSellerQueryBotChats?skip=3&limit=3`),
      );
      expect(second.result.map((c) => c.chatId)).toEqual(all.result.slice(3, 6).map((c) => c.chatId));
      // The defaults of SPEC §9: 20 from 0.
      const defaults = json<ChatList>(await as('Seller', 'GET', `${API}/listSellerQueryBotChats`));
      expect(defaults.result.map((c) => c.chatId)).toEqual(all.result.slice(0, 20).map((c) => c.chatId));
      expect((await as('Seller', 'GET', `${API}/listSellerQueryBotChats?limit=101`)).statusCode).toBe(400);
    });

    it('lists everyone’s chats to admins and staff, and keeps each list to its own role', async () => {
      for (const who of ['Admin', 'Staff'] as const) {
        const list = json<ChatList>(await as(who, 'GET', `${API}/listQueryBotChats?limit=100`));
        expect(new Set(list.result.map((c) => c.sellerId))).toEqual(new Set([demoSellerId, blockedSellerId]));
      }
      expect((await as('Seller', 'GET', `${API}/listQueryBotChats`)).statusCode).toBe(403);
      expect((await as('Seller', 'GET', `${API}/searchQueryBotChats?query=a`)).statusCode).toBe(403);
      expect((await as('Admin', 'GET', `${API}/listSellerQueryBotChats`)).statusCode).toBe(403);
      expect((await as('Blocked', 'GET', `${API}/listSellerQueryBotChats`)).statusCode).toBe(403);
    });

    it('searches name, e-mail and last message, case-insensitively, own chats only for sellers', async () => {
      const { chat } = await startChat('Zebulon Quist', 'zq@shop.example');
      const { id } = await chatRow(chat.sessionId);
      // The last message (the preview) is searched: here the seller's own answer.
      await as('Seller', 'POST', `${API}/manualAnswer/${id}`, { message: 'Yes, we ship PARCELS to Goa.' });
      const search = async (who: 'Seller' | 'Admin', route: string, query: string) =>
        json<ChatList>(await as(who, 'GET', `${API}/${route}?query=${encodeURIComponent(query)}`));
      for (const query of ['zebulon', 'QUIST', 'zq@shop', 'parcels to goa']) {
        const found = await search('Seller', 'searchSellerQueryBotChats', query);
        expect(
          found.result.map((c) => c.username),
          query,
        ).toEqual(['Zebulon Quist']);
        expect(found.count, query).toBe(1);
      }
      expect((await search('Seller', 'searchSellerQueryBotChats', 'Nikhil')).count).toBe(0);
      expect((await search('Admin', 'searchQueryBotChats', 'Nikhil')).result.map((c) => c.sellerId)).toEqual([
        blockedSellerId,
      ]);
      expect((await search('Seller', 'searchSellerQueryBotChats', '%')).count).toBe(0);
      const tooLong = await as('Seller', 'GET', `${API}/searchSellerQueryBotChats?query=${'a'.repeat(101)}`);
      expect(tooLong.statusCode).toBe(400);
    });

    it('opens a chat: history and e-mail, and resets its unread count and connect request', async () => {
      const { chat, say, email } = await startChat('Opened Chat');
      await say('hello there');
      await say(CONNECT_VALUE);
      const before = await chatRow(chat.sessionId);
      expect(before).toMatchObject({ newMessagesCount: 2, connectRequest: true });

      const response = await as('Seller', 'GET', `${API}/getQueryBotChatDetails/${before.id}`);
      expect(response.statusCode, response.body).toBe(200);
      const detail = json<ChatDetail>(response);
      expect(detail.sessionId).toBe(chat.sessionId);
      expect(detail.email).toBe(email);
      expect(detail.messages.map((m) => m.sender)).toEqual(['Bot', 'Bot', 'User', 'Bot', 'User', 'Bot']);
      expect(detail.chat).toMatchObject({ newMessagesCount: 0, connectRequest: false, chatId: before.id });
      expect(await chatRow(chat.sessionId)).toMatchObject({ newMessagesCount: 0, connectRequest: false });
      expect((await as('Staff', 'GET', `${API}/getQueryBotChatDetails/${before.id}`)).statusCode).toBe(200);
    });

    it("refuses a seller another seller's chat (403) and answers 404 for unknown chats", async () => {
      const [others] = await t.database.db
        .select()
        .from(chatSessions)
        .where(eq(chatSessions.sellerId, blockedSellerId));
      const response = await as('Seller', 'GET', `${API}/getQueryBotChatDetails/${others!.id}`);
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({
        message: 'This chat belongs to another seller',
        code: 'OTHER_SELLERS_CHAT',
      });
      const answer = await as('Seller', 'POST', `${API}/manualAnswer/${others!.id}`, { message: 'hi' });
      expect(answer.statusCode).toBe(403);
      expect((await as('Seller', 'POST', `${API}/handBack/${others!.id}`)).statusCode).toBe(403);
      // Untouched: the other seller's counters stay.
      expect(await chatRow(others!.sessionId)).toMatchObject({ newMessagesCount: others!.newMessagesCount });
      expect((await as('Admin', 'GET', `${API}/getQueryBotChatDetails/${others!.id}`)).statusCode).toBe(200);
      const unknown = await as('Seller', 'GET', `${API}/getQueryBotChatDetails/${randomUUID()}`);
      expect(unknown.statusCode).toBe(404);
      expect((await as('Seller', 'GET', `${API}/getQueryBotChatDetails/nope`)).statusCode).toBe(400);
    });

    it('takes a chat over by answering by hand: the bot stays quiet until the chat is handed back', async () => {
      const { chat, say } = await startChat('Taken Over');
      await say(CONNECT_VALUE);
      const id = (await chatRow(chat.sessionId)).id;
      const spy = spyPublish();

      expect((await as('Seller', 'POST', `${API}/manualAnswer/${id}`, { message: '  ' })).statusCode).toBe(
        400,
      );
      const answered = await as('Seller', 'POST', `${API}/manualAnswer/${id}`, {
        message: 'Hi, this is Demo. How can I help?',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      const result = json<ChatEventResult>(answered);
      expect(result.message).toMatchObject({
        sender: 'Bot',
        message: 'Hi, this is Demo. How can I help?',
        manual: true,
      });
      expect(result.message.agentName).toBeTruthy();
      expect(result.chat.heldBy?.id).toBe(as.ids.Seller);
      expect(result.chat.connectRequest).toBe(false);

      // The customer's next question waits for the person: no bot answer, published as a manual question.
      const asked = json<WidgetChat>(await say('How long does shipping take?'));
      expect(asked.withPerson).toBe(true);
      expect(asked.messages.map((m) => m.sender)).toEqual(['User']);
      const history = json<WidgetChat>(await widget('GET', `/${DEMO_CODE}/chats/${chat.sessionId}`));
      expect(history.withPerson).toBe(true);
      expect(history.messages.at(-2)).toMatchObject({
        manual: true,
        message: 'Hi, this is Demo. How can I help?',
      });

      const handedBack = json<ChatEventResult>(await as('Seller', 'POST', `${API}/handBack/${id}`));
      expect(handedBack.message.message).toBe(HAND_BACK_MESSAGE);
      expect(handedBack.chat.heldBy).toBeNull();
      const resumed = json<WidgetChat>(await say('How long does shipping take?'));
      expect(resumed.withPerson).toBe(false);
      expect(resumed.messages.map((m) => m.message)).toEqual([
        'How long does shipping take?',
        DEFAULT_FAQS[0]?.answer,
      ]);

      expect(published(spy).map((e) => Object.keys(e.payload.response)[0])).toEqual([
        'manualAnswer',
        'manualQuestion',
        'chatBotResponse',
        'userQuery',
        'chatBotResponse',
      ]);
      expect(published(spy)[0]?.payload.result.heldBy?.id).toBe(as.ids.Seller);
      expect(published(spy)[0]?.payload.message).toMatchObject({ manual: true });
    });

    it('lets admins and staff answer any chat; needs the edit action', async () => {
      const [others] = await t.database.db
        .select()
        .from(chatSessions)
        .where(eq(chatSessions.sellerId, blockedSellerId));
      const response = await as('Staff', 'POST', `${API}/manualAnswer/${others!.id}`, {
        message: 'Staff here',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(json<ChatEventResult>(response).chat.heldBy?.id).toBe(as.ids.Staff);
      expect((await as('Staff', 'POST', `${API}/handBack/${others!.id}`)).statusCode).toBe(200);
    });
    // Last in this block: the bulk chats it adds would show up in the searches above.
    it('pages past the middle from the other end with the same rows and order', async () => {
      await seedBulkChats(t.app.db, 45);
      const all = json<ChatList>(await as('Seller', 'GET', `${API}/listSellerQueryBotChats?limit=100`));
      expect(all.count).toBeGreaterThan(45);
      const paged: string[] = [];
      for (let skip = 0; skip < all.count; skip += 7) {
        const page = json<ChatList>(
          await as('Seller', 'GET', `${API}/listSellerQueryBotChats?skip=${skip}&limit=7`),
        );
        expect(page.count).toBe(all.count);
        paged.push(...page.result.map((c) => c.chatId));
      }
      expect(paged).toEqual(all.result.map((c) => c.chatId));
      const past = json<ChatList>(
        await as('Seller', 'GET', `${API}/listSellerQueryBotChats?skip=${all.count}&limit=7`),
      );
      expect(past.result).toEqual([]);
      const everyone = json<ChatList>(await as('Admin', 'GET', `${API}/listQueryBotChats?limit=100`));
      const last = json<ChatList>(
        await as('Admin', 'GET', `${API}/listQueryBotChats?skip=${everyone.count - 5}&limit=20`),
      );
      expect(last.result.map((c) => c.chatId)).toEqual(everyone.result.slice(-5).map((c) => c.chatId));
    });
  });

  describe('the FAQ', () => {
    const faqUrl = `${API}/faqs`;
    it("lists the demo seller's seeded entries; a seller without entries sees the defaults", async () => {
      const own = json<ChatFaqList>(await as('Seller', 'GET', faqUrl));
      expect(own.usingDefaults).toBe(false);
      expect(own.result.map((f) => f.question)).toEqual(DEFAULT_FAQS.slice(0, 4).map((f) => f.question));
      // kyc@demo.local's shop (Pending KYC, not blocked) has no entries of its own.
      const kyc = await as('Kyc', 'GET', faqUrl);
      expect(kyc.statusCode, kyc.body).toBe(200);
      expect(json<ChatFaqList>(kyc)).toMatchObject({ usingDefaults: true });
      expect(json<ChatFaqList>(kyc).result.map((f) => f.question)).toEqual(
        DEFAULT_FAQS.map((f) => f.question),
      );
      expect((await as('Admin', 'GET', faqUrl)).statusCode).toBe(403);
    });

    it('adds, changes and removes entries, and the bot answers with them', async () => {
      const created = await as('Seller', 'POST', faqUrl, {
        question: 'Do you gift wrap?',
        answer: 'Yes, for ₹50 per item.',
        keywords: ['Gift', 'wrapping'],
      });
      expect(created.statusCode, created.body).toBe(200);
      const entry = json<ChatFaq>(created);
      expect(entry).toMatchObject({ keywords: ['gift', 'wrapping'], position: 4 });

      const { say } = await startChat();
      expect(json<WidgetChat>(await say('Can you add gift wrapping?')).messages[1]?.message).toBe(
        'Yes, for ₹50 per item.',
      );

      const patched = await t.app.inject({
        method: 'PATCH',
        url: `${faqUrl}/${entry.id}`,
        payload: { answer: 'Yes, free of charge.' },
        headers: { authorization: `Bearer ${as.tokens.Seller}` },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(json<ChatFaq>(patched)).toMatchObject({
        question: 'Do you gift wrap?',
        answer: 'Yes, free of charge.',
        keywords: ['gift', 'wrapping'],
      });
      expect(json<WidgetChat>(await say('gift wrap?')).messages[1]?.message).toBe('Yes, free of charge.');
      const empty = await t.app.inject({
        method: 'PATCH',
        url: `${faqUrl}/${entry.id}`,
        payload: {},
        headers: { authorization: `Bearer ${as.tokens.Seller}` },
      });
      expect(empty.statusCode).toBe(400);
      expect(json(empty)).toEqual({ message: 'body: Nothing to update', code: 'VALIDATION_ERROR' });

      expect((await as('Seller', 'POST', faqUrl, { question: 'x', answer: '' })).statusCode).toBe(400);
      expect((await as('Seller', 'DELETE', `${faqUrl}/${entry.id}`)).statusCode).toBe(200);
      expect((await as('Seller', 'DELETE', `${faqUrl}/${entry.id}`)).statusCode).toBe(404);
      expect((await as('Blocked', 'GET', faqUrl)).statusCode).toBe(403);
    });
  });
});
