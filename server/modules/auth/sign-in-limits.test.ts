import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createTestApp, DEMO_PASSWORD_FOR_TESTS, demoEmails, json, type TestApp } from '../../test-support';
import { DEVICE_COOKIE } from './routes';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './sign-in-limits';

interface Attempt {
  email: string;
  password?: string;
  /** The device cookie the browser sends. */
  device?: string;
  /** The TCP peer. */
  from?: string;
  forwardedFor?: string;
}

function attempt(app: FastifyInstance, { email, password, device, from, forwardedFor }: Attempt) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email, password: password ?? 'Wrong-passw0rd' },
    cookies: device ? { [DEVICE_COOKIE]: device } : {},
    remoteAddress: from ?? '127.0.0.1',
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
}

function deviceOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === DEVICE_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
  return cookie?.value as string;
}

function expectTooMany(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(json(response)).toMatchObject({
    code: 'TOO_MANY_ATTEMPTS',
    message: expect.stringMatching(
      /^Too many sign-in attempts\. Try again in \d+ (seconds|minutes|hours)\.$/,
    ),
  });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

let nextAddress = 1;
/** A fresh client address, so that per-address budgets do not interfere between tests. */
const freshAddress = () => `10.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe('sign-in limits (defaults)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("slows guessing at an account from unknown browsers, but never holds back the owner's known browser", async () => {
    const ownerDevice = deviceOf(
      await attempt(t.app, {
        email: demoEmails.Blocked,
        password: DEMO_PASSWORD_FOR_TESTS,
        from: freshAddress(),
      }),
    );
    const perMinute = DEFAULT_SIGN_IN_LIMITS.failuresPerAccount[0]?.max as number;
    for (let i = 0; i < perMinute; i++) {
      const guess = await attempt(t.app, { email: demoEmails.Blocked, from: freshAddress() });
      expect(guess.statusCode).toBe(401);
    }
    // Another guess from anywhere new waits, even with the right password…
    expectTooMany(
      await attempt(t.app, {
        email: demoEmails.Blocked,
        password: DEMO_PASSWORD_FOR_TESTS,
        from: freshAddress(),
      }),
    );
    // …but the owner's browser, known to the account, signs in.
    const owner = await attempt(t.app, {
      email: demoEmails.Blocked,
      password: DEMO_PASSWORD_FOR_TESTS,
      device: ownerDevice,
      from: freshAddress(),
    });
    expect(owner.statusCode).toBe(200);
    // A device cookie known to another account is no pass for this one.
    const staffDevice = deviceOf(
      await attempt(t.app, {
        email: demoEmails.Staff,
        password: DEMO_PASSWORD_FOR_TESTS,
        from: freshAddress(),
      }),
    );
    expectTooMany(
      await attempt(t.app, {
        email: demoEmails.Blocked,
        password: DEMO_PASSWORD_FOR_TESTS,
        device: staffDevice,
        from: freshAddress(),
      }),
    );
    // Other accounts are not affected.
    expect(
      (
        await attempt(t.app, {
          email: demoEmails.Admin,
          password: DEMO_PASSWORD_FOR_TESTS,
          from: freshAddress(),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('counts failures per address whatever X-Forwarded-For says (no proxy is trusted by default)', async () => {
    const from = freshAddress();
    const perMinute = DEFAULT_SIGN_IN_LIMITS.failuresPerAddress[0]?.max as number;
    for (let i = 0; i < perMinute; i++) {
      const guess = await attempt(t.app, {
        email: `nobody-${i}@demo.local`,
        from,
        forwardedFor: `203.0.113.${i + 1}`,
      });
      expect(guess.statusCode).toBe(401);
    }
    expectTooMany(
      await attempt(t.app, { email: 'nobody-else@demo.local', from, forwardedFor: '198.51.100.7' }),
    );
    // Someone else's address is not affected.
    expect((await attempt(t.app, { email: 'nobody-else@demo.local', from: freshAddress() })).statusCode).toBe(
      401,
    );
  });

  it('a password reset makes the browser that did it known to the account', async () => {
    for (let i = 0; i < 6; i++) await attempt(t.app, { email: demoEmails.Kyc, from: freshAddress() });
    expectTooMany(
      await attempt(t.app, {
        email: demoEmails.Kyc,
        password: DEMO_PASSWORD_FOR_TESTS,
        from: freshAddress(),
      }),
    );

    const { createPasswordReset } = await import('./service');
    const reset = await createPasswordReset(t.database.db, demoEmails.Kyc);
    const browser = 'a-browser-that-never-signed-in-here';
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: reset?.token, password: DEMO_PASSWORD_FOR_TESTS },
      cookies: { [DEVICE_COOKIE]: browser },
    });
    expect(answer.statusCode).toBe(200);
    expect(deviceOf(answer)).toBe(browser);
    const signedIn = await attempt(t.app, {
      email: demoEmails.Kyc,
      password: DEMO_PASSWORD_FOR_TESTS,
      device: browser,
      from: freshAddress(),
    });
    expect(signedIn.statusCode).toBe(200);
  });
});

describe('sign-in limits (tight, to reach every ceiling)', () => {
  const limits: SignInLimits = {
    attemptsPerAddress: [{ max: 8, timeWindow: 60_000 }],
    failuresPerAddress: [{ max: 100, timeWindow: 60_000 }],
    failuresPerAccount: [{ max: 100, timeWindow: 60_000 }],
    failuresGlobal: [{ max: 6, timeWindow: 60_000 }],
    failuresPerKnownDevice: [{ max: 3, timeWindow: 60_000 }],
  };
  let t: TestApp;
  const devices: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: { signIn: limits } });
    // Browsers that signed in before the global ceiling is reached by the first test.
    for (const email of [demoEmails.Admin, demoEmails.Seller, demoEmails.Staff]) {
      devices[email] = deviceOf(
        await attempt(t.app, { email, password: DEMO_PASSWORD_FOR_TESTS, from: freshAddress() }),
      );
    }
  });
  afterAll(() => t.close());

  it('stops guessing across every account from everywhere (global ceiling), yet known browsers sign in', async () => {
    const adminDevice = devices[demoEmails.Admin];
    for (let i = 0; i < 6; i++) {
      expect(
        (await attempt(t.app, { email: `guess-${i}@demo.local`, from: freshAddress() })).statusCode,
      ).toBe(401);
    }
    expectTooMany(
      await attempt(t.app, {
        email: demoEmails.Staff,
        password: DEMO_PASSWORD_FOR_TESTS,
        from: freshAddress(),
      }),
    );
    const admin = await attempt(t.app, {
      email: demoEmails.Admin,
      password: DEMO_PASSWORD_FOR_TESTS,
      device: adminDevice,
      from: freshAddress(),
    });
    expect(admin.statusCode).toBe(200);
  });

  it('a known browser has a failure budget of its own: a stolen device cookie is no guessing licence', async () => {
    const device = devices[demoEmails.Seller];
    for (let i = 0; i < 3; i++) {
      expect(
        (await attempt(t.app, { email: demoEmails.Seller, device, from: freshAddress() })).statusCode,
      ).toBe(401);
    }
    expectTooMany(await attempt(t.app, { email: demoEmails.Seller, device, from: freshAddress() }));
  });

  it('counts every attempt from an address, successful or not, to bound a flood', async () => {
    const from = freshAddress();
    const device = devices[demoEmails.Staff];
    for (let i = 0; i < 8; i++) {
      expect(
        (await attempt(t.app, { email: demoEmails.Staff, password: DEMO_PASSWORD_FOR_TESTS, device, from }))
          .statusCode,
      ).toBe(200);
    }
    expectTooMany(
      await attempt(t.app, { email: demoEmails.Staff, password: DEMO_PASSWORD_FOR_TESTS, device, from }),
    );
  });
});

describe('sign-in limits behind a trusted proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => t.close());

  it("counts each client's address from X-Forwarded-For, only when the proxy is trusted", async () => {
    const perMinute = DEFAULT_SIGN_IN_LIMITS.failuresPerAddress[0]?.max as number;
    // Through the trusted proxy, twice the per-address budget spread over two clients is fine.
    for (let i = 0; i < 2 * perMinute; i++) {
      const response = await attempt(t.app, {
        email: `proxied-${i}@demo.local`,
        from: '127.0.0.1',
        forwardedFor: i % 2 ? '203.0.113.10' : '203.0.113.11',
      });
      expect(response.statusCode).toBe(401);
    }
    // From an untrusted peer the header is ignored: that peer's own address is counted.
    const direct = freshAddress();
    for (let i = 0; i < perMinute; i++) {
      await attempt(t.app, {
        email: `direct-${i}@demo.local`,
        from: direct,
        forwardedFor: `198.51.100.${i + 1}`,
      });
    }
    expectTooMany(
      await attempt(t.app, { email: 'direct-x@demo.local', from: direct, forwardedFor: '198.51.100.99' }),
    );
  });

  it('refuses a TRUST_PROXY that is neither addresses nor a hop count', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
  });
});

// With REDIS_URL, every instance counts in the same place: spreading guesses over instances gains nothing.
describe.skipIf(!process.env.TEST_REDIS_URL)('sign-in limits shared through Redis', () => {
  let a: TestApp;
  let b: FastifyInstance;
  beforeAll(async () => {
    a = await createTestApp({ env: { REDIS_URL: process.env.TEST_REDIS_URL as string } });
    b = await buildApp({
      config: a.config,
      database: a.database,
      rateLimits: { namespace: a.rateLimitNamespace },
    });
    await b.ready();
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("an account's failures on one instance count on the other", async () => {
    const perMinute = DEFAULT_SIGN_IN_LIMITS.failuresPerAccount[0]?.max as number;
    for (let i = 0; i < perMinute; i++) {
      const app = i % 2 ? a.app : b;
      expect((await attempt(app, { email: demoEmails.Staff, from: freshAddress() })).statusCode).toBe(401);
    }
    expectTooMany(
      await attempt(a.app, {
        email: demoEmails.Staff,
        password: DEMO_PASSWORD_FOR_TESTS,
        from: freshAddress(),
      }),
    );
    expectTooMany(
      await attempt(b, { email: demoEmails.Staff, password: DEMO_PASSWORD_FOR_TESTS, from: freshAddress() }),
    );
  });
});
