// The public chat widget's API (no sign-in: a chat is identified by its sessionId), under
// /api/v1/queryBot/widget. SPEC §5 exempts queryBot requests from the access token. Rate-limited per
// address and per chat (@fastify/rate-limit, shared through Redis with REDIS_URL), and the live event
// streams are capped per chat and per address; messages are length-checked by the contract and stored exactly as typed (the
// widget and the back-office render them as text, never as HTML).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ChatMessage,
  startChatBodySchema,
  type WidgetChat,
  widgetChatSchema,
  widgetMessageBodySchema,
  widgetSellerSchema,
} from '../../../contracts/help-chats';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { requestLimit } from '../../plugins/rate-limits';
import { botTextsOf, requestLanguage } from '../settings-content/texts';
import { widgetCors } from '../settings-website/cors';
import { widgetLook } from '../settings-website/look';
import { customerWrites, startChat } from './conversation';
import { officeState } from './office-hours';
import type { PublishChatEvent, WidgetStreams } from './publish';
import { ANYONE } from './read-state';
import { CHAT_COLORS, chatHistory, entryOf, findChatBySession, findSellerByCode } from './repository';

export const CHAT_NOT_AVAILABLE_MESSAGE = "This shop's chat is not available";
export const UNKNOWN_CHAT_MESSAGE = 'Unknown chat';
export const TOO_FAST_MESSAGE = 'You are sending messages too fast. Please wait a moment.';
/** Comments keep proxies and browsers from timing out an idle stream. */
export const HEARTBEAT_MS = 25_000;

const errors = errorResponses(400, 404, 429);
const sellerParams = z.object({ sellerCode: z.string().trim().min(1).max(40) });
const chatParams = sellerParams.extend({ sessionId: z.string().max(100) });

export interface WidgetLimits {
  /** Messages per chat per minute. */
  messagesPerSession: number;
  /** Messages per address per minute (several chats from one address). */
  messagesPerIp: number;
  /** Chats started per address per 10 minutes. */
  startsPerIp: number;
  /** Reads (the shop, a chat's history, opening its event stream) per address per minute. */
  readsPerIp: number;
  /** Event streams open at once for one chat (a customer with a few tabs). */
  streamsPerChat: number;
  /** Event streams open at once from one address (several customers behind one address). */
  streamsPerIp: number;
}

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = {
  messagesPerSession: 20,
  messagesPerIp: 120,
  startsPerIp: 30,
  readsPerIp: 300,
  streamsPerChat: 5,
  streamsPerIp: 30,
};

export const TOO_MANY_STREAMS_MESSAGE = 'This chat is open in too many windows. Close one and try again.';

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

/** Settings → Content's bot texts for this shop, in the language the customer's browser asks for. */
async function botTextsFor(app: FastifyInstance, sellerId: string, request: FastifyRequest) {
  const { content } = await app.settings.effective(sellerId);
  return botTextsOf(content, requestLanguage(request.headers['accept-language']));
}

export async function widgetRoutes(
  app: FastifyInstance,
  options: { streams: WidgetStreams; publish: PublishChatEvent; limits?: Partial<WidgetLimits> },
) {
  const { streams, publish } = options;
  const limits = { ...DEFAULT_WIDGET_LIMITS, ...options.limits };
  const api = app.withTypeProvider<ZodTypeProvider>();
  widgetCors(app);
  const botTexts = (sellerId: string, request: FastifyRequest) => botTextsFor(app, sellerId, request);
  const tooFastLimit = (name: string, max: number, timeWindow: number, key?: (r: FastifyRequest) => string) =>
    requestLimit(app, { name: `widget-${name}`, max, timeWindow, key, message: TOO_FAST_MESSAGE });
  const startsPerIp = tooFastLimit('starts', limits.startsPerIp, 10 * 60_000);
  const messagesPerIp = tooFastLimit('messages', limits.messagesPerIp, 60_000);
  const messagesPerSession = tooFastLimit(
    'chat-messages',
    limits.messagesPerSession,
    60_000,
    (request) => (request.body as { sessionId: string }).sessionId,
  );
  const readsPerIp = tooFastLimit('reads', limits.readsPerIp, 60_000);
  const openStreams = new Set<() => void>();
  // Streams open on this instance, per chat and per address: an SSE stream holds a socket and a
  // subscription for as long as it is open, so their number is capped, not only their rate.
  const streamsByChat = new Map<string, number>();
  const streamsByIp = new Map<string, number>();
  const bump = (counts: Map<string, number>, key: string, by: 1 | -1) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };
  // Before the server stops listening: an open stream would otherwise keep it from closing.
  app.addHook('preClose', async () => {
    for (const close of openStreams) close();
  });

  api.get(
    '/:sellerCode',
    {
      config: { public: true },
      preHandler: readsPerIp,
      schema: {
        tags: ['help chats'],
        summary: "The shop's name and whether its chat is available",
        params: sellerParams,
        response: { 200: widgetSellerSchema, ...errors },
      },
    },
    async (request) => {
      const shop = await shopOf(app.db, request.params.sellerCode);
      const office = officeState(await app.settings.effective(null));
      return {
        sellerName: shop.sellerName,
        available: shop.available,
        personAvailable: shop.available && office.open,
        personNotice: office.notice,
        look: await widgetLook(app, shop.id),
      };
    },
  );

  api.post(
    '/:sellerCode/start',
    {
      config: { public: true },
      preHandler: startsPerIp,
      schema: {
        tags: ['help chats'],
        summary: 'Start a chat: the bot greets and offers its menu',
        params: sellerParams,
        body: startChatBodySchema,
        response: { 200: widgetChatSchema, ...errors },
      },
    },
    async (request): Promise<WidgetChat> => {
      const shop = await shopOf(app.db, request.params.sellerCode);
      if (!shop.available) throw notAvailable();
      const { name, email } = request.body;
      const { chat, turns, messages } = await startChat(app.db, {
        seller: shop,
        sessionId: randomUUID(),
        name,
        email,
        color: CHAT_COLORS[Math.floor(Math.random() * CHAT_COLORS.length)] ?? 'teal',
        texts: await botTexts(shop.id, request),
      });
      const entry = await entryOf(app.db, chat.id, ANYONE);
      for (const [index, turn] of turns.entries()) {
        await publish(entry, turn.response, messages[index] as ChatMessage);
      }
      return { sessionId: chat.sessionId, sellerName: shop.sellerName, withPerson: false, messages };
    },
  );

  api.post(
    '/:sellerCode/messages',
    {
      config: { public: true },
      preHandler: [messagesPerSession, messagesPerIp],
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
      const { seller, row } = await chatOf(app.db, request.params.sellerCode, sessionId);
      const office = officeState(await app.settings.effective(null));
      const { text, withPerson, reply, connectRequest, messages } = await customerWrites(
        app.db,
        row.chat,
        message,
        undefined,
        office.notice,
        (await botTexts(seller.id, request)).generalReply,
      );
      const entry = await entryOf(app.db, row.chat.id, ANYONE);

      const [customerMessage, ...botMessages] = messages;
      // A connect request is published with the words that raised it ("Talk to a person"): the
      // back-office shows one toast for the two (chat-store.ts), and the message still lands in the chat.
      await publish(
        entry,
        withPerson
          ? { manualQuestion: text }
          : { userQuery: text, ...(connectRequest ? { connectRequest } : {}) },
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
      preHandler: readsPerIp,
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
      preHandler: readsPerIp,
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
      const chatKey = row.chat.sessionId;
      const ip = request.ip;
      if (
        (streamsByChat.get(chatKey) ?? 0) >= limits.streamsPerChat ||
        (streamsByIp.get(ip) ?? 0) >= limits.streamsPerIp
      ) {
        throw new HttpError(429, TOO_MANY_STREAMS_MESSAGE, 'TOO_MANY_STREAMS');
      }
      bump(streamsByChat, chatKey, 1);
      bump(streamsByIp, ip, 1);
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
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        bump(streamsByChat, chatKey, -1);
        bump(streamsByIp, ip, -1);
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
