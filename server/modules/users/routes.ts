import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema, serverRoleSchema } from '../../../contracts/auth';
import { intParam } from '../../../contracts/int-param';
import {
  type PermissionMap,
  permissionConfigSchema,
  sidebarDataSchema,
  updateRolePermissionsBodySchema,
  updateUserPermissionsBodySchema,
  userListRowSchema,
  userPermissionsSchema,
  userRolesSchema,
} from '../../../contracts/permissions';
import { type ServerRole, serverRoles } from '../../../contracts/roles';
import { routes } from '../../../contracts/routes';
import { users } from '../../db/schema';
import { errorResponses, resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { setSetting } from '../../lib/settings';
import { BLOCKED_SELLER_ROUTE, isBlockedSeller } from '../../plugins/blocked-seller';
import {
  buildMenu,
  can,
  normalisePermissions,
  permissionBreakdown,
  replaceRolePermissions,
  replaceUserOverrides,
  rolePermissionMap,
  USE_DEFAULT_PERMISSIONS,
  usingDefaultPermissions,
} from '../permissions/service';
import { displayName, loadCurrentUser } from './current-user';

const PERMISSIONS_PAGE = '/permission/UserPermission';
const view = { permission: { route: PERMISSIONS_PAGE, action: 'view' as const } };
const edit = { permission: { route: PERMISSIONS_PAGE, action: 'edit' as const } };

const idParams = z.object({ id: z.string().uuid('id must be a user id') });

/** The fields of a listUsersByRole row; `limitFields` picks among them (`id,username`). */
const USER_LIST_FIELDS = ['id', 'username', 'email', 'role'] as const;
const limitFieldsSchema = z
  .string()
  .max(200)
  .transform((text) => text.split(/[\s,]+/).filter(Boolean))
  .pipe(
    z
      .array(z.enum(USER_LIST_FIELDS, 'limitFields names fields among id, username, email and role'))
      .min(1, 'limitFields names fields among id, username, email and role'),
  );

/** An admin must not be able to lock every admin (or themselves) out of the permissions page. */
function assertKeepsPermissionsAccess(map: PermissionMap, who: string) {
  if (!can(map, PERMISSIONS_PAGE, 'view') || !can(map, PERMISSIONS_PAGE, 'edit')) {
    throw new HttpError(
      409,
      `${who} cannot lose access to User Permissions: nobody could give it back.`,
      'LOCKOUT',
    );
  }
}

export async function usersRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/byToken/current',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        response: { 200: currentUserSchema, ...errorResponses(401) },
      },
    },
    (request) =>
      loadCurrentUser(app.db, request.user.id, async () => (await app.settings.effective(null)).localization),
  );

  api.get(
    '/getSidebarData',
    {
      schema: {
        tags: ['users'],
        summary: "The signed-in user's menu and permissions",
        response: { 200: sidebarDataSchema },
      },
    },
    async (request) => {
      let permissions = await request.permissions();
      // A blocked seller's menu (and so the page guard) offers only what the API still serves them.
      if (
        request.user.role === 'Seller' &&
        request.user.sellerId &&
        (await isBlockedSeller(app.db, request.user.sellerId))
      ) {
        const subscription = permissions[BLOCKED_SELLER_ROUTE];
        permissions = subscription ? { [BLOCKED_SELLER_ROUTE]: subscription } : {};
      }
      return {
        menu: buildMenu(permissions),
        permissions,
        usingDefaultPermissions: await usingDefaultPermissions(app.db),
      };
    },
  );

  api.get(
    '/getUserRoles',
    {
      config: view,
      schema: {
        tags: ['permissions'],
        summary: 'Roles and their permissions',
        response: { 200: userRolesSchema, ...errors },
      },
    },
    async () => ({
      rows: await Promise.all(
        serverRoles.map(async (role) => ({ role, permissions: await rolePermissionMap(app.db, role) })),
      ),
    }),
  );

  api.get(
    '/getUserPermissionConfig',
    {
      config: view,
      schema: {
        tags: ['permissions'],
        summary: 'Every route and its possible actions',
        response: { 200: permissionConfigSchema, ...errors },
      },
    },
    async () => ({
      routes: routes.map((route) => ({
        path: route.path,
        name: route.name,
        section: route.section ?? null,
        parents: route.parents ?? [],
        actions: [...route.actions],
        available: route.available,
      })),
    }),
  );

  api.get(
    '/listUsersByRole',
    {
      config: view,
      schema: {
        tags: ['permissions'],
        summary: 'Users, optionally of one role, paged and searchable',
        description:
          '`limitFields` (SPEC §7) names the fields each row carries, comma-separated, of id, username, email and role; `id` always comes. Without it a row has all four.',
        querystring: z.object({
          role: z.optional(serverRoleSchema),
          query: z.string().trim().max(100).optional(),
          limitFields: limitFieldsSchema.optional(),
          skip: intParam.default(0),
          limit: intParam.min(1).max(100).default(20),
        }),
        response: {
          200: z.object({
            rows: z.array(userListRowSchema.partial().required({ id: true })),
            count: z.number(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { role, query, skip, limit, limitFields } = request.query;
      const filters: SQL[] = [];
      if (role) filters.push(eq(users.role, role));
      if (query) {
        const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        filters.push(
          or(
            ilike(users.email, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ) as SQL,
        );
      }
      const where = filters.length ? and(...filters) : undefined;
      const [rows, [total]] = await Promise.all([
        app.db
          .select({
            id: users.id,
            email: users.email,
            firstName: users.firstName,
            lastName: users.lastName,
            role: users.role,
          })
          .from(users)
          .where(where)
          .orderBy(asc(users.email))
          .limit(limit)
          .offset(skip),
        app.db.select({ value: count() }).from(users).where(where),
      ]);
      const fields = new Set(limitFields ?? USER_LIST_FIELDS);
      return {
        rows: rows.map((row) => ({
          id: row.id,
          ...(fields.has('email') && { email: row.email }),
          ...(fields.has('role') && { role: row.role }),
          ...(fields.has('username') && { username: displayName(row.firstName, row.lastName, row.email) }),
        })),
        count: total?.value ?? 0,
      };
    },
  );

  const findUser = async (id: string) => {
    const [user] = await app.db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.id, id));
    if (!user) throw new HttpError(404, 'User not found', 'USER_NOT_FOUND');
    return user;
  };

  api.get(
    '/getUserPermissions',
    {
      config: view,
      schema: {
        tags: ['permissions'],
        summary: "A user's role permissions, overrides and effective permissions",
        querystring: z.object({ userId: z.string().uuid('userId must be a user id') }),
        response: { 200: userPermissionsSchema, ...errors },
      },
    },
    async (request) => {
      return permissionBreakdown(app.db, await findUser(request.query.userId));
    },
  );

  api.post(
    '/updateUserPermissions/:id',
    {
      config: edit,
      schema: {
        tags: ['permissions'],
        summary: "Replace a user's permission overrides",
        params: idParams,
        body: updateUserPermissionsBodySchema,
        response: { 200: userPermissionsSchema, ...errors },
      },
    },
    async (request) => {
      const user = await findUser(request.params.id);
      const overrides = request.body.overrides;
      if (user.id === request.user.id) {
        const roleMap = await rolePermissionMap(app.db, user.role);
        assertKeepsPermissionsAccess(normalisePermissions({ ...roleMap, ...overrides }), 'You');
      }
      await replaceUserOverrides(app.db, user.id, overrides);
      // Committed: this instance's next request must not wait for the notification (cache.ts).
      app.permissionCache.forget();
      return permissionBreakdown(app.db, user);
    },
  );

  api.post(
    '/updateRolePermissions',
    {
      config: edit,
      schema: {
        tags: ['permissions'],
        summary: "Replace a role's permissions",
        body: updateRolePermissionsBodySchema,
        response: {
          200: z.object({ role: serverRoleSchema, permissions: z.record(z.string(), z.array(z.string())) }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { role, permissions } = request.body;
      if (role === 'Admin') assertKeepsPermissionsAccess(normalisePermissions(permissions), 'The Admin role');
      await replaceRolePermissions(app.db, role as ServerRole, permissions);
      app.permissionCache.forget();
      return { role, permissions: await rolePermissionMap(app.db, role) };
    },
  );

  const defaultPermissionsSchema = z.object({ enabled: z.boolean() });
  api.get(
    '/defaultPermissions',
    {
      config: view,
      schema: {
        tags: ['permissions'],
        summary: 'Whether the default permissions override the stored menu',
        response: { 200: defaultPermissionsSchema, ...errors },
      },
    },
    async () => ({ enabled: await usingDefaultPermissions(app.db) }),
  );
  api.put(
    '/defaultPermissions',
    {
      config: edit,
      schema: {
        tags: ['permissions'],
        summary: 'Switch the default-permissions override',
        body: defaultPermissionsSchema,
        response: { 200: defaultPermissionsSchema, ...errors },
      },
    },
    async (request) => {
      await setSetting(app.db, USE_DEFAULT_PERMISSIONS, request.body.enabled);
      app.permissionCache.forget();
      return { enabled: request.body.enabled };
    },
  );
}
