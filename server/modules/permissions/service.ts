import { eq } from 'drizzle-orm';
import { can, type PermissionMap, type SidebarItem } from '../../../contracts/permissions';
import type { ServerRole } from '../../../contracts/roles';
import { serverRoles } from '../../../contracts/roles';
import { findRoute, isMenuItem, routes } from '../../../contracts/routes';
import type { Db } from '../../db/client';
import { rolePermissions, userPermissions } from '../../db/schema';
import { getSetting } from '../../lib/settings';

/** When true, every user gets the manifest's role defaults and stored edits are ignored (SPEC §6). */
export const USE_DEFAULT_PERMISSIONS = 'permissions.useDefaults';

export function defaultPermissions(role: ServerRole): PermissionMap {
  const map: PermissionMap = {};
  for (const route of routes) {
    const actions = route.defaults[role];
    if (actions?.length) map[route.path] = [...actions];
  }
  return map;
}

/** Keeps only actions the manifest knows for each route, in manifest order, and drops empty routes. */
export function normalisePermissions(map: PermissionMap): PermissionMap {
  const clean: PermissionMap = {};
  for (const route of routes) {
    const wanted = map[route.path];
    if (!wanted) continue;
    const actions = route.actions.filter((action) => wanted.includes(action));
    if (actions.length) clean[route.path] = actions;
  }
  return clean;
}

export async function usingDefaultPermissions(db: Db): Promise<boolean> {
  return (await getSetting<boolean>(db, USE_DEFAULT_PERMISSIONS)) === true;
}

export async function rolePermissionMap(db: Db, role: ServerRole): Promise<PermissionMap> {
  const rows = await db.select().from(rolePermissions).where(eq(rolePermissions.role, role));
  return normalisePermissions(Object.fromEntries(rows.map((row) => [row.route, row.actions])));
}

export async function userOverrideMap(db: Db, userId: string): Promise<PermissionMap> {
  const rows = await db.select().from(userPermissions).where(eq(userPermissions.userId, userId));
  // An override with no actions is meaningful (it removes the route), so keep empty arrays here.
  return Object.fromEntries(rows.map((row) => [row.route, row.actions]));
}

/** The permissions the server enforces and the sidebar mirrors: the role's, replaced route by route by overrides. */
export async function effectivePermissions(
  db: Db,
  user: { id: string; role: ServerRole },
): Promise<PermissionMap> {
  if (await usingDefaultPermissions(db)) return defaultPermissions(user.role);
  const [roleMap, overrides] = await Promise.all([
    rolePermissionMap(db, user.role),
    userOverrideMap(db, user.id),
  ]);
  return normalisePermissions({ ...roleMap, ...overrides });
}

/** For the permissions editor: the role's map, the user's overrides and the result, from one read of each. */
export async function permissionBreakdown(db: Db, user: { id: string; role: ServerRole }) {
  const [useDefaults, rolePermissions, overrides] = await Promise.all([
    usingDefaultPermissions(db),
    rolePermissionMap(db, user.role),
    userOverrideMap(db, user.id),
  ]);
  const effective = useDefaults
    ? defaultPermissions(user.role)
    : normalisePermissions({ ...rolePermissions, ...overrides });
  return { userId: user.id, role: user.role, rolePermissions, overrides, effective };
}

export { can } from '../../../contracts/permissions';

const sectionValue = (section: string) => `/${section.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** The sidebar: available routes the user may view, in manifest order, grouped by section. */
export function buildMenu(permissions: PermissionMap): SidebarItem[] {
  const menu: SidebarItem[] = [];
  const sections = new Map<string, SidebarItem>();
  for (const route of routes) {
    if (!isMenuItem(route) || !can(permissions, route.path, 'view')) continue;
    const item: SidebarItem = {
      name: route.name,
      value: route.path,
      child: [],
      routeActions: permissions[route.path] ?? [],
    };
    if (!route.section) {
      menu.push(item);
      continue;
    }
    let section = sections.get(route.section);
    if (!section) {
      section = { name: route.section, value: sectionValue(route.section), child: [], routeActions: [] };
      sections.set(route.section, section);
      menu.push(section);
    }
    section.child.push(item);
  }
  return menu;
}

/**
 * Gives every role its manifest defaults for routes it has no stored row for. Runs at every start, so a
 * route added by a later release reaches existing installations without touching edited permissions.
 */
export async function syncRolePermissions(db: Db): Promise<void> {
  const rows = serverRoles.flatMap((role) =>
    routes.map((route) => ({ role, route: route.path, actions: [...(route.defaults[role] ?? [])] })),
  );
  await db.insert(rolePermissions).values(rows).onConflictDoNothing();
}

export async function replaceRolePermissions(db: Db, role: ServerRole, map: PermissionMap): Promise<void> {
  const clean = normalisePermissions(map);
  await db.transaction(async (tx) => {
    for (const route of routes) {
      const actions = clean[route.path] ?? [];
      await tx
        .insert(rolePermissions)
        .values({ role, route: route.path, actions })
        .onConflictDoUpdate({ target: [rolePermissions.role, rolePermissions.route], set: { actions } });
    }
  });
}

/** Replaces all of a user's overrides; routes not named inherit the role again. */
export async function replaceUserOverrides(db: Db, userId: string, overrides: PermissionMap): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(userPermissions).where(eq(userPermissions.userId, userId));
    for (const [path, actions] of Object.entries(overrides)) {
      const route = findRoute(path);
      if (!route) continue;
      await tx
        .insert(userPermissions)
        .values({ userId, route: path, actions: actions.filter((a) => route.actions.includes(a)) });
    }
  });
}
