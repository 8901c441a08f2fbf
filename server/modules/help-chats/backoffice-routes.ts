// The back-office's help chats under /api/v1/queryBot (SPEC §7 "Query bot"): admins and staff see
// every chat (/customers/help-chats), sellers only their own (/sellers/help-chats). A person answering
// by hand takes the chat over from the bot until they hand it back.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../contracts/errors';
import {
  type ChatEventResult,
  CUSTOMER_HELP_CHATS,
  chatDetailSchema,
  chatEventResultSchema,
  chatListQuerySchema,
  chatListSchema,
  manualAnswerBodySchema,
  SELLER_HELP_CHATS,
} from '../../../contracts/help-chats';
import { HttpError } from '../../lib/http-error';
import { HAND_BACK_MESSAGE } from './bot';
import type { PublishChatEvent } from './publish';
import {
  agentName,
  chatHistory,
  entryOf,
  findChatById,
  insertMessages,
  listChats,
  updateChat,
} from './repository';

export const OTHER_SELLERS_CHAT_MESSAGE = 'This chat belongs to another seller';
export const CHAT_NOT_FOUND_MESSAGE = 'Chat not found';

const errors = { 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const idParams = z.object({ id: z.string().uuid('id must be a chat id') });

/** The page a user works in: sellers their own chats, admins and staff everyone's. */
function helpChatsRoute(request: FastifyRequest) {
  return request.user.role === 'Seller' ? SELLER_HELP_CHATS : CUSTOMER_HELP_CHATS;
}

export async function backofficeRoutes(app: FastifyInstance, options: { publish: PublishChatEvent }) {
  const { publish } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The chat, if the caller may work on it: a seller only their own (403), anyone 404 when unknown. */
  async function visibleChat(request: FastifyRequest, id: string) {
    const row = await findChatById(app.db, id);
    if (!row) throw new HttpError(404, CHAT_NOT_FOUND_MESSAGE, 'CHAT_NOT_FOUND');
    if (request.user.role === 'Seller' && row.chat.sellerId !== request.user.sellerId) {
      throw new HttpError(403, OTHER_SELLERS_CHAT_MESSAGE, 'OTHER_SELLERS_CHAT');
    }
    return row;
  }

  /** Admins and staff hold /customers/help-chats, sellers /sellers/help-chats; each needs its own. */
  async function requireAction(request: FastifyRequest, action: 'view' | 'edit') {
    const route = helpChatsRoute(request);
    const permissions = await request.permissions();
    if (!permissions[route]?.includes(action)) {
      throw new HttpError(403, `You do not have permission to ${action} Help Chats.`, 'FORBIDDEN');
    }
  }

  const listRoutes = [
    { url: '/listQueryBotChats', route: CUSTOMER_HELP_CHATS, own: false, search: false },
    { url: '/searchQueryBotChats', route: CUSTOMER_HELP_CHATS, own: false, search: true },
    { url: '/listSellerQueryBotChats', route: SELLER_HELP_CHATS, own: true, search: false },
    { url: '/searchSellerQueryBotChats', route: SELLER_HELP_CHATS, own: true, search: true },
  ] as const;
  for (const { url, route, own, search } of listRoutes) {
    api.get(
      url,
      {
        config: { permission: { route, action: 'view' } },
        schema: {
          tags: ['help chats'],
          summary: `${own ? "The seller's own" : 'All'} help chats${search ? ' matching `query` (name, e-mail, last message)' : ''}, newest interaction first, paged`,
          querystring: chatListQuerySchema,
          response: { 200: chatListSchema, ...errors },
        },
      },
      (request) => {
        const { skip, limit, query } = request.query;
        // A seller account without a shop has no chats; never "everyone's".
        const sellerId = own ? (request.user.sellerId ?? '00000000-0000-0000-0000-000000000000') : undefined;
        return listChats(app.db, { sellerId, query: search ? query : undefined, skip, limit });
      },
    );
  }

  api.get(
    '/getQueryBotChatDetails/:id',
    {
      schema: {
        tags: ['help chats'],
        summary: 'Open a chat: its history; resets its unread count and connect request',
        params: idParams,
        response: { 200: chatDetailSchema, ...errors },
      },
    },
    async (request) => {
      await requireAction(request, 'view');
      const row = await visibleChat(request, request.params.id);
      await updateChat(app.db, row.chat.id, { newMessagesCount: 0, connectRequest: false });
      const [messages, chat] = await Promise.all([
        chatHistory(app.db, row.chat.id),
        entryOf(app.db, row.chat.id),
      ]);
      return { sessionId: row.chat.sessionId, email: row.chat.email, messages, chat };
    },
  );

  api.post(
    '/manualAnswer/:id',
    {
      schema: {
        tags: ['help chats'],
        summary: 'Answer by hand: takes the chat over (the bot stays quiet until handBack)',
        params: idParams,
        body: manualAnswerBodySchema,
        response: { 200: chatEventResultSchema, ...errors },
      },
    },
    async (request): Promise<ChatEventResult> => {
      await requireAction(request, 'edit');
      const row = await visibleChat(request, request.params.id);
      const name = await agentName(app.db, request.user.id);
      const text = request.body.message;
      const now = new Date();
      await updateChat(app.db, row.chat.id, {
        heldBy: request.user.id,
        heldAt: now,
        lastMessage: text,
        lastInteractionOn: now,
        connectRequest: false,
        status: 'open',
      });
      const [message] = await insertMessages(app.db, row.chat.id, [
        { sender: 'Bot', message: text, extras: { manual: true, agentName: name } },
      ]);
      const chat = await entryOf(app.db, row.chat.id);
      if (!message) throw new Error('the answer was not stored');
      await publish(chat, { manualAnswer: text }, message);
      return { chat, message };
    },
  );

  api.post(
    '/handBack/:id',
    {
      schema: {
        tags: ['help chats'],
        summary: 'Hand the chat back to the bot, which tells the customer',
        params: idParams,
        response: { 200: chatEventResultSchema, ...errors },
      },
    },
    async (request): Promise<ChatEventResult> => {
      await requireAction(request, 'edit');
      const row = await visibleChat(request, request.params.id);
      await updateChat(app.db, row.chat.id, { heldBy: null, heldAt: null });
      const [message] = await insertMessages(app.db, row.chat.id, [
        { sender: 'Bot', message: HAND_BACK_MESSAGE },
      ]);
      const chat = await entryOf(app.db, row.chat.id);
      if (!message) throw new Error('the hand-back message was not stored');
      await publish(chat, { chatBotResponse: HAND_BACK_MESSAGE }, message);
      return { chat, message };
    },
  );
}
