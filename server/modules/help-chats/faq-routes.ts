// The seller's FAQ for their sales bot, under /api/v1/queryBot/faqs: their own entries only. While a
// seller has none, the bot answers with the built-in defaults, which the list shows as such.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../contracts/auth';
import {
  type ChatFaq,
  type ChatFaqList,
  chatFaqBodySchema,
  chatFaqListSchema,
  chatFaqPatchBodySchema,
  chatFaqSchema,
  SELLER_HELP_CHATS,
} from '../../../contracts/help-chats';
import { chatFaqs } from '../../db/schema';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { DEFAULT_FAQS } from './bot';
import { storedFaqs } from './repository';

export const FAQ_NOT_FOUND_MESSAGE = 'FAQ entry not found';
/** Enough for any shop's menu and answers; keeps one seller from filling the table. */
export const MAX_FAQS = 100;

const idParams = z.object({ id: z.string().uuid('id must be an FAQ entry id') });

function toFaq(row: typeof chatFaqs.$inferSelect): ChatFaq {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    keywords: row.keywords,
    position: row.position,
  };
}

function ownSellerId(request: FastifyRequest): string {
  const sellerId = request.user.sellerId;
  if (!sellerId) throw new HttpError(403, 'Only a shop has an FAQ.', 'FORBIDDEN');
  return sellerId;
}

export async function faqRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const view = { permission: { route: SELLER_HELP_CHATS, action: 'view' as const } };
  const edit = { permission: { route: SELLER_HELP_CHATS, action: 'edit' as const } };

  async function ownEntry(request: FastifyRequest, id: string) {
    const [row] = await app.db
      .select()
      .from(chatFaqs)
      .where(and(eq(chatFaqs.id, id), eq(chatFaqs.sellerId, ownSellerId(request))));
    if (!row) throw new HttpError(404, FAQ_NOT_FOUND_MESSAGE, 'FAQ_NOT_FOUND');
    return row;
  }

  api.get(
    '/faqs',
    {
      config: view,
      schema: {
        tags: ['help chats'],
        summary: "The seller's FAQ entries, in menu order (the defaults while they have none)",
        response: { 200: chatFaqListSchema, ...errors },
      },
    },
    async (request): Promise<ChatFaqList> => {
      const rows = await storedFaqs(app.db, ownSellerId(request));
      if (rows.length > 0) return { result: rows.map(toFaq), usingDefaults: false };
      return {
        result: DEFAULT_FAQS.map((entry, index) => ({
          id: `default-${index + 1}`,
          position: index,
          ...entry,
        })),
        usingDefaults: true,
      };
    },
  );

  api.post(
    '/faqs',
    {
      config: edit,
      schema: {
        tags: ['help chats'],
        summary: 'Add an FAQ entry at the end of the menu (the first one replaces the defaults)',
        body: chatFaqBodySchema,
        response: { 200: chatFaqSchema, ...errors },
      },
    },
    async (request) => {
      const sellerId = ownSellerId(request);
      const [stats] = await app.db
        .select({
          total: sql<number>`count(*)::int`,
          last: sql<number>`coalesce(max(${chatFaqs.position}), -1)::int`,
        })
        .from(chatFaqs)
        .where(eq(chatFaqs.sellerId, sellerId));
      if ((stats?.total ?? 0) >= MAX_FAQS) {
        throw new HttpError(409, `A shop can have at most ${MAX_FAQS} FAQ entries.`, 'TOO_MANY_FAQS');
      }
      const [row] = await app.db
        .insert(chatFaqs)
        .values({ sellerId, ...request.body, position: (stats?.last ?? -1) + 1 })
        .returning();
      return toFaq(row as typeof chatFaqs.$inferSelect);
    },
  );

  api.patch(
    '/faqs/:id',
    {
      config: edit,
      schema: {
        tags: ['help chats'],
        summary: 'Change an FAQ entry',
        params: idParams,
        body: chatFaqPatchBodySchema,
        response: { 200: chatFaqSchema, ...errors },
      },
    },
    async (request) => {
      const entry = await ownEntry(request, request.params.id);
      const [row] = await app.db
        .update(chatFaqs)
        .set({ ...request.body, updatedAt: new Date() })
        .where(eq(chatFaqs.id, entry.id))
        .returning();
      return toFaq(row as typeof chatFaqs.$inferSelect);
    },
  );

  api.delete(
    '/faqs/:id',
    {
      config: edit,
      schema: {
        tags: ['help chats'],
        summary: 'Remove an FAQ entry',
        params: idParams,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const entry = await ownEntry(request, request.params.id);
      await app.db.delete(chatFaqs).where(eq(chatFaqs.id, entry.id));
      return { message: 'FAQ entry removed' };
    },
  );
}
