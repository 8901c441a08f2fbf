// Help chats in the database: chat_sessions (the chat user list), chat_messages (the history) and
// chat_faqs (the bot's knowledge). Every query the routes need, and the mapping to the contracts.
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { ChatMessage, ChatUserEntry } from '../../../contracts/help-chats';
import type { Db } from '../../db/client';
import { chatFaqs, chatMessages, chatSessions, sellers, users } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import { displayName } from '../users/current-user';
import { type BotMessageExtras, DEFAULT_FAQS, type FaqEntry } from './bot';

/** Avatar colours of the chat user list (SPEC §3 `color`), picked at random once per chat. */
export const CHAT_COLORS = ['teal', 'purple', 'orange', 'blue', 'pink', 'green', 'cyan', 'red'] as const;

export type ChatRow = typeof chatSessions.$inferSelect;
type Holder = { id: string; firstName: string; lastName: string; email: string } | null;

const entryColumns = {
  chat: chatSessions,
  holder: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
};

export function toEntry(chat: ChatRow, holder: Holder): ChatUserEntry {
  return {
    chatId: chat.id,
    sessionId: chat.sessionId,
    username: displayName(chat.name, '', chat.email),
    email: chat.email,
    lastMessage: chat.lastMessage,
    color: chat.color,
    lastInteractionOn: chat.lastInteractionOn.toISOString(),
    newMessagesCount: chat.newMessagesCount,
    connectRequest: chat.connectRequest,
    heldBy:
      holder?.id && chat.heldBy
        ? { id: holder.id, name: displayName(holder.firstName, holder.lastName, holder.email) }
        : null,
    sellerId: chat.sellerId,
  };
}

export interface StoredMessage {
  sender: 'User' | 'Bot';
  message: string;
  extras?: BotMessageExtras & { manual?: boolean; agentName?: string };
}

export function toMessage(row: typeof chatMessages.$inferSelect): ChatMessage {
  const extras = (row.extras ?? {}) as StoredMessage['extras'] & Record<string, unknown>;
  return {
    id: row.id,
    sender: row.sender === 'User' ? 'User' : 'Bot',
    message: row.message,
    timestamp: row.createdAt.toISOString(),
    ...(extras.questions ? { questions: extras.questions } : {}),
    ...(extras.generalReply ? { generalReply: extras.generalReply } : {}),
    ...(extras.buttons ? { buttons: extras.buttons } : {}),
    ...(extras.manual ? { manual: true } : {}),
    ...(extras.agentName ? { agentName: extras.agentName } : {}),
  };
}

let lastStamp = 0;
/**
 * Message times are set here, strictly increasing within the process: several messages stored by
 * one request (a question and its answer) would otherwise share the transaction's now() and lose
 * their order in the history.
 */
function nextTimestamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

/** A seller's shop by its code (case-insensitive, the unique index's expression). */
export async function findSellerByCode(db: Db, sellerCode: string) {
  const [seller] = await db
    .select({
      id: sellers.id,
      sellerName: sellers.sellerName,
      isActive: sellers.isActive,
      blocked: sellers.blocked,
      isNewSeller: sellers.isNewSeller,
    })
    .from(sellers)
    .where(sql`lower(${sellers.sellerCode}) = ${sellerCode.toLowerCase()}`);
  return seller;
}

export async function storedFaqs(db: Db, sellerId: string) {
  return db
    .select()
    .from(chatFaqs)
    .where(eq(chatFaqs.sellerId, sellerId))
    .orderBy(asc(chatFaqs.position), asc(chatFaqs.createdAt));
}

/** What the bot answers with: the seller's own entries, or the defaults while there are none. */
export async function botFaqs(db: Db, sellerId: string): Promise<FaqEntry[]> {
  const rows = await storedFaqs(db, sellerId);
  return rows.length > 0 ? rows : DEFAULT_FAQS;
}

export async function createChat(
  db: Db,
  values: { sellerId: string; sessionId: string; name: string; email: string; color: string },
): Promise<ChatRow> {
  const [row] = await db
    .insert(chatSessions)
    .values({ ...values, lastInteractionOn: new Date() })
    .returning();
  return row as ChatRow;
}

export async function findChatBySession(db: Db, sellerId: string, sessionId: string) {
  const [row] = await db
    .select(entryColumns)
    .from(chatSessions)
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .where(and(eq(chatSessions.sessionId, sessionId), eq(chatSessions.sellerId, sellerId)));
  return row;
}

export async function findChatById(db: Db, id: string) {
  const [row] = await db
    .select(entryColumns)
    .from(chatSessions)
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .where(eq(chatSessions.id, id));
  return row;
}

/** The chat as it now stands, as the list shows it. */
export async function entryOf(db: Db, id: string): Promise<ChatUserEntry> {
  const row = await findChatById(db, id);
  if (!row) throw new Error(`chat ${id} vanished`);
  return toEntry(row.chat, row.holder);
}

export async function insertMessages(
  db: Db,
  chatId: string,
  messages: StoredMessage[],
): Promise<ChatMessage[]> {
  if (messages.length === 0) return [];
  const rows = await db
    .insert(chatMessages)
    .values(
      messages.map((m) => ({
        chatId,
        sender: m.sender,
        message: m.message,
        extras: (m.extras ?? null) as Record<string, unknown> | null,
        createdAt: nextTimestamp(),
      })),
    )
    .returning();
  return rows.map(toMessage).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

export async function chatHistory(db: Db, chatId: string): Promise<ChatMessage[]> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
  return rows.map(toMessage);
}

export async function updateChat(db: Db, id: string, values: Partial<typeof chatSessions.$inferInsert>) {
  await db.update(chatSessions).set(values).where(eq(chatSessions.id, id));
}

/** A customer wrote: the list shows it as the last message, one more unread, newest interaction. */
export async function recordCustomerMessage(db: Db, id: string, text: string, connectRequest: boolean) {
  await db
    .update(chatSessions)
    .set({
      lastMessage: text,
      lastInteractionOn: new Date(),
      newMessagesCount: sql`${chatSessions.newMessagesCount} + 1`,
      status: 'open',
      ...(connectRequest ? { connectRequest: true } : {}),
    })
    .where(eq(chatSessions.id, id));
}

/**
 * One page of chats, newest interaction first. The order (last_interaction_on, id) is the key of
 * chat_sessions_seller_idx (a seller's chats) and chat_sessions_recent_idx (everyone's). A page is a
 * deferred join: its ids come from an index-only scan of that index, then those rows by primary key;
 * a page past the middle is read from the other end, so no page walks more than half the chats (at
 * 50k chats a deep offset otherwise costs ~4× a first page). A search is the trigram index's exact
 * expression, so ILIKE '%…%' uses it, and pages within its matches.
 */
export async function listChats(
  db: Db,
  options: { sellerId?: string; query?: string; skip: number; limit: number },
) {
  const conditions: SQL[] = [];
  if (options.sellerId) conditions.push(eq(chatSessions.sellerId, options.sellerId));
  if (options.query) {
    const pattern = containsPattern(options.query.toLowerCase());
    conditions.push(
      sql`lower(${chatSessions.name} || ' ' || ${chatSessions.email} || ' ' || ${chatSessions.lastMessage}) like ${pattern}`,
    );
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [total] = await db.select({ value: count() }).from(chatSessions).where(where);
  const chats = total?.value ?? 0;
  const size = Math.min(options.limit, Math.max(0, chats - options.skip));
  if (size === 0) return { result: [], count: chats };
  const fromEnd = !options.query && options.skip > chats / 2;
  const page = db
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(where)
    .orderBy(
      ...(fromEnd
        ? [asc(chatSessions.lastInteractionOn), asc(chatSessions.id)]
        : [desc(chatSessions.lastInteractionOn), desc(chatSessions.id)]),
    )
    .limit(size)
    .offset(fromEnd ? chats - options.skip - size : options.skip)
    .as('page');
  const rows = await db
    .select(entryColumns)
    .from(page)
    .innerJoin(chatSessions, eq(chatSessions.id, page.id))
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .orderBy(desc(chatSessions.lastInteractionOn), desc(chatSessions.id));
  return { result: rows.map((row) => toEntry(row.chat, row.holder)), count: chats };
}

/** Who answers by hand, as the customer sees them. */
export async function agentName(db: Db, userId: string): Promise<string> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return user ? displayName(user.firstName, user.lastName, user.email) : 'Our team';
}
