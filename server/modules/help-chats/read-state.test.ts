// Issue 12: the demo chats are real conversations, and each reader's unread count and connect request
// are their own (an admin opening a seller's chat leaves the seller's badge alone, and back).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChatDetail,
  ChatEventResult,
  ChatList,
  ChatUserEntry,
  WidgetChat,
} from '../../../contracts/help-chats';
import { chatReads } from '../../db/schema';
import { DEMO_CHATS } from '../../seed/chats';
import { DEMO_SELLER_FIGURES } from '../../seed/subscriptions';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  type DemoRole,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { ALWAYS_OPEN, saveOfficeHours } from '../settings-communication/test-helpers';
import { CONNECT_VALUE, CONNECTING_MESSAGE } from './bot';

const API = '/api/v1/queryBot';
const WIDGET = '/api/v1/queryBot/widget/SEL-0001';

describe.each(testBackends)('help chat read state on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    // A person answers at any hour: the bot connects instead of naming the office hours.
    await saveOfficeHours(as, ALWAYS_OPEN);
  });
  afterAll(() => t.close());

  const listOf = async (who: DemoRole) => {
    const url = who === 'Seller' || who === 'Blocked' ? 'listSellerQueryBotChats' : 'listQueryBotChats';
    const response = await as(who, 'GET', `${API}/${url}?limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    return json<ChatList>(response).result;
  };
  /** The chat as `who`'s list shows it (found by its unique name). */
  const entryFor = async (who: DemoRole, name: string): Promise<ChatUserEntry> => {
    const url = who === 'Seller' ? 'searchSellerQueryBotChats' : 'searchQueryBotChats';
    const response = await as(who, 'GET', `${API}/${url}?query=${encodeURIComponent(name)}`);
    const [entry, ...more] = json<ChatList>(response).result;
    expect(more, name).toEqual([]);
    if (!entry) throw new Error(`${who} does not see ${name}`);
    return entry;
  };
  const badges = (entry: ChatUserEntry) => [entry.newMessagesCount, entry.connectRequest];
  const open = async (who: DemoRole, chatId: string) => {
    const response = await as(who, 'GET', `${API}/getQueryBotChatDetails/${chatId}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<ChatDetail>(response);
  };

  async function customerChat(name: string) {
    const address = `10.12.0.${++ip}`;
    const post = async (url: string, payload: object) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `${WIDGET}${url}`,
        payload,
        headers: { 'x-forwarded-for': address },
      });
      expect(response.statusCode, response.body).toBe(200);
      return json<WidgetChat>(response);
    };
    const { sessionId } = await post('/start', { name, email: `${randomUUID().slice(0, 8)}@example.com` });
    return { say: (message: string) => post('/messages', { sessionId, message }) };
  }

  describe('the demo seed', () => {
    // First: opening a chat (the next test) resets its counts for that reader.
    it("adds up to the seller's dashboard figures, and each reader has their own", async () => {
      const seller = await listOf('Seller');
      const demo = seller.filter((entry) => DEMO_CHATS.some((d) => d.name === entry.username));
      const byName = Object.fromEntries(demo.map((entry) => [entry.username, badges(entry)]));
      // Isha asked for a person after the seller last looked; staff have seen it, the admin has not.
      expect(byName['Isha Verma']).toEqual([2, true]);
      expect(byName['Rohan Gupta']).toEqual([3, false]);
      expect(byName['Sana Khan']).toEqual([0, false]);
      const unread = demo.reduce((sum, entry) => sum + entry.newMessagesCount, 0);
      expect(unread).toBe(DEMO_SELLER_FIGURES.chats.unreadMessages);
      expect(demo.filter((entry) => entry.connectRequest)).toHaveLength(
        DEMO_SELLER_FIGURES.chats.connectRequests,
      );
      expect(badges(await entryFor('Staff', 'Isha Verma'))).toEqual([0, false]);
      expect(badges(await entryFor('Admin', 'Isha Verma'))).toEqual([3, true]);
      expect(badges(await entryFor('Admin', 'Rohan Gupta'))).toEqual([1, false]);
      const sana = await open('Seller', (await entryFor('Seller', 'Sana Khan')).chatId);
      expect(sana.chat.heldBy?.name).toBe('Sunil Seller');
      expect(sana.messages.filter((m) => m.manual).map((m) => m.agentName)).toEqual([
        'Sunil Seller',
        'Sunil Seller',
      ]);
    });

    it('opens every seeded chat on its conversation, the preview being the last message', async () => {
      const admin = await listOf('Admin');
      const seeded = admin.filter((entry) => DEMO_CHATS.some((demo) => demo.name === entry.username));
      expect(seeded.map((entry) => entry.username).sort()).toEqual(DEMO_CHATS.map((d) => d.name).sort());
      for (const entry of seeded) {
        // The blocked seller cannot open their chats: the admin reads theirs.
        const shop = DEMO_CHATS.find((demo) => demo.name === entry.username)?.shop;
        const who: DemoRole = shop === 'demo' ? 'Seller' : 'Admin';
        const listed = who === 'Seller' ? await entryFor('Seller', entry.username) : entry;
        const detail = await open(who, entry.chatId);
        const customer = detail.messages.filter((m) => m.sender === 'User');
        expect(detail.messages[0]?.message, entry.username).toMatch(
          new RegExp(`^Hi ${entry.username}! Welcome to `),
        );
        expect(customer.length, entry.username).toBeGreaterThan(0);
        expect(detail.messages.at(-1)?.message, entry.username).toBe(listed.lastMessage);
        expect(detail.messages.at(-1)?.timestamp, entry.username).toBe(listed.lastInteractionOn);
        // Whatever the reader had unread were customer messages, and a connect request was asked for.
        expect(listed.newMessagesCount, entry.username).toBeLessThanOrEqual(customer.length);
        if (listed.connectRequest) {
          expect(
            detail.messages.map((m) => m.message),
            entry.username,
          ).toContain(CONNECTING_MESSAGE);
        }
      }
    });
  });

  describe('per reader', () => {
    it("an admin opening a seller's chat leaves the seller's count and badge; the seller's own opening leaves the admin's", async () => {
      const name = `Reader ${randomUUID().slice(0, 6)}`;
      const { say } = await customerChat(name);
      await say('hello there');
      await say(CONNECT_VALUE);
      for (const who of ['Seller', 'Admin', 'Staff'] as const) {
        expect(badges(await entryFor(who, name)), who).toEqual([2, true]);
      }
      const { chatId } = await entryFor('Admin', name);

      const adminOpened = await open('Admin', chatId);
      expect(badges(adminOpened.chat)).toEqual([0, false]);
      expect(badges(await entryFor('Admin', name))).toEqual([0, false]);
      expect(badges(await entryFor('Seller', name))).toEqual([2, true]);
      expect(badges(await entryFor('Staff', name))).toEqual([2, true]);

      // The customer writes again: one new for the admin (the request they saw stays seen).
      await say('anyone?');
      expect(badges(await entryFor('Admin', name))).toEqual([1, false]);
      expect(badges(await entryFor('Seller', name))).toEqual([3, true]);

      const sellerOpened = await open('Seller', chatId);
      expect(badges(sellerOpened.chat)).toEqual([0, false]);
      expect(badges(await entryFor('Seller', name))).toEqual([0, false]);
      expect(badges(await entryFor('Admin', name))).toEqual([1, false]);
      expect(badges(await entryFor('Staff', name))).toEqual([3, true]);
    });

    it('a person answering answers the connect request for everyone, and has read the chat', async () => {
      const name = `Answered ${randomUUID().slice(0, 6)}`;
      const { say } = await customerChat(name);
      await say(CONNECT_VALUE);
      const { chatId } = await entryFor('Staff', name);
      const answered = await as('Staff', 'POST', `${API}/manualAnswer/${chatId}`, { message: 'Staff here.' });
      expect(answered.statusCode, answered.body).toBe(200);
      expect(badges(json<ChatEventResult>(answered).chat)).toEqual([0, false]);
      expect(badges(await entryFor('Staff', name))).toEqual([0, false]);
      // Still unread for the others, but nobody is waiting for a person any more.
      expect(badges(await entryFor('Seller', name))).toEqual([1, false]);
      expect(badges(await entryFor('Admin', name))).toEqual([1, false]);
    });

    it('reading the open chat live resets only the reader', async () => {
      const name = `Live ${randomUUID().slice(0, 6)}`;
      const { say } = await customerChat(name);
      await say('first');
      const { chatId } = await entryFor('Admin', name);
      await open('Admin', chatId);
      await say('second, while the admin has it open');
      expect(badges(await entryFor('Admin', name))).toEqual([1, false]);
      const read = await as('Admin', 'POST', `${API}/readQueryBotChat/${chatId}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(badges(json<ChatUserEntry>(read))).toEqual([0, false]);
      expect(badges(await entryFor('Admin', name))).toEqual([0, false]);
      expect(badges(await entryFor('Seller', name))).toEqual([2, false]);
      const [row] = await t.database.db.select().from(chatReads).where(eq(chatReads.chatId, chatId));
      expect(row).toMatchObject({ userId: as.ids.Admin, readMessages: 2 });

      const others = await entryFor('Admin', 'Nikhil Shah');
      const refused = await as('Seller', 'POST', `${API}/readQueryBotChat/${others.chatId}`);
      expect(refused.statusCode).toBe(403);
      const unknown = await as('Seller', 'POST', `${API}/readQueryBotChat/${randomUUID()}`);
      expect(unknown.statusCode).toBe(404);
    });
  });
});
