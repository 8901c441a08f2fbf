// Help chats in the database: chat_sessions (the chat user list), chat_messages (the history),
// chat_reads (who read what, read-state.ts) and chat_faqs (the bot's knowledge). Every query the routes
// need, and the mapping to the contracts.
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { ChatMessage, ChatUserEntry } from '../../../contracts/help-chats';
import type { Db } from '../../db/client';
import { chatFaqs, chatMessages, chatReads, chatSessions, sellers, users } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import { pageWindow, windowIds } from '../../lib/page-window';
import { linkContact } from '../contacts/link';
import { displayName } from '../users/current-user';
import { type BotMessageExtras, DEFAULT_FAQS, type FaqEntry } from './bot';
import { type ChatReader, countsFor, readJoin } from './read-state';

/** Avatar colours of the chat user list (SPEC §3 `color`), picked at random once per chat. */
export const CHAT_COLORS = ['teal', 'purple', 'orange', 'blue', 'pink', 'green', 'cyan', 'red'] as const;

export type ChatRow = typeof chatSessions.$inferSelect;
type Holder = { id: string; firstName: string; lastName: string; email: string } | null;

const holderColumns = {
  chat: chatSessions,
  holder: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
};
const entryColumns = { ...holderColumns, readMessages: chatReads.readMessages };

/** The list entry as `reader` sees it (`readMessages`: their chat_reads row's, null when none). */
export function toEntry(
  chat: ChatRow,
  holder: Holder,
  reader: ChatReader,
  readMessages: number | null,
): ChatUserEntry {
  return {
    chatId: chat.id,
    sessionId: chat.sessionId,
    username: displayName(chat.name, '', chat.email),
    email: chat.email,
    lastMessage: chat.lastMessage,
    color: chat.color,
    lastInteractionOn: chat.lastInteractionOn.toISOString(),
    ...countsFor(chat, reader, readMessages),
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

/** Gives each stored message its time, in order (the seed replays conversations on a clock of its own). */
export type Clock = () => Date;

let lastStamp = 0;
/**
 * Message times are set here, strictly increasing within the process: several messages stored by
 * one request (a question and its answer) would otherwise share the transaction's now() and lose
 * their order in the history.
 */
export const nextTimestamp: Clock = () => {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
};

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
  at: Date = new Date(),
): Promise<ChatRow> {
  // The customer's address is linked to its marketing contact (made if new) with the chat itself.
  return db.transaction(async (tx) => {
    const contactId = await linkContact(
      tx,
      { email: values.email, name: values.name, source: 'help_chat' },
      at,
    );
    const [row] = await tx
      .insert(chatSessions)
      .values({ ...values, contactId, lastInteractionOn: at, createdAt: at })
      .returning();
    return row as ChatRow;
  });
}

export async function findChatBySession(db: Db, sellerId: string, sessionId: string) {
  const [row] = await db
    .select(holderColumns)
    .from(chatSessions)
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .where(and(eq(chatSessions.sessionId, sessionId), eq(chatSessions.sellerId, sellerId)));
  return row;
}

export async function findChatById(db: Db, id: string) {
  const [row] = await db
    .select(holderColumns)
    .from(chatSessions)
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .where(eq(chatSessions.id, id));
  return row;
}

/** The chat as it now stands, as the list shows it to `reader`. */
export async function entryOf(db: Db, id: string, reader: ChatReader): Promise<ChatUserEntry> {
  const [row] = await db
    .select(entryColumns)
    .from(chatSessions)
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .leftJoin(chatReads, readJoin(reader))
    .where(eq(chatSessions.id, id));
  if (!row) throw new Error(`chat ${id} vanished`);
  return toEntry(row.chat, row.holder, reader, row.readMessages);
}

/** What storing messages does to the chat besides its preview (see appendMessages). */
export interface ChatChange {
  /** The first message is the customer's: one more customer message, one more unread for the seller. */
  customerWrote?: { connectRequest: boolean };
  /** Other columns to set (a person holds the chat, or hands it back). */
  set?: Partial<typeof chatSessions.$inferInsert>;
}

/**
 * Stores messages in order and moves the chat's preview and time to the last of them, so the list's
 * `lastMessage` is always the conversation's last message. One transaction: the history and the list
 * never disagree. A customer message counts for every reader (customer_messages) and for the seller's
 * own unread count; asking for a person raises a connect request for every reader.
 */
export async function appendMessages(
  db: Db,
  chatId: string,
  messages: StoredMessage[],
  change: ChatChange = {},
  clock: Clock = nextTimestamp,
): Promise<ChatMessage[]> {
  if (messages.length === 0) return [];
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(chatMessages)
      .values(
        messages.map((m) => ({
          chatId,
          sender: m.sender,
          message: m.message,
          extras: (m.extras ?? null) as Record<string, unknown> | null,
          createdAt: clock(),
        })),
      )
      .returning();
    const stored = rows.map(toMessage).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    const last = stored.at(-1) as ChatMessage;
    const at = new Date(last.timestamp);
    // Two requests of one chat may commit out of order: the preview never goes back to an older message.
    const newer = sql`${chatSessions.lastInteractionOn} <= ${at.toISOString()}::timestamptz`;
    const wrote = change.customerWrote;
    await tx
      .update(chatSessions)
      .set({
        ...change.set,
        lastMessage: sql`case when ${newer} then ${last.message} else ${chatSessions.lastMessage} end`,
        lastInteractionOn: sql`greatest(${chatSessions.lastInteractionOn}, ${at.toISOString()}::timestamptz)`,
        ...(wrote
          ? {
              customerMessages: sql`${chatSessions.customerMessages} + 1`,
              newMessagesCount: sql`${chatSessions.newMessagesCount} + 1`,
              status: 'open',
              ...(wrote.connectRequest
                ? { connectRequest: true, connectRequestMark: sql`${chatSessions.customerMessages} + 1` }
                : {}),
            }
          : {}),
      })
      .where(eq(chatSessions.id, chatId));
    return stored;
  });
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

/**
 * One page of chats, newest interaction first. The order (last_interaction_on, id) is the key of
 * chat_sessions_seller_idx (a seller's chats) and chat_sessions_recent_idx (everyone's). A page is a
 * deferred join: its ids come from an index-only scan of that index, then those rows by primary key;
 * a page past the middle is read from the other end, so no page walks more than half the chats (at
 * 50k chats a deep offset otherwise costs ~4× a first page). A search is the trigram index's exact
 * expression, so ILIKE '%…%' uses it, and pages within its matches. The reader's counts join one
 * chat_reads row by primary key per row of the page: the cost does not grow with history or readers.
 */
export async function listChats(
  db: Db,
  options: { reader: ChatReader; sellerId?: string; query?: string; skip: number; limit: number },
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
  const window = pageWindow({
    total: chats,
    skip: options.skip,
    limit: options.limit,
    reversible: !options.query,
  });
  if (window.size === 0) return { result: [], count: chats };
  const page = windowIds(db, window, {
    table: chatSessions,
    id: chatSessions.id,
    where,
    order: [chatSessions.lastInteractionOn, chatSessions.id],
  });
  const rows = await db
    .select(entryColumns)
    .from(page)
    .innerJoin(chatSessions, eq(chatSessions.id, page.id))
    .leftJoin(users, eq(users.id, chatSessions.heldBy))
    .leftJoin(chatReads, readJoin(options.reader))
    .orderBy(desc(chatSessions.lastInteractionOn), desc(chatSessions.id));
  return {
    result: rows.map((row) => toEntry(row.chat, row.holder, options.reader, row.readMessages)),
    count: chats,
  };
}

/** Who answers by hand, as the customer sees them. */
export async function agentName(db: Db, userId: string): Promise<string> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return user ? displayName(user.firstName, user.lastName, user.email) : 'Our team';
}
