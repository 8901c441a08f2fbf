// The back-office's help chats under /api/v1/queryBot (SPEC §7 "Query bot"): admins and staff see
// every chat (/customers/help-chats), sellers only their own (/sellers/help-chats). A person answering
// by hand takes the chat over from the bot until they hand it back. Each reader's unread counts and
// connect requests are their own (read-state.ts): what one opens stays unread for the others.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ChatEventResult,
  CUSTOMER_HELP_CHATS,
  chatDetailSchema,
  chatEventResultSchema,
  chatListQuerySchema,
  chatListSchema,
  chatUserEntrySchema,
  manualAnswerBodySchema,
  SELLER_HELP_CHATS,
} from '../../../contracts/help-chats';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { handBack, personAnswers } from './conversation';
import type { PublishChatEvent } from './publish';
import { ANYONE, markRead, readerOf } from './read-state';
import { agentName, chatHistory, entryOf, findChatById, listChats } from './repository';

export const OTHER_SELLERS_CHAT_MESSAGE = 'This chat belongs to another seller';
export const CHAT_NOT_FOUND_MESSAGE = 'Chat not found';

const errors = errorResponses(400, 403, 404);
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

  /** The caller opened or watched the chat: their own unread count and connect request reset. */
  async function readChat(request: FastifyRequest, id: string) {
    await requireAction(request, 'view');
    const row = await visibleChat(request, id);
    const reader = readerOf(request.user);
    await markRead(app.db, row.chat.id, reader);
    return { row, reader };
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
        return listChats(app.db, {
          reader: readerOf(request.user),
          sellerId,
          query: search ? query : undefined,
          skip,
          limit,
        });
      },
    );
  }

  api.get(
    '/getQueryBotChatDetails/:id',
    {
      schema: {
        tags: ['help chats'],
        summary:
          "Open a chat: its history; resets the caller's own unread count and connect request (other readers' stay)",
        params: idParams,
        response: { 200: chatDetailSchema, ...errors },
      },
    },
    async (request) => {
      const { row, reader } = await readChat(request, request.params.id);
      const [messages, chat] = await Promise.all([
        chatHistory(app.db, row.chat.id),
        entryOf(app.db, row.chat.id, reader),
      ]);
      return { sessionId: row.chat.sessionId, email: row.chat.email, messages, chat };
    },
  );

  api.post(
    '/readQueryBotChat/:id',
    {
      schema: {
        tags: ['help chats'],
        summary:
          "The caller saw the open chat's new messages as they came: resets their own unread count and connect request",
        params: idParams,
        response: { 200: chatUserEntrySchema, ...errors },
      },
    },
    async (request) => {
      const { row, reader } = await readChat(request, request.params.id);
      return entryOf(app.db, row.chat.id, reader);
    },
  );

  api.post(
    '/manualAnswer/:id',
    {
      schema: {
        tags: ['help chats'],
        summary:
          'Answer by hand: takes the chat over (the bot stays quiet until handBack); answers the connect request',
        params: idParams,
        body: manualAnswerBodySchema,
        response: { 200: chatEventResultSchema, ...errors },
      },
    },
    async (request): Promise<ChatEventResult> => {
      await requireAction(request, 'edit');
      const row = await visibleChat(request, request.params.id);
      const reader = readerOf(request.user);
      const name = await agentName(app.db, request.user.id);
      const text = request.body.message;
      const message = await personAnswers(
        app.db,
        row.chat.id,
        { userId: request.user.id, name, reader },
        text,
      );
      await publish(await entryOf(app.db, row.chat.id, ANYONE), { manualAnswer: text }, message);
      return { chat: await entryOf(app.db, row.chat.id, reader), message };
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
      const message = await handBack(app.db, row.chat.id);
      await publish(
        await entryOf(app.db, row.chat.id, ANYONE),
        { chatBotResponse: message.message },
        message,
      );
      return { chat: await entryOf(app.db, row.chat.id, readerOf(request.user)), message };
    },
  );
}
