import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validityEnd } from '../../../contracts/domain/validity-day';
import { offers, products, sellers, users } from '../../db/schema';
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
import { createOfferLinks, type OfferLinks, respondToOffer } from './service';

describe.each(testBackends)('offers API (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let links: OfferLinks;
  let sellerId: string;
  let otherSellerId: string;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
    links = createOfferLinks(await mailLinkSecret(t.app.db, undefined), t.config.publicUrl);
    const db = t.app.db;
    const [seller] = await db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const [other] = await db
      .select({ id: sellers.id })
      .from(sellers)
      .where(ne(sellers.id, sellerId))
      .limit(1);
    otherSellerId = other!.id;
    const [own] = await db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.sellerId, sellerId))
      .limit(1);
    productId = own!.id;
  }, 120_000);
  afterAll(() => t?.close());

  const draft = (over: Record<string, unknown> = {}) => ({
    lines: [
      {
        productId,
        name: 'Chair',
        quantity: 12,
        unitPriceMinor: 1000,
        quantityBreaks: [{ minQuantity: 10, unitPriceMinor: 900 }],
        discountPercent: 10,
      },
    ],
    currency: 'EUR',
    shippingCountry: null,
    validUntil: null,
    notes: 'Delivery in two weeks',
    ...over,
  });

  async function newOffer(who: 'Seller' | 'Admin' = 'Seller', forSeller?: string) {
    const res = await as(who, 'POST', '/api/v1/offers', {
      customerName: 'Ada Buyer',
      email: 'ada.buyer@example.com',
      sellerId: forSeller,
      items: forSeller && forSeller !== sellerId ? [] : [{ productId, quantity: 12 }],
      message: 'Quote please',
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ id: string; number: number; status: string }>(res);
  }

  it('creates, lists with tabs, prices a draft, sends it and the customer accepts once', async () => {
    const made = await newOffer();
    expect(made.status).toBe('requested');
    const list = json<{ result: { id: string }[]; tabs: Record<string, number> }>(
      await as('Seller', 'GET', '/api/v1/offers?status=requested'),
    );
    expect(list.result.some((r) => r.id === made.id)).toBe(true);
    expect(list.tabs.requested).toBeGreaterThanOrEqual(1);

    const badCurrency = await as(
      'Seller',
      'PUT',
      `/api/v1/offers/${made.id}/draft`,
      draft({ currency: 'XAF' }),
    );
    expect(badCurrency.statusCode).toBe(400);
    expect(json(badCurrency).message).toBe('XAF is not a currency this marketplace offers.');

    const saved = await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft());
    expect(saved.statusCode, saved.body).toBe(200);
    const priced = json<{ draft: { totals: { totalMinor: number }; lines: { unitPriceMinor: number }[] } }>(
      saved,
    );
    expect(priced.draft.lines[0]!.unitPriceMinor).toBe(900);
    expect(priced.draft.totals.totalMinor).toBe(9720); // 12 × 9.00 − 10 %

    const sent = await as('Seller', 'POST', `/api/v1/offers/${made.id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const detail = json<{
      status: string;
      versions: { version: number; expiresAt: string; snapshotSha256: string }[];
    }>(sent);
    expect(detail.status).toBe('offered');
    expect(detail.versions).toHaveLength(1);
    const token = links.token(made.id, 1, new Date(detail.versions[0]!.expiresAt));

    const page = await t.app.inject({ method: 'GET', url: `/api/v1/offers/public/${token}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(json(page)).toMatchObject({ version: 1, canRespond: true, newerVersion: null });

    const tampered = `${token.slice(0, -2)}xx`;
    const forged = await t.app.inject({ method: 'GET', url: `/api/v1/offers/public/${tampered}` });
    expect(forged.statusCode).toBe(404);
    expect(json(forged).message).toMatch(/not valid/);
    const garbage = await t.app.inject({ method: 'GET', url: '/api/v1/offers/public/nonsense' });
    expect(garbage.statusCode).toBe(404);

    const accept = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/offers/public/${token}/accept`,
        payload: { typedName: 'Ada Buyer' },
      });
    const first = await accept();
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toMatchObject({ decision: 'accepted', recorded: true });
    const second = await accept();
    expect(json(second)).toMatchObject({ decision: 'accepted', recorded: false });
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, made.id));
    expect(row).toMatchObject({ status: 'accepted', toConvert: true });
    const after = json<{ responses: { snapshotSha256: string }[] }>(
      await as('Admin', 'GET', `/api/v1/offers/${made.id}`),
    );
    expect(after.responses[0]!.snapshotSha256).toBe(detail.versions[0]!.snapshotSha256);
    const contactId = json<{ contactId: string }>(
      await as('Admin', 'GET', `/api/v1/offers/${made.id}`),
    ).contactId;
    const timeline = json<{ result: { action: string; note: string; link: string }[] }>(
      await as('Admin', 'GET', `/api/v1/contacts/${contactId}/history?limit=50`),
    );
    expect(timeline.result.find((e) => e.link === `/customers/offer?id=${made.id}`)).toMatchObject({
      action: 'offer',
      note: `Offer OFR-${made.number} (accepted, EUR 97.20)`,
    });
  });

  it('says an older link is superseded once a newer version is sent, and diffs the versions', async () => {
    const made = await newOffer();
    await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft());
    const v1 = json<{ versions: { expiresAt: string }[] }>(
      await as('Seller', 'POST', `/api/v1/offers/${made.id}/send`),
    );
    const oldToken = links.token(made.id, 1, new Date(v1.versions[0]!.expiresAt));
    await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft({ notes: 'Now with delivery' }));
    const v2 = await as('Seller', 'POST', `/api/v1/offers/${made.id}/send`);
    expect(json<{ currentVersion: number }>(v2).currentVersion).toBe(2);
    const old = json<{ newerVersion: number; newerToken: string; canRespond: boolean }>(
      await t.app.inject({ method: 'GET', url: `/api/v1/offers/public/${oldToken}` }),
    );
    expect(old).toMatchObject({ newerVersion: 2, canRespond: false });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/offers/public/${oldToken}/accept`,
      payload: { typedName: 'Ada' },
    });
    expect(refused.statusCode).toBe(409);
    expect(json(refused).message).toMatch(/newer version \(2\)/);
    const newer = await t.app.inject({ method: 'GET', url: `/api/v1/offers/public/${old.newerToken}` });
    expect(json(newer)).toMatchObject({ version: 2, canRespond: true });
    const diff = json<{ diff: { fields: { field: string }[] } }>(
      await as('Seller', 'GET', `/api/v1/offers/${made.id}/versions/2/diff`),
    );
    expect(diff.diff.fields.map((f) => f.field)).toContain('notes');
  });

  it('accepts at 23:59 of the validity day in the seller zone and refuses at 00:00 the day after', async () => {
    for (const [_clock, ok] of [
      ['23:59', true],
      ['00:00', false],
    ] as const) {
      const made = await newOffer();
      await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft({ validUntil: '2099-01-10' }));
      const sent = json<{ versions: { expiresAt: string }[] }>(
        await as('Seller', 'POST', `/api/v1/offers/${made.id}/send`),
      );
      const end = new Date(sent.versions[0]!.expiresAt);
      const timeZone = (await t.app.settings.effective(sellerId)).localization.timeZone;
      expect(end.toISOString()).toBe(validityEnd('2099-01-10', timeZone).toISOString());
      const at = ok ? new Date(end.getTime() - 60_000) : end;
      const token = links.token(made.id, 1, end);
      const answer = respondToOffer(
        t.app,
        links,
        token,
        'accepted',
        { typedName: 'Ada', comment: '' },
        { ip: '127.0.0.1', userAgent: 't' },
        at,
      );
      if (ok) await expect(answer).resolves.toMatchObject({ decision: 'accepted' });
      else
        await expect(answer).rejects.toMatchObject({
          status: 409,
          message: 'This offer expired on 2099-01-10. Ask the shop for a new one.',
        });
    }
  });

  it('a declined offer is reopened only by sending a new version; staff may not send without approve', async () => {
    const made = await newOffer();
    await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft());
    const v1 = json<{ versions: { expiresAt: string }[] }>(
      await as('Seller', 'POST', `/api/v1/offers/${made.id}/send`),
    );
    const token = links.token(made.id, 1, new Date(v1.versions[0]!.expiresAt));
    const declined = await t.app.inject({
      method: 'POST',
      url: `/api/v1/offers/public/${token}/decline`,
      payload: { typedName: 'Ada Buyer', comment: 'Too dear' },
    });
    expect(json(declined)).toMatchObject({ decision: 'declined', recorded: true });
    const lateAccept = await t.app.inject({
      method: 'POST',
      url: `/api/v1/offers/public/${token}/accept`,
      payload: { typedName: 'Ada' },
    });
    expect(json(lateAccept)).toMatchObject({ decision: 'declined', recorded: false });
    expect((await as('Staff', 'POST', `/api/v1/offers/${made.id}/send`)).statusCode).toBe(403);
    await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft({ notes: 'Better price' }));
    const v2 = await as('Seller', 'POST', `/api/v1/offers/${made.id}/send`);
    expect(json(v2)).toMatchObject({ status: 'offered', currentVersion: 2 });
  });

  it("answers 404 for another seller's offer and checks the permission per role", async () => {
    const foreign = await newOffer('Admin', otherSellerId);
    expect((await as('Seller', 'GET', `/api/v1/offers/${foreign.id}`)).statusCode).toBe(404);
    expect((await as('Seller', 'PUT', `/api/v1/offers/${foreign.id}/draft`, draft())).statusCode).toBe(404);
    expect((await as('Staff', 'GET', `/api/v1/offers/${foreign.id}`)).statusCode).toBe(200);
    expect((await as('Admin', 'GET', '/api/v1/offers')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/offers' })).statusCode).toBe(401);
  });

  it('taxes with the settings’ tax options of the customer’s country and ships by the shipping settings', async () => {
    const saveSection = async (who: 'Admin' | 'Seller', section: string, set: Record<string, unknown>) => {
      const { version } = json<{ version: number }>(await as(who, 'GET', `/api/v1/settings/${section}`));
      const saved = await as(who, 'PUT', `/api/v1/settings/${section}`, { version, set, reset: [] });
      expect(saved.statusCode, saved.body).toBe(200);
    };
    const before = (await t.app.settings.effective(null)).company.taxOptions;
    await saveSection('Admin', 'company', {
      taxOptions: [...before, { id: 'DE-tourist', label: 'DE Tourist tax 3%', value: 3, country: 'DE' }],
    });
    await saveSection('Seller', 'shipping', {
      zones: [
        {
          id: 'de',
          name: 'Germany',
          countries: ['DE'],
          currency: 'EUR',
          bands: [{ fromKg: 0, toKg: null, rateMinor: 1250 }],
        },
      ],
    });
    const created = await as('Seller', 'POST', '/api/v1/offers', {
      customerName: 'Bea Käufer',
      email: 'bea@example.com',
      items: [{ productId, quantity: 1 }],
      shippingAddress: {
        fullName: 'Bea Käufer',
        email: 'bea@example.com',
        addressLine1: 'Hauptstr. 1',
        addressLine2: '',
        city: 'Berlin',
        state: '',
        country: 'de',
        zipcode: '10115',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = json<{ id: string; choices: { shippingCountry: string; taxOptions: { id: string }[] } }>(
      created,
    );
    expect(made.choices.shippingCountry).toBe('DE');
    expect(made.choices.taxOptions.map((o) => o.id)).toContain('DE-tourist');
    const line = { productId, name: 'Chair', quantity: 1, unitPriceMinor: 10_000, taxOptionId: 'DE-tourist' };
    const saved = await as('Seller', 'PUT', `/api/v1/offers/${made.id}/draft`, draft({ lines: [line] }));
    expect(saved.statusCode, saved.body).toBe(200);
    const priced = json<{
      draft: { shippingCountry: string; totals: Record<string, number>; pricingErrors: string[] };
    }>(saved);
    expect(priced.draft.pricingErrors).toEqual([]);
    expect(priced.draft.shippingCountry).toBe('DE');
    expect(priced.draft.totals).toMatchObject({ taxMinor: 300, shippingMinor: 1250, totalMinor: 11_550 });

    // A rate the settings no longer hold cannot be used, although the built-in list knows it.
    await saveSection('Admin', 'company', { taxOptions: before.filter((o) => o.id !== 'DE-reduced') });
    const gone = await as(
      'Seller',
      'PUT',
      `/api/v1/offers/${made.id}/draft`,
      draft({ lines: [{ ...line, taxOptionId: 'DE-reduced' }] }),
    );
    expect(json<{ draft: { pricingErrors: string[] } }>(gone).draft.pricingErrors).toEqual([
      'Chair: There is no tax option DE-reduced in the settings.',
    ]);
    await saveSection('Admin', 'company', { taxOptions: before });
  });
});
