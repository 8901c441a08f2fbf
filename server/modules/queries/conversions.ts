// A help chat or a call turned into a query (issue 30): the person handling it keeps the customer's
// words and the link back (source_chat_id, source_call_id), so the query's page and the contact
// timeline lead to the conversation it came from.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { callLogs, chatMessages, chatSessions, customerQueries } from '../../db/schema';
import type { Actor } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { createQuery, type SlaSettings, type Viewer } from './repository';

/** The transcript's length kept in the query's message; the chat itself keeps all of it. */
const TRANSCRIPT_MESSAGES = 60;

async function alreadyMade(db: Db, where: ReturnType<typeof eq>) {
  const [existing] = await db.select({ id: customerQueries.id }).from(customerQueries).where(where).limit(1);
  return existing?.id ?? null;
}

export async function queryFromChat(
  db: Db,
  viewer: Viewer,
  actor: Actor,
  chatId: string,
  input: { subject: string; priority: 'low' | 'normal' | 'high' | 'urgent' },
  sla: SlaSettings,
): Promise<{ id: string; created: boolean }> {
  const [chat] = await db.select().from(chatSessions).where(eq(chatSessions.id, chatId));
  if (!chat || (viewer.isSeller && chat.sellerId !== viewer.sellerId)) {
    throw new HttpError(404, 'There is no such help chat.', 'CHAT_NOT_FOUND');
  }
  // Turning the same chat into a query twice answers the first query.
  const existing = await alreadyMade(db, eq(customerQueries.sourceChatId, chatId));
  if (existing) return { id: existing, created: false };
  const messages = await db
    .select({ sender: chatMessages.sender, message: chatMessages.message })
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId))
    .orderBy(asc(chatMessages.createdAt))
    .limit(TRANSCRIPT_MESSAGES);
  const transcript = messages.map((m) => `${m.sender}: ${m.message}`).join('\n');
  const name = chat.name.trim() || chat.email;
  const id = await createQuery(
    db,
    {
      sellerId: chat.sellerId,
      customerName: name,
      email: chat.email,
      subject: input.subject || `Help chat with ${name}`,
      message: (transcript || chat.lastMessage || 'From a help chat').slice(0, 20_000),
      priority: input.priority,
      channel: 'chat',
      sourceChatId: chatId,
      actor,
    },
    sla,
  );
  return { id, created: true };
}

export async function queryFromCall(
  db: Db,
  viewer: Viewer,
  actor: Actor,
  callId: string,
  input: {
    customerName: string;
    email: string;
    subject: string;
    message: string;
    priority: 'low' | 'normal' | 'high' | 'urgent';
    sellerId?: string | null;
  },
  sla: SlaSettings,
): Promise<{ id: string; created: boolean }> {
  // Only the caller's own calls: a call log belongs to the person who made or took it.
  const [call] = await db
    .select()
    .from(callLogs)
    .where(and(eq(callLogs.id, callId), eq(callLogs.ownerId, viewer.userId)));
  if (!call) throw new HttpError(404, 'There is no such call in your call history.', 'CALL_NOT_FOUND');
  const existing = await alreadyMade(db, eq(customerQueries.sourceCallId, callId));
  if (existing) return { id: existing, created: false };
  const sellerId = viewer.isSeller ? viewer.sellerId : (input.sellerId ?? null);
  const notes = [input.message, call.feedbackText ? `Call feedback: ${call.feedbackText}` : '']
    .filter(Boolean)
    .join('\n\n');
  const id = await createQuery(
    db,
    {
      sellerId,
      customerName: input.customerName,
      email: input.email,
      phone: call.phoneNumber,
      subject: input.subject,
      message: notes || `Call with ${call.phoneNumber}`,
      priority: input.priority,
      channel: 'call',
      sourceCallId: callId,
      actor,
    },
    sla,
  );
  return { id, created: true };
}
