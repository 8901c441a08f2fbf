import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CALL_PERMISSION } from '../../../contracts/calls';
import { countryList } from '../../../contracts/domain/iso-codes';
import { serverRoles } from '../../../contracts/roles';
import { findRoute, routes } from '../../../contracts/routes';
import { runtimeConfigSchema } from '../../../contracts/runtime-config';
import { ICE_SERVERS_PATH, iceServersResponseSchema } from '../../../contracts/video-calls';
import type { Config } from '../../config';
import { errorResponses } from '../../lib/error-responses';
import { iceServersFor } from './ice-servers';
import { countryOptions, currencyOptions, languageOptions } from './select-options';

// `default`: the marketplace's default (Localization settings), also listed first.
const option = z.object({ value: z.string(), label: z.string(), default: z.boolean().optional() });

/** Breadcrumb trail of a route: its section, its first parent's trail for detail routes, then its name. */
function breadcrumbNames(path: string): string[] {
  const route = findRoute(path);
  if (!route) return [];
  const parent = route.parents?.map(findRoute).find((candidate) => candidate?.available) ?? undefined;
  if (parent) return [...breadcrumbNames(parent.path), route.name];
  return route.section ? [route.section, route.name] : [route.name];
}

export async function configRoutes(app: FastifyInstance, options: { config: Config }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/getPermissionsConfig',
    {
      schema: {
        tags: ['configs'],
        summary: 'Route → breadcrumb names and detail routes (SPEC §6 permissions map)',
        response: {
          200: z.object({
            routes: z.record(
              z.string(),
              z.object({ names: z.array(z.string()), parents: z.array(z.string()) }),
            ),
          }),
        },
      },
    },
    async () => ({
      routes: Object.fromEntries(
        routes.map((route) => [
          route.path,
          { names: breadcrumbNames(route.path), parents: route.parents ?? [] },
        ]),
      ),
    }),
  );

  api.get(
    '/getDefaultSelects',
    {
      schema: {
        tags: ['configs'],
        summary: 'Option lists for forms; `source` narrows to one list',
        querystring: z.object({
          source: z.enum(['countries', 'currencies', 'languages', 'roles']).optional(),
        }),
        response: { 200: z.record(z.string(), z.array(option)) },
      },
    },
    async (request) => {
      // What the Localization settings decide: the currencies and languages offered, the defaults first.
      const { localization } = await app.settings.effective(null);
      const lists: Record<string, { value: string; label: string; default?: boolean }[]> = {
        countries: countryOptions(localization.defaultCountry),
        currencies: currencyOptions(localization.currencies, localization.defaultCurrency),
        languages: languageOptions(localization.languages, localization.defaultLanguage),
        roles: serverRoles.map((role) => ({ value: role, label: role })),
      };
      const { source } = request.query;
      return source ? { [source]: lists[source] ?? [] } : lists;
    },
  );

  api.get(
    '/getCountriesList',
    {
      schema: {
        tags: ['configs'],
        summary: "Countries (ISO 3166-1 alpha-2, English names), the marketplace's default first",
        response: { 200: z.object({ result: z.array(z.object({ code: z.string(), name: z.string() })) }) },
      },
    },
    async () => {
      // The default first, unmarked: the list keeps its { code, name } shape.
      const { localization } = await app.settings.effective(null);
      const { defaultCountry } = localization;
      const list = countryList();
      return {
        result: [
          ...list.filter((c) => c.code === defaultCountry),
          ...list.filter((c) => c.code !== defaultCountry),
        ],
      };
    },
  );

  // Runtime flags for the SPA, read at start-up instead of baked into the bundle (ARCHITECTURE.md).
  api.get(
    '/runtime',
    {
      config: { public: true },
      schema: {
        tags: ['configs'],
        summary: 'Runtime client configuration (feature flags, where the broker is)',
        response: { 200: runtimeConfigSchema },
      },
    },
    async () => ({
      callServiceEnabled: options.config.CALL_SERVICE_ENABLED ? ('true' as const) : ('false' as const),
      mqttTopicPrefix: options.config.MQTT_TOPIC_PREFIX,
      // null: the browser uses the embedded broker at same-origin /mqtt (ws: or wss: as the page).
      mqttUrl: options.config.MQTT_WS_URL ?? null,
      mqttKeepaliveSeconds: options.config.MQTT_KEEPALIVE_SECONDS,
    }),
  );

  // Behind sign-in and the calls permission, unlike /runtime: minted TURN credentials are per user,
  // and a TURN relay is not for anonymous visitors.
  api.get(
    ICE_SERVERS_PATH.replace('/api/v1/globalConfigs', ''),
    {
      config: { permission: CALL_PERMISSION },
      schema: {
        tags: ['configs'],
        summary: "The STUN/TURN servers for the signed-in user's video calls (ICE_SERVERS)",
        response: { 200: iceServersResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ data: iceServersFor(options.config, request.user.id) }),
  );
}
