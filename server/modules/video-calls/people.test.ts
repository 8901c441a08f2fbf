import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VIDEO_CALL_EVENTS as E,
  type PresenceEvent,
  VIDEO_PEOPLE_PATH,
  type VideoPeopleResponse,
  type WatchPresenceAck,
} from '../../../contracts/video-calls';
import { users } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { replaceUserOverrides } from '../permissions/service';
import { openTab } from './test-tabs';

describe.each(testBackends)('the people one may video call (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    as = await apiAs(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const people = async (who: Parameters<ApiAs>[0], query = '') => {
    const response = await as(who, 'GET', `${VIDEO_PEOPLE_PATH}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<VideoPeopleResponse>(response).data;
  };
  const names = async (who: Parameters<ApiAs>[0], query = '') =>
    (await people(who, query)).result.map((person) => person.name);

  it('lists the active people the user may call, never themselves, by name; sellers see staff and admins', async () => {
    const staff = await people('Staff');
    expect(staff.result.map((person) => person.name)).toEqual([
      'Asha Admin',
      'Bela Blocked',
      'Kavya Kesar',
      'Sunil Seller',
    ]);
    expect(staff.count).toBe(4);
    expect(staff.result[0]).toEqual({
      id: as.ids.Admin,
      name: 'Asha Admin',
      email: 'admin@demo.local',
      role: 'Admin',
      avatarUrl: null,
      online: false,
      blocked: false,
    });
    // The seller whose subscription is blocked is listed (a search finds them), marked as such.
    expect(staff.result.filter((person) => person.blocked).map((person) => person.name)).toEqual([
      'Bela Blocked',
    ]);
    expect(await names('Seller')).toEqual(['Asha Admin', 'Sam Staff']);
    expect(await names('Kyc')).toEqual(['Asha Admin', 'Sam Staff']);
    expect(await names('Admin')).toEqual(['Bela Blocked', 'Kavya Kesar', 'Sam Staff', 'Sunil Seller']);

    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, as.ids.Kyc));
    try {
      expect(await names('Staff')).toEqual(['Asha Admin', 'Bela Blocked', 'Sunil Seller']);
    } finally {
      await t.database.db.update(users).set({ isActive: true }).where(eq(users.id, as.ids.Kyc));
    }
  });

  it('pages and searches on the server, by name or e-mail, taking % and _ literally', async () => {
    const first = await people('Staff', '?limit=2');
    const second = await people('Staff', '?limit=2&skip=2');
    expect(first.result.map((person) => person.name)).toEqual(['Asha Admin', 'Bela Blocked']);
    expect(second.result.map((person) => person.name)).toEqual(['Kavya Kesar', 'Sunil Seller']);
    expect([first.count, second.count]).toEqual([4, 4]);
    expect((await people('Staff', '?skip=10')).result).toEqual([]);

    expect(await names('Staff', '?search=KESAR')).toEqual(['Kavya Kesar']);
    expect(await names('Staff', '?search=sunil%20sel')).toEqual(['Sunil Seller']);
    expect(await names('Staff', '?search=blocked%40demo')).toEqual(['Bela Blocked']);
    expect(await people('Seller', '?search=kavya')).toEqual({ result: [], count: 0 });
    for (const wildcard of ['%25', '_', '%5C'])
      expect(await people('Staff', `?search=${wildcard}`)).toEqual({ result: [], count: 0 });
    expect((await as('Staff', 'GET', `${VIDEO_PEOPLE_PATH}?limit=51`)).statusCode).toBe(400);
    expect((await as('Staff', 'GET', `${VIDEO_PEOPLE_PATH}?search=${'a'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('says who is online, on this page', async () => {
    const admin = await openTab(t.app, { token: as.tokens.Admin, userId: as.ids.Admin });
    try {
      const online = (await people('Seller')).result.map((person) => [person.name, person.online]);
      expect(online).toEqual([
        ['Asha Admin', true],
        ['Sam Staff', false],
      ]);
    } finally {
      admin.socket.disconnect();
    }
  });

  it('tells a watching picker when a person on its page comes online and goes offline', async () => {
    const staff = await openTab(t.app, { token: as.tokens.Staff, userId: as.ids.Staff });
    const tabs = [staff];
    try {
      // Only people the watcher may call are watched: a seller watching another seller learns nothing.
      const seller = await openTab(t.app, { token: as.tokens.Seller, userId: as.ids.Seller });
      tabs.push(seller);
      expect(await seller.send<WatchPresenceAck>(E.watchPresence, { userIds: [as.ids.Kyc] })).toEqual({
        ok: true,
        online: [],
      });
      expect(
        await staff.send<WatchPresenceAck>(E.watchPresence, { userIds: [as.ids.Kyc, as.ids.Seller] }),
      ).toEqual({ ok: true, online: [as.ids.Seller] });

      const kyc = await openTab(t.app, { token: as.tokens.Kyc, userId: as.ids.Kyc });
      tabs.push(kyc);
      expect(await staff.next<PresenceEvent>(E.presence)).toEqual({ userId: as.ids.Kyc, online: true });
      kyc.socket.disconnect();
      expect(await staff.next<PresenceEvent>(E.presence)).toEqual({ userId: as.ids.Kyc, online: false });
      expect(await seller.untaken(t.app)).toEqual([]);

      // An empty page stops the watch.
      expect(await staff.send(E.watchPresence, { userIds: [] })).toEqual({ ok: true, online: [] });
      tabs.push(await openTab(t.app, { token: as.tokens.Kyc, userId: as.ids.Kyc }));
      expect(await staff.untaken(t.app)).toEqual([]);
    } finally {
      for (const each of tabs) each.socket.disconnect();
    }
  });

  it('answers 401 without a token, 403 without the calls permission and to a blocked seller', async () => {
    expect((await t.app.inject({ method: 'GET', url: VIDEO_PEOPLE_PATH })).statusCode).toBe(401);
    await replaceUserOverrides(t.database.db, as.ids.Staff, { '/calls/call-history': [] });
    t.app.permissionCache.forget();
    try {
      const refused = await as('Staff', 'GET', VIDEO_PEOPLE_PATH);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      await replaceUserOverrides(t.database.db, as.ids.Staff, {});
      t.app.permissionCache.forget();
    }
    const blocked = await as('Blocked', 'GET', VIDEO_PEOPLE_PATH);
    expect(blocked.statusCode).toBe(403);
    expect(json(blocked)).toMatchObject({ code: 'SELLER_BLOCKED' });
  });
});
