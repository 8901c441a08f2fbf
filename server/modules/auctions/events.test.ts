// Auction events (issue 32) on PGlite and PostgreSQL: lots created together end `gapSeconds` apart, each
// with its own hard end; a bad lot is refused in words naming the lot and nothing is written; a late bid
// extends its own lot and never the next one; the auction's page and the public page say where the lot
// stands in its event.
import { createHash, randomBytes } from 'node:crypto';
import { count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AuctionDetail,
  AuctionEvent,
  AuctionList,
  BidResult,
  PublicAuction,
} from '../../../contracts/auctions';
import { auctionBidders, auctionEvents, auctions, products, sellers, users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';

const MINUTE = 60_000;
const EVENTS = '/api/v1/auctions/events';

describe.each(testBackends)('auction events (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let productIds: string[];
  let otherProductId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [seller] = await t.app.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const product = (n: number, owner: string) => ({
      sellerId: owner,
      title: `Event lot ${n}`,
      titleKey: `event lot ${n}`,
      sku: `EVT-${n}`,
      skuKey: `evt-${n}`,
      priceMinor: 5000,
      currency: 'EUR',
      inventory: 3,
    });
    const made = await t.app.db
      .insert(products)
      .values([1, 2, 3].map((n) => product(n, sellerId)))
      .returning({ id: products.id });
    productIds = made.map((p) => p.id);
    // Any other shop of the demo seed.
    const [otherSeller] = await t.app.db
      .select({ id: sellers.id })
      .from(sellers)
      .where(ne(sellers.id, sellerId))
      .limit(1);
    const [foreign] = await t.app.db
      .insert(products)
      .values(product(9, otherSeller!.id))
      .returning({ id: products.id });
    otherProductId = foreign!.id;
  }, 120_000);
  afterAll(() => t?.close());

  const eventBody = (overrides: Record<string, unknown> = {}) => ({
    sellerId,
    title: 'Winter sale',
    currency: 'EUR',
    startsAt: new Date(Date.now() + 60 * MINUTE).toISOString(),
    firstEndsAt: new Date(Date.now() + 120 * MINUTE).toISOString(),
    publish: true,
    lots: productIds.map((productId, index) => ({
      productId,
      quantity: 1,
      title: `Lot ${index + 1}`,
      startingPriceMinor: 1000 * (index + 1),
    })),
    ...overrides,
  });

  const written = async () => ({
    events: (await t.app.db.select({ n: count() }).from(auctionEvents))[0]!.n,
    auctions: (await t.app.db.select({ n: count() }).from(auctions))[0]!.n,
  });

  it('creates the lots with ends a gap apart, each with its own hard end, and lists them', async () => {
    const res = await as('Admin', 'POST', EVENTS, eventBody({ gapSeconds: 90 }));
    expect(res.statusCode, res.body).toBe(201);
    const event = json<AuctionEvent>(res);
    expect(event).toMatchObject({ title: 'Winter sale', gapSeconds: 90, sellerId });
    expect(event.lots.map((lot) => lot.title)).toEqual(['Lot 1', 'Lot 2', 'Lot 3']);
    const ends = event.lots.map((lot) => Date.parse(lot.effectiveEndAt));
    expect(ends[1]! - ends[0]!).toBe(90_000);
    expect(ends[2]! - ends[1]!).toBe(90_000);
    expect(event.lots.every((lot) => lot.status === 'scheduled' && lot.eventId === event.id)).toBe(true);
    const rows = await t.app.db.select().from(auctions).where(eq(auctions.eventId, event.id));
    for (const row of rows) expect(row.hardEndAt.getTime() - row.endsAt.getTime()).toBe(3_600_000);

    const read = await as('Admin', 'GET', `${EVENTS}/${event.id}`);
    expect(read.statusCode, read.body).toBe(200);
    const again = json<AuctionEvent>(read);
    expect(again.lots.map((lot) => lot.id)).toEqual(event.lots.map((lot) => lot.id));
    const list = json<AuctionList>(await as('Admin', 'GET', `/api/v1/auctions?eventId=${event.id}`));
    expect(list.total).toBe(3);
    expect(new Set(list.result.map((r) => r.id))).toEqual(new Set(event.lots.map((lot) => lot.id)));

    const detail = json<AuctionDetail>(await as('Admin', 'GET', `/api/v1/auctions/${event.lots[1]!.id}`));
    expect(detail.event).toEqual({ id: event.id, title: 'Winter sale', lot: 2, lots: 3 });
  });

  it('refuses a bad lot in words naming it, and writes nothing', async () => {
    const before = await written();
    const lots = eventBody().lots;
    lots[1] = { ...lots[1]!, productId: otherProductId };
    const foreign = await as('Admin', 'POST', EVENTS, eventBody({ lots }));
    expect(foreign.statusCode).toBe(422);
    expect(json(foreign)).toMatchObject({
      message: 'Lot 2: Choose one of this seller’s products.',
      fields: { 'lots.1.productId': 'Choose one of this seller’s products.' },
    });
    const reserve = eventBody().lots;
    reserve[2] = { ...reserve[2]!, reserveMinor: 10 } as never;
    const low = await as('Admin', 'POST', EVENTS, eventBody({ lots: reserve }));
    expect(json(low).message).toBe('Lot 3: The reserve is at least the starting price.');
    const past = await as(
      'Admin',
      'POST',
      EVENTS,
      eventBody({ startsAt: new Date(Date.now() - MINUTE).toISOString() }),
    );
    expect(json(past).message).toBe('A published auction starts in the future.');
    const none = await as('Admin', 'POST', EVENTS, eventBody({ lots: [] }));
    expect(none.statusCode).toBe(400);
    expect(json(none).message).toContain('Add at least one lot.');
    const gap = await as('Admin', 'POST', EVENTS, eventBody({ gapSeconds: 1 }));
    expect(json(gap).message).toContain('Lots end at least 10 seconds apart.');
    expect(await written()).toEqual(before);
  });

  it('keeps events to those with the permission', async () => {
    expect((await as('Staff', 'POST', EVENTS, eventBody())).statusCode).toBe(403);
    expect((await as('Seller', 'GET', `${EVENTS}/${crypto.randomUUID()}`)).statusCode).toBe(403);
    expect((await as('Admin', 'GET', `${EVENTS}/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('extends a lot for a late bid without delaying the next lot', async () => {
    const event = json<AuctionEvent>(await as('Admin', 'POST', EVENTS, eventBody({ gapSeconds: 60 })));
    const [first, second] = event.lots;
    // Lot 1 started and ends in 5 s; lot 2 ends a minute later.
    const end = Date.now() + 5_000;
    for (const [index, lot] of event.lots.entries()) {
      const lotEnd = new Date(end + index * MINUTE);
      await t.app.db
        .update(auctions)
        .set({
          startsAt: new Date(Date.now() - MINUTE),
          endsAt: lotEnd,
          effectiveEndAt: lotEnd,
          hardEndAt: new Date(lotEnd.getTime() + 10 * MINUTE),
        })
        .where(eq(auctions.id, lot.id));
    }
    const [bidder] = await t.app.db
      .insert(auctionBidders)
      .values({
        auctionId: first!.id,
        name: 'Asha Verma',
        email: 'asha@example.com',
        confirmedAt: new Date(),
        tokenHash: createHash('sha256').update(randomBytes(16)).digest('hex'),
      })
      .returning();
    const bid = await as('Admin', 'POST', `/api/v1/auctions/${first!.id}/bids`, {
      bidderId: bidder!.id,
      maxMinor: 1500,
      currency: 'EUR',
    });
    expect(bid.statusCode, bid.body).toBe(200);
    const state = json<BidResult>(bid).state;
    expect(state.extended).toBe(true);
    // Extended by two minutes from the bid: past lot 2's scheduled end, which stays where it was.
    expect(Date.parse(state.effectiveEndAt)).toBeGreaterThan(end + MINUTE);
    const [next] = await t.app.db.select().from(auctions).where(eq(auctions.id, second!.id));
    expect(next!.effectiveEndAt.getTime()).toBe(end + MINUTE);

    // The public page of lot 1 lists the event's lots with their own links, in the order they end.
    const detail = json<AuctionDetail>(await as('Admin', 'GET', `/api/v1/auctions/${first!.id}`));
    const token = detail.publicUrl!.split('/').pop()!;
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/auctions/public/${token}` });
    expect(page.statusCode, page.body).toBe(200);
    const publicEvent = json<PublicAuction>(page).event!;
    expect(publicEvent.title).toBe('Winter sale');
    expect(publicEvent.lots.map((lot) => [lot.title, lot.current, lot.status])).toEqual([
      ['Lot 1', true, 'live'],
      ['Lot 2', false, 'live'],
      ['Lot 3', false, 'live'],
    ]);
    expect(publicEvent.lots[1]!.url).toMatch(new RegExp(`^/auction/${second!.id}\\.[\\w-]{43}$`));
  });
});
