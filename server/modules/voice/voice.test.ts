import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceTokenResponseSchema } from '../../../contracts/calls';
import { loadConfig } from '../../config';
import { users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';
import { jwtSigningKey } from '../auth/tokens';
import { allocateLocalNumber, ensureUserNumber } from './phone-numbers';
import { CALL_SERVICE_DISABLED_MESSAGE } from './routes';
import {
  createVoiceTokenService,
  EXPIRED_VOICE_TOKEN_MESSAGE,
  INVALID_VOICE_TOKEN_MESSAGE,
} from './voice-tokens';

const TOKEN_URL = '/api/v1/voice/method/getAccessToken';
const TWILIO_ENV = {
  TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`,
  TWILIO_API_KEY: `SK${'2'.repeat(32)}`,
  TWILIO_API_SECRET: 'twilio-api-secret-for-tests',
  TWILIO_TWIML_APP_SID: `AP${'3'.repeat(32)}`,
};

describe.each(testBackends)('voice tokens and numbers (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives a signed-in user a local voice token and their own number', async () => {
    const before = Date.now();
    const response = await as('Seller', 'GET', TOKEN_URL);
    expect(response.statusCode).toBe(200);
    const { data } = voiceTokenResponseSchema.parse(json(response));
    expect(data).toMatchObject({ provider: 'local', identity: as.ids.Seller, phoneNumber: '+919000000003' });
    expect(data.expiresAt).toBeGreaterThanOrEqual(before + 3599_000);
    expect(data.expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(decodeProtectedHeader(data.token).typ).toBe('voice+jwt');
    await expect(t.app.voiceTokens.verifyVoiceToken(data.token)).resolves.toBe(as.ids.Seller);
  });

  it('keeps voice tokens and access tokens apart, both ways', async () => {
    const { data } = json<{ data: { token: string } }>(await as('Staff', 'GET', TOKEN_URL));
    await expect(t.app.tokens.verify(data.token)).rejects.toThrow('Invalid access token');
    const asBearer = await t.app.inject({
      method: 'GET',
      url: TOKEN_URL,
      headers: { authorization: `Bearer ${data.token}` },
    });
    expect(asBearer.statusCode).toBe(401);
    await expect(t.app.voiceTokens.verifyVoiceToken(as.tokens.Staff)).rejects.toThrow(
      INVALID_VOICE_TOKEN_MESSAGE,
    );
    // Nor is a voice token a call ticket.
    await expect(t.app.voiceTokens.verifyTicket(data.token)).resolves.toBeNull();
  });

  it('refuses an expired voice token with its reason', async () => {
    const key = await jwtSigningKey(t.database.db, t.config.JWT_SECRET);
    const expired = await createVoiceTokenService(key, { voiceTtlSeconds: -10 }).signVoiceToken(as.ids.Staff);
    await expect(t.app.voiceTokens.verifyVoiceToken(expired.token)).rejects.toThrow(
      EXPIRED_VOICE_TOKEN_MESSAGE,
    );
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: TOKEN_URL });
    expect(response.statusCode).toBe(401);
  });

  it('refuses users who may not call: a blocked seller, and anyone without the calls page', async () => {
    const blocked = await as('Blocked', 'GET', TOKEN_URL);
    expect(blocked.statusCode).toBe(403);
    expect(json(blocked).code).toBe('SELLER_BLOCKED');
    await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Staff}`, {
      overrides: { '/calls/call-history': [] },
    });
    try {
      const staff = await as('Staff', 'GET', TOKEN_URL);
      expect(staff.statusCode).toBe(403);
      expect(json(staff).code).toBe('FORBIDDEN');
    } finally {
      await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Staff}`, { overrides: {} });
    }
    expect((await as('Staff', 'GET', TOKEN_URL)).statusCode).toBe(200);
  });

  it('gives a user without a number the next free one, once', async () => {
    await t.database.db.update(users).set({ phone: '' }).where(eq(users.id, as.ids.Admin));
    const first = voiceTokenResponseSchema.parse(json(await as('Admin', 'GET', TOKEN_URL))).data;
    // The seed has +91 90000 00001…00005; the admin's 00001 was given up and is the lowest free one.
    expect(first.phoneNumber).toBe('+919000000001');
    const again = voiceTokenResponseSchema.parse(json(await as('Admin', 'GET', TOKEN_URL))).data;
    expect(again.phoneNumber).toBe(first.phoneNumber);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, as.ids.Admin));
    expect(row?.phone).toBe('+91 90000 00001');
  });

  it('gives concurrent number-less users different numbers', async () => {
    const db = t.database.db;
    await db.update(users).set({ phone: '' }).where(eq(users.id, as.ids.Blocked));
    await db.update(users).set({ phone: '' }).where(eq(users.id, as.ids.Kyc));
    const numbers = await Promise.all([
      ensureUserNumber(db, as.ids.Blocked),
      ensureUserNumber(db, as.ids.Kyc),
    ]);
    expect(new Set(numbers).size).toBe(2);
    expect(numbers.sort()).toEqual(['+91 90000 00004', '+91 90000 00005']);
    expect(await allocateLocalNumber(db)).toBe('+91 90000 00006');
  });

  it('numbers invited staff members', async () => {
    const first = await as('Admin', 'POST', '/api/v1/staff/inviteStaff', {
      firstName: 'Vera',
      email: `vera-${backend}@example.com`,
    });
    expect(first.statusCode).toBe(201);
    const second = await as('Admin', 'POST', '/api/v1/staff/inviteStaff', {
      firstName: 'Vik',
      email: `vik-${backend}@example.com`,
    });
    expect(json<{ staff: { phone: string } }>(first).staff.phone).toBe('+91 90000 00006');
    expect(json<{ staff: { phone: string } }>(second).staff.phone).toBe('+91 90000 00007');
  });
});

describe('voice token with the call service off', () => {
  it('answers 404 with the reason', async () => {
    const t = await createTestApp({ env: { CALL_SERVICE_ENABLED: 'false' } });
    try {
      const { token } = await signInAs(t.app, demoEmails.Staff);
      const response = await t.app.inject({
        method: 'GET',
        url: TOKEN_URL,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({
        message: CALL_SERVICE_DISABLED_MESSAGE,
        code: 'CALL_SERVICE_DISABLED',
      });
    } finally {
      await t.close();
    }
  });
});

describe('voice token from Twilio (TWILIO_* set)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: TWILIO_ENV });
  });
  afterAll(async () => {
    await t.close();
  });

  it("mints a Voice SDK token with the TwiML app's outgoing grant and incoming calls allowed", async () => {
    const as = await apiAs(t.app);
    const before = Math.floor(Date.now() / 1000);
    const response = await as('Staff', 'GET', TOKEN_URL);
    expect(response.statusCode).toBe(200);
    const { data } = voiceTokenResponseSchema.parse(json(response));
    expect(data).toMatchObject({ provider: 'twilio', identity: as.ids.Staff, phoneNumber: '+919000000002' });
    expect(decodeProtectedHeader(data.token)).toMatchObject({ alg: 'HS256', cty: 'twilio-fpa;v=1' });
    const claims = decodeJwt(data.token);
    expect(claims.iss).toBe(TWILIO_ENV.TWILIO_API_KEY);
    expect(claims.sub).toBe(TWILIO_ENV.TWILIO_ACCOUNT_SID);
    expect(claims.grants).toEqual({
      identity: as.ids.Staff,
      voice: {
        incoming: { allow: true },
        outgoing: { application_sid: TWILIO_ENV.TWILIO_TWIML_APP_SID },
      },
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(data.expiresAt).toBe((claims.exp as number) * 1000);
  });
});

describe('TWILIO_* configuration', () => {
  it('refuses a partial set, naming what is missing', () => {
    const { TWILIO_TWIML_APP_SID: _left, ...partial } = TWILIO_ENV;
    expect(() => loadConfig(partial)).toThrow(
      /TWILIO_TWIML_APP_SID: set all of .* \(missing: TWILIO_TWIML_APP_SID\)/,
    );
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: TWILIO_ENV.TWILIO_ACCOUNT_SID })).toThrow(
      /missing: TWILIO_API_KEY, TWILIO_API_SECRET, TWILIO_TWIML_APP_SID/,
    );
  });

  it('accepts all four or none', () => {
    expect(loadConfig(TWILIO_ENV).TWILIO_API_KEY).toBe(TWILIO_ENV.TWILIO_API_KEY);
    expect(loadConfig({}).TWILIO_ACCOUNT_SID).toBeUndefined();
  });
});
