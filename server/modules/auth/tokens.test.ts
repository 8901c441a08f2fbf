import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client';
import type { RevocationListener, TokenUser } from '../../lib/auth-types';
import { createTokenService } from './tokens';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256-0123456789';
const TTL = 60;
const user: TokenUser = { id: 'u-1', role: 'Staff', sellerId: null, sessionId: 's-1' };

/** A token service over a fake session gate whose liveness and clock the test controls. */
async function service(options: { maxCachedTokens?: number } = {}) {
  let now = Date.now();
  const live = new Set(['s-1', 's-2', 's-3']);
  const listeners = new Set<RevocationListener>();
  const tokens = await createTokenService(undefined as unknown as Db, {
    secret: SECRET,
    ttlSeconds: TTL,
    now: () => now,
    maxCachedTokens: options.maxCachedTokens,
    sessions: {
      isLive: async (sessionId) => live.has(sessionId),
      onRevoked: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  });
  return {
    tokens,
    advance: (ms: number) => {
      now += ms;
    },
    revoke(sessionId: string, userId: string) {
      live.delete(sessionId);
      for (const listener of listeners) listener(userId);
    },
  };
}

/** Counts the HMAC computations jose makes through WebCrypto: none for a token verified before. */
function hmacCalls() {
  const sign = vi.spyOn(crypto.subtle, 'sign');
  const verify = vi.spyOn(crypto.subtle, 'verify');
  return () => sign.mock.calls.length + verify.mock.calls.length;
}

const forge = (claims: Record<string, unknown>, header: { alg: string; typ?: string }, key = SECRET) =>
  new SignJWT({ role: 'Staff', sellerId: null, sid: 's-1', ...claims })
    .setProtectedHeader({ typ: 'at+jwt', ...header })
    .setSubject('u-1')
    .setIssuer('marketplace-backoffice')
    .setAudience('marketplace-backoffice-api')
    .setIssuedAt()
    .setExpirationTime(`${TTL}s`)
    .sign(new TextEncoder().encode(key));

describe('access tokens verified once per token', () => {
  afterEach(() => vi.restoreAllMocks());

  it('checks the signature of a token once; later requests with it compute no HMAC', async () => {
    const { tokens } = await service();
    const token = await tokens.sign(user);
    const calls = hmacCalls();
    expect(await tokens.verify(token)).toMatchObject({ id: 'u-1', role: 'Staff', sessionId: 's-1' });
    const first = calls();
    expect(first).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect((await tokens.verify(token)).id).toBe('u-1');
    expect(calls()).toBe(first);
  });

  it('a cached token expires at its exp, as jose would refuse it', async () => {
    const { tokens, advance } = await service();
    const token = await tokens.sign(user);
    await tokens.verify(token);
    advance((TTL - 2) * 1000);
    await expect(tokens.verify(token)).resolves.toMatchObject({ id: 'u-1' });
    advance(3000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    // And stays refused (no entry is put back).
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it("a revoked session's cached token is refused at once", async () => {
    const { tokens, revoke } = await service();
    const token = await tokens.sign(user);
    await tokens.verify(token);
    revoke('s-1', 'u-1');
    await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401, code: 'SESSION_ENDED' });
  });

  it('a revocation drops the user’s entries: their tokens are verified afresh', async () => {
    const { tokens, revoke } = await service();
    const other = await tokens.sign({ ...user, sessionId: 's-2' });
    await tokens.verify(other);
    revoke('s-1', 'u-1'); // the user's other session ended; s-2 lives on
    const calls = hmacCalls();
    await expect(tokens.verify(other)).resolves.toMatchObject({ sessionId: 's-2' });
    expect(calls()).toBeGreaterThan(0);
  });

  it('refuses a wrong signature, also for a token whose genuine twin is cached', async () => {
    const { tokens } = await service();
    const token = await tokens.sign(user);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verify(`${header}.${payload}.${flipped}`)).rejects.toMatchObject({
      code: 'TOKEN_INVALID',
    });
    const otherKey = await forge({}, { alg: 'HS256' }, `${SECRET}-another`);
    await expect(tokens.verify(otherKey)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    // A tampered payload under the genuine signature.
    const promoted = Buffer.from(JSON.stringify({ ...decode(payload), role: 'Admin' })).toString('base64url');
    await expect(tokens.verify(`${header}.${promoted}.${signature}`)).rejects.toMatchObject({
      code: 'TOKEN_INVALID',
    });
  });

  it('refuses algorithm confusion: alg none and another HMAC algorithm with the same key', async () => {
    const { tokens } = await service();
    await tokens.verify(await tokens.sign(user));
    const hs512 = await forge({}, { alg: 'HS512' });
    await expect(tokens.verify(hs512)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    const payload = (await tokens.sign(user)).split('.')[1];
    await expect(tokens.verify(`${none}.${payload}.`)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    const wrongType = await forge({}, { alg: 'HS256', typ: 'JWT' });
    await expect(tokens.verify(wrongType)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('keeps a bounded number of tokens: the oldest is verified again', async () => {
    const { tokens } = await service({ maxCachedTokens: 2 });
    const [first, second, third] = await Promise.all(
      ['s-1', 's-2', 's-3'].map((sessionId) => tokens.sign({ ...user, sessionId })),
    );
    for (const token of [first, second, third]) await tokens.verify(token as string);
    const calls = hmacCalls();
    await tokens.verify(third as string);
    expect(calls()).toBe(0);
    await tokens.verify(first as string);
    expect(calls()).toBeGreaterThan(0);
  });
});

function decode(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString());
}
