// Whose unread count and connect request a chat entry shows (issue 12: read state per reader). The
// chat's own seller keeps theirs on the chat row (new_messages_count, connect_request: a shop has one
// seller account, and the seller dashboard sums them); each admin or staff member has a chat_reads row
// per chat they opened. A reader who never opened a chat has every customer message unread, and sees a
// pending connect request, as in any inbox. Opening a chat (or answering in it) marks it read for that
// reader only.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatReads, chatSessions } from '../../db/schema';

export type ChatReader =
  /** The seller the chat belongs to. */
  | { kind: 'seller' }
  /** An admin or staff member (they read every shop's chats). */
  | { kind: 'user'; userId: string }
  /**
   * Nobody in particular: what a broker payload carries to every listener at once (each client keeps
   * its own counts from its list): every customer message, and whether a connect request is pending.
   */
  | { kind: 'anyone' };

export const ANYONE: ChatReader = { kind: 'anyone' };

/** Sellers only ever see their own chats (the routes check), so a seller reads as the chat's seller. */
export function readerOf(user: { id: string; role: string }): ChatReader {
  return user.role === 'Seller' ? { kind: 'seller' } : { kind: 'user', userId: user.id };
}

/** The join of a reader's chat_reads row: one primary-key lookup per listed chat, none for the others. */
export function readJoin(reader: ChatReader): SQL {
  return reader.kind === 'user'
    ? (and(eq(chatReads.chatId, chatSessions.id), eq(chatReads.userId, reader.userId)) as SQL)
    : sql`false`;
}

type CountedChat = Pick<
  typeof chatSessions.$inferSelect,
  'newMessagesCount' | 'connectRequest' | 'customerMessages' | 'connectRequestMark'
>;

/** The entry's counters for `reader`; `readMessages` is their chat_reads row's (null: never opened). */
export function countsFor(chat: CountedChat, reader: ChatReader, readMessages: number | null) {
  if (reader.kind === 'seller') {
    return { newMessagesCount: chat.newMessagesCount, connectRequest: chat.connectRequest };
  }
  const read = reader.kind === 'user' ? (readMessages ?? 0) : 0;
  return {
    newMessagesCount: Math.max(0, chat.customerMessages - read),
    connectRequest: chat.connectRequestMark !== null && read < chat.connectRequestMark,
  };
}

/** `reader` has read everything the customer wrote so far: their count and connect request reset. */
export async function markRead(db: Db, chatId: string, reader: ChatReader, at: Date = new Date()) {
  if (reader.kind === 'seller') {
    await db
      .update(chatSessions)
      .set({ newMessagesCount: 0, connectRequest: false })
      .where(eq(chatSessions.id, chatId));
  } else if (reader.kind === 'user') {
    await db
      .insert(chatReads)
      .values({
        userId: reader.userId,
        chatId,
        readMessages: sql`(select ${chatSessions.customerMessages} from ${chatSessions} where ${chatSessions.id} = ${chatId})`,
        readAt: at,
      })
      .onConflictDoUpdate({
        target: [chatReads.userId, chatReads.chatId],
        set: { readMessages: sql`excluded.read_messages`, readAt: sql`excluded.read_at` },
      });
  }
}
