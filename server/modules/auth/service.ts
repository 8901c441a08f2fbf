import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { RESET_LINK_INVALID_MESSAGE, type Session } from '../../../contracts/auth';
import type { Db, Tx } from '../../db/client';
import { knownDevices, passwordResets, refreshTokens, userSessions, users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { hashPassword, verifyDecoy, verifyPassword } from '../../lib/passwords';
import { hashToken, randomToken } from '../../lib/secrets';
import { loadCurrentUser } from '../users/current-user';
import { revokeSessions, type SessionGate, startSession } from './sessions';
import type { TokenService } from './tokens';

export const RESET_TOKEN_TTL_MS = 30 * 60_000;
/**
 * A refresh token replaced this recently may be presented again without ending the session: two tabs
 * (or a retried request) refreshing with the same cookie at once is legitimate. Later, a replayed token
 * means it leaked, and the whole session ends.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  sessions: SessionGate;
  refreshTtlSeconds: number;
}

export interface IssuedSession {
  session: Session;
  refreshToken: string;
  userId: string;
}

async function issueSession(deps: AuthDeps, userId: string, sessionId: string): Promise<IssuedSession> {
  const user = await loadCurrentUser(deps.db, userId);
  const refreshToken = randomToken();
  await deps.db.insert(refreshTokens).values({
    userId,
    familyId: sessionId,
    tokenHash: hashToken(refreshToken),
    expiresAt: new Date(Date.now() + deps.refreshTtlSeconds * 1000),
  });
  const accessToken = await deps.tokens.sign({
    id: user.id,
    role: user.roles[0] ?? 'Seller',
    sellerId: user.seller?.sellerId ?? null,
    sessionId,
  });
  return { session: { accessToken, expiresIn: deps.tokens.ttlSeconds, user }, refreshToken, userId };
}

/**
 * Checks the password and starts a session. How often anyone may try is decided before this, by the
 * sign-in limits (sign-in-limits.ts); an unknown e-mail costs the same time as a wrong password.
 */
export async function signIn(deps: AuthDeps, email: string, password: string): Promise<IssuedSession> {
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyDecoy(password);
  if (!user || !valid) throw new HttpError(401, 'Invalid e-mail or password', 'INVALID_CREDENTIALS');
  if (!user.isActive) throw new HttpError(403, 'This account has been deactivated', 'ACCOUNT_INACTIVE');
  return issueSession(deps, user.id, await startSession(deps.db, user.id));
}

const sessionExpired = () =>
  new HttpError(401, 'Your session has expired. Please sign in again.', 'SESSION_EXPIRED');

/**
 * Rotates the refresh token. The old one is marked replaced in the same statement that checks it was
 * live, so two requests racing with one token cannot both rotate it; the loser is let through within
 * the grace window (it gets a token of its own in the same session). A replaced token presented after
 * the window means it was stolen or replayed: the whole session ends.
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
    .select({
      userId: refreshTokens.userId,
      familyId: refreshTokens.familyId,
      replacedAt: refreshTokens.replacedAt,
      revokedAt: refreshTokens.revokedAt,
      expiresAt: refreshTokens.expiresAt,
      sessionRevokedAt: userSessions.revokedAt,
      isActive: users.isActive,
    })
    .from(refreshTokens)
    .innerJoin(userSessions, eq(userSessions.id, refreshTokens.familyId))
    .innerJoin(users, eq(users.id, refreshTokens.userId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (!known?.replacedAt || known.revokedAt || known.sessionRevokedAt || known.expiresAt <= now) {
    throw sessionExpired();
  }
  if (now.getTime() - known.replacedAt.getTime() <= REFRESH_REUSE_GRACE_MS && known.isActive) {
    return issueSession(deps, known.userId, known.familyId);
  }
  await revokeSessions(deps.db, { sessionId: known.familyId });
  deps.sessions.forget(known.userId);
  throw new HttpError(
    401,
    'This session was used elsewhere and has been ended. Please sign in again.',
    'REFRESH_REUSED',
  );
}

/** Ends the session of the refresh cookie: its refresh tokens and, at once, its access tokens. */
export async function signOut(deps: Pick<AuthDeps, 'db' | 'sessions'>, presented: string | undefined) {
  if (!presented) return;
  const [row] = await deps.db
    .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  if (!row) return;
  await revokeSessions(deps.db, { sessionId: row.familyId });
  deps.sessions.forget(row.userId);
}

/**
 * Creates a reset token for an active account and returns it (for the mail), or null. The caller
 * answers the same either way, so the endpoint does not reveal which e-mails have accounts. One link a
 * minute. Staff invitations reuse it with a longer `ttlMs`: their set-password link is this same link.
 */
export async function createPasswordReset(
  db: Db | Tx,
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

/** Retires every outstanding reset and invitation link of the user (all, or all but `except`). */
export async function retireResetLinks(db: Db | Tx, userId: string, except?: string): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResets.userId, userId),
        isNull(passwordResets.usedAt),
        except ? ne(passwordResets.id, except) : undefined,
      ),
    );
}

/**
 * Sets the new password, spends the link and retires every other outstanding reset and invitation link
 * of the account, and ends every session of the account (their access tokens at once). Answers the
 * user's id.
 */
export async function resetPassword(
  deps: Pick<AuthDeps, 'db' | 'sessions'>,
  token: string,
  password: string,
): Promise<string> {
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const userId = await deps.db.transaction(async (tx) => {
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
      .returning({ id: passwordResets.id, userId: passwordResets.userId });
    if (!reset) throw new HttpError(400, RESET_LINK_INVALID_MESSAGE, 'RESET_INVALID');
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, reset.userId), eq(users.isActive, true)))
      .returning({ id: users.id });
    // A deactivated account keeps its links unusable: the staff member was let go after the mail went.
    if (!user) throw new HttpError(400, RESET_LINK_INVALID_MESSAGE, 'RESET_INVALID');
    await retireResetLinks(tx, reset.userId, reset.id);
    await revokeSessions(tx, { userId: reset.userId });
    return reset.userId;
  });
  deps.sessions.forget(userId);
  return userId;
}

/** Remembers that this browser (its device cookie) signed in to the account. */
export async function rememberDevice(db: Db, userId: string, deviceToken: string): Promise<void> {
  const now = new Date();
  await db
    .insert(knownDevices)
    .values({ userId, tokenHash: hashToken(deviceToken), lastUsedAt: now })
    .onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.tokenHash], set: { lastUsedAt: now } });
}

/** Whether this browser's device cookie signed in to the account of `email` before. */
export async function isKnownDevice(
  db: Db,
  email: string,
  deviceToken: string | undefined,
): Promise<boolean> {
  if (!deviceToken) return false;
  const [row] = await db
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .innerJoin(users, eq(users.id, knownDevices.userId))
    .where(
      and(
        eq(sql`lower(${users.email})`, email.toLowerCase()),
        eq(knownDevices.tokenHash, hashToken(deviceToken)),
      ),
    );
  return Boolean(row);
}
