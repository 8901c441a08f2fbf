import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type PermissionMap } from '../../contracts/permissions';
import { findRoute, type RouteAction } from '../../contracts/routes';
import type { SessionGate, TokenService, TokenUser } from '../lib/auth-types';
import { HttpError } from '../lib/http-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open to anyone. Every other route needs a valid access token: secure by default. */
    public?: boolean;
    /** The manifest route and action this API serves; checked against the user's effective permissions. */
    permission?: { route: string; action: RouteAction };
  }
  interface FastifyRequest {
    /** The verified bearer of the access token; set on every non-public route. */
    user: TokenUser;
    /** Effective permissions, loaded once per request when a route or handler needs them. */
    permissions(): Promise<PermissionMap>;
  }
  interface FastifyInstance {
    tokens: TokenService;
    /** Which sessions are live; code that ends sessions tells it (server/modules/auth/sessions.ts). */
    sessions: SessionGate;
    /** Every API route that declares a permission, for the agreement test and the docs. */
    guardedRoutes: { method: string; url: string; route: string; action: RouteAction }[];
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export interface AuthPluginOptions {
  tokens: TokenService;
  sessions: SessionGate;
  /** The user's effective permissions (server/modules/permissions), read once per request that asks. */
  permissionsOf(user: TokenUser): Promise<PermissionMap>;
}

/**
 * Authentication and authorisation for every API route. The sidebar only mirrors these rules: a
 * route that declares `config.permission` answers 403 to anyone whose effective permissions lack it.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthPluginOptions) => {
    app.decorate('tokens', options.tokens);
    app.decorate('sessions', options.sessions);
    app.addHook('onClose', async () => options.sessions.close());
    app.decorate('guardedRoutes', []);
    app.decorateRequest('user', null as unknown as TokenUser);
    app.decorateRequest('permissions', async () => ({}));

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const permission = route.config?.permission;
      if (permission && !findRoute(permission.route)?.actions.includes(permission.action)) {
        throw new Error(
          `${route.method} ${route.url}: unknown permission ${permission.route}#${permission.action}`,
        );
      }
      if (permission) {
        // HEAD twins of GET routes share the GET's hook; listing them once is enough.
        for (const method of [route.method].flat().filter((m) => m !== 'HEAD')) {
          app.guardedRoutes.push({ method, url: route.url, ...permission });
        }
      }
    });

    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      // Non-API requests (the SPA and its assets), the API docs and public routes need no token.
      const url = request.routeOptions.url ?? '';
      if (!url.startsWith('/api/') || url.startsWith('/api/docs') || config.public) return;

      const token = bearerToken(request);
      if (!token) throw new HttpError(401, 'Access token is missing', 'TOKEN_MISSING');
      request.user = await app.tokens.verify(token);

      let cached: Promise<PermissionMap> | undefined;
      request.permissions = () => {
        cached ??= options.permissionsOf(request.user);
        return cached;
      };

      const permission = config.permission;
      if (permission && !can(await request.permissions(), permission.route, permission.action)) {
        const name = findRoute(permission.route)?.name ?? permission.route;
        throw new HttpError(403, `You do not have permission to ${permission.action} ${name}.`, 'FORBIDDEN');
      }
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
