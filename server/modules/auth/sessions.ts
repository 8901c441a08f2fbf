// Sessions that really end. Every access token names its session (`sid`); a session ends when its
// user signs out, is deactivated, resets the password, or replays a spent refresh token. Access tokens
// live 15 minutes, so ending a session must also stop the ones already handed out.
//
// Checking the database on every request would cost a query per request, so each instance keeps the
// answer per session in memory, and a revocation tells every instance to forget what it knew of that
// user: `pg_notify` in the revoking transaction is delivered at commit to every instance listening on
// the same database (PostgreSQL), or in-process (PGlite, which only one process can open). The cached
// answer also expires after `ttlMs`, a backstop should a notification ever be lost.
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/client';
import { refreshTokens, userSessions, users } from '../../db/schema';
import type { RevocationListener, SessionGate } from '../../lib/auth-types';

export type { RevocationListener, SessionGate } from '../../lib/auth-types';

export const SESSION_REVOKED_CHANNEL = 'mp_session_revoked';
export const SESSION_CACHE_TTL_MS = 60_000;
const MAX_CACHED_SESSIONS = 50_000;

/** A user's sessions (but `exceptSessionId`, the one changing its password), or one session. */
export type RevocationTarget = { userId: string; exceptSessionId?: string } | { sessionId: string };

/**
 * Ends the target's live sessions and their refresh tokens, inside `db` (a transaction or not), and
 * tells every instance once it commits. Answers the users whose sessions ended.
 */
export async function revokeSessions(db: Db | Tx, target: RevocationTarget): Promise<string[]> {
  const now = new Date();
  const ended = await db
    .update(userSessions)
    .set({ revokedAt: now })
    .where(
      and(
        'userId' in target ? eq(userSessions.userId, target.userId) : eq(userSessions.id, target.sessionId),
        'userId' in target && target.exceptSessionId
          ? ne(userSessions.id, target.exceptSessionId)
          : undefined,
        isNull(userSessions.revokedAt),
      ),
    )
    .returning({ id: userSessions.id, userId: userSessions.userId });
  if (ended.length === 0) return [];
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        inArray(
          refreshTokens.familyId,
          ended.map((session) => session.id),
        ),
        isNull(refreshTokens.revokedAt),
      ),
    );
  const userIds = [...new Set(ended.map((session) => session.userId))];
  for (const userId of userIds)
    await db.execute(sql`select pg_notify(${SESSION_REVOKED_CHANNEL}, ${userId})`);
  return userIds;
}

/** Starts a session for a signed-in user; its id is the access tokens' `sid` and the refresh family. */
export async function startSession(db: Db, userId: string): Promise<string> {
  const [session] = await db.insert(userSessions).values({ userId }).returning({ id: userSessions.id });
  if (!session) throw new Error('the session was not stored');
  return session.id;
}

/** Whether the session is live in the database: not revoked, and its user still active. */
async function readSessionLive(db: Db, sessionId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ revokedAt: userSessions.revokedAt, isActive: users.isActive })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId)));
  return Boolean(row && !row.revokedAt && row.isActive);
}

interface CachedSession {
  userId: string;
  live: boolean;
  checkedAt: number;
}

export async function createSessionGate(
  database: Pick<Database, 'db' | 'listen'>,
  options: { ttlMs?: number; now?: () => number } = {},
): Promise<SessionGate> {
  const ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedSession>();
  const inFlight = new Map<string, Promise<boolean>>();
  const listeners = new Set<RevocationListener>();
  // Bumped by every forget: a database read that an invalidation overtook is not cached.
  let generation = 0;

  const tell = (userId: string | null) => {
    for (const listener of listeners) listener(userId);
  };
  const forgetUser = (userId: string) => {
    generation++;
    for (const [sessionId, entry] of cache) if (entry.userId === userId) cache.delete(sessionId);
    tell(userId);
  };
  const forgetAll = () => {
    generation++;
    cache.clear();
    tell(null);
  };

  const stopListening = await database.listen(
    SESSION_REVOKED_CHANNEL,
    (userId) => forgetUser(userId),
    forgetAll,
  );

  return {
    async isLive(sessionId, userId) {
      const cached = cache.get(sessionId);
      if (cached && cached.userId === userId && now() - cached.checkedAt < ttlMs) return cached.live;
      const key = `${sessionId}:${userId}`;
      const pending = inFlight.get(key);
      if (pending) return pending;
      const startedAt = generation;
      const read = readSessionLive(database.db, sessionId, userId)
        .then((live) => {
          if (generation === startedAt) {
            if (cache.size >= MAX_CACHED_SESSIONS) {
              const oldest = cache.keys().next().value;
              if (oldest !== undefined) cache.delete(oldest);
            }
            cache.delete(sessionId); // re-inserted last: the map's order is the eviction order
            cache.set(sessionId, { userId, live, checkedAt: now() });
          }
          return live;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, read);
      return read;
    },
    forget: forgetUser,
    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await stopListening();
    },
  };
}
