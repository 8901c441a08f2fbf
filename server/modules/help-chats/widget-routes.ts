// The public chat widget's API (no sign-in: a chat is identified by its sessionId), under
// /api/v1/queryBot/widget. SPEC §5 exempts queryBot requests from the access token. Rate-limited per
// address and per chat; messages are length-checked by the contract and stored exactly as typed (the
// widget and the back-office render them as text, never as HTML).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../contracts/errors';
import {
  type ChatMessage,
  startChatBodySchema,
  type WidgetChat,
  widgetChatSchema,
  widgetMessageBodySchema,
  widgetSellerSchema,
} from '../../../contracts/help-chats';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { createRateLimiter } from '../../lib/rate-limit';
import { answer, asksForPerson, CONNECT_VALUE, MENU_VALUE, startReply } from './bot';
import type { PublishChatEvent, WidgetStreams } from './publish';
import {
  botFaqs,
  CHAT_COLORS,
  chatHistory,
  createChat,
  entryOf,
  findChatBySession,
  findSellerByCode,
  insertMessages,
  recordCustomerMessage,
  type StoredMessage,
} from './repository';

export const CHAT_NOT_AVAILABLE_MESSAGE = "This shop's chat is not available";
export const UNKNOWN_CHAT_MESSAGE = 'Unknown chat';
export const TOO_FAST_MESSAGE = 'You are sending messages too fast. Please wait a moment.';
/** Comments keep proxies and browsers from timing out an idle stream. */
export const HEARTBEAT_MS = 25_000;

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };
const sellerParams = z.object({ sellerCode: z.string().trim().min(1).max(40) });
const chatParams = sellerParams.extend({ sessionId: z.string().max(100) });

/** What a button's value means, stored as the words the customer saw on it. */
const BUTTON_LABELS: Record<string, string> = {
  [CONNECT_VALUE]: 'Talk to a person',
  [MENU_VALUE]: 'Show the menu',
};

export interface WidgetLimits {
  /** Messages per chat per minute. */
  messagesPerSession: number;
  /** Messages per address per minute (several chats from one address). */
  messagesPerIp: number;
  /** Chats started per address per 10 minutes. */
  startsPerIp: number;
}

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = {
  messagesPerSession: 20,
  messagesPerIp: 120,
  startsPerIp: 30,
};

const tooFast = () => new HttpError(429, TOO_FAST_MESSAGE, 'RATE_LIMITED');
const notAvailable = () => new HttpError(404, CHAT_NOT_AVAILABLE_MESSAGE, 'CHAT_NOT_AVAILABLE');
const unknownChat = () => new HttpError(404, UNKNOWN_CHAT_MESSAGE, 'UNKNOWN_CHAT');

/** Only Active shops chat; a blocked one (lapsed subscription) is shown as unavailable. */
async function shopOf(db: Db, sellerCode: string) {
  const seller = await findSellerByCode(db, sellerCode);
  if (!seller?.isActive) throw notAvailable();
  return { ...seller, available: !(seller.blocked && !seller.isNewSeller) };
}

async function chatOf(db: Db, sellerCode: string, sessionId: string) {
  const seller = await findSellerByCode(db, sellerCode);
  if (!seller) throw notAvailable();
  const row = await findChatBySession(db, seller.id, sessionId);
  if (!row) throw unknownChat();
  return { seller, row };
}

export async function widgetRoutes(
  app: FastifyInstance,
  options: { streams: WidgetStreams; publish: PublishChatEvent; limits?: Partial<WidgetLimits> },
) {
  const { streams, publish } = options;
  const limits = { ...DEFAULT_WIDGET_LIMITS, ...options.limits };
  const api = app.withTypeProvider<ZodTypeProvider>();
  const perSession = createRateLimiter({ limit: limits.messagesPerSession, windowMs: 60_000 });
  const perIp = createRateLimiter({ limit: limits.messagesPerIp, windowMs: 60_000 });
  const startsPerIp = createRateLimiter({ limit: limits.startsPerIp, windowMs: 10 * 60_000 });
  const openStreams = new Set<() => void>();
  // Before the server stops listening: an open stream would otherwise keep it from closing.
  app.addHook('preClose', async () => {
    for (const close of openStreams) close();
  });

  api.get(
    '/:sellerCode',
    {
      config: { public: true },
      schema: {
        tags: ['help chats'],
        summary: "The shop's name and whether its chat is available",
        params: sellerParams,
        response: { 200: widgetSellerSchema, ...errors },
      },
    },
    async (request) => {
      const shop = await shopOf(app.db, request.params.sellerCode);
      return { sellerName: shop.sellerName, available: shop.available };
    },
  );

  api.post(
    '/:sellerCode/start',
    {
      config: { public: true },
      schema: {
        tags: ['help chats'],
        summary: 'Start a chat: the bot greets and offers its menu',
        params: sellerParams,
        body: startChatBodySchema,
        response: { 200: widgetChatSchema, ...errors },
      },
    },
    async (request): Promise<WidgetChat> => {
      if (!startsPerIp.hit(request.ip)) throw tooFast();
      const shop = await shopOf(app.db, request.params.sellerCode);
      if (!shop.available) throw notAvailable();
      const { name, email } = request.body;
      const chat = await createChat(app.db, {
        sellerId: shop.id,
        sessionId: randomUUID(),
        name,
        email,
        color: CHAT_COLORS[Math.floor(Math.random() * CHAT_COLORS.length)] ?? 'teal',
      });
      const faqs = await botFaqs(app.db, shop.id);
      const reply = startReply({ customerName: name, sellerName: shop.sellerName, faqs });
      const messages = await insertMessages(
        app.db,
        chat.id,
        reply.turns.map((turn) => ({ sender: 'Bot', message: turn.message, extras: turn.extras })),
      );
      const entry = await entryOf(app.db, chat.id);
      for (const [index, turn] of reply.turns.entries()) {
        await publish(entry, turn.response, messages[index] as ChatMessage);
      }
      return { sessionId: chat.sessionId, sellerName: shop.sellerName, withPerson: false, messages };
    },
  );

  api.post(
    '/:sellerCode/messages',
    {
      config: { public: true },
      schema: {
        tags: ['help chats'],
        summary:
          "The customer writes (or taps a button); answers the new messages (the bot's answer unless a person holds the chat)",
        params: sellerParams,
        body: widgetMessageBodySchema,
        response: { 200: widgetChatSchema, ...errors },
      },
    },
    async (request): Promise<WidgetChat> => {
      const { sessionId, message } = request.body;
      if (!perSession.hit(sessionId) || !perIp.hit(request.ip)) throw tooFast();
      const { seller, row } = await chatOf(app.db, request.params.sellerCode, sessionId);
      const chat = row.chat;
      const text = BUTTON_LABELS[message] ?? message;
      const withPerson = chat.heldBy !== null;
      // While a person holds the chat the bot is quiet: the question is theirs to answer.
      const reply = withPerson ? undefined : answer(message, await botFaqs(app.db, seller.id));
      const connectRequest = !withPerson && (reply?.connectRequest ?? asksForPerson(message));

      await recordCustomerMessage(app.db, chat.id, text, connectRequest);
      const toStore: StoredMessage[] = [
        { sender: 'User', message: text },
        ...(reply?.turns ?? []).map((turn) => ({
          sender: 'Bot' as const,
          message: turn.message,
          extras: turn.extras,
        })),
      ];
      const messages = await insertMessages(app.db, chat.id, toStore);
      const entry = await entryOf(app.db, chat.id);

      const [customerMessage, ...botMessages] = messages;
      await publish(
        entry,
        withPerson ? { manualQuestion: text } : { userQuery: text },
        customerMessage as ChatMessage,
      );
      for (const [index, turn] of (reply?.turns ?? []).entries()) {
        await publish(entry, turn.response, botMessages[index] as ChatMessage);
      }
      return { sessionId, sellerName: seller.sellerName, withPerson, messages };
    },
  );

  api.get(
    '/:sellerCode/chats/:sessionId',
    {
      config: { public: true },
      schema: {
        tags: ['help chats'],
        summary: "A chat's history (the widget reloads it after a page reload)",
        params: chatParams,
        response: { 200: widgetChatSchema, ...errors },
      },
    },
    async (request): Promise<WidgetChat> => {
      const { seller, row } = await chatOf(app.db, request.params.sellerCode, request.params.sessionId);
      return {
        sessionId: row.chat.sessionId,
        sellerName: seller.sellerName,
        withPerson: row.chat.heldBy !== null,
        messages: await chatHistory(app.db, row.chat.id),
      };
    },
  );

  api.get(
    '/:sellerCode/chats/:sessionId/events',
    {
      config: { public: true },
      schema: {
        tags: ['help chats'],
        summary:
          'Server-Sent Events: `event: message` with `{ message, withPerson }` for every new message of the chat (heartbeat comments every 25 s)',
        params: chatParams,
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const { row } = await chatOf(app.db, request.params.sellerCode, request.params.sessionId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      raw.write(`retry: 3000\n: connected\n\n`);
      const unsubscribe = streams.subscribe(row.chat.sessionId, (event) => {
        raw.write(`event: message\nid: ${event.message.id}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
      const close = () => {
        clearInterval(heartbeat);
        unsubscribe();
        openStreams.delete(close);
        if (!raw.writableEnded) raw.end();
      };
      openStreams.add(close);
      request.raw.on('close', close);
    },
  );
}
