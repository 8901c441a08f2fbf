import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, loggerOptions } from '../../app';
import { jobs, refreshTokens, sellers } from '../../db/schema';
import { hashToken } from '../../lib/secrets';
import { getSetting } from '../../lib/settings';
import {
  createTestApp,
  DEMO_PASSWORD_FOR_TESTS,
  demoEmails,
  json,
  refreshCookieOf,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';
import { RESET_MAIL_JOB } from './routes';
import { REFRESH_REUSE_GRACE_MS } from './service';

describe.each(testBackends)('auth API on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(() => t.close());

  const signin = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: payload as object });
  const current = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/users/byToken/current',
      headers: { authorization: `Bearer ${token}` },
    });

  it('signs in and answers the access token, the current user and an HttpOnly SameSite=Strict refresh cookie', async () => {
    const response = await signin({ email: 'Admin@Demo.Local', password: DEMO_PASSWORD_FOR_TESTS });
    expect(response.statusCode).toBe(200);
    const body = json<{ accessToken: string; expiresIn: number; user: Record<string, unknown> }>(response);
    expect(body.expiresIn).toBeLessThanOrEqual(900);
    expect(body.user).toMatchObject({
      email: 'admin@demo.local',
      roles: ['Admin'],
      isAdmin: true,
      isSeller: false,
    });
    const cookie = response.cookies.find((c) => c.name === 'mp_rt');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
    expect(response.body).not.toContain(cookie?.value);
  });

  it('answers the current-user fields of SPEC §3, with the seller logo being the last of sellerLogos', async () => {
    const { token } = await signInAs(t.app, demoEmails.Seller);
    await t.database.db
      .update(sellers)
      .set({
        sellerLogos: [
          { path: '/files/logos/old.png', uploadedAt: '2026-01-01' },
          { path: '/files/logos/new.png', uploadedAt: '2026-02-01' },
        ],
      })
      .where(eq(sellers.sellerCode, 'SEL-0001'));
    const response = await current(token);
    expect(response.statusCode).toBe(200);
    const user = json(response);
    expect(Object.keys(user).sort()).toEqual(
      [
        'defaultCountry',
        'defaultCurrency',
        'defaultLanguage',
        'email',
        'id',
        'isAdmin',
        'isSeller',
        'isStaff',
        'roles',
        'seller',
        'userAvatar',
        'username',
      ].sort(),
    );
    expect(user).toMatchObject({
      username: 'Sunil Seller',
      defaultCurrency: 'INR',
      defaultCountry: 'IN',
      roles: ['Seller'],
      isSeller: true,
      seller: {
        sellerCode: 'SEL-0001',
        sellerName: 'Demo Seller Store',
        logo: '/files/logos/new.png',
        blocked: false,
      },
    });
    expect((user.seller as { sellerAddress: string }).sellerAddress).toContain('Mumbai');
  });

  it('gives the same 401 for a wrong password and an unknown e-mail', async () => {
    const wrong = await signin({ email: demoEmails.Staff, password: 'not-it-1' });
    const unknown = await signin({ email: 'nobody@demo.local', password: 'not-it-1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(json(wrong)).toEqual({ message: 'Invalid e-mail or password', code: 'INVALID_CREDENTIALS' });
    expect(json(unknown)).toEqual(json(wrong));
  });

  it.each([
    ['a missing password', { email: 'admin@demo.local' }, /password/],
    ['a malformed e-mail', { email: 'not-an-email', password: 'x' }, /valid e-mail/],
    ['a wrong type', { email: 42, password: 'x' }, /email/],
  ])('rejects %s with a 400 naming the problem', async (_label, payload, message) => {
    const response = await signin(payload);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(message),
    });
  });

  it('rejects malformed JSON, an oversized body and a wrong content type with clear messages', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed).message).toBe('Malformed JSON body');

    const huge = await signin({ email: 'admin@demo.local', password: 'x'.repeat(300 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(json(huge).message).toBe('Request body is too large');

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(json(text).message).toBe('Unsupported content type');
  });

  describe('access tokens', () => {
    const secret = async () =>
      new TextEncoder().encode(await getSetting<string>(t.database.db, 'auth.jwtSecret'));
    /** A live session of the admin: forged tokens name it, so only the forgery itself can fail them. */
    const claims = async () => {
      const { userId, token } = await signInAs(t.app, demoEmails.Admin);
      const { sid } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
      return { userId, sid: sid as string };
    };
    const forge = async (opts: { typ?: string; exp?: number; aud?: string; alg?: string; sid?: null }) => {
      const { userId, sid } = await claims();
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ role: 'Admin', sellerId: null, ...(opts.sid === null ? {} : { sid }) })
        .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: opts.typ ?? 'at+jwt' })
        .setSubject(userId)
        .setIssuer('marketplace-backoffice')
        .setAudience(opts.aud ?? 'marketplace-backoffice-api')
        .setIssuedAt(now - 1000)
        .setExpirationTime(opts.exp ?? now + 600)
        .sign(await secret());
    };

    it('accepts a well-formed token signed with the server key', async () => {
      expect((await current(await forge({}))).statusCode).toBe(200);
    });

    it('rejects a missing token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/users/byToken/current' });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ message: 'Access token is missing', code: 'TOKEN_MISSING' });
    });

    it('rejects an expired token', async () => {
      const response = await current(await forge({ exp: Math.floor(Date.now() / 1000) - 5 }));
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ message: 'Access token expired', code: 'TOKEN_EXPIRED' });
    });

    it.each([
      ['a token without a session (issued before sessions could end)', { sid: null }],
      ['a wrong typ', { typ: 'JWT' }],
      ['a wrong audience', { aud: 'someone-else' }],
      ['another HMAC algorithm', { alg: 'HS512' }],
    ] as const)('rejects %s', async (_label, opts) => {
      const response = await current(await forge(opts));
      expect(response.statusCode).toBe(401);
      expect(json(response).code).toBe('TOKEN_INVALID');
    });

    it('rejects a tampered payload and alg: none', async () => {
      const { token } = await signInAs(t.app, demoEmails.Seller);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const claimsJson = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const promoted = Buffer.from(JSON.stringify({ ...claimsJson, role: 'Admin' })).toString('base64url');
      expect((await current(`${header}.${promoted}.${signature}`)).statusCode).toBe(401);

      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
      const response = await current(`${none}.${promoted}.`);
      expect(response.statusCode).toBe(401);
      expect(json(response).code).toBe('TOKEN_INVALID');
    });
  });

  describe('refresh tokens', () => {
    const refresh = (cookie: string | undefined) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: cookie ? { mp_rt: cookie } : {} });

    it('rotates: each refresh answers a new access token and a new cookie', async () => {
      const { refreshCookie } = await signInAs(t.app, demoEmails.Admin);
      const first = await refresh(refreshCookie);
      expect(first.statusCode).toBe(200);
      const next = refreshCookieOf(first);
      expect(next).toBeTruthy();
      expect(next).not.toBe(refreshCookie);
      expect((await current(json<{ accessToken: string }>(first).accessToken)).statusCode).toBe(200);
      expect((await refresh(next)).statusCode).toBe(200);
    });

    it('lets the same cookie refresh twice within the grace window (two tabs at once), both sessions live', async () => {
      for (let run = 0; run < 3; run++) {
        const { refreshCookie } = await signInAs(t.app, demoEmails.Staff);
        const [a, b] = await Promise.all([refresh(refreshCookie), refresh(refreshCookie)]);
        expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
        for (const answer of [a, b]) {
          expect((await current(json<{ accessToken: string }>(answer).accessToken)).statusCode).toBe(200);
          expect((await refresh(refreshCookieOf(answer))).statusCode).toBe(200);
        }
      }
    });

    it('treats a token reused after the grace window as stolen: 401 and the whole session ends, access tokens too', async () => {
      const { refreshCookie } = await signInAs(t.app, demoEmails.Staff);
      const first = await refresh(refreshCookie);
      const rotated = refreshCookieOf(first);
      const access = json<{ accessToken: string }>(first).accessToken;
      // Replaced longer ago than the grace window allows.
      await t.database.db
        .update(refreshTokens)
        .set({ replacedAt: sql`now() - ${(REFRESH_REUSE_GRACE_MS + 1000) / 1000} * interval '1 second'` })
        .where(eq(refreshTokens.tokenHash, hashToken(refreshCookie)));
      const reuse = await refresh(refreshCookie);
      expect(reuse.statusCode).toBe(401);
      expect(json(reuse).code).toBe('REFRESH_REUSED');
      const afterTheft = await refresh(rotated);
      expect(afterTheft.statusCode).toBe(401);
      expect(json(afterTheft).code).toBe('SESSION_EXPIRED');
      expect(json(await current(access))).toMatchObject({ code: 'SESSION_ENDED' });
    });

    it('answers 401 with a message for a missing or unknown cookie, and sign-out ends the session', async () => {
      expect(json(await refresh(undefined))).toMatchObject({
        code: 'SESSION_EXPIRED',
        message: expect.any(String),
      });
      expect((await refresh('made-up-token')).statusCode).toBe(401);
      const { refreshCookie } = await signInAs(t.app, demoEmails.Admin);
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signout',
        cookies: { mp_rt: refreshCookie },
      });
      expect(out.statusCode).toBe(204);
      expect((await refresh(refreshCookie)).statusCode).toBe(401);
    });
  });

  describe('password reset', () => {
    const outboxFiles = async () => readdir(path.join(t.dataDir, 'outbox')).catch(() => [] as string[]);

    it('mails a reset link to the outbox, and the link sets a new password exactly once', async () => {
      const before = await outboxFiles();
      const { refreshCookie } = await signInAs(t.app, demoEmails.Seller);
      const asked = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: demoEmails.Seller },
      });
      expect(asked.statusCode).toBe(200);
      // A background job mails the link (the answer does not wait for it).
      const mailFile = await vi.waitFor(
        async () => {
          const file = (await outboxFiles()).find((name) => !before.includes(name));
          if (!file) throw new Error('no mail yet');
          return file;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(mailFile).toMatch(/\.eml$/);
      const mail = await readFile(path.join(t.dataDir, 'outbox', mailFile as string), 'utf8');
      expect(mail).toContain('To: seller@demo.local');
      const decoded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='); // quoted-printable
      const token = /reset-password\?token=([\w-]+)/.exec(decoded)?.[1];
      expect(token).toBeTruthy();

      const weak = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset-password',
        payload: { token, password: 'short' },
      });
      expect(weak.statusCode).toBe(400);
      expect(json(weak).message).toMatch(/at least 8 characters/);

      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset-password',
        payload: { token, password: 'N3w-password!' },
      });
      expect(reset.body).toContain('password has been changed');
      expect((await signin({ email: demoEmails.Seller, password: DEMO_PASSWORD_FOR_TESTS })).statusCode).toBe(
        401,
      );
      expect((await signin({ email: demoEmails.Seller, password: 'N3w-password!' })).statusCode).toBe(200);
      // Old sessions end with the password change.
      const oldSession = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        cookies: { mp_rt: refreshCookie },
      });
      expect(oldSession.statusCode).toBe(401);

      const again = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset-password',
        payload: { token, password: 'An0ther-pass' },
      });
      expect(again.statusCode).toBe(400);
      expect(json(again).message).toBe('This reset link is invalid or has expired. Request a new one.');
    });

    it('does the same for a known and an unknown e-mail before answering: one job queued, nothing looked up', async () => {
      const queued = async () =>
        (
          await t.database.db
            .select({ payload: jobs.payload })
            .from(jobs)
            .where(eq(jobs.kind, RESET_MAIL_JOB))
        ).length;
      // The worker waits meanwhile, so every read counted is the request's own.
      await t.app.jobs.worker.stop();
      const reads = vi.spyOn(t.database.db, 'select');
      const answers = [];
      for (const email of [demoEmails.Staff, 'nobody-here@demo.local']) {
        const before = await queued();
        reads.mockClear();
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/forgot-password',
          payload: { email },
        });
        // Answering read nothing (no account lookup to take longer for one than the other)…
        expect(reads).not.toHaveBeenCalled();
        answers.push({ status: response.statusCode, body: response.json() });
        // …and queued exactly one job, whatever the e-mail.
        expect(await queued()).toBe(before + 1);
      }
      expect(answers[0]).toEqual(answers[1]);
      reads.mockRestore();
      t.app.jobs.worker.start();
      await waitForResetMailJobs(t);
    });

    it('answers the same for an unknown e-mail and sends nothing', async () => {
      const before = await outboxFiles();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: 'ghost@demo.local' },
      });
      expect(response.statusCode).toBe(200);
      expect(json(response).message).toBe(
        'If an account exists for that e-mail, a reset link is on its way.',
      );
      await waitForResetMailJobs(t);
      expect(await outboxFiles()).toEqual(before);
    });
  });
});

/** Waits until every queued reset-mail job has run (they mail the link, or nothing). */
async function waitForResetMailJobs(t: TestApp) {
  await vi.waitFor(
    async () => {
      const pending = await t.database.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, RESET_MAIL_JOB), inArray(jobs.status, ['Queued', 'Running'])));
      if (pending.length > 0) throw new Error('a reset mail job is still pending');
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe('logging', () => {
  it('never writes passwords or tokens to the log', async () => {
    const t = await createTestApp();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await buildApp({
      config: t.config,
      database: t.database,
      logger: { ...(loggerOptions({ ...t.config, LOG_LEVEL: 'trace' }) as object), stream },
    });
    try {
      const signin = await logged.inject({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email: demoEmails.Admin, password: DEMO_PASSWORD_FOR_TESTS },
      });
      const { accessToken } = json<{ accessToken: string }>(signin);
      const cookie = refreshCookieOf(signin) as string;
      await logged.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { mp_rt: cookie } });
      await logged.inject({
        method: 'GET',
        url: '/api/v1/users/byToken/current',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      await logged.inject({ method: 'GET', url: '/reset-password?token=secret-reset-token-value' });
      const log = lines.join('');
      expect(log).toContain('/api/v1/auth/signin');
      for (const secret of [DEMO_PASSWORD_FOR_TESTS, accessToken, cookie, 'secret-reset-token-value']) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await logged.close();
      await t.close();
    }
  }, 60_000); // Starts its own app with the demo data, as a hook would (hookTimeout).
});
