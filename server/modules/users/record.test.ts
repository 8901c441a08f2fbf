import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../../contracts/auth';
import { settingsTopic } from '../../../contracts/broker-topics';
import type { UserRecord } from '../../../contracts/users';
import { users } from '../../db/schema';
import { loadSharp } from '../../lib/load-sharp';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  DEMO_PASSWORD_FOR_TESTS,
  demoEmails,
  json,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';
import { multipart, sampleFile } from '../sellers/test-helpers';

const API = '/api/v1/users';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testBackends)('user record calls on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const record = (response: { json(): unknown }) => response.json() as UserRecord;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('reads your own record; admins and staff managers read others; a seller only themselves', async () => {
    const own = await as('Seller', 'GET', `${API}/${as.ids.Seller}`);
    expect(own.statusCode).toBe(200);
    expect(record(own)).toMatchObject({
      id: as.ids.Seller,
      email: demoEmails.Seller,
      role: 'Seller',
      defaultCurrency: null,
      marketplace: { defaultCurrency: 'INR', defaultCountry: 'IN', defaultLanguage: 'EN' },
    });
    expect(record(own).sellerId).toBeTruthy();
    expect(own.json()).not.toHaveProperty('passwordHash');

    const other = await as('Seller', 'GET', `${API}/${as.ids.Staff}`);
    expect(other.statusCode).toBe(403);
    // An unknown id is not revealed to someone who may not read others.
    expect((await as('Seller', 'GET', `${API}/${UNKNOWN_ID}`)).statusCode).toBe(403);

    expect((await as('Admin', 'GET', `${API}/${as.ids.Seller}`)).statusCode).toBe(200);
    expect((await as('Admin', 'GET', `${API}/${UNKNOWN_ID}`)).statusCode).toBe(404);
    expect((await as('Admin', 'GET', `${API}/not-a-uuid`)).statusCode).toBe(400);
    // The demo staff member has no staff-management permission by default.
    expect((await as('Staff', 'GET', `${API}/${as.ids.Admin}`)).statusCode).toBe(403);
  });

  it('saves your own name, phone (international format) and defaults, and tells your other tabs', async () => {
    const heard: unknown[] = [];
    await t.app.broker.listen(settingsTopic(t.config.MQTT_TOPIC_PREFIX), (_topic, message) => {
      heard.push(message);
    });
    const saved = await as('Seller', 'PUT', `${API}/${as.ids.Seller}`, {
      firstName: ' Sana ',
      phone: '098765 43299',
      defaultCurrency: 'USD',
      defaultLanguage: 'DE',
      defaultCountry: 'DE',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // A national number reads in the user's country, here the new one (DE).
    expect(record(saved)).toMatchObject({
      firstName: 'Sana',
      defaultCurrency: 'USD',
      defaultLanguage: 'DE',
      defaultCountry: 'DE',
    });
    expect(record(saved).phone).toMatch(/^\+49 /);
    const current = json<CurrentUser>(await as('Seller', 'GET', `${API}/byToken/current`));
    expect(current).toMatchObject({ defaultCurrency: 'USD', defaultLanguage: 'DE', defaultCountry: 'DE' });
    await expect
      .poll(() => heard)
      .toContainEqual({
        type: 'SETTINGS_CHANGED',
        section: 'profile',
        sellerId: null,
        userId: as.ids.Seller,
      });

    const indian = await as('Seller', 'PUT', `${API}/${as.ids.Seller}`, {
      phone: '+919876543299',
      defaultCurrency: null,
      defaultLanguage: null,
      defaultCountry: null,
    });
    expect(record(indian)).toMatchObject({ phone: '+91 98765 43299', defaultCurrency: null });
  });

  it('refuses a bad phone, a taken phone, a currency or language not offered and an unknown country', async () => {
    const put = (body: Record<string, unknown>) => as('Seller', 'PUT', `${API}/${as.ids.Seller}`, body);
    const invalid = await put({ phone: '12345' });
    expect(invalid.statusCode).toBe(400);
    expect(json(invalid).message).toMatch(/valid phone number/);
    const [staff] = await t.database.db.select().from(users).where(eq(users.id, as.ids.Staff));
    // The same digits as another user's number, written differently.
    const taken = await put({ phone: (staff?.phone ?? '').replaceAll(' ', '') });
    expect(taken.statusCode).toBe(409);
    expect(json(taken).message).toMatch(/already has this phone number/);
    const currency = await put({ defaultCurrency: 'SEK' });
    expect(currency.statusCode).toBe(400);
    expect(json(currency).message).toMatch(/does not offer the currency SEK/);
    expect((await put({ defaultLanguage: 'ZU' })).statusCode).toBe(400);
    expect((await put({ defaultCountry: 'XX' })).statusCode).toBe(400);
    expect((await put({ defaultCurrency: 'usd' })).statusCode).toBe(400);
    expect((await put({ firstName: '' })).statusCode).toBe(400);
    expect((await put({ firstName: 'x'.repeat(101) })).statusCode).toBe(400);
  });

  it('lets only an admin change another account, its role and status; nobody their own role', async () => {
    const onSeller = await as('Seller', 'PUT', `${API}/${as.ids.Staff}`, { firstName: 'Mallory' });
    expect(onSeller.statusCode).toBe(403);
    expect((await as('Staff', 'PUT', `${API}/${as.ids.Admin}`, { firstName: 'Mallory' })).statusCode).toBe(
      403,
    );
    expect((await as('Admin', 'PUT', `${API}/${as.ids.Admin}`, { role: 'Staff' })).statusCode).toBe(403);
    expect((await as('Admin', 'PUT', `${API}/${as.ids.Admin}`, { isActive: false })).statusCode).toBe(409);
    // Someone else's own defaults are theirs.
    expect((await as('Admin', 'PUT', `${API}/${as.ids.Staff}`, { defaultCurrency: 'USD' })).statusCode).toBe(
      403,
    );
    expect((await as('Admin', 'PUT', `${API}/${as.ids.Seller}`, { role: 'Staff' })).statusCode).toBe(409);

    const renamed = await as('Admin', 'PUT', `${API}/${as.ids.Staff}`, {
      firstName: 'Samira',
      role: 'Admin',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(record(renamed)).toMatchObject({ firstName: 'Samira', role: 'Admin' });
    // The new role is in the next sign-in's tokens: the old sessions ended.
    expect((await as('Staff', 'GET', `${API}/byToken/current`)).statusCode).toBe(401);
    const back = await as('Admin', 'PUT', `${API}/${as.ids.Staff}`, { firstName: 'Sam', role: 'Staff' });
    expect(back.statusCode).toBe(200);
    as.tokens.Staff = (await signInAs(t.app, demoEmails.Staff)).token;
    expect((await as('Staff', 'GET', `${API}/byToken/current`)).statusCode).toBe(200);
  });

  it('creates a staff user through the staff invitation, for staff managers only', async () => {
    const email = `new.${Date.now()}@staff.example`;
    expect((await as('Seller', 'POST', `${API}/`, { firstName: 'Nia', email })).statusCode).toBe(403);
    const created = await as('Admin', 'POST', `${API}/`, { firstName: 'Nia', lastName: 'Nair', email });
    expect(created.statusCode, created.body).toBe(201);
    expect(record(created)).toMatchObject({ email, role: 'Staff', isActive: true, defaultCurrency: null });
    expect(record(created).phone).toMatch(/^\+91 90000 /);
    expect((await as('Admin', 'POST', `${API}/`, { firstName: 'Nia', email })).statusCode).toBe(409);
    expect((await as('Admin', 'POST', `${API}/`, { firstName: 'Nia', email: 'nope' })).statusCode).toBe(400);
  });

  describe('avatar', () => {
    const upload = (file: { filename: string; type: string; content: Buffer }, path = 'uploadUserImage') => {
      const body = multipart([file]);
      return as('Staff', 'POST', `${API}/${path}`, body.payload, body.headers);
    };

    it('crops a picture to a 256 px square, stores it and shows it as the current user avatar', async () => {
      const sharp = await loadSharp();
      const picture = await sharp({
        create: { width: 600, height: 300, channels: 3, background: '#3366cc' },
      })
        .png()
        .toBuffer();
      const response = await upload({ filename: 'me.png', type: 'image/png', content: picture });
      expect(response.statusCode, response.body).toBe(200);
      const avatar = record(response).avatar as string;
      expect(avatar).toMatch(/^\/files\/logos\/[0-9a-f-]+\.webp$/);
      const served = await t.app.inject({ method: 'GET', url: avatar });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([256, 256]);
      expect(json<CurrentUser>(await as('Staff', 'GET', `${API}/byToken/current`)).userAvatar).toBe(avatar);

      // UserImage is the same call; the earlier picture is gone from the storage.
      const again = await upload({ filename: 'me.png', type: 'image/png', content: picture }, 'UserImage');
      expect(again.statusCode).toBe(200);
      expect(record(again).avatar).not.toBe(avatar);
      expect((await t.app.inject({ method: 'GET', url: avatar })).statusCode).toBe(404);
    });

    it('refuses a 30 MB picture (413), an SVG with a script (415) and a broken picture (400)', async () => {
      const huge = await upload({
        filename: 'big.png',
        type: 'image/png',
        content: sampleFile.png(30 * 1024 * 1024),
      });
      expect(huge.statusCode).toBe(413);
      expect(json(huge).message).toMatch(/larger than 5 MB/);
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      );
      const script = await upload({ filename: 'me.png', type: 'image/png', content: svg });
      expect(script.statusCode).toBe(415);
      const broken = await upload({ filename: 'me.png', type: 'image/png', content: sampleFile.png(2048) });
      expect(broken.statusCode).toBe(400);
      expect(json(broken).message).toMatch(/could not be read/);
      expect((await as('Staff', 'POST', `${API}/uploadUserImage`, { file: 'x' })).statusCode).toBe(415);
    });
  });

  it('changes your own password with the current one: your other sessions end, this one stays', async () => {
    const here = await signInAs(t.app, demoEmails.Kyc);
    const elsewhere = await signInAs(t.app, demoEmails.Kyc);
    const change = (body: Record<string, unknown>, id = here.userId) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/${id}/password`,
        payload: body,
        headers: bearer(here.token),
      });

    const wrong = await change({ currentPassword: 'not-it-1', newPassword: 'Fresh-pass-42' });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toBe('Your current password is not correct.');
    const weak = await change({ currentPassword: DEMO_PASSWORD_FOR_TESTS, newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(json(weak).message).toMatch(/at least 8 characters/);
    expect(
      (
        await change(
          { currentPassword: DEMO_PASSWORD_FOR_TESTS, newPassword: 'Fresh-pass-42' },
          as.ids.Seller,
        )
      ).statusCode,
    ).toBe(403);

    const changed = await change({ currentPassword: DEMO_PASSWORD_FOR_TESTS, newPassword: 'Fresh-pass-42' });
    expect(changed.statusCode, changed.body).toBe(200);
    const read = (token: string) =>
      t.app.inject({ method: 'GET', url: `${API}/byToken/current`, headers: bearer(token) });
    expect((await read(here.token)).statusCode).toBe(200);
    expect((await read(elsewhere.token)).statusCode).toBe(401);
    await expect(signInAs(t.app, demoEmails.Kyc)).rejects.toThrow();
    expect((await signInAs(t.app, demoEmails.Kyc, 'Fresh-pass-42')).userId).toBe(here.userId);
  });

  it("gives a user without their own defaults the marketplace's Localization", async () => {
    const state = json<{ version: number }>(await as('Admin', 'GET', '/api/v1/settings/localization'));
    const saved = await as('Admin', 'PUT', '/api/v1/settings/localization', {
      version: state.version,
      set: { defaultCurrency: 'EUR', defaultCountry: 'FR', defaultLanguage: 'FR' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.database.db
      .update(users)
      .set({ defaultCurrency: null, defaultCountry: null, defaultLanguage: 'HI' })
      .where(eq(users.id, as.ids.Admin));
    const current = json<CurrentUser>(await as('Admin', 'GET', `${API}/byToken/current`));
    expect(current).toMatchObject({ defaultCurrency: 'EUR', defaultCountry: 'FR', defaultLanguage: 'HI' });
    // Sign-in (no app in the auth service) reads the same.
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: demoEmails.Admin, password: DEMO_PASSWORD_FOR_TESTS },
    });
    expect(json<{ user: CurrentUser }>(signedIn).user).toMatchObject({
      defaultCurrency: 'EUR',
      defaultCountry: 'FR',
    });
  });
});
