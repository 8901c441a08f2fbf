// Effective permissions, kept per instance. Reading them costs three statements (the useDefaults
// setting, the role's and the user's rows) that would otherwise run before every request's own query.
//
// Every write that can change them (role or user permissions, the useDefaults setting, a user's role,
// a deleted user) fires a trigger that sends `pg_notify` (migration 0021): delivered at commit to every
// instance listening on the same PostgreSQL, in-process on PGlite. An instance that hears it, or that
// may have missed notifications (its listening connection was lost), forgets everything: permission
// edits are rare, and a full reload is a few statements per signed-in user.
import type { PermissionMap } from '../../../contracts/permissions';
import type { Database } from '../../db/client';
import type { TokenUser } from '../../lib/auth-types';
import { effectivePermissions } from './service';

export const PERMISSIONS_CHANGED_CHANNEL = 'mp_permissions_changed';
const MAX_CACHED_USERS = 20_000;

export interface PermissionCache {
  /** The user's effective permissions, from memory when this instance knows them. */
  permissionsOf(user: Pick<TokenUser, 'id' | 'role'>): Promise<PermissionMap>;
  /**
   * Forgets everything this instance knows. Code that changed permissions calls it once its write has
   * committed, so this instance's next request sees the change without waiting for the notification.
   */
  forget(): void;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    permissionCache: PermissionCache;
  }
}

export async function createPermissionCache(
  database: Pick<Database, 'db' | 'listen'>,
  options: { maxUsers?: number } = {},
): Promise<PermissionCache> {
  const maxUsers = options.maxUsers ?? MAX_CACHED_USERS;
  // Keyed by user and role: the role comes from the access token, and the role's rows are part of it.
  const cache = new Map<string, PermissionMap>();
  const inFlight = new Map<string, Promise<PermissionMap>>();
  // Bumped by every forget: a read that a change overtook is answered but not kept.
  let generation = 0;

  const forget = () => {
    generation++;
    cache.clear();
    inFlight.clear();
  };
  const stopListening = await database.listen(PERMISSIONS_CHANGED_CHANNEL, forget, forget);

  return {
    permissionsOf(user) {
      const key = `${user.id}:${user.role}`;
      const cached = cache.get(key);
      if (cached) return Promise.resolve(cached);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const startedAt = generation;
      const read = effectivePermissions(database.db, user)
        .then((permissions) => {
          if (generation === startedAt) {
            if (cache.size >= maxUsers) {
              const oldest = cache.keys().next().value;
              if (oldest !== undefined) cache.delete(oldest);
            }
            cache.set(key, permissions);
          }
          return permissions;
        })
        .finally(() => {
          if (inFlight.get(key) === read) inFlight.delete(key);
        });
      inFlight.set(key, read);
      return read;
    },
    forget,
    close: stopListening,
  };
}
