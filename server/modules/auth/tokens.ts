import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../db/client';
import type { SessionGate, TokenService, VerifiedTokenUser } from '../../lib/auth-types';
import { HttpError } from '../../lib/http-error';
import { getOrCreateSetting } from '../../lib/settings';

export type { TokenService, TokenUser, VerifiedTokenUser } from '../../lib/auth-types';

const ISSUER = 'marketplace-backoffice';
const AUDIENCE = 'marketplace-backoffice-api';
/** RFC 9068 access-token type: a refresh or reset token can never pass for an access token. */
const TYPE = 'at+jwt';
const ALGORITHM = 'HS256';
const MAX_CACHED_TOKENS = 20_000;

/**
 * The HS256 key of access tokens: JWT_SECRET, or the generated one kept in the database. Other signed
 * tokens of the server (voice tokens, call tickets) use it too, each with its own `typ` and audience.
 */
export async function jwtSigningKey(db: Db, secret?: string): Promise<Uint8Array> {
  const secretText =
    secret ?? (await getOrCreateSetting(db, 'auth.jwtSecret', () => randomBytes(48).toString('base64url')));
  return new TextEncoder().encode(secretText);
}

/**
 * The signing key is JWT_SECRET when set; otherwise one is generated on first start and kept in the
 * database, so restarts and every instance sharing the database accept the same tokens.
 */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

export async function createTokenService(
  db: Db,
  options: {
    secret?: string;
    ttlSeconds: number;
    /** Whether a token's session is still live: a revoked session's tokens stop at once. */
    sessions: Pick<SessionGate, 'isLive'> & Partial<Pick<SessionGate, 'onRevoked'>>;
    /** Verified tokens kept in memory; the oldest go first. */
    maxCachedTokens?: number;
    now?: () => number;
  },
): Promise<TokenService> {
  const key = await jwtSigningKey(db, options.secret);
  const now = options.now ?? Date.now;
  const maxCached = options.maxCachedTokens ?? MAX_CACHED_TOKENS;
  // A token's signature and claims are checked once: every later request with the same token string
  // reads its claims from here. An entry never outlives the token's `exp` (checked on every hit, as
  // jose does), and the session check below still runs on every request; an ended session also drops
  // its user's entries on every instance (the session gate hears the revocation through pg_notify).
  const verified = new Map<string, VerifiedTokenUser>();
  options.sessions.onRevoked?.((userId) => {
    if (userId === null) verified.clear();
    else for (const [token, user] of verified) if (user.id === userId) verified.delete(token);
  });

  const verifySignature = async (token: string): Promise<VerifiedTokenUser> => {
    const cached = verified.get(token);
    if (cached) {
      // jose's rule: expired once `exp` (whole seconds) is at or before now.
      if (cached.expiresAt / 1000 > Math.floor(now() / 1000)) return { ...cached };
      verified.delete(token);
      throw new HttpError(401, 'Access token expired', 'TOKEN_EXPIRED');
    }
    const user = await verifyWithJose(token);
    if (verified.size >= maxCached) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, user);
    return user;
  };

  const verifyWithJose = async (token: string): Promise<VerifiedTokenUser> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        typ: TYPE,
        // Only HS256: `alg: none` and algorithm-confusion tokens fail here.
        algorithms: [ALGORITHM],
        requiredClaims: ['sub', 'exp', 'iat', 'sid'],
        currentDate: new Date(now()),
      });
      const { role, sid } = payload;
      if (
        typeof payload.sub !== 'string' ||
        typeof sid !== 'string' ||
        (role !== 'Admin' && role !== 'Staff' && role !== 'Seller')
      ) {
        throw new HttpError(401, 'Invalid access token', 'TOKEN_INVALID');
      }
      const sellerId = typeof payload.sellerId === 'string' ? payload.sellerId : null;
      // requiredClaims guarantees `exp`; it is in seconds.
      return { id: payload.sub, role, sellerId, sessionId: sid, expiresAt: (payload.exp as number) * 1000 };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof errors.JWTExpired)
        throw new HttpError(401, 'Access token expired', 'TOKEN_EXPIRED');
      throw new HttpError(401, 'Invalid access token', 'TOKEN_INVALID');
    }
  };

  return {
    ttlSeconds: options.ttlSeconds,
    sign: (user) =>
      new SignJWT({ role: user.role, sellerId: user.sellerId, sid: user.sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: TYPE })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(key),
    async verify(token) {
      const user = await verifySignature(token);
      // A well-formed token of a session that ended (signed out, deactivated, password reset) is refused.
      if (!(await options.sessions.isLive(user.sessionId, user.id))) {
        throw new HttpError(401, SESSION_ENDED_MESSAGE, 'SESSION_ENDED');
      }
      return user;
    },
  };
}
