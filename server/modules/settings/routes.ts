// Settings API (issue 29): the sections a user may see in their scope, one section's field states, a
// versioned save, the browser's request defaults and the settings history. A seller's scope is their
// own shop; admins and staff see the marketplace's, or a seller's with `sellerId` (admins may edit it).

import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { settingsTopic } from '../../../contracts/broker-topics';
import { can } from '../../../contracts/permissions';
import {
  clientSettingsSchema,
  SETTINGS_ROUTE,
  type SectionState,
  type SettingsChangedMessage,
  type StoredSection,
  saveSectionBodySchema,
  sectionStateSchema,
  sellerSections,
  settingsHistoryPageSchema,
  settingsHistoryQuerySchema,
  settingsOverviewSchema,
  settingsQuerySchema,
  storedSectionSchema,
  storedSections,
} from '../../../contracts/settings';
import { users } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { actorOf } from '../users/actor';
import { readSettingsHistory } from './history';
import { historyActorsRoute, historyScopeOf } from './history-actors';
import { historyExportRoute } from './history-export';
import { readScopeRows, sellerExists } from './read';
import { marketplaceFieldStates, sellerFieldStates } from './resolve';
import { saveSection } from './save';
import { sellerOptionsRoute } from './seller-options';

const view = { permission: { route: SETTINGS_ROUTE, action: 'view' as const } };
const edit = { permission: { route: SETTINGS_ROUTE, action: 'edit' as const } };

export interface Scope {
  sellerId: string | null;
  canEdit: boolean;
}

/** Whose settings the request is about, and whether this user may change them. */
export async function scopeOf(
  app: FastifyInstance,
  request: FastifyRequest,
  asked: string | undefined,
): Promise<Scope> {
  const user = request.user;
  const mayEdit = can(await request.permissions(), SETTINGS_ROUTE, 'edit');
  if (user.role === 'Seller') {
    if (!user.sellerId) throw new HttpError(403, 'Your account is not linked to a shop.');
    if (asked !== undefined && asked !== user.sellerId) {
      throw new HttpError(403, "You can only see and change your own shop's settings.");
    }
    return { sellerId: user.sellerId, canEdit: mayEdit };
  }
  if (asked === undefined) return { sellerId: null, canEdit: mayEdit && user.role === 'Admin' };
  if (!(await sellerExists(app.db, asked))) throw new HttpError(404, 'There is no such seller.');
  return { sellerId: asked, canEdit: mayEdit && user.role === 'Admin' };
}

function sectionsOf(scope: Scope): readonly StoredSection[] {
  return scope.sellerId === null ? storedSections : sellerSections;
}

/** Fields the server's environment decides (SMTP_URL): shown read-only, never saved. */
export type EnvironmentFields = Partial<Record<StoredSection, readonly string[]>>;

async function sectionState(
  app: FastifyInstance,
  scope: Scope,
  section: StoredSection,
  environment: EnvironmentFields = {},
): Promise<SectionState> {
  const rows = await readScopeRows(app.db, scope.sellerId);
  const row = rows.find((candidate) => candidate.section === section);
  const marketplace = await app.settings.effective(null);
  const fields =
    scope.sellerId === null
      ? marketplaceFieldStates(section, row?.values, marketplace, scope.canEdit)
      : sellerFieldStates(
          section,
          row?.values,
          marketplace,
          await app.settings.effective(scope.sellerId),
          scope.canEdit,
        );
  for (const field of environment[section] ?? []) {
    const state = fields[field];
    if (state) fields[field] = { ...state, editable: false, fromEnvironment: true };
  }
  return {
    section,
    scope: { type: scope.sellerId === null ? 'marketplace' : 'seller', sellerId: scope.sellerId },
    version: row?.version ?? 0,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedByName ?? null,
    fields,
  };
}

export async function settingsRoutes(
  app: FastifyInstance,
  options: { prefix: string; topicPrefix: string; environmentFields?: EnvironmentFields },
) {
  const environment = options.environmentFields ?? {};
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sectionParams = z.object({ section: storedSectionSchema });

  const announce = async (message: SettingsChangedMessage) => {
    try {
      await app.broker.publish(settingsTopic(options.topicPrefix), message, { qos: 1 });
    } catch (error) {
      // The save has committed; browsers that miss this refetch on their next page load.
      app.log.warn({ err: error }, 'settings change not announced to browsers');
    }
  };

  api.get(
    '/',
    {
      config: view,
      schema: {
        tags: ['settings'],
        summary: 'The settings sections this user may see in their scope',
        querystring: settingsQuerySchema,
        response: { 200: settingsOverviewSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const scope = await scopeOf(app, request, request.query.sellerId);
      return {
        scope: {
          type: scope.sellerId === null ? ('marketplace' as const) : ('seller' as const),
          sellerId: scope.sellerId,
        },
        sections: ['profile' as const, ...sectionsOf(scope)],
        canEdit: scope.canEdit,
      };
    },
  );

  // Signed-in users only, whatever their permissions: every request of the SPA carries these defaults.
  api.get(
    '/client',
    {
      // A blocked seller's browser sends these defaults too, on the one page left to them.
      config: { allowBlockedSeller: true },
      schema: {
        tags: ['settings'],
        summary: "The signed-in user's request defaults and formats (their own, else the marketplace's)",
        response: { 200: clientSettingsSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const [own] = await app.db
        .select({
          country: users.defaultCountry,
          language: users.defaultLanguage,
          currency: users.defaultCurrency,
        })
        .from(users)
        .where(eq(users.id, request.user.id));
      const settings = await app.settings.effective(request.user.sellerId);
      const localization = settings.localization;
      return {
        defaultCountry: own?.country ?? localization.defaultCountry,
        defaultLanguage: own?.language ?? localization.defaultLanguage,
        defaultCurrency: own?.currency ?? localization.defaultCurrency,
        currencies: localization.currencies,
        languages: localization.languages,
        locale: localization.locale,
        timeZone: localization.timeZone,
        weekStart: localization.weekStart,
      };
    },
  );

  historyActorsRoute(app, scopeOf);
  historyExportRoute(app, scopeOf);
  sellerOptionsRoute(app);

  api.get(
    '/history',
    {
      config: view,
      schema: {
        tags: ['settings'],
        summary: 'Settings changes, newest first: who, when, section, field before → after (paged)',
        querystring: settingsHistoryQuerySchema,
        response: { 200: settingsHistoryPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { sellerId, ...filters } = request.query;
      // A seller reads their shop's history; staff the marketplace's; admins any scope, or all of them.
      const scope = await historyScopeOf(scopeOf, app, request, sellerId);
      return readSettingsHistory(app.db, { ...filters, scope });
    },
  );

  api.get(
    '/:section',
    {
      config: view,
      schema: {
        tags: ['settings'],
        summary: "One section's fields: value, inherited or overridden, editable",
        params: sectionParams,
        querystring: settingsQuerySchema,
        response: { 200: sectionStateSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const scope = await scopeOf(app, request, request.query.sellerId);
      const { section } = request.params;
      if (!sectionsOf(scope).includes(section)) {
        throw new HttpError(403, 'This section belongs to the marketplace: only its administrators see it.');
      }
      return sectionState(app, scope, section, environment);
    },
  );

  api.put(
    '/:section',
    {
      config: edit,
      schema: {
        tags: ['settings'],
        summary: 'Save fields of a section (and reset others); 409 when someone saved in between',
        params: sectionParams,
        querystring: settingsQuerySchema,
        body: saveSectionBodySchema,
        response: { 200: sectionStateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const scope = await scopeOf(app, request, request.query.sellerId);
      const { section } = request.params;
      if (!scope.canEdit) throw new HttpError(403, 'You may view these settings, not change them.');
      if (!sectionsOf(scope).includes(section)) {
        throw new HttpError(
          403,
          'This section belongs to the marketplace: only its administrators change it.',
        );
      }
      const fixed = (environment[section] ?? []).filter(
        (field) => Object.hasOwn(request.body.set, field) || request.body.reset.includes(field),
      );
      if (fixed.length > 0) {
        throw new HttpError(
          409,
          `${fixed.join(', ')} ${fixed.length === 1 ? 'is' : 'are'} set in the server's environment (SMTP_URL) and cannot be changed here.`,
        );
      }
      const { changes } = await saveSection(app.db, {
        sellerId: scope.sellerId,
        section,
        body: request.body,
        actor: await actorOf(app.db, request),
        requestId: request.id,
        secrets: app.settings.secrets,
      });
      if (changes.length > 0) {
        app.settings.forget(scope.sellerId);
        await announce({ type: 'SETTINGS_CHANGED', section, sellerId: scope.sellerId });
      }
      return sectionState(app, scope, section, environment);
    },
  );
}
