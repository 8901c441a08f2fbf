import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { type Database, openDatabase } from '../../db/client';
import { userPermissions, users } from '../../db/schema';
import { createTestApp, demoEmails, signInAs, type TestApp, testBackends } from '../../test-support';
import { createPermissionCache } from './cache';

const SELLERS = '/sellers/manage-sellers';
const LIST = '/api/v1/sellers/listSellers?isActive=true&skip=0&limit=10';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const listStatus = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: 'GET', url: LIST, headers: bearer(token) })).statusCode;

// Two instances on one database, each with its own cache: on PostgreSQL B has its own pool and
// listening connection, as another server would; PGlite is opened by one process, so B shares it.
describe.each(testBackends)('permissions cached per instance, on %s', (backend) => {
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: Database | null = null;
  let admin: string;
  let staff: { token: string; userId: string };

  const post = (app: FastifyInstance, url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers: bearer(admin) });
  const setStaffOverrides = async (app: FastifyInstance, overrides: Record<string, string[]>) =>
    expect(
      (await post(app, `/api/v1/users/updateUserPermissions/${staff.userId}`, { overrides })).statusCode,
    ).toBe(200);
  const setStaffRole = async (app: FastifyInstance, permissions: Record<string, string[]>) =>
    expect(
      (await post(app, '/api/v1/users/updateRolePermissions', { role: 'Staff', permissions })).statusCode,
    ).toBe(200);
  const setUseDefaults = async (app: FastifyInstance, enabled: boolean) =>
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/v1/users/defaultPermissions',
          payload: { enabled },
          headers: bearer(admin),
        })
      ).statusCode,
    ).toBe(200);
  const eventually = (app: FastifyInstance, status: number) =>
    vi.waitFor(async () => expect(await listStatus(app, staff.token)).toBe(status), {
      timeout: 3000,
      interval: 10,
    });

  beforeAll(async () => {
    a = await createTestApp({ backend });
    bDatabase = a.databaseUrl ? await openDatabase({ databaseUrl: a.databaseUrl, dataDir: a.dataDir }) : null;
    b = await buildApp({ config: a.config, database: bDatabase ?? a.database });
    await b.ready();
    admin = (await signInAs(a.app, demoEmails.Admin)).token;
    staff = await signInAs(a.app, demoEmails.Staff);
  });
  afterAll(async () => {
    await b.close();
    await bDatabase?.close();
    await a.close();
  });

  it('a request right after a change on the same instance uses the new permission: no stale allow', async () => {
    expect(await listStatus(a.app, staff.token)).toBe(200);
    expect(await listStatus(a.app, staff.token)).toBe(200); // now answered from the cache
    await setStaffOverrides(a.app, { [SELLERS]: [] });
    try {
      expect(await listStatus(a.app, staff.token)).toBe(403);
    } finally {
      await setStaffOverrides(a.app, {});
    }
    expect(await listStatus(a.app, staff.token)).toBe(200);
  });

  it("a user's overrides changed on A are enforced by B, which had them cached", async () => {
    expect(await listStatus(b, staff.token)).toBe(200);
    expect(await listStatus(b, staff.token)).toBe(200);
    await setStaffOverrides(a.app, { [SELLERS]: [] });
    try {
      await eventually(b, 403);
    } finally {
      await setStaffOverrides(a.app, {});
    }
    await eventually(b, 200);
  });

  it("a role's permissions changed on A, and the default-permissions switch, reach B", async () => {
    const before = await a.app.inject({
      method: 'GET',
      url: '/api/v1/users/getUserRoles',
      headers: bearer(admin),
    });
    const staffRole = (
      before.json() as { rows?: { role: string; permissions: Record<string, string[]> }[] }
    ).rows?.find((entry) => entry.role === 'Staff')?.permissions;
    expect(staffRole?.[SELLERS]).toContain('view');
    expect(await listStatus(b, staff.token)).toBe(200);

    const { [SELLERS]: _, ...withoutSellers } = staffRole ?? {};
    await setStaffRole(a.app, withoutSellers);
    try {
      await eventually(b, 403);
      // The defaults give Staff the sellers list back, whatever the stored role says.
      await setUseDefaults(a.app, true);
      try {
        await eventually(b, 200);
      } finally {
        await setUseDefaults(a.app, false);
      }
      await eventually(b, 403);
    } finally {
      await setStaffRole(a.app, staffRole ?? {});
    }
    await eventually(b, 200);
  });

  it('writes made outside the routes are heard too: the triggers notify at commit', async () => {
    const db = (bDatabase ?? a.database).db;
    expect(await listStatus(a.app, staff.token)).toBe(200);
    expect(await listStatus(b, staff.token)).toBe(200);
    await db.insert(userPermissions).values({ userId: staff.userId, route: SELLERS, actions: [] });
    try {
      await eventually(a.app, 403);
      await eventually(b, 403);
    } finally {
      await db.delete(userPermissions).where(eq(userPermissions.userId, staff.userId));
    }
    await eventually(a.app, 200);
    await eventually(b, 200);
  });
});

describe('the permission cache', () => {
  let database: Database;
  let adminId: string;
  beforeAll(async () => {
    const t = await createTestApp();
    database = t.database;
    adminId = (await signInAs(t.app, demoEmails.Admin)).userId;
    return () => t.close();
  });

  it('reads a user’s permissions once, until a change in the database makes every instance forget', async () => {
    const cache = await createPermissionCache(database);
    try {
      const select = vi.spyOn(database.db, 'select');
      const user = { id: adminId, role: 'Admin' as const };
      const first = await cache.permissionsOf(user);
      const reads = select.mock.calls.length;
      expect(reads).toBeGreaterThan(0);
      expect(await cache.permissionsOf(user)).toEqual(first);
      expect(await cache.permissionsOf(user)).toEqual(first);
      expect(select.mock.calls.length).toBe(reads);

      // A role change (even one made by hand in SQL) is a permissions change.
      await database.db.update(users).set({ role: 'Admin' }).where(eq(users.id, adminId));
      await cache.permissionsOf(user);
      expect(select.mock.calls.length).toBeGreaterThan(reads);
      select.mockRestore();
    } finally {
      await cache.close();
    }
  });

  it('does not keep a read that a change overtook', async () => {
    const cache = await createPermissionCache(database);
    try {
      const user = { id: adminId, role: 'Admin' as const };
      const pending = cache.permissionsOf(user);
      cache.forget();
      await pending;
      const select = vi.spyOn(database.db, 'select');
      await cache.permissionsOf(user);
      expect(select).toHaveBeenCalled();
      select.mockRestore();
    } finally {
      await cache.close();
    }
  });

  it('a notification on the channel empties it (what another instance sends)', async () => {
    const cache = await createPermissionCache(database);
    try {
      const user = { id: adminId, role: 'Admin' as const };
      await cache.permissionsOf(user);
      await database.db.execute(sql`select pg_notify('mp_permissions_changed', 'test')`);
      const select = vi.spyOn(database.db, 'select');
      await cache.permissionsOf(user);
      expect(select).toHaveBeenCalled();
      select.mockRestore();
    } finally {
      await cache.close();
    }
  });
});
