// Whose settings history a user may read, and who appears in it: the "Who" filter of the overall
// history lists these people by name (an id box is no filter), and a row's scope is named by its shop.
import { and, asc, desc, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SETTINGS_ROUTE, settingsQuerySchema } from '../../../contracts/settings';
import { type SettingsHistoryActors, settingsHistoryActorsSchema } from '../../../contracts/settings-history';
import type { Db } from '../../db/client';
import { auditEntries, sellers } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { historyConditions } from './history';

/** One scope's history, or undefined: every scope. */
export type HistoryScope = { sellerId: string | null } | undefined;

/** routes.ts's `scopeOf` (passed in, so this module does not import the routes that register it). */
export type ScopeOf = (
  app: FastifyInstance,
  request: FastifyRequest,
  asked: string | undefined,
) => Promise<{ sellerId: string | null }>;

/**
 * The history this user may read: a seller their shop's; staff the marketplace's (or one seller's);
 * admins every scope, or one with `sellerId`. The same rule as GET /settings/history.
 */
export async function historyScopeOf(
  scopeOf: ScopeOf,
  app: FastifyInstance,
  request: FastifyRequest,
  sellerId: string | undefined,
): Promise<HistoryScope> {
  if (request.user.role === 'Admin' && sellerId === undefined) return undefined;
  return { sellerId: (await scopeOf(app, request, sellerId)).sellerId };
}

export async function readHistoryActors(db: Db, scope: HistoryScope): Promise<SettingsHistoryActors> {
  const visible = and(eq(auditEntries.subjectType, 'settings'), ...(await historyConditions(db, { scope })));
  // Each person once, by the name of their latest change (a renamed user shows their new name).
  const people = await db
    .selectDistinctOn([auditEntries.actorId], { id: auditEntries.actorId, name: auditEntries.actorName })
    .from(auditEntries)
    .where(and(visible, isNotNull(auditEntries.actorId)))
    .orderBy(auditEntries.actorId, desc(auditEntries.createdAt), desc(auditEntries.seq));
  const shops = await db
    .select({ id: sellers.id, name: sellers.sellerName })
    .from(sellers)
    .where(
      inArray(
        sellers.id,
        db
          .selectDistinct({ id: auditEntries.subjectId })
          .from(auditEntries)
          .where(and(visible, isNotNull(auditEntries.subjectId)) as SQL),
      ),
    )
    .orderBy(asc(sellers.sellerName));
  return {
    actors: people
      .map((person) => ({ id: person.id as string, name: person.name || 'Unknown user' }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    sellers: shops,
  };
}

/** GET /history/actors, registered by the settings routes (under their prefix). */
export function historyActorsRoute(app: FastifyInstance, scopeOf: ScopeOf) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/history/actors',
    {
      config: { permission: { route: SETTINGS_ROUTE, action: 'view' as const } },
      schema: {
        tags: ['settings'],
        summary: 'Who changed the settings this user may see, and the shops the history is about',
        querystring: settingsQuerySchema,
        response: { 200: settingsHistoryActorsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      readHistoryActors(app.db, await historyScopeOf(scopeOf, app, request, request.query.sellerId)),
  );
}
