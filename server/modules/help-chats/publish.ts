// Every chat event goes two ways: to the broker on /chatBot/salesBot/{sellerId}/{sessionId} (the
// seller's back-office is subscribed to /chatBot/salesBot/{sellerId}/+), and to the customer's
// Server-Sent Events stream of that chat. The database is the mailbox: callers store first, then
// publish, so a missed event only costs a refetch.
//
// Admins and staff are not subscribed to sales-bot topics (the broker's ACL allows them only their own
// topics), so their inbox at /customers/help-chats refetches the chat list and the open chat (on an
// interval and on focus) rather than receiving these events live.
import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { salesBotTopic } from '../../../contracts/broker-topics';
import type {
  ChatBrokerPayload,
  ChatMessage,
  ChatUserEntry,
  SourceMessage,
  WidgetEvent,
} from '../../../contracts/help-chats';

/**
 * The customers' live streams, in process: one listener per open widget, keyed by sessionId. With
 * several server instances a stream may live on another instance than the one that stored the
 * message; then each instance would instead subscribe its broker to /chatBot/salesBot/+/+ and feed
 * this emitter from there (the payload already carries everything a stream needs).
 */
export class WidgetStreams {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Many customers, one listener each: no leak warning for a busy shop.
    this.emitter.setMaxListeners(0);
  }

  subscribe(sessionId: string, listener: (event: WidgetEvent) => void): () => void {
    this.emitter.on(sessionId, listener);
    return () => this.emitter.off(sessionId, listener);
  }

  emit(sessionId: string, event: WidgetEvent) {
    this.emitter.emit(sessionId, event);
  }

  listeners(sessionId: string): number {
    return this.emitter.listenerCount(sessionId);
  }
}

export type PublishChatEvent = (
  chat: ChatUserEntry,
  response: SourceMessage,
  message: ChatMessage,
) => Promise<void>;

/** Publishes one event of a chat (QoS 1) and feeds the customer's stream; never fails the request. */
export function createChatPublisher(app: FastifyInstance, streams: WidgetStreams): PublishChatEvent {
  return async (chat, response, message) => {
    streams.emit(chat.sessionId, { message, withPerson: chat.heldBy !== null });
    const payload: ChatBrokerPayload = { response, result: chat, message };
    try {
      await app.broker.publish(salesBotTopic(chat.sellerId, chat.sessionId), payload, { qos: 1 });
    } catch (error) {
      // The message is stored; the back-office sees it on its next refetch.
      app.log.warn({ err: error, chatId: chat.chatId }, 'publishing a chat event failed');
    }
  };
}
