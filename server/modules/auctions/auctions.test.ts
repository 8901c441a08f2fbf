// Auctions (issue 32) on PGlite and PostgreSQL: creating and the terms' checks, the list and its tabs,
// the public page's registration by a mailed code, bids decided by the server (refusals in words: not
// started, ended, below the increment, another currency, an unconfirmed bidder, a forged link), proxy
// bidding, the soft close capped by the hard end, an admin cancelling a bid (replayed), closing exactly
// once with two closers at once, and 200 parallel bids from 20 bidders equal to the serial replay.
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  AuctionDetail,
  AuctionList,
  BidderSession,
  BidResult,
  LiveSnapshot,
  PublicAuction,
} from '../../../contracts/auctions';
import { replay } from '../../../contracts/domain/auction-rules';
import { auctionBidders, auctionBids, auctions, products, users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { ledgerBids, stateOf, termsOf } from './bids';
import { closeIfDue } from './closing';
import { lapseOverdue } from './settlement';

const MINUTE = 60_000;

describe.each(testBackends)('auctions API (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let productId: string;
  let mails: { to: string; subject: string; text?: string }[];

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [seller] = await t.app.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const [product] = await t.app.db
      .insert(products)
      .values({
        sellerId,
        title: 'Auction test lamp',
        titleKey: 'auction test lamp',
        sku: 'AUC-LAMP',
        skuKey: 'auc-lamp',
        priceMinor: 5000,
        currency: 'EUR',
        inventory: 5,
      })
      .returning({ id: products.id });
    productId = product!.id;
    mails = [];
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async (mail) => {
      mails.push(mail as never);
      return undefined;
    });
  }, 120_000);
  afterAll(() => t?.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    sellerId,
    productId,
    quantity: 1,
    title: 'Brass lamp, 1920s',
    currency: 'EUR',
    startingPriceMinor: 1000,
    startsAt: new Date(Date.now() + 60 * MINUTE).toISOString(),
    endsAt: new Date(Date.now() + 120 * MINUTE).toISOString(),
    ...overrides,
  });

  /** A published auction moved to have started already (publishing needs a future start). */
  async function liveAuction(overrides: Record<string, unknown> = {}, endsInMs = 60 * MINUTE) {
    const res = await as('Admin', 'POST', '/api/v1/auctions', body({ publish: true, ...overrides }));
    expect(res.statusCode, res.body).toBe(201);
    const id = json<AuctionDetail>(res).id;
    const end = new Date(Date.now() + endsInMs);
    await t.app.db
      .update(auctions)
      .set({
        startsAt: new Date(Date.now() - MINUTE),
        endsAt: end,
        effectiveEndAt: end,
        hardEndAt: new Date(end.getTime() + 10 * MINUTE),
      })
      .where(eq(auctions.id, id));
    const token = new URL(
      json<AuctionDetail>(await as('Admin', 'GET', `/api/v1/auctions/${id}`)).publicUrl!,
    ).pathname
      .split('/')
      .pop()!;
    return { id, token };
  }

  /** A bidder confirmed as the public page would make one (registration is rate limited per address). */
  async function bidder(token: string, name: string, email: string): Promise<BidderSession> {
    const bidderToken = randomBytes(32).toString('base64url');
    const [row] = await t.app.db
      .insert(auctionBidders)
      .values({
        auctionId: token.split('.')[0]!,
        name,
        email,
        confirmedAt: new Date(),
        tokenHash: createHash('sha256').update(bidderToken).digest('hex'),
      })
      .returning();
    return { bidderId: row!.id, bidderToken, name };
  }

  /** The whole registration, through the public page's API and the mailed code. */
  async function registered(token: string, name: string, email: string): Promise<BidderSession> {
    const registered = await t.app.inject({
      method: 'POST',
      url: `/api/v1/auctions/public/${token}/register`,
      payload: { name, email },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const code = /is (\d{6})\./.exec(mails.filter((m) => m.to === email).at(-1)?.text ?? '')?.[1];
    expect(code).toBeDefined();
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/auctions/public/${token}/confirm`,
      payload: { registrationId: json<{ registrationId: string }>(registered).registrationId, code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return json<BidderSession>(confirmed);
  }

  const publicBid = (token: string, session: BidderSession | null, maxMinor: number, currency = 'EUR') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/auctions/public/${token}/bids`,
      payload: { maxMinor, currency },
      headers: session ? { 'x-bidder-token': session.bidderToken } : {},
    });

  it('creates a draft, checks the terms in words, publishes it and lists it under its tab', async () => {
    const bad = await as('Admin', 'POST', '/api/v1/auctions', body({ reserveMinor: 500 }));
    expect(bad.statusCode).toBe(422);
    expect(json(bad).message).toBe('The reserve is at least the starting price.');
    const ends = await as(
      'Admin',
      'POST',
      '/api/v1/auctions',
      body({ hardEndAt: new Date(Date.now() + 90 * MINUTE).toISOString() }),
    );
    expect(json(ends).message).toBe('The hard end is at or after the scheduled end.');
    const past = await as(
      'Admin',
      'POST',
      '/api/v1/auctions',
      body({ publish: true, startsAt: new Date(Date.now() - MINUTE).toISOString() }),
    );
    expect(json(past).message).toBe('A published auction starts in the future.');
    const increments = await as(
      'Admin',
      'POST',
      '/api/v1/auctions',
      body({ increments: [{ fromMinor: 10, stepMinor: 5 }] }),
    );
    expect(json(increments).message).toBe('The first increment starts at 0.');

    const made = await as('Admin', 'POST', '/api/v1/auctions', body());
    expect(made.statusCode, made.body).toBe(201);
    const draft = json<AuctionDetail>(made);
    expect(draft).toMatchObject({ status: 'draft', publicUrl: null, bids: 0 });
    expect(draft.increments[0]).toEqual({ fromMinor: 0, stepMinor: 50 });
    const published = await as(
      'Admin',
      'PUT',
      `/api/v1/auctions/${draft.id}`,
      body({ publish: true, title: 'Brass lamp' }),
    );
    expect(published.statusCode, published.body).toBe(200);
    expect(json<AuctionDetail>(published)).toMatchObject({ status: 'scheduled', title: 'Brass lamp' });
    expect(json<AuctionDetail>(published).publicUrl).toMatch(/\/auction\/[0-9a-f-]{36}\.[\w-]{43}$/);

    const list = json<AuctionList>(await as('Admin', 'GET', '/api/v1/auctions?status=scheduled&query=Brass'));
    expect(list.result.map((r) => r.id)).toContain(draft.id);
    expect(list.tabs.scheduled).toBeGreaterThanOrEqual(1);
    expect(list.result.find((r) => r.id === draft.id)).toMatchObject({ productName: 'Auction test lamp' });
  });

  it('keeps auctions to those with the permission', async () => {
    expect((await as('Seller', 'GET', '/api/v1/auctions')).statusCode).toBe(403);
    expect((await as('Staff', 'POST', '/api/v1/auctions', body())).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auctions' })).statusCode).toBe(401);
  });

  it('registers a bidder by a mailed code and refuses forged links and wrong codes in words', async () => {
    const { id, token } = await liveAuction({ reserveMinor: 4321 });
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/v1/auctions/public/${id}.${'A'.repeat(43)}`,
    });
    expect(forged.statusCode).toBe(404);
    expect(json(forged).message).toBe('This auction link is not valid.');
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/auctions/public/${token}` });
    expect(page.statusCode, page.body).toBe(200);
    const shown = json<PublicAuction>(page);
    expect(shown.snapshot.state).toMatchObject({ status: 'live', priceMinor: null, minimumBidMinor: 1000 });
    // The reserve stays hidden: only whether it is met.
    expect(JSON.stringify(shown)).not.toContain('4321');
    expect(shown.snapshot.state.reserveMet).toBe(false);

    const registered = await t.app.inject({
      method: 'POST',
      url: `/api/v1/auctions/public/${token}/register`,
      payload: { name: 'Asha Verma', email: 'asha@example.com' },
    });
    const { registrationId } = json<{ registrationId: string }>(registered);
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/v1/auctions/public/${token}/confirm`,
      payload: { registrationId, code: mails.at(-1)?.text?.includes('000000') ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(json(wrong).message).toBe('That code is not right. Check the latest e-mail we sent.');
    // Registered but not confirmed: staff bidding for that bidder is refused too.
    const unconfirmed = await as('Admin', 'POST', `/api/v1/auctions/${id}/bids`, {
      bidderId: registrationId,
      maxMinor: 1000,
      currency: 'EUR',
    });
    expect(unconfirmed.statusCode).toBe(403);
    expect(json(unconfirmed).message).toBe(
      'Confirm your e-mail address with the code we sent before bidding.',
    );
    const anonymous = await publicBid(token, null, 1000);
    expect(anonymous.statusCode).toBe(401);
  });

  it('decides bids: proxy maxima, refusals with the minimum, another currency, outbid mail', async () => {
    const { id, token } = await liveAuction({ reserveMinor: 4000 });
    const asha = await registered(token, 'Asha Verma', 'asha@example.com');
    const ben = await registered(token, 'Ben Okafor', 'ben@example.com');
    const first = await publicBid(token, asha, 5000);
    expect(first.statusCode, first.body).toBe(200);
    // A maximum that reaches the reserve meets it at once.
    expect(json<BidResult>(first)).toMatchObject({
      sequence: 1,
      leading: true,
      state: { priceMinor: 4000, reserveMet: true },
    });
    const low = await publicBid(token, ben, 4000);
    expect(low.statusCode).toBe(409);
    expect(json(low).message).toBe('Bid at least €41.00.');
    const yen = await publicBid(token, ben, 6000, 'JPY');
    expect(yen.statusCode).toBe(422);
    expect(json(yen).message).toBe('This auction takes bids in EUR.');
    // Ben's 45 is below Asha's hidden 50: her proxy answers at 46 and she keeps the lead.
    const under = json<BidResult>(await publicBid(token, ben, 4500));
    expect(under).toMatchObject({
      sequence: 2,
      leading: false,
      state: { priceMinor: 4600, leaderName: 'A***a' },
    });
    const mailed = vi.spyOn(t.app.jobs, 'enqueue');
    const over = json<BidResult>(await publicBid(token, ben, 7000));
    expect(over).toMatchObject({
      sequence: 3,
      leading: true,
      state: { priceMinor: 5100, leaderName: 'B***r' },
    });
    expect(
      mailed.mock.calls.some(([job]) => job.kind === 'auction.mail' && job.payload?.kind === 'outbid'),
    ).toBe(true);
    mailed.mockRestore();

    const ledger = json<{ result: { sequence: number; maxMinor: number }[] }>(
      await as('Admin', 'GET', `/api/v1/auctions/${id}/ledger?after=1`),
    );
    expect(ledger.result.map((r) => [r.sequence, r.maxMinor])).toEqual([
      [2, 4500],
      [3, 7000],
    ]);
    const snapshot = json<LiveSnapshot>(
      await t.app.inject({ method: 'GET', url: `/api/v1/auctions/public/${token}/live` }),
    );
    expect(snapshot.recentBids.map((b) => b.bidder)).toEqual(['B***r', 'B***r', 'A***a']);
    expect(JSON.stringify(snapshot)).not.toContain('7000');
  });

  it('refuses bids before the start and after the end', async () => {
    const res = await as('Admin', 'POST', '/api/v1/auctions', body({ publish: true }));
    const detail = json<AuctionDetail>(res);
    const token = detail.publicUrl!.split('/').pop()!;
    const early = await bidder(token, 'Early Bird', 'early@example.com');
    const tooSoon = await publicBid(token, early, 1000);
    expect(tooSoon.statusCode).toBe(409);
    expect(json(tooSoon).message).toBe('This auction has not started yet.');
    const { id, token: endedToken } = await liveAuction();
    const late = await bidder(endedToken, 'Late Comer', 'late@example.com');
    await t.app.db
      .update(auctions)
      .set({ endsAt: new Date(Date.now() - 1000), effectiveEndAt: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, id));
    const tooLate = await publicBid(endedToken, late, 1000);
    expect(tooLate.statusCode).toBe(409);
    expect(json(tooLate).message).toBe('This auction has ended.');
  });

  it('extends the end once for a bid in the last seconds, never past the hard end', async () => {
    const { id, token } = await liveAuction({ softCloseSeconds: 120, extensionSeconds: 120 }, 5_000);
    const [row] = await t.app.db.select().from(auctions).where(eq(auctions.id, id));
    const hardEnd = new Date(row!.endsAt.getTime() + 150_000);
    await t.app.db.update(auctions).set({ hardEndAt: hardEnd }).where(eq(auctions.id, id));
    const a = await bidder(token, 'Asha Verma', 'asha@example.com');
    const b = await bidder(token, 'Ben Okafor', 'ben@example.com');
    const first = json<BidResult>(await publicBid(token, a, 1000));
    const extendedTo = Date.parse(first.state.effectiveEndAt);
    expect(first.state.extended).toBe(true);
    expect(extendedTo).toBeGreaterThan(row!.endsAt.getTime());
    expect(extendedTo).toBeLessThanOrEqual(hardEnd.getTime());
    const second = json<BidResult>(await publicBid(token, b, 2000));
    // The second late bid may move it again, but only up to the hard end.
    expect(Date.parse(second.state.effectiveEndAt)).toBeLessThanOrEqual(hardEnd.getTime());
    const rows = await t.app.db.select().from(auctionBids).where(eq(auctionBids.auctionId, id));
    expect(rows.every((r) => r.effectiveEndAt.getTime() <= hardEnd.getTime())).toBe(true);
  });

  it('keeps the ledger append-only, even by SQL', async () => {
    const { id, token } = await liveAuction();
    await publicBid(token, await bidder(token, 'Asha Verma', 'asha@example.com'), 1000);
    await expect(
      t.app.db.execute(sql`UPDATE auction_bids SET max_minor = 1 WHERE auction_id = ${id}`),
    ).rejects.toThrow();
    await expect(t.app.db.execute(sql`DELETE FROM auction_bids WHERE auction_id = ${id}`)).rejects.toThrow();
  });

  it('lets an admin cancel a bid: kept in the ledger, the price replayed without it', async () => {
    const { id, token } = await liveAuction();
    const a = await bidder(token, 'Asha Verma', 'asha@example.com');
    const b = await bidder(token, 'Ben Okafor', 'ben@example.com');
    await publicBid(token, a, 3000);
    await publicBid(token, b, 9000);
    const staff = await as('Staff', 'POST', `/api/v1/auctions/${id}/bids/2/cancel`, { reason: 'Shill bid' });
    expect(staff.statusCode).toBe(403);
    const res = await as('Admin', 'POST', `/api/v1/auctions/${id}/bids/2/cancel`, { reason: 'Shill bid' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<LiveSnapshot>(res).state).toMatchObject({ priceMinor: 1000, leaderName: 'A***a', bids: 1 });
    const detail = json<AuctionDetail>(await as('Admin', 'GET', `/api/v1/auctions/${id}`));
    expect(detail.ledger.find((e) => e.sequence === 2)).toMatchObject({
      cancelled: true,
      cancelReason: 'Shill bid',
    });
    expect(detail.history.some((h) => h.note === 'Bid 2 cancelled: Shill bid')).toBe(true);
    const again = await as('Admin', 'POST', `/api/v1/auctions/${id}/bids/2/cancel`, { reason: 'Again' });
    expect(again.statusCode).toBe(404);
  });

  it('closes an auction once, with two closers at once, and cancels with a reason mailed to bidders', async () => {
    const { id, token } = await liveAuction();
    await publicBid(token, await bidder(token, 'Asha Verma', 'asha@example.com'), 1500);
    await t.app.db
      .update(auctions)
      .set({ endsAt: new Date(Date.now() - 10), effectiveEndAt: new Date(Date.now() - 10) })
      .where(eq(auctions.id, id));
    const [one, two] = await Promise.all([closeIfDue(t.app.db, id), closeIfDue(t.app.db, id)]);
    expect([one, two].filter(Boolean)).toHaveLength(1);
    const closed = (one ?? two)!;
    expect(closed).toMatchObject({ status: 'ended', outcome: 'sold', settlement: 'awaiting_winner' });
    expect(closed.winnerDeadline!.getTime() - closed.endedAt!.getTime()).toBeCloseTo(48 * 3_600_000, -4);

    const other = await liveAuction();
    const cancelled = await as('Admin', 'POST', `/api/v1/auctions/${other.id}/cancel`, {
      reason: 'Item damaged',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json<AuctionDetail>(cancelled)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Item damaged',
    });
    const frozen = await as('Admin', 'PUT', `/api/v1/auctions/${other.id}`, body());
    expect(frozen.statusCode).toBe(409);
  });

  it('decides 200 parallel bids from 20 bidders exactly as a serial replay of the ledger', async () => {
    const { id, token } = await liveAuction({ startingPriceMinor: 100 });
    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => bidder(token, `Bidder ${i}`, `bidder${i}@example.com`)),
    );
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => {
        const session = sessions[Math.floor(random() * 20)]!;
        return publicBid(token, session, 100 + Math.floor(random() * 50_000));
      }),
    );
    const accepted = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused.every((a) => a.statusCode === 409 && json(a).code === 'BID_TOO_LOW')).toBe(true);
    const [row] = await t.app.db.select().from(auctions).where(eq(auctions.id, id));
    const ledger = await t.app.db.select().from(auctionBids).where(eq(auctionBids.auctionId, id));
    expect(ledger).toHaveLength(accepted.length);
    expect(ledger.map((r) => r.sequence).sort((a, b) => a - b)).toEqual(ledger.map((_, i) => i + 1));
    const replayed = replay(termsOf(row!), await ledgerBids(t.app.db, id));
    expect(replayed).toEqual(stateOf(row!));
  }, 120_000);

  it('makes the winner’s order at the hammer price from their address; lapsed, it goes to the next bidder', async () => {
    const { id, token } = await liveAuction({ quantity: 2 });
    const asha = await bidder(token, 'Asha Verma', 'asha@example.com');
    const ben = await bidder(token, 'Ben Okafor', 'ben@example.com');
    await publicBid(token, ben, 2000);
    await publicBid(token, asha, 3001);
    await t.app.db
      .update(auctions)
      .set({ endsAt: new Date(Date.now() - 10), effectiveEndAt: new Date(Date.now() - 10) })
      .where(eq(auctions.id, id));
    await closeIfDue(t.app.db, id);
    const address = {
      fullName: 'Asha Verma',
      email: 'asha@example.com',
      addressLine1: '12 Park Street',
      addressLine2: '',
      state: '',
      city: 'Berlin',
      country: 'DE',
      zipcode: '10115',
    };
    const claim = (session: BidderSession) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/auctions/public/${token}/claim`,
        payload: { shippingAddress: address },
        headers: { 'x-bidder-token': session.bidderToken },
      });
    const notWinner = await claim(ben);
    expect(notWinner.statusCode).toBe(409);
    const won = await claim(asha);
    expect(won.statusCode, won.body).toBe(200);
    const detail = json<AuctionDetail>(await as('Admin', 'GET', `/api/v1/auctions/${id}`));
    expect(detail).toMatchObject({ settlement: 'ordered', priceMinor: 2100 });
    const order = json<{
      pricing: { lines: { quantity: number; lineNetMinor?: number }[]; totals: { subtotalMinor?: number } };
      customerName: string;
    }>(await as('Admin', 'GET', `/api/v1/orders/${detail.orderId}`));
    expect(order.customerName).toBe('Asha Verma');
    expect(order.pricing.lines[0]?.quantity).toBe(2);
    expect((await claim(asha)).statusCode).toBe(409);

    // Another sale whose winner lets the deadline pass: lapsed, then offered to the next bidder.
    const second = await liveAuction();
    const c = await bidder(second.token, 'Cara Diaz', 'cara@example.com');
    const d = await bidder(second.token, 'Dev Patel', 'dev@example.com');
    await publicBid(second.token, d, 1800);
    await publicBid(second.token, c, 5000);
    await t.app.db
      .update(auctions)
      .set({ endsAt: new Date(Date.now() - 10), effectiveEndAt: new Date(Date.now() - 10) })
      .where(eq(auctions.id, second.id));
    await closeIfDue(t.app.db, second.id);
    const early = await as('Admin', 'POST', `/api/v1/auctions/${second.id}/offer-next`);
    expect(early.statusCode).toBe(409);
    await t.app.db
      .update(auctions)
      .set({ winnerDeadline: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, second.id));
    expect(await lapseOverdue(t.app)).toBeGreaterThanOrEqual(1);
    const next = await as('Admin', 'POST', `/api/v1/auctions/${second.id}/offer-next`);
    expect(next.statusCode, next.body).toBe(200);
    expect(json<AuctionDetail>(next)).toMatchObject({ settlement: 'awaiting_winner', priceMinor: 1800 });
    expect(json<AuctionDetail>(next).snapshot.state.leaderId).toBe(d.bidderId);
    const relisted = await as('Admin', 'POST', `/api/v1/auctions/${second.id}/relist`);
    expect(relisted.statusCode).toBe(409);
  });
});
