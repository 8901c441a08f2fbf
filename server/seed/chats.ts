// The demo help chats: real conversations, replayed through the same code the live product runs
// (server/modules/help-chats/conversation.ts: the bot's greeting, menu and answers come from bot.ts), on
// a clock that ends each chat at its place in the list. So every list entry is what its history says:
// the preview is the last message, the seller's unread count is the customer messages after the
// seller last read the chat, the connect request is one nobody has answered yet. The demo seller's
// open chats add up to DEMO_SELLER_FIGURES.chats (the seller dashboard shows them).
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { chatFaqs, sellers, users } from '../db/schema';
import { CONNECT_VALUE, DEFAULT_FAQS } from '../modules/help-chats/bot';
import { customerWrites, handBack, personAnswers, startChat } from '../modules/help-chats/conversation';
import { type ChatReader, markRead } from '../modules/help-chats/read-state';
import {
  agentName,
  CHAT_COLORS,
  type Clock,
  findChatById,
  updateChat,
} from '../modules/help-chats/repository';
import type { DemoSellerIds } from './sellers';

type Who = 'seller' | 'admin' | 'staff';

/** One thing that happens in a demo chat, in order. */
export type DemoStep =
  /** The customer types this (or taps a button: its value, e.g. CONNECT_VALUE). */
  | { customer: string }
  /** The seller or a staff member answers by hand (and so has read the chat). */
  | { person: 'seller' | 'staff'; says: string }
  | { handBack: true }
  /** Someone opens the chat: read up to here. */
  | { reads: Who };

export interface DemoChat {
  shop: 'demo' | 'blocked';
  name: string;
  status: 'open' | 'closed';
  /** How long ago the conversation ended (its place in the newest-first list). */
  endedHoursAgo: number;
  steps: DemoStep[];
}

/**
 * The demo seller's chats, newest first: Isha waits for a person (unread for the seller since she
 * asked; staff already looked), Rohan's questions were never read, the seller is talking with Sana,
 * staff helped Dev and handed him back to the bot, Lata only read the bot's answers. The blocked
 * seller's Nikhil keeps asking (their own chats, never the demo seller's).
 */
export const DEMO_CHATS: DemoChat[] = [
  {
    shop: 'demo',
    name: 'Isha Verma',
    status: 'open',
    endedHoursAgo: 0.2,
    steps: [
      { customer: 'Where is my order?' },
      { reads: 'seller' },
      { customer: 'It has not moved for four days. Order A-1042.' },
      { customer: CONNECT_VALUE },
      { reads: 'staff' },
    ],
  },
  {
    shop: 'demo',
    name: 'Rohan Gupta',
    status: 'open',
    endedHoursAgo: 12,
    steps: [
      { customer: 'How long does shipping take to Pune?' },
      { customer: 'Do you accept UPI?' },
      { reads: 'admin' },
      { customer: 'Is the khadi kurta available in blue?' },
    ],
  },
  {
    shop: 'demo',
    name: 'Sana Khan',
    status: 'open',
    endedHoursAgo: 24,
    steps: [
      { customer: 'What is your return policy?' },
      { customer: 'Can I return a gift I received?' },
      { customer: 'I want to speak to someone about the gift' },
      {
        person: 'seller',
        says: 'Hi Sana, Sunil from Demo Seller Store here. Yes, a gift can be returned within 14 days. Which order is it?',
      },
      { customer: 'It is order A-1038, the brass diya set. Thank you!' },
      { reads: 'seller' },
      {
        person: 'seller',
        says: 'Thanks! The pickup is booked for tomorrow between 10 and 1; the refund goes to the buyer.',
      },
    ],
  },
  {
    shop: 'demo',
    name: 'Dev Patel',
    status: 'closed',
    endedHoursAgo: 36,
    steps: [
      { customer: 'Can I pay cash on delivery?' },
      { customer: 'Talk to a person about a ₹7,000 order' },
      {
        person: 'staff',
        says: 'Hi Dev, cash on delivery is for orders up to ₹5,000. For this one please pay by UPI or card.',
      },
      { customer: 'OK, I will pay by UPI. Thanks, that helps!' },
      { reads: 'staff' },
      { handBack: true },
      { reads: 'seller' },
    ],
  },
  {
    shop: 'demo',
    name: 'Lata Menon',
    status: 'closed',
    endedHoursAgo: 48,
    steps: [
      { customer: 'How long does shipping take?' },
      { customer: 'What is your return policy?' },
      { reads: 'seller' },
      { reads: 'admin' },
    ],
  },
  {
    shop: 'blocked',
    name: 'Nikhil Shah',
    status: 'open',
    endedHoursAgo: 3,
    steps: [
      { customer: 'Where is my order?' },
      { customer: 'My order has still not arrived' },
      { customer: CONNECT_VALUE },
      { customer: 'Hello?' },
    ],
  },
];

const HOUR_MS = 3_600_000;
/** Time between two messages of a demo conversation. */
const STEP_MS = 47_000;

/** A clock that starts long enough before `end` for `steps` steps (each may store a few messages). */
function clockEndingBy(end: number, steps: number): Clock {
  let at = end - steps * 4 * STEP_MS;
  return () => {
    at += STEP_MS;
    return new Date(at);
  };
}

export async function seedChats(tx: Tx, ids: DemoSellerIds, chats: DemoChat[] = DEMO_CHATS) {
  // The demo shop's sales bot answers shipping, returns, payment and order status questions.
  await tx
    .insert(chatFaqs)
    .values(
      DEFAULT_FAQS.slice(0, 4).map((entry, position) => ({ sellerId: ids.demoSellerId, ...entry, position })),
    );
  const shops = await tx
    .select({ id: sellers.id, sellerName: sellers.sellerName })
    .from(sellers)
    .where(inArray(sellers.id, [ids.demoSellerId, ids.blockedSellerId]));
  const shopOf = (shop: DemoChat['shop']) => {
    const id = shop === 'demo' ? ids.demoSellerId : ids.blockedSellerId;
    const found = shops.find((row) => row.id === id);
    if (!found) throw new Error(`the ${shop} shop is missing`);
    return found;
  };
  const userId = async (email: string) => {
    const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (!row) throw new Error(`${email} is missing: seed the users first`);
    return row.id;
  };
  const staffId = await userId('staff@demo.local');
  const adminId = await userId('admin@demo.local');
  const sellerUserIds = {
    demo: await userId('seller@demo.local'),
    blocked: await userId('blocked@demo.local'),
  };
  const now = Date.now();

  for (const [index, demo] of chats.entries()) {
    const clock = clockEndingBy(now - demo.endedHoursAgo * HOUR_MS, demo.steps.length + 2);
    const readers: Record<Who, ChatReader> = {
      seller: { kind: 'seller' },
      admin: { kind: 'user', userId: adminId },
      staff: { kind: 'user', userId: staffId },
    };
    const { chat } = await startChat(
      tx,
      {
        seller: shopOf(demo.shop),
        sessionId: randomUUID(),
        name: demo.name,
        email: `${demo.name.toLowerCase().replace(/[^a-z]+/g, '.')}@visitors.demo.local`,
        color: CHAT_COLORS[index % CHAT_COLORS.length] ?? 'teal',
      },
      clock,
    );
    for (const step of demo.steps) {
      if ('customer' in step) {
        const current = await findChatById(tx, chat.id);
        if (!current) throw new Error(`chat ${demo.name} vanished`);
        await customerWrites(tx, current.chat, step.customer, clock);
      } else if ('person' in step) {
        const id = step.person === 'seller' ? sellerUserIds[demo.shop] : staffId;
        const person = { userId: id, name: await agentName(tx, id), reader: readers[step.person] };
        await personAnswers(tx, chat.id, person, step.says, clock);
      } else if ('handBack' in step) {
        await handBack(tx, chat.id, clock);
      } else {
        await markRead(tx, chat.id, readers[step.reads], clock());
      }
    }
    if (demo.status === 'closed') await updateChat(tx, chat.id, { status: 'closed' });
  }
}
