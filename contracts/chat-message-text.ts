// How a chat message's text reads, for every view of a chat (the back-office conversation and the
// customer's widget). No imports beyond types: the widget's bundle carries no zod schemas.
import type { ChatMessage } from './help-chats';

/**
 * The general reply's text when it adds to the message, otherwise null. The bot stores a general
 * reply's text as the message itself too (so list previews have it): shown once, not twice.
 */
export function generalReplyExtra(message: Pick<ChatMessage, 'message' | 'generalReply'>): string | null {
  const extra = message.generalReply?.message;
  return extra && extra !== message.message ? extra : null;
}
