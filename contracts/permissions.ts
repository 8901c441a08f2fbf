import { z } from 'zod';
import { serverRoleSchema } from './auth';
import { type RouteAction, routeActions } from './routes';

export const routeActionSchema = z.enum(routeActions);

/** A sidebar item (SPEC §3): a route with its allowed actions, or a section with children. */
export interface SidebarItem {
  name: string;
  value: string;
  child: SidebarItem[];
  routeActions: z.infer<typeof routeActionSchema>[];
}
export const sidebarItemSchema: z.ZodType<SidebarItem> = z.lazy(() =>
  z.object({
    name: z.string(),
    value: z.string(),
    child: z.array(sidebarItemSchema),
    routeActions: z.array(routeActionSchema),
  }),
);

/** route path → allowed actions. Only routes with at least one action appear. */
export const permissionMapSchema = z.record(z.string(), z.array(routeActionSchema));
export type PermissionMap = z.infer<typeof permissionMapSchema>;

/** Whether a permission map allows an action on a route (the server's guard and its handlers ask it). */
export function can(permissions: PermissionMap, route: string, action: RouteAction): boolean {
  return permissions[route]?.includes(action) ?? false;
}

/** GET /api/v1/users/getSidebarData: the signed-in user's menu and effective permissions. */
export const sidebarDataSchema = z.object({
  menu: z.array(sidebarItemSchema),
  permissions: permissionMapSchema,
  /** True when the default-permissions setting overrides the stored menu (SPEC §6). */
  usingDefaultPermissions: z.boolean(),
});
export type SidebarData = z.infer<typeof sidebarDataSchema>;

/** GET /api/v1/users/getUserPermissionConfig: every route and its possible actions, for the editor. */
export const permissionConfigSchema = z.object({
  routes: z.array(
    z.object({
      path: z.string(),
      name: z.string(),
      section: z.string().nullable(),
      parents: z.array(z.string()),
      actions: z.array(routeActionSchema),
      available: z.boolean(),
    }),
  ),
});

export const userRolesSchema = z.object({
  rows: z.array(z.object({ role: serverRoleSchema, permissions: permissionMapSchema })),
});

/** GET /api/v1/users/getUserPermissions?userId=: the role's defaults, the user's overrides, the result. */
export const userPermissionsSchema = z.object({
  userId: z.string(),
  role: serverRoleSchema,
  rolePermissions: permissionMapSchema,
  overrides: permissionMapSchema,
  effective: permissionMapSchema,
});

/** POST /api/v1/users/updateUserPermissions/{id}: overrides replace the role's actions per route. */
export const updateUserPermissionsBodySchema = z.object({ overrides: permissionMapSchema });
export const updateRolePermissionsBodySchema = z.object({
  role: serverRoleSchema,
  permissions: permissionMapSchema,
});

export const userListRowSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: serverRoleSchema,
});
