import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Session } from '../../../contracts/auth';
import type { Db } from '../../db/client';
import { passwordResets, refreshTokens, signInThrottle, users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { hashPassword, verifyDecoy, verifyPassword } from '../../lib/passwords';
import { hashToken, randomToken } from '../../lib/secrets';
import { loadCurrentUser } from '../users/current-user';
import type { TokenService } from './tokens';

/** Five wrong passwords within fifteen minutes lock the account's sign-in for fifteen minutes. */
export const MAX_FAILURES = 5;
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
export const RESET_TOKEN_TTL_MS = 30 * 60_000;

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  refreshTtlSeconds: number;
}

export interface IssuedSession {
  session: Session;
  refreshToken: string;
}

async function assertNotLocked(db: Db, key: string, now: Date): Promise<void> {
  const [row] = await db.select().from(signInThrottle).where(eq(signInThrottle.key, key));
  if (row?.lockedUntil && row.lockedUntil > now) {
    const minutes = Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 60_000);
    throw new HttpError(
      429,
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      'TOO_MANY_ATTEMPTS',
    );
  }
}

/** Counts a failure atomically (one statement), so parallel guesses cannot slip past the limit. */
async function recordFailure(db: Db, key: string, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const lockUntil = new Date(now.getTime() + LOCK_MS);
  await db
    .insert(signInThrottle)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        failures: sql`case when ${signInThrottle.windowStartedAt} < ${windowStart} then 1 else ${signInThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${signInThrottle.windowStartedAt} < ${windowStart} then ${now} else ${signInThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${signInThrottle.windowStartedAt} >= ${windowStart} and ${signInThrottle.failures} + 1 >= ${MAX_FAILURES} then ${lockUntil}::timestamptz else null end`,
      },
    });
}

async function issueSession(
  deps: AuthDeps,
  userId: string,
  familyId: string = randomUUID(),
): Promise<IssuedSession> {
  const user = await loadCurrentUser(deps.db, userId);
  const refreshToken = randomToken();
  await deps.db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: hashToken(refreshToken),
    expiresAt: new Date(Date.now() + deps.refreshTtlSeconds * 1000),
  });
  const accessToken = await deps.tokens.sign({
    id: user.id,
    role: user.roles[0] ?? 'Seller',
    sellerId: user.seller?.sellerId ?? null,
  });
  return { session: { accessToken, expiresIn: deps.tokens.ttlSeconds, user }, refreshToken };
}

export async function signIn(deps: AuthDeps, email: string, password: string): Promise<IssuedSession> {
  const now = new Date();
  const key = email.toLowerCase();
  await assertNotLocked(deps.db, key, now);
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(eq(sql`lower(${users.email})`, key));
  const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyDecoy(password);
  if (!user || !valid) {
    await recordFailure(deps.db, key, now);
    throw new HttpError(401, 'Invalid e-mail or password', 'INVALID_CREDENTIALS');
  }
  await deps.db.delete(signInThrottle).where(eq(signInThrottle.key, key));
  if (!user.isActive) throw new HttpError(403, 'This account has been deactivated', 'ACCOUNT_INACTIVE');
  return issueSession(deps, user.id);
}

const sessionExpired = () =>
  new HttpError(401, 'Your session has expired. Please sign in again.', 'SESSION_EXPIRED');

/**
 * Rotates the refresh token. The old one is marked replaced in the same statement that checks it was
 * live, so two requests racing with one token cannot both win; a replaced token presented again means
 * it was stolen or replayed, and the whole family is revoked.
 */
export async function refresh(deps: AuthDeps, presented: string | undefined): Promise<IssuedSession> {
  if (!presented) throw sessionExpired();
  const tokenHash = hashToken(presented);
  const now = new Date();
  const [claimed] = await deps.db
    .update(refreshTokens)
    .set({ replacedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.replacedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (claimed) return issueSession(deps, claimed.userId, claimed.familyId);

  const [known] = await deps.db
    .select({ familyId: refreshTokens.familyId, replacedAt: refreshTokens.replacedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (known?.replacedAt) {
    await revokeFamily(deps.db, known.familyId);
    throw new HttpError(
      401,
      'This session was used elsewhere and has been ended. Please sign in again.',
      'REFRESH_REUSED',
    );
  }
  throw sessionExpired();
}

async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function signOut(db: Db, presented: string | undefined): Promise<void> {
  if (!presented) return;
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  if (row) await revokeFamily(db, row.familyId);
}

/**
 * Creates a reset token for an active account and returns it (for the mail), or null. The caller answers
 * the same either way, so the endpoint does not reveal which e-mails have accounts. One link a minute.
 * Staff invitations reuse it with a longer `ttlMs`: their set-password link is this same reset link.
 */
export async function createPasswordReset(
  db: Db,
  email: string,
  ttlMs: number = RESET_TOKEN_TTL_MS,
): Promise<{ token: string; name: string } | null> {
  const [user] = await db
    .select({ id: users.id, firstName: users.firstName, isActive: users.isActive })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (!user?.isActive) return null;
  const recent = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(
      and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(Date.now() - 60_000))),
    );
  if (recent.length) return null;
  const token = randomToken();
  await db.insert(passwordResets).values({
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return { token, name: user.firstName };
}

/** Sets the new password, spends the link, ends every session of the account and lifts a sign-in lock. */
export async function resetPassword(db: Db, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const now = new Date();
  await db.transaction(async (tx) => {
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResets.tokenHash, hashToken(token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResets.userId });
    if (!reset)
      throw new HttpError(
        400,
        'This reset link is invalid or has expired. Request a new one.',
        'RESET_INVALID',
      );
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, reset.userId))
      .returning({ email: users.email });
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, reset.userId), isNull(refreshTokens.revokedAt)));
    if (user) await tx.delete(signInThrottle).where(eq(signInThrottle.key, user.email.toLowerCase()));
  });
}
