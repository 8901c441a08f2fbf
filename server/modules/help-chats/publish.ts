// Every chat event is published once, on /chatBot/salesBot/{sellerId}/{sessionId}: the seller's
// back-office listens to /chatBot/salesBot/{sellerId}/+, the admins' and staff's all-chats inbox to
// /chatBot/salesBot/+/+, and so does the server itself, to feed each customer's Server-Sent Events
// stream. Going through the broker, the stream also gets events stored by another instance (with an
// external broker, MQTT_URL, every instance hears every chat). The database is the mailbox: callers
// store first, then publish, so a missed event only costs a refetch.
import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { ALL_SALES_BOT_CHATS, salesBotTopic } from '../../../contracts/broker-topics';
import {
  type ChatBrokerPayload,
  type ChatMessage,
  type ChatUserEntry,
  chatBrokerPayloadSchema,
  type SourceMessage,
  type WidgetEvent,
} from '../../../contracts/help-chats';

/** The customers' live streams on this instance: one listener per open widget, keyed by sessionId. */
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

/**
 * Publishes one event of a chat (QoS 1); never fails the request. `chat` is the entry as no reader in
 * particular sees it (read-state.ts ANYONE): every listener keeps its own counts. Its preview and time
 * are the event's message, so a listener taking the events in order sees each as it was when written
 * (a question and the bot's answer are stored together, then published one by one).
 */
export function createChatPublisher(app: FastifyInstance): PublishChatEvent {
  return async (entry, response, message) => {
    const chat = { ...entry, lastMessage: message.message, lastInteractionOn: message.timestamp };
    const payload: ChatBrokerPayload = { response, result: chat, message };
    try {
      await app.broker.publish(salesBotTopic(chat.sellerId, chat.sessionId), payload, { qos: 1 });
    } catch (error) {
      // The message is stored; the back-office sees it on its next refetch.
      app.log.warn({ err: error, chatId: chat.chatId }, 'publishing a chat event failed');
    }
  };
}

/**
 * Feeds the customers' streams from the broker: every chat event any instance publishes. A payload
 * that is not a chat event (an external broker lets anyone with access publish) is ignored.
 */
export async function relayChatEventsToStreams(app: FastifyInstance, streams: WidgetStreams) {
  await app.broker.listen(ALL_SALES_BOT_CHATS, (topic, message) => {
    const event = chatBrokerPayloadSchema.safeParse(message);
    if (!event.success || !event.data.message) return;
    const { result, message: chatMessage } = event.data;
    if (topic !== salesBotTopic(result.sellerId, result.sessionId)) return;
    streams.emit(result.sessionId, { message: chatMessage, withPerson: result.heldBy !== null });
  });
}
