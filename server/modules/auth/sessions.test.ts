import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { io as ioClient } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIGNALLING_PATH } from '../../../contracts/socket-events';
import { buildApp } from '../../app';
import { type Database, openDatabase } from '../../db/client';
import { passwordResets, users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/secrets';
import {
  apiAs,
  createTestApp,
  DEMO_PASSWORD_FOR_TESTS,
  demoEmails,
  json,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';
import { createPasswordReset } from './service';
import { createSessionGate } from './sessions';
import { SESSION_ENDED_MESSAGE } from './tokens';

const HELP_CHATS = '/api/v1/queryBot';

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

async function listSellers(app: FastifyInstance, token: string) {
  return app.inject({
    method: 'GET',
    url: '/api/v1/sellers/listSellers?isActive=true',
    headers: bearer(token),
  });
}

async function deactivateStaff(app: FastifyInstance, adminToken: string, staffId: string) {
  const response = await app.inject({
    method: 'PUT',
    url: `/api/v1/staff/updateStaffStatus/${staffId}`,
    headers: bearer(adminToken),
    payload: { isActive: false },
  });
  expect(response.statusCode).toBe(200);
}

async function reactivateStaff(app: FastifyInstance, adminToken: string, staffId: string) {
  const response = await app.inject({
    method: 'PUT',
    url: `/api/v1/staff/updateStaffStatus/${staffId}`,
    headers: bearer(adminToken),
    payload: { isActive: true },
  });
  expect(response.statusCode).toBe(200);
}

function expectEnded(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({ message: SESSION_ENDED_MESSAGE, code: 'SESSION_ENDED' });
}

describe.each(testBackends)('sessions that really end, on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(() => t.close());

  it("signing out ends that session's access token at once; the user's other sessions go on", async () => {
    const here = await signInAs(t.app, demoEmails.Admin);
    const elsewhere = await signInAs(t.app, demoEmails.Admin);
    expect((await listSellers(t.app, here.token)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signout',
      cookies: { mp_rt: here.refreshCookie },
    });
    expect(out.statusCode).toBe(204);
    expectEnded(await listSellers(t.app, here.token));
    expect((await listSellers(t.app, elsewhere.token)).statusCode).toBe(200);
  });

  it('deactivating a staff member ends their access at once: no list, no chat answer, no refresh', async () => {
    const as = await apiAs(t.app);
    const staff = await signInAs(t.app, demoEmails.Staff);
    const chats = json<{ result: { chatId: string }[] }>(
      await t.app.inject({
        method: 'GET',
        url: `${HELP_CHATS}/listQueryBotChats`,
        headers: bearer(staff.token),
      }),
    );
    const chatId = chats.result[0]?.chatId as string;
    expect(chatId).toBeTruthy();
    expect((await listSellers(t.app, staff.token)).statusCode).toBe(200);

    await deactivateStaff(t.app, as.tokens.Admin, staff.userId);
    try {
      expectEnded(await listSellers(t.app, staff.token));
      expectEnded(
        await t.app.inject({
          method: 'POST',
          url: `${HELP_CHATS}/manualAnswer/${chatId}`,
          headers: bearer(staff.token),
          payload: { message: 'Still here?' },
        }),
      );
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        cookies: { mp_rt: staff.refreshCookie },
      });
      expect(refreshed.statusCode).toBe(401);
    } finally {
      await reactivateStaff(t.app, as.tokens.Admin, staff.userId);
    }
    // Reactivated, they sign in again; the old session stays ended.
    const again = await signInAs(t.app, demoEmails.Staff);
    expect((await listSellers(t.app, again.token)).statusCode).toBe(200);
    expectEnded(await listSellers(t.app, staff.token));
  });

  it('a password reset ends every session at once and retires every other reset and invitation link', async () => {
    const seller = await signInAs(t.app, demoEmails.Kyc);
    const older = await createPasswordReset(t.database.db, demoEmails.Kyc, 3 * 24 * 3600_000);
    // Links are one a minute: make the first one older so a second one can be made.
    await t.database.db
      .update(passwordResets)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(passwordResets.tokenHash, hashToken(older?.token as string)));
    const used = await createPasswordReset(t.database.db, demoEmails.Kyc);
    expect(older && used).toBeTruthy();

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: used?.token, password: 'Fresh-passw0rd' },
    });
    expect(reset.statusCode).toBe(200);
    expectEnded(
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/users/byToken/current',
        headers: bearer(seller.token),
      }),
    );
    const outstanding = await t.database.db
      .select({ id: passwordResets.id })
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, seller.userId), isNull(passwordResets.usedAt)));
    expect(outstanding).toEqual([]);
    const olderLink = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: older?.token, password: 'Other-passw0rd' },
    });
    expect(olderLink.statusCode).toBe(400);
    expect(json(olderLink).code).toBe('RESET_INVALID');
    // Put the demo password back for the other tests.
    await t.database.db
      .update(users)
      .set({ passwordHash: await hashPassword(DEMO_PASSWORD_FOR_TESTS) })
      .where(eq(users.id, seller.userId));
  });

  it('closes the broker and signalling connections of a session that ends', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const origin = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const staff = await signInAs(t.app, demoEmails.Staff);
    const broker = await mqtt.connectAsync(`ws://${origin}/mqtt`, {
      username: staff.userId,
      password: staff.token,
      reconnectPeriod: 0,
      clientId: `session-test-${Math.random().toString(36).slice(2)}`,
    });
    const socket = ioClient(`http://${origin}`, {
      path: SIGNALLING_PATH,
      auth: { token: staff.token },
      reconnection: false,
      transports: ['websocket'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const brokerClosed = new Promise<void>((resolve) => broker.once('close', () => resolve()));
      const socketGone = new Promise<string>((resolve) =>
        socket.once('disconnect', (reason) => resolve(reason)),
      );
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signout',
        cookies: { mp_rt: staff.refreshCookie },
      });
      expect(out.statusCode).toBe(204);
      await brokerClosed;
      expect(await socketGone).toBe('io server disconnect');
      // Coming back with the ended session's token is refused.
      await expect(
        mqtt.connectAsync(`ws://${origin}/mqtt`, {
          username: staff.userId,
          password: staff.token,
          reconnectPeriod: 0,
        }),
      ).rejects.toThrow();
    } finally {
      socket.close();
      await broker.endAsync(true);
    }
  });
});

// Several instances on one database: a session ended on one instance ends on the others, though each
// answers from its own memory.
describe.each(testBackends)('sessions across two instances, on %s', (backend) => {
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: Database | null = null;
  beforeAll(async () => {
    a = await createTestApp({ backend });
    // PGlite is opened by one process: the second instance shares it in-process. On PostgreSQL the
    // second instance has its own pool and its own listening connection, as another server would.
    bDatabase = a.databaseUrl ? await openDatabase({ databaseUrl: a.databaseUrl, dataDir: a.dataDir }) : null;
    b = await buildApp({ config: a.config, database: bDatabase ?? a.database });
    await b.ready();
  });
  afterAll(async () => {
    await b.close();
    await bDatabase?.close();
    await a.close();
  });

  it('deactivating on one instance ends the access token on the other, which had it cached as live', async () => {
    const admin = await signInAs(a.app, demoEmails.Admin);
    const staff = await signInAs(a.app, demoEmails.Staff);
    // B has seen the token (and cached its session as live).
    expect((await listSellers(b, staff.token)).statusCode).toBe(200);
    expect((await listSellers(b, staff.token)).statusCode).toBe(200);

    await deactivateStaff(a.app, admin.token, staff.userId);
    try {
      expectEnded(await listSellers(a.app, staff.token));
      // B hears it through the database (NOTIFY at commit); on PostgreSQL over a connection of its own.
      await vi.waitFor(async () => expect((await listSellers(b, staff.token)).statusCode).toBe(401), {
        timeout: 2000,
        interval: 10,
      });
      expectEnded(await listSellers(b, staff.token));
    } finally {
      await reactivateStaff(a.app, admin.token, staff.userId);
    }
  });

  it('signing out on one instance ends the session on the other', async () => {
    const seller = await signInAs(a.app, demoEmails.Seller);
    expect(
      (await b.inject({ method: 'GET', url: '/api/v1/users/byToken/current', headers: bearer(seller.token) }))
        .statusCode,
    ).toBe(200);
    const out = await b.inject({
      method: 'POST',
      url: '/api/v1/auth/signout',
      cookies: { mp_rt: seller.refreshCookie },
    });
    expect(out.statusCode).toBe(204);
    await vi.waitFor(
      async () =>
        expect(
          (
            await a.app.inject({
              method: 'GET',
              url: '/api/v1/users/byToken/current',
              headers: bearer(seller.token),
            })
          ).statusCode,
        ).toBe(401),
      { timeout: 2000, interval: 10 },
    );
  });
});

describe('the session gate', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
  });
  afterAll(() => database.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers a known live session from memory: one database read, not one per request', async () => {
    const t = await createTestApp();
    try {
      const session = await signInAs(t.app, demoEmails.Admin);
      const gate = await createSessionGate(t.database);
      const { sid } = JSON.parse(Buffer.from(session.token.split('.')[1] ?? '', 'base64url').toString());
      const reads = vi.spyOn(t.database.db, 'select');
      for (let i = 0; i < 100; i++) expect(await gate.isLive(sid, session.userId)).toBe(true);
      expect(reads).toHaveBeenCalledTimes(1);
      // Ending it elsewhere (another gate, as another instance would) reaches this one.
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signout',
        cookies: { mp_rt: session.refreshCookie },
      });
      expect(out.statusCode).toBe(204);
      expect(await gate.isLive(sid, session.userId)).toBe(false);
      await gate.close();
    } finally {
      await t.close();
    }
  });

  it('reads again after its time to live, and refuses a session of another user', async () => {
    let clock = 0;
    const gate = await createSessionGate(database, { ttlMs: 1000, now: () => clock });
    const reads = vi.spyOn(database.db, 'select');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await gate.isLive(unknown, unknown)).toBe(false);
    expect(await gate.isLive(unknown, unknown)).toBe(false);
    expect(reads).toHaveBeenCalledTimes(1);
    clock = 1500;
    expect(await gate.isLive(unknown, unknown)).toBe(false);
    expect(reads).toHaveBeenCalledTimes(2);
    await gate.close();
  });
});
