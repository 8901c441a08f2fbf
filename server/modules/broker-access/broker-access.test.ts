// The external broker's questions, in the request formats EMQX 5 and mosquitto-go-auth document
// (contracts/broker-access.ts has the links). Neither product runs here: the requests are built as they
// send them.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SALES_BOT_CHATS, salesBotFilter, salesBotTopic } from '../../../contracts/broker-topics';
import { loggerOptions } from '../../app';
import { users } from '../../db/schema';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../../test-support';
import { createAuctionLinks } from '../auctions/bidders';
import { mailLinkSecret } from '../mail-links/links';
import { BROKER_SECRET_QUERY } from './routes';

const SECRET = 'broker-http-secret-0123456789-abcdefghij';
const PREFIX = 'mp';
const ownTopic = (userId: string) => `${PREFIX}_${userId}_message`;

interface Account {
  userId: string;
  token: string;
  sellerId: string | null;
}

describe('broker auth and ACL over HTTP', () => {
  let t: TestApp;
  const accounts: Record<'Admin' | 'Seller' | 'Kyc', Account> = {} as never;

  beforeAll(async () => {
    t = await createTestApp({ env: { BROKER_HTTP_SECRET: SECRET }, jobs: { enabled: false } });
    for (const role of ['Admin', 'Seller', 'Kyc'] as const) {
      const { token, userId } = await signInAs(t.app, demoEmails[role]);
      const [row] = await t.database.db
        .select({ sellerId: users.sellerId })
        .from(users)
        .where(eq(users.id, userId));
      accounts[role] = { userId, token, sellerId: row?.sellerId ?? null };
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** As EMQX sends it: a JSON body from its template, the secret in a configured header. */
  const emqx = (
    path: 'auth' | 'acl',
    body: Record<string, unknown>,
    headers = { authorization: `Bearer ${SECRET}` },
  ) => t.app.inject({ method: 'POST', url: `/api/v1/broker/${path}`, headers, payload: body });

  /** As mosquitto-go-auth's HTTP backend sends it: JSON (default) or a form, the secret in the URI. */
  const goAuth = (
    path: 'auth' | 'acl',
    body: Record<string, string | number>,
    mode: 'json' | 'form' = 'json',
  ) => {
    const url = `/api/v1/broker/${path}?${BROKER_SECRET_QUERY}=${encodeURIComponent(SECRET)}`;
    if (mode === 'json') return t.app.inject({ method: 'POST', url, payload: body });
    const form = new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)]));
    return t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  };

  describe('the secret', () => {
    it('answers 401 without it or with a wrong one, in every place it may come, and reads no body', async () => {
      const body = {
        username: accounts.Seller.userId,
        password: accounts.Seller.token,
        peerhost: '10.0.0.5',
      };
      const refused = [
        await t.app.inject({ method: 'POST', url: '/api/v1/broker/auth', payload: body }),
        await emqx('auth', body, { authorization: 'Bearer wrong-secret-wrong-secret-wrong-secret' }),
        await emqx('auth', body, { authorization: `Bearer ${SECRET}x` }),
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/broker/acl?${BROKER_SECRET_QUERY}=nope`,
          payload: { username: 'x', topic: 't', acc: 1 },
        }),
        // A broken body is not even parsed without the secret.
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/broker/acl',
          headers: { 'content-type': 'application/json' },
          payload: '{"broken',
        }),
      ];
      for (const response of refused) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: expect.any(String), code: 'UNAUTHORIZED' });
      }
    });

    it('accepts it as Authorization: Bearer, X-Broker-Secret or the broker_secret parameter', async () => {
      const body = { username: accounts.Seller.userId, password: accounts.Seller.token };
      const byHeader = await emqx('auth', { ...body, peerhost: '10.0.0.5' }, {
        'x-broker-secret': SECRET,
      } as never);
      expect(byHeader.statusCode).toBe(200);
      expect((await goAuth('auth', body)).statusCode).toBe(200);
    });

    it('never reaches the request log from the URI', () => {
      const options = loggerOptions(t.config) as {
        serializers: { req(req: { method: string; url: string }): { url: string } };
      };
      const logged = options.serializers.req({
        method: 'POST',
        url: `/api/v1/broker/acl?${BROKER_SECRET_QUERY}=${SECRET}&x=1`,
      });
      expect(logged.url).toBe(`/api/v1/broker/acl?${BROKER_SECRET_QUERY}=[redacted]&x=1`);
    });

    it('does not exist without BROKER_HTTP_SECRET: 404', async () => {
      const plain = await createTestApp({ jobs: { enabled: false } });
      try {
        const response = await plain.app.inject({
          method: 'POST',
          url: '/api/v1/broker/auth',
          headers: { authorization: `Bearer ${SECRET}` },
          payload: { username: 'u', password: 'p' },
        });
        expect(response.statusCode).toBe(404);
      } finally {
        await plain.close();
      }
    });
  });

  describe('EMQX 5 (HTTP authentication and authorization)', () => {
    it('authenticates a user with their own access token, never as superuser, until the token expires', async () => {
      const { userId, token } = accounts.Seller;
      const response = await emqx('auth', {
        clientid: 'tab-1',
        username: userId,
        password: token,
        peerhost: '10.0.0.5',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const answer = response.json();
      expect(answer).toEqual({ result: 'allow', is_superuser: false, expire_at: expect.any(Number) });
      const now = Math.floor(Date.now() / 1000);
      expect(answer.expire_at).toBeGreaterThan(now);
      expect(answer.expire_at).toBeLessThanOrEqual(now + t.config.ACCESS_TOKEN_TTL + 1);
    });

    it('denies (status 200, result deny) a bad token, another user’s token, and no password', async () => {
      const { userId } = accounts.Seller;
      const cases = [
        { clientid: 'c', username: userId, password: 'not-a-token', peerhost: '10.0.0.5' },
        { clientid: 'c', username: userId, password: accounts.Admin.token, peerhost: '10.0.0.5' },
        { clientid: 'c', username: userId, password: '', peerhost: '10.0.0.5' },
      ];
      for (const body of cases) {
        const response = await emqx('auth', body);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ result: 'deny', is_superuser: false });
      }
    });

    it('allows a user’s own topics and their own sales-bot chats, denies anyone else’s', async () => {
      const seller = accounts.Seller;
      const other = accounts.Kyc;
      const acl = async (user: Account, action: string, topic: string) =>
        (
          await emqx('acl', {
            username: user.userId,
            clientid: 'tab-1',
            peerhost: '10.0.0.5',
            action,
            topic,
            qos: '1',
            retain: 'false',
          })
        ).json().result;
      expect(await acl(seller, 'subscribe', ownTopic(seller.userId))).toBe('allow');
      expect(await acl(seller, 'publish', ownTopic(seller.userId))).toBe('allow');
      expect(await acl(seller, 'subscribe', salesBotFilter(seller.sellerId as string))).toBe('allow');
      expect(await acl(seller, 'subscribe', ownTopic(other.userId))).toBe('deny');
      expect(await acl(seller, 'publish', ownTopic(other.userId))).toBe('deny');
      expect(await acl(seller, 'subscribe', salesBotFilter(other.sellerId as string))).toBe('deny');
      expect(await acl(seller, 'subscribe', '#')).toBe('deny');
      expect(await acl(seller, 'subscribe', ALL_SALES_BOT_CHATS)).toBe('deny');
      // Chat events come from the server alone: not even a seller publishes on their own chats.
      expect(await acl(seller, 'publish', salesBotTopic(seller.sellerId as string, 'session-1'))).toBe(
        'deny',
      );
      // An admin who may view every help chat listens to all of them.
      expect(await acl(accounts.Admin, 'subscribe', ALL_SALES_BOT_CHATS)).toBe('allow');
    });

    it('denies everything to a user who is no longer active, and to a username that is no user', async () => {
      const { userId } = accounts.Kyc;
      await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
      try {
        const response = await emqx('acl', {
          username: userId,
          action: 'subscribe',
          topic: ownTopic(userId),
        });
        expect(response.json()).toEqual({ result: 'deny', is_superuser: false });
      } finally {
        await t.database.db.update(users).set({ isActive: true }).where(eq(users.id, userId));
      }
      const stranger = await emqx('acl', {
        username: 'not-a-user',
        action: 'subscribe',
        topic: 'mp_x_message',
      });
      expect(stranger.json().result).toBe('deny');
    });
  });

  describe('mosquitto-go-auth (HTTP backend)', () => {
    it('authenticates by status: 200 { ok: true } for a valid token, 403 { ok: false, error } otherwise', async () => {
      const { userId, token } = accounts.Seller;
      for (const mode of ['json', 'form'] as const) {
        const allowed = await goAuth('auth', { username: userId, password: token, clientid: 'tab-1' }, mode);
        expect(allowed.statusCode).toBe(200);
        expect(allowed.json()).toEqual({ ok: true, error: '' });
        const denied = await goAuth(
          'auth',
          { username: userId, password: 'forged', clientid: 'tab-1' },
          mode,
        );
        expect(denied.statusCode).toBe(403);
        expect(denied.json()).toEqual({ ok: false, error: 'Invalid or expired access token' });
        const otherUsers = await goAuth(
          'auth',
          { username: userId, password: accounts.Admin.token, clientid: 'c' },
          mode,
        );
        expect(otherUsers.statusCode).toBe(403);
      }
    });

    it('checks acc 1 read, 2 write, 3 readwrite, 4 subscribe against the user’s own topics', async () => {
      const seller = accounts.Seller;
      const other = accounts.Kyc;
      const acl = async (user: Account, acc: number, topic: string, mode: 'json' | 'form' = 'json') => {
        const response = await goAuth('acl', { username: user.userId, clientid: 'tab-1', topic, acc }, mode);
        expect(response.json()).toEqual({ ok: response.statusCode === 200, error: expect.any(String) });
        return response.statusCode;
      };
      for (const mode of ['json', 'form'] as const) {
        expect(await acl(seller, 4, ownTopic(seller.userId), mode)).toBe(200);
        expect(await acl(seller, 1, ownTopic(seller.userId), mode)).toBe(200);
        expect(await acl(seller, 2, ownTopic(seller.userId), mode)).toBe(200);
        expect(await acl(seller, 3, ownTopic(seller.userId), mode)).toBe(200);
        expect(await acl(seller, 4, ownTopic(other.userId), mode)).toBe(403);
        expect(await acl(seller, 1, ownTopic(other.userId), mode)).toBe(403);
        expect(await acl(seller, 2, ownTopic(other.userId), mode)).toBe(403);
      }
      // Receiving a message of one's own sales-bot chat is allowed, writing there is not (3 needs both).
      const chat = salesBotTopic(seller.sellerId as string, 'session-1');
      expect(await acl(seller, 1, chat)).toBe(200);
      expect(await acl(seller, 3, chat)).toBe(403);
      expect(await acl(seller, 1, salesBotTopic(other.sellerId as string, 'session-1'))).toBe(403);
      expect(await acl(seller, 4, '#')).toBe(403);
    });
  });

  describe('bad input', () => {
    it('answers 400 { message } for a body that is neither format, never a stack trace', async () => {
      const cases: Record<string, unknown>[] = [
        { username: accounts.Seller.userId, topic: ownTopic(accounts.Seller.userId) },
        { username: accounts.Seller.userId, topic: 't', action: 'subscribe', acc: 4 },
        { username: accounts.Seller.userId, topic: 't', acc: 9 },
        { username: accounts.Seller.userId, topic: 't', action: 'delete' },
        { username: accounts.Seller.userId, topic: '', acc: 4 },
        { topic: 't', acc: 4 },
      ];
      for (const body of cases) {
        const response = await emqx('acl', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toMatchObject({ message: expect.any(String) });
        expect(response.body).not.toMatch(/at .*\.ts:\d+/);
      }
      const huge = await emqx('auth', { username: 'u', password: 'x'.repeat(20_000) });
      expect([400, 413]).toContain(huge.statusCode);
    });
  });

  describe('an auction’s public page (issue 32)', () => {
    const auctionId = '11111111-2222-4333-8444-555555555555';

    it('connects with the auction’s signed link and a client id naming that auction, nothing else', async () => {
      // The test app's link secret is the one stored in the database when none is configured.
      const secret = await mailLinkSecret(t.app.db, t.config.MAIL_LINK_SECRET);
      const token = createAuctionLinks(secret, '').token(auctionId);
      const ok = await emqx('auth', {
        username: 'auction-watcher',
        password: token,
        clientid: `auction-${auctionId}-tab1`,
        peerhost: '10.0.0.9',
      });
      expect(ok.json()).toMatchObject({ result: 'allow' });
      const otherAuction = await emqx('auth', {
        username: 'auction-watcher',
        password: token,
        clientid: 'auction-00000000-0000-4000-8000-000000000000-tab1',
        peerhost: '10.0.0.9',
      });
      expect(otherAuction.json()).toMatchObject({ result: 'deny' });
      const forged = await goAuth('auth', {
        username: 'auction-watcher',
        password: `${auctionId}.${'A'.repeat(43)}`,
        clientid: `auction-${auctionId}-tab1`,
      });
      expect(forged.statusCode).toBe(403);
    });

    it('lets a watcher read its auction’s topic only, and nobody publish there', async () => {
      const watcher = { username: 'auction-watcher', clientid: `auction-${auctionId}-tab1` };
      expect(
        (await emqx('acl', { ...watcher, topic: `auctions/${auctionId}`, action: 'subscribe' })).json(),
      ).toMatchObject({ result: 'allow' });
      expect(
        (await emqx('acl', { ...watcher, topic: 'auctions/other', action: 'subscribe' })).json(),
      ).toMatchObject({ result: 'deny' });
      expect(
        (await emqx('acl', { ...watcher, topic: `auctions/${auctionId}`, action: 'publish' })).json(),
      ).toMatchObject({ result: 'deny' });
      const admin = { username: accounts.Admin.userId, clientid: 'admin-tab' };
      expect((await goAuth('acl', { ...admin, topic: `auctions/${auctionId}`, acc: 4 })).statusCode).toBe(
        200,
      );
      expect((await goAuth('acl', { ...admin, topic: `auctions/${auctionId}`, acc: 2 })).statusCode).toBe(
        403,
      );
    });
  });
});
