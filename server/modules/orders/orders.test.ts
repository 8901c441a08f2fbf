// The orders API (issue 31) on PGlite and PostgreSQL: orders placed by hand and from an accepted offer,
// totals and taxes against hand-computed cases (DE, CA, BR named rates; JPY without minor units),
// payments, two partial refunds and a full one, the shipment (stock consumed, the customer mailed),
// returns restocked or written off, cancelling (stock released), edits as versions, the status tabs,
// search, a seller kept to their own shop, bad input refused with words and nothing half-written, and
// fifty parallel orders for the last ten units: exactly ten are placed and the stock stays consistent.
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderDetail, OrderList } from '../../../contracts/orders';
import type { StockConsistency } from '../../../contracts/stock';
import { offers, orders, products, stockItems, users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { mailLinkSecret } from '../mail-links/links';
import { createOfferLinks } from '../offers/service';

const address = (country: string) => ({
  fullName: 'Ada Buyer',
  email: 'ada@example.com',
  addressLine1: '1 Main Street',
  addressLine2: '',
  city: 'Springfield',
  state: '',
  country,
  zipcode: '12345',
});

describe.each(testBackends)('orders API (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let otherSellerId: string;
  /** Products of the demo seller made for these tests: EUR 19.99, USD 10.00, JPY 1,234, and one in short supply. */
  const made: Record<'eur' | 'usd' | 'jpy' | 'scarce' | 'other', string> = {} as never;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.app.db;
    const [seller] = await db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const [other] = await db
      .select({ id: products.sellerId })
      .from(products)
      .where(ne(products.sellerId, sellerId))
      .limit(1);
    otherSellerId = other!.id;
    const product = async (
      sku: string,
      priceMinor: number,
      currency: string,
      inventory: number,
      owner = sellerId,
    ) => {
      const [row] = await db
        .insert(products)
        .values({
          sellerId: owner,
          title: `Order test ${sku}`,
          titleKey: `order test ${sku}`.toLowerCase(),
          sku,
          skuKey: sku.toLowerCase(),
          priceMinor,
          currency,
          inventory,
        })
        .returning({ id: products.id });
      return row!.id;
    };
    made.eur = await product('ORD-EUR', 1999, 'EUR', 100);
    made.usd = await product('ORD-USD', 1000, 'USD', 100);
    made.jpy = await product('ORD-JPY', 123_400, 'JPY', 100);
    made.scarce = await product('ORD-SCARCE', 500, 'EUR', 10);
    made.other = await product('ORD-OTHER', 500, 'EUR', 10, otherSellerId);
  }, 120_000);
  afterAll(() => t?.close());

  const place = (who: 'Admin' | 'Seller' | 'Staff', body: Record<string, unknown>) =>
    as(who, 'POST', '/api/v1/orders', {
      sellerId,
      customerName: 'Ada Buyer',
      email: 'ada@example.com',
      shippingAddress: address('DE'),
      currency: 'EUR',
      ...body,
    });
  const placed = async (body: Record<string, unknown>) => {
    const res = await place('Admin', body);
    expect(res.statusCode, res.body).toBe(201);
    return json<OrderDetail>(res);
  };
  const stock = async (productId: string) => {
    const [row] = await t.app.db.select().from(stockItems).where(eq(stockItems.productId, productId));
    return row ?? null;
  };
  const consistent = async () => {
    const res = await as('Admin', 'GET', '/api/v1/stock/consistency');
    expect(json<StockConsistency>(res)).toMatchObject({ ok: true });
  };

  it('prices lines with the shipping country’s named taxes, as computed by hand', async () => {
    // DE: 3 × 19.99 = 59.97, 10 % off = 53.97 (5.997 rounds half-up to 6.00), VAT 19 % = 10.25 (10.2543).
    const de = await placed({ lines: [{ productId: made.eur, quantity: 3, discountPercent: 10 }] });
    expect(de.pricing.lines[0]).toMatchObject({
      taxOptionId: 'DE-standard',
      grossMinor: 5997,
      discountTotalMinor: 600,
      netMinor: 5397,
      taxMinor: 1025,
    });
    expect(de.totalMinor).toBe(6422);
    // DE reduced 7 %: 2 × 19.99 = 39.98 → 2.80 (2.7986).
    const reduced = await placed({
      lines: [{ productId: made.eur, quantity: 2, taxOptionId: 'DE-reduced' }],
    });
    expect(reduced.pricing.totals).toMatchObject({ subtotalMinor: 3998, taxMinor: 280, totalMinor: 4278 });
    // CA: GST 5 % + a second line under HST 13 %, in USD.
    const ca = await placed({
      currency: 'USD',
      shippingAddress: address('CA'),
      lines: [
        { productId: made.usd, quantity: 7, taxOptionId: 'CA-gst' },
        { productId: made.usd, quantity: 1, taxOptionId: 'CA-hst', discountMinor: 1 },
      ],
    });
    expect(ca.pricing.lines.map((line) => line.taxMinor)).toEqual([350, 130]); // 70.00 × 5 %; 9.99 × 13 % = 1.2987
    expect(ca.pricing.totals).toMatchObject({
      subtotalMinor: 8000,
      discountMinor: 1,
      taxMinor: 480,
      totalMinor: 8479,
    });
    // BR: ICMS 18 % on 3 × 10.00, ISS 5 % on one.
    const br = await placed({
      currency: 'USD',
      shippingAddress: address('BR'),
      lines: [
        { productId: made.usd, quantity: 3, taxOptionId: 'BR-icms' },
        { productId: made.usd, quantity: 1, taxOptionId: 'BR-iss' },
      ],
    });
    expect(br.pricing.totals).toMatchObject({ subtotalMinor: 4000, taxMinor: 590, totalMinor: 4590 });
    // JPY has no minor unit: 1,234 yen × 3 = 3,702, consumption tax 10 % = 370.2 → 370.
    const jp = await placed({
      currency: 'JPY',
      shippingAddress: address('JP'),
      lines: [{ productId: made.jpy, quantity: 3 }],
    });
    expect(jp.pricing.totals).toMatchObject({ subtotalMinor: 3702, taxMinor: 370, totalMinor: 4072 });
    // A tax of another country is refused with words.
    const wrong = await place('Admin', {
      lines: [{ productId: made.eur, quantity: 1, taxOptionId: 'CA-gst' }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(json<{ message: string }>(wrong).message).toMatch(/not a tax of DE/);
  });

  it('refuses bad orders with words and writes nothing', async () => {
    const before = (await t.app.db.select({ n: sql<number>`count(*)::integer` }).from(orders))[0]!.n;
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ lines: [] }, 400, /at least one line/],
      [{ lines: [{ productId: made.eur, quantity: 0 }] }, 400, /at least 1/],
      [{ lines: [{ productId: made.eur, quantity: 1 }], email: 'nope' }, 400, /valid e-mail/],
      [
        { lines: [{ productId: made.eur, quantity: 1 }], shippingAddress: address('Germany') },
        400,
        /two-letter code/,
      ],
      [{ lines: [{ productId: made.usd, quantity: 1 }] }, 400, /priced in USD/],
      [{ lines: [{ productId: made.other, quantity: 1 }] }, 400, /products of this order’s seller/],
      [{ lines: [{ productId: made.eur, quantity: 1 }], currency: 'XAF' }, 400, /not a currency/],
      [
        { lines: [{ productId: made.scarce, quantity: 11 }] },
        409,
        /Not enough stock of Order test ORD-SCARCE \(10 left/,
      ],
      [
        {
          lines: [
            { productId: made.eur, quantity: 1 },
            { productId: made.scarce, quantity: 11 },
          ],
        },
        409,
        /Not enough stock/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await place('Admin', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(json<{ message: string }>(res).message).toMatch(message);
    }
    const after = (await t.app.db.select({ n: sql<number>`count(*)::integer` }).from(orders))[0]!.n;
    expect(after).toBe(before);
    // The first line of the refused two-line order took nothing either.
    await consistent();
  });

  it('takes payments, refunds twice and in full, and computes status and payment state from the sums', async () => {
    const order = await placed({ lines: [{ productId: made.eur, quantity: 1, taxOptionId: null }] });
    expect(order).toMatchObject({
      status: 'pending',
      paymentState: 'unpaid',
      totalMinor: 1999,
      reference: `ORD-${order.number}`,
    });
    expect((await stock(made.eur))!.reserved).toBeGreaterThanOrEqual(1);
    const pay = (amountMinor: number) =>
      as('Admin', 'POST', `/api/v1/orders/${order.id}/payments`, {
        amountMinor,
        method: 'bank_transfer',
        paidOn: '2026-11-29',
        reference: 'TX-1',
      });
    const part = json<OrderDetail>(await pay(999));
    expect(part).toMatchObject({ status: 'pending', paymentState: 'partly_paid', balanceDueMinor: 1000 });
    const over = await pay(1001);
    expect(over.statusCode).toBe(409);
    expect(json<{ message: string }>(over).message).toMatch(/more than the .*10\.00 still due/);
    const full = json<OrderDetail>(await pay(1000));
    expect(full).toMatchObject({ status: 'paid', paymentState: 'paid', paidMinor: 1999, balanceDueMinor: 0 });
    expect((await pay(1)).statusCode).toBe(409);

    const refund = (amountMinor: number, reason = 'Late delivery') =>
      as('Admin', 'POST', `/api/v1/orders/${order.id}/refunds`, { amountMinor, reason });
    expect((await refund(100, '')).statusCode).toBe(400);
    const first = json<OrderDetail>(await refund(500));
    expect(first).toMatchObject({
      status: 'paid',
      paymentState: 'partly_refunded',
      refundedMinor: 500,
      refundableMinor: 1499,
    });
    const second = json<OrderDetail>(await refund(499, 'Scratched'));
    expect(second.refunds.map((r) => [r.number, r.amountMinor, r.reason])).toEqual([
      [1, 500, 'Late delivery'],
      [2, 499, 'Scratched'],
    ]);
    const tooMuch = await refund(1001);
    expect(tooMuch.statusCode).toBe(409);
    expect(json<{ message: string }>(tooMuch).message).toMatch(/At most .*10\.00 can be refunded/);
    const reservedBefore = (await stock(made.eur))!.reserved;
    const last = json<OrderDetail>(await refund(1000));
    expect(last).toMatchObject({ status: 'refunded', paymentState: 'refunded', refundableMinor: 0 });
    // A fully refunded order that never shipped gives its stock back.
    expect((await stock(made.eur))!.reserved).toBe(reservedBefore - 1);
    expect((await refund(1)).statusCode).toBe(409);
    expect(last.history.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['created', 'payment', 'refund']),
    );
    await consistent();
  });

  it('ships (stock consumed, the customer mailed), delivers, and takes goods back restocked or written off', async () => {
    const send = vi.spyOn(t.app.mailer, 'send');
    const before = (await stock(made.eur)) ?? { onHand: 100, reserved: 0 };
    const order = await placed({ lines: [{ productId: made.eur, quantity: 4 }] });
    const during = (await stock(made.eur))!;
    expect(during.reserved).toBe(before.reserved + 4);
    const shipped = await as('Seller', 'POST', `/api/v1/orders/${order.id}/shipments`, {
      carrier: 'DHL',
      trackingNumber: 'JD0001',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(json<OrderDetail>(shipped)).toMatchObject({
      status: 'shipped',
      shipments: [{ carrier: 'DHL', trackingNumber: 'JD0001' }],
    });
    expect(await stock(made.eur)).toMatchObject({ onHand: during.onHand - 4, reserved: before.reserved });
    expect(send).toHaveBeenCalledWith(
      expect.objectContaining({
        to: 'ada@example.com',
        subject: `Your order ORD-${order.number} has shipped`,
        text: expect.stringContaining('JD0001'),
      }),
    );
    send.mockRestore();
    expect(
      (await as('Admin', 'POST', `/api/v1/orders/${order.id}/shipments`, { carrier: 'DHL' })).statusCode,
    ).toBe(409);
    expect((await as('Admin', 'POST', `/api/v1/orders/${order.id}/cancel`, { reason: 'x' })).statusCode).toBe(
      409,
    );
    await as('Admin', 'POST', `/api/v1/orders/${order.id}/payments`, {
      amountMinor: order.totalMinor,
      method: 'card',
      paidOn: '2026-11-29',
    });
    const back = await as('Admin', 'POST', `/api/v1/orders/${order.id}/refunds`, {
      amountMinor: 1000,
      reason: 'Two came back',
      returns: [
        { productId: made.eur, quantity: 1, restock: true },
        { productId: made.eur, quantity: 1, restock: false },
      ],
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(await stock(made.eur)).toMatchObject({ onHand: during.onHand - 3 });
    const overReturn = await as('Admin', 'POST', `/api/v1/orders/${order.id}/refunds`, {
      amountMinor: 1,
      reason: 'x',
      returns: [{ productId: made.eur, quantity: 5, restock: true }],
    });
    expect(json<{ message: string }>(overReturn).message).toMatch(/At most 4 of/);
    const delivered = await as('Admin', 'POST', `/api/v1/orders/${order.id}/delivered`, {});
    expect(json<OrderDetail>(delivered).status).toBe('delivered');
    await consistent();
  });

  it('cancels only what holds no money, releasing its stock', async () => {
    const order = await placed({ lines: [{ productId: made.scarce, quantity: 3 }] });
    expect((await stock(made.scarce))!.reserved).toBe(3);
    expect((await as('Admin', 'POST', `/api/v1/orders/${order.id}/cancel`, { reason: '' })).statusCode).toBe(
      400,
    );
    await as('Admin', 'POST', `/api/v1/orders/${order.id}/payments`, {
      amountMinor: 100,
      method: 'cash',
      paidOn: '2026-11-29',
    });
    const refused = await as('Admin', 'POST', `/api/v1/orders/${order.id}/cancel`, {
      reason: 'Customer changed mind',
    });
    expect(refused.statusCode).toBe(409);
    expect(json<{ message: string }>(refused).message).toMatch(/Refund what was paid before cancelling/);
    await as('Admin', 'POST', `/api/v1/orders/${order.id}/refunds`, {
      amountMinor: 100,
      reason: 'Changed mind',
    });
    // Fully refunded before shipping: refunded, and its stock is free again.
    expect((await stock(made.scarce))!.reserved).toBe(0);
    const again = await placed({ lines: [{ productId: made.scarce, quantity: 2 }] });
    const cancelled = await as('Admin', 'POST', `/api/v1/orders/${again.id}/cancel`, {
      reason: 'Duplicate order',
    });
    expect(json<OrderDetail>(cancelled)).toMatchObject({ status: 'cancelled' });
    expect((await stock(made.scarce))!.reserved).toBe(0);
    await consistent();
  });

  it('edits lines as a new version with its diff, re-taxed, moving only the stock difference', async () => {
    const order = await placed({ lines: [{ productId: made.scarce, quantity: 2 }] });
    const edit = (body: Record<string, unknown>) => as('Admin', 'PUT', `/api/v1/orders/${order.id}`, body);
    const edited = await edit({
      version: 1,
      reason: 'Customer wants more',
      lines: [{ productId: made.scarce, quantity: 5 }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const detail = json<OrderDetail>(edited);
    expect(detail.version).toBe(2);
    expect(detail.versions[1]).toMatchObject({ version: 2, reason: 'Customer wants more' });
    expect(detail.versions[1]!.diff!.lines[0]).toMatchObject({ kind: 'changed' });
    expect(detail.totalMinor).toBe(2975); // 5 × 5.00 + 19 %
    expect((await stock(made.scarce))!.reserved).toBe(5);
    const stale = await edit({ version: 1, reason: 'x', lines: [{ productId: made.scarce, quantity: 1 }] });
    expect(stale.statusCode).toBe(409);
    const tooMany = await edit({
      version: 2,
      reason: 'x',
      lines: [{ productId: made.scarce, quantity: 11 }],
    });
    expect(tooMany.statusCode).toBe(409);
    expect((await stock(made.scarce))!.reserved).toBe(5);
    await as('Admin', 'POST', `/api/v1/orders/${order.id}/cancel`, { reason: 'done' });
    await consistent();
  });

  it('lists with status tabs from the counters, searches by name and number, and keeps a seller to their shop', async () => {
    const order = await placed({
      customerName: 'Zebulon Quartz',
      lines: [{ productId: made.eur, quantity: 1 }],
    });
    const list = json<OrderList>(await as('Admin', 'GET', '/api/v1/orders?status=pending'));
    expect(list.tabs.pending).toBeGreaterThanOrEqual(1);
    expect(list.total).toBe(list.tabs.pending);
    expect(
      json<OrderList>(await as('Admin', 'GET', '/api/v1/orders?query=zebulon')).result.map((r) => r.id),
    ).toEqual([order.id]);
    expect(
      json<OrderList>(await as('Admin', 'GET', `/api/v1/orders?query=ORD-${order.number}`)).result[0]?.id,
    ).toBe(order.id);
    const [counted] = await t.app.db
      .select({ n: sql<number>`count(*)::integer` })
      .from(orders)
      .where(eq(orders.status, 'pending'));
    expect(list.tabs.pending).toBe(counted!.n);
    // The seller's own orders, not another shop's.
    const theirs = json<OrderList>(await as('Seller', 'GET', '/api/v1/orders'));
    expect(theirs.result.every((row) => row.sellerId === sellerId)).toBe(true);
    const [foreign] = await t.app.db
      .insert(orders)
      .values({
        sellerId: otherSellerId,
        customerName: 'Other',
        email: 'o@example.com',
        billingAddress: address('DE'),
        shippingAddress: address('DE'),
        currency: 'EUR',
        pricing: {},
        totalMinor: 0,
      })
      .returning({ id: orders.id });
    expect((await as('Seller', 'GET', `/api/v1/orders/${foreign!.id}`)).statusCode).toBe(404);
    expect(
      (await as('Seller', 'POST', `/api/v1/orders/${foreign!.id}/cancel`, { reason: 'x' })).statusCode,
    ).toBe(404);
    // Placing needs the create permission: admins by default, not staff or sellers.
    expect((await place('Staff', { lines: [{ productId: made.eur, quantity: 1 }] })).statusCode).toBe(403);
    expect((await place('Seller', { lines: [{ productId: made.eur, quantity: 1 }] })).statusCode).toBe(403);
    expect((await as('Staff', 'POST', `/api/v1/orders/${order.id}/cancel`, { reason: 'x' })).statusCode).toBe(
      403,
    );
  });

  it('makes the order of an accepted offer once, with its frozen prices, linked both ways', async () => {
    const links = createOfferLinks(await mailLinkSecret(t.app.db, undefined), t.config.publicUrl);
    const request = await as('Seller', 'POST', '/api/v1/offers', {
      customerName: 'Offer Buyer',
      email: 'offer.buyer@example.com',
      items: [{ productId: made.eur, quantity: 2 }],
      shippingAddress: address('DE'),
    });
    expect(request.statusCode, request.body).toBe(201);
    const offerId = json<{ id: string }>(request).id;
    const refusedEarly = await as('Admin', 'POST', `/api/v1/orders/fromOffer/${offerId}`, {});
    expect(json<{ message: string }>(refusedEarly).message).toBe('Only an accepted offer becomes an order.');
    const drafted = await as('Seller', 'PUT', `/api/v1/offers/${offerId}/draft`, {
      lines: [
        {
          productId: made.eur,
          name: 'Frozen chair',
          quantity: 2,
          unitPriceMinor: 1500,
          taxOptionId: 'DE-standard',
        },
      ],
      currency: 'EUR',
      shippingCountry: 'DE',
      validUntil: null,
      notes: '',
    });
    expect(drafted.statusCode, drafted.body).toBe(200);
    const sending = await as('Seller', 'POST', `/api/v1/offers/${offerId}/send`);
    expect(sending.statusCode, sending.body).toBe(200);
    const sent = json<{ versions: { expiresAt: string }[] }>(sending);
    const token = links.token(offerId, 1, new Date(sent.versions[0]!.expiresAt));
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/offers/public/${token}/accept`,
      payload: { typedName: 'Offer Buyer' },
    });
    // The catalog price changes after the offer: the order keeps the offer's frozen 15.00.
    await t.app.db.update(products).set({ priceMinor: 9999 }).where(eq(products.id, made.eur));
    // Its taxes were frozen for DE: an address elsewhere is refused.
    const elsewhere = await as('Admin', 'POST', `/api/v1/orders/fromOffer/${offerId}`, {
      shippingAddress: address('FR'),
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(json<{ message: string }>(elsewhere).message).toMatch(/taxed for DE/);
    const res = await as('Admin', 'POST', `/api/v1/orders/fromOffer/${offerId}`, {});
    expect(res.statusCode, res.body).toBe(201);
    const order = json<OrderDetail>(res);
    expect(order.pricing.lines[0]).toMatchObject({
      name: 'Frozen chair',
      unitPriceMinor: 1500,
      taxMinor: 570,
    });
    expect(order).toMatchObject({
      totalMinor: 3570,
      customerName: 'Offer Buyer',
      offer: { id: offerId, version: 1 },
    });
    const [offer] = await t.app.db.select().from(offers).where(eq(offers.id, offerId));
    expect(offer).toMatchObject({ orderId: order.id, toConvert: false });
    const twice = await as('Admin', 'POST', `/api/v1/orders/fromOffer/${offerId}`, {});
    expect(twice.statusCode).toBe(409);
    expect(json<{ message: string }>(twice).message).toBe('This offer is already an order.');
    await t.app.db.update(products).set({ priceMinor: 1999 }).where(eq(products.id, made.eur));
  });

  it('lets fifty parallel orders take the last ten units: exactly ten are placed', async () => {
    const [row] = await t.app.db
      .insert(products)
      .values({
        sellerId,
        title: 'Last ten',
        titleKey: 'last ten',
        sku: 'ORD-LAST',
        skuKey: 'ord-last',
        priceMinor: 100,
        currency: 'EUR',
        inventory: 10,
      })
      .returning({ id: products.id });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => place('Admin', { lines: [{ productId: row!.id, quantity: 1 }] })),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(10);
    expect(codes.filter((code) => code === 409)).toHaveLength(40);
    expect(await stock(row!.id)).toMatchObject({ onHand: 10, reserved: 10 });
    // A bundle's two lines on one product count together: 1 + 1 of none left is refused.
    const bundle = await place('Admin', {
      lines: [
        { productId: row!.id, quantity: 1 },
        { productId: row!.id, quantity: 1 },
      ],
    });
    expect(bundle.statusCode).toBe(409);
    const [placedCount] = await t.app.db
      .select({ n: sql<number>`count(*)::integer` })
      .from(orders)
      .where(
        and(eq(orders.sellerId, sellerId), sql`${orders.pricing}->'lines'->0->>'productId' = ${row!.id}`),
      );
    expect(placedCount!.n).toBe(10);
    await consistent();
  });
});
