import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { sellers, users } from '../db/schema';
import { createTestApp, demoEmails, json, signInAs, type TestApp, testBackends } from '../test-support';
import { createBlockedSellerCache, SELLER_ACCESS_CHANGED_CHANNEL } from './blocked-seller-cache';

const BASE = '/api/v1/subscriptionManager';
/** A seller API closed to blocked sellers that reads nothing of `sellers` itself. */
const CLOSED = '/api/v1/globalConfigs/getCountriesList';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const statusOf = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: 'GET', url: CLOSED, headers: bearer(token) })).statusCode;

/** The statements the database driver runs that read `sellers`, from now on. */
function watchSellerReads(database: Database) {
  const client = (database.db as unknown as { $client: { query: (text: unknown) => unknown } }).$client;
  const query = vi.spyOn(client, 'query');
  const text = (call: unknown[]) => {
    const first = call[0];
    return typeof first === 'string' ? first : String((first as { text?: string })?.text ?? '');
  };
  return {
    count: () => query.mock.calls.filter((call) => /from "sellers"/i.test(text(call))).length,
    all: () => query.mock.calls.length,
    stop: () => query.mockRestore(),
  };
}

async function sellerIdOf(database: Database, email: string): Promise<string> {
  const [row] = await database.db
    .select({ sellerId: users.sellerId })
    .from(users)
    .where(eq(users.email, email));
  if (!row?.sellerId) throw new Error(`${email} is not a seller`);
  return row.sellerId;
}

// Two instances on one database, each with its own cache: on PostgreSQL B has its own pool and
// listening connection, as another server would; PGlite is opened by one process, so B shares it.
describe.each(testBackends)('the blocked-seller check cached per instance, on %s', (backend) => {
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: Database | null = null;
  let admin: string;
  let blocked: string;
  let seller: string;
  let blockedSellerId: string;

  const setBlocked = async (app: FastifyInstance, value: boolean) => {
    const response = await app.inject({
      method: 'POST',
      url: `${BASE}/blockSubscription`,
      payload: { sellerId: blockedSellerId, blocked: value },
      headers: bearer(admin),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const eventually = (app: FastifyInstance, status: number) =>
    vi.waitFor(async () => expect(await statusOf(app, blocked)).toBe(status), {
      timeout: 3000,
      interval: 10,
    });

  beforeAll(async () => {
    a = await createTestApp({ backend });
    bDatabase = a.databaseUrl ? await openDatabase({ databaseUrl: a.databaseUrl, dataDir: a.dataDir }) : null;
    b = await buildApp({ config: a.config, database: bDatabase ?? a.database });
    await b.ready();
    admin = (await signInAs(a.app, demoEmails.Admin)).token;
    blocked = (await signInAs(a.app, demoEmails.Blocked)).token;
    seller = (await signInAs(a.app, demoEmails.Seller)).token;
    blockedSellerId = await sellerIdOf(a.database, demoEmails.Blocked);
  });
  afterAll(async () => {
    await b.close();
    await bDatabase?.close();
    await a.close();
  });

  it('refuses a blocked seller; an approved renewal lets them in on their next request', async () => {
    const refused = await a.app.inject({ method: 'GET', url: CLOSED, headers: bearer(blocked) });
    expect(refused.statusCode).toBe(403);
    expect(json(refused).code).toBe('SELLER_BLOCKED');
    expect(await statusOf(a.app, blocked)).toBe(403); // now answered from the cache

    const plans = json<{ result: { id: string; name: string }[] }>(
      await a.app.inject({ method: 'GET', url: `${BASE}/getSubscriptionPlans`, headers: bearer(blocked) }),
    ).result;
    const asked = await a.app.inject({
      method: 'POST',
      url: `${BASE}/requestRenewal`,
      payload: { planId: plans.find((plan) => plan.name === 'Monthly')?.id },
      headers: bearer(blocked),
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const requestId = json<{ request: { id: string } }>(asked).request.id;
    expect(await statusOf(a.app, blocked)).toBe(403); // asking is not being let in
    const approved = await a.app.inject({
      method: 'POST',
      url: `${BASE}/decideRenewalRequest/${requestId}`,
      payload: { decision: 'approve' },
      headers: bearer(admin),
    });
    expect(approved.statusCode, approved.body).toBe(200);
    try {
      // No waiting, no new token: the very next request.
      expect(await statusOf(a.app, blocked)).toBe(200);
    } finally {
      await setBlocked(a.app, true);
    }
    expect(await statusOf(a.app, blocked)).toBe(403);
  });

  it('a write straight to the database is seen by the next request on the instance that made it', async () => {
    expect(await statusOf(a.app, blocked)).toBe(403);
    await a.database.db.update(sellers).set({ blocked: false }).where(eq(sellers.id, blockedSellerId));
    try {
      expect(await statusOf(a.app, blocked)).toBe(200);
      expect(await statusOf(a.app, blocked)).toBe(200);
      // A blocked seller who is new is let in too (their first period is not a lapse).
      await a.database.db
        .update(sellers)
        .set({ blocked: true, isNewSeller: true })
        .where(eq(sellers.id, blockedSellerId));
      expect(await statusOf(a.app, blocked)).toBe(200);
    } finally {
      await a.database.db
        .update(sellers)
        .set({ blocked: true, isNewSeller: false })
        .where(eq(sellers.id, blockedSellerId));
    }
    expect(await statusOf(a.app, blocked)).toBe(403);
  });

  it('a change made through A reaches B, which had the seller cached', async () => {
    expect(await statusOf(b, blocked)).toBe(403);
    expect(await statusOf(b, blocked)).toBe(403);
    await setBlocked(a.app, false);
    try {
      await eventually(b, 200);
    } finally {
      await setBlocked(a.app, true);
    }
    await eventually(b, 403);
    // And the other way round: B's write is heard by A.
    expect(await statusOf(a.app, blocked)).toBe(403);
    await setBlocked(b, false);
    try {
      await eventually(a.app, 200);
    } finally {
      await setBlocked(b, true);
    }
    await eventually(a.app, 403);
  });

  it("runs no statement on sellers for a seller's repeated requests, after the first", async () => {
    a.app.blockedSellerCache.forget();
    const reads = watchSellerReads(a.database);
    try {
      expect(await statusOf(a.app, seller)).toBe(200);
      expect(reads.count()).toBe(1);
      expect(await statusOf(a.app, seller)).toBe(200);
      expect(await statusOf(a.app, seller)).toBe(200);
      expect(await statusOf(a.app, blocked)).toBe(403);
      expect(await statusOf(a.app, blocked)).toBe(403);
      expect(reads.count()).toBe(2); // one per seller
      expect(reads.all()).toBeGreaterThan(0);
    } finally {
      reads.stop();
    }
  });
});

describe('the blocked-seller cache', () => {
  let t: TestApp;
  let blockedSellerId: string;
  let demoSellerId: string;
  beforeAll(async () => {
    t = await createTestApp();
    blockedSellerId = await sellerIdOf(t.database, demoEmails.Blocked);
    demoSellerId = await sellerIdOf(t.database, demoEmails.Seller);
    return () => t.close();
  });

  it('reads a seller once, until the seller changes', async () => {
    const cache = await createBlockedSellerCache(t.database);
    const select = vi.spyOn(t.database.db, 'select');
    try {
      expect(await cache.isBlocked(blockedSellerId)).toBe(true);
      expect(await cache.isBlocked(blockedSellerId)).toBe(true);
      expect(select).toHaveBeenCalledTimes(1);
      // Another seller's change leaves this one cached; its own change does not.
      await t.database.db.update(sellers).set({ blocked: true }).where(eq(sellers.id, demoSellerId));
      await t.database.db.update(sellers).set({ blocked: false }).where(eq(sellers.id, demoSellerId));
      expect(await cache.isBlocked(blockedSellerId)).toBe(true);
      expect(select).toHaveBeenCalledTimes(1);
      await t.database.db.update(sellers).set({ isNewSeller: true }).where(eq(sellers.id, blockedSellerId));
      try {
        expect(await cache.isBlocked(blockedSellerId)).toBe(false);
        expect(select).toHaveBeenCalledTimes(2);
      } finally {
        await t.database.db
          .update(sellers)
          .set({ isNewSeller: false })
          .where(eq(sellers.id, blockedSellerId));
      }
      expect(await cache.isBlocked(blockedSellerId)).toBe(true);
    } finally {
      select.mockRestore();
      await cache.close();
    }
  });

  it('does not keep a read that a change overtook', async () => {
    const cache = await createBlockedSellerCache(t.database);
    try {
      const pending = cache.isBlocked(blockedSellerId);
      cache.forget(blockedSellerId);
      await pending;
      const select = vi.spyOn(t.database.db, 'select');
      await cache.isBlocked(blockedSellerId);
      expect(select).toHaveBeenCalled();
      select.mockRestore();
    } finally {
      await cache.close();
    }
  });

  it('forgets every seller on a notification without a seller (a truncate)', async () => {
    const cache = await createBlockedSellerCache(t.database);
    try {
      await cache.isBlocked(blockedSellerId);
      await cache.isBlocked(demoSellerId);
      await t.database.db.execute(sql`select pg_notify(${SELLER_ACCESS_CHANGED_CHANNEL}, '')`);
      const select = vi.spyOn(t.database.db, 'select');
      await cache.isBlocked(blockedSellerId);
      await cache.isBlocked(demoSellerId);
      expect(select).toHaveBeenCalledTimes(2);
      select.mockRestore();
    } finally {
      await cache.close();
    }
  });

  it('keeps at most its bound, forgetting the oldest first, and never an unknown seller', async () => {
    const cache = await createBlockedSellerCache(t.database, { maxSellers: 1 });
    const select = vi.spyOn(t.database.db, 'select');
    try {
      await cache.isBlocked(blockedSellerId);
      await cache.isBlocked(demoSellerId); // pushes the blocked seller out
      await cache.isBlocked(demoSellerId);
      expect(select).toHaveBeenCalledTimes(2);
      expect(await cache.isBlocked(blockedSellerId)).toBe(true);
      expect(select).toHaveBeenCalledTimes(3);

      const unknown = '00000000-0000-4000-8000-000000000000';
      expect(await cache.isBlocked(unknown)).toBe(false);
      expect(await cache.isBlocked(unknown)).toBe(false);
      expect(select).toHaveBeenCalledTimes(5);
    } finally {
      select.mockRestore();
      await cache.close();
    }
  });
});
