// The public enquiry form's API on PGlite and PostgreSQL: the form (name, introduction, token), the
// product picker, each refusal (unknown or blocked shop, honeypot, missing/forged/expired/other shop's
// token, too fast, duplicate, per-address and per-e-mail limits with Retry-After), the happy path, and
// the embedding sites (CORS and frame-ancestors) shared with the chat widget.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENQUIRY_MESSAGES, type EnquiryConfig } from '../../../contracts/enquiry';
import type { SectionState } from '../../../contracts/settings';
import { customerQueries, offers, products, sellers, users } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { mailLinkSecret } from '../mail-links/links';
import { createFormTokens, type FormTokens, TOKEN_MAX_AGE_MS } from './form-token';

const API = '/api/v1/enquiry';

describe.each(testBackends)('enquiry form on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let tokens: FormTokens;
  let seller: { id: string; code: string };
  let other: { id: string; code: string };
  let blockedCode: string;
  let address = 0;
  let liveProductId: string;

  beforeAll(async () => {
    // Tight limits so the limit tests stay short; each other test sends from an address of its own.
    t = await createTestApp({
      backend,
      jobs: { enabled: false },
      rateLimits: { enquiry: { submitsPerIp: 3, submitsPerEmail: 2 } },
    });
    as = await apiAs(t.app);
    tokens = createFormTokens(await mailLinkSecret(t.database.db, t.config.MAIL_LINK_SECRET));
    const [own] = await t.database.db
      .select({ code: sellers.sellerCode, id: sellers.id })
      .from(users)
      .innerJoin(sellers, eq(sellers.id, users.sellerId))
      .where(eq(users.email, 'seller@demo.local'));
    seller = own as { id: string; code: string };
    const [blocked] = await t.database.db
      .select({ code: sellers.sellerCode })
      .from(users)
      .innerJoin(sellers, eq(sellers.id, users.sellerId))
      .where(eq(users.email, 'blocked@demo.local'));
    blockedCode = blocked?.code as string;
    const rows = await t.database.db
      .select({ code: sellers.sellerCode, id: sellers.id })
      .from(sellers)
      .where(and(eq(sellers.isActive, true), eq(sellers.blocked, false)))
      .limit(5);
    other = rows.find((row) => row.id !== seller.id) as { id: string; code: string };
    const [live] = await t.database.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.sellerId, seller.id), eq(products.status, 'live')))
      .limit(1);
    liveProductId = live?.id as string;
  });
  afterAll(() => t.close());

  const nextAddress = () => `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
  const aged = (seconds: number, sellerId = seller.id) => tokens.issue(sellerId, Date.now() - seconds * 1000);
  // An offer request by default (the spam defence does not depend on the mode); the question test asks.
  const form = (overrides: Record<string, unknown> = {}) => ({
    formToken: aged(20),
    mode: 'offer',
    lines: [{ productId: liveProductId, quantity: 2 }],
    name: 'Ada Customer',
    email: `ada-${Math.random().toString(36).slice(2)}@example.com`,
    subject: 'Delivery time',
    message: `How soon can you deliver? ${Math.random()}`,
    ...overrides,
  });
  const send = (body: Record<string, unknown>, remoteAddress = nextAddress(), code = seller.code) =>
    t.app.inject({ method: 'POST', url: `${API}/${code}`, payload: body, remoteAddress });

  it('hands out the form: the shop, its introduction as text, and a token that passes once aged', async () => {
    const { version } = json<SectionState>(await as('Seller', 'GET', '/api/v1/settings/content'));
    const saved = await as('Seller', 'PUT', '/api/v1/settings/content', {
      version,
      set: { enquiryIntro: { EN: '<p>Ask <strong>us</strong> anything.</p>', DE: '<p>Fragen Sie uns.</p>' } },
    });
    expect(saved.statusCode).toBe(200);
    const answer = await t.app.inject({
      url: `${API}/${seller.code}`,
      headers: { 'accept-language': 'de-DE' },
    });
    expect(answer.statusCode).toBe(200);
    const config = json<EnquiryConfig>(answer);
    expect(config.intro).toBe('Fragen Sie uns.');
    expect(config.languages.sort()).toEqual(['DE', 'EN']);
    expect(tokens.check(config.formToken, seller.id)).toEqual({ ok: false, reason: 'too-fast' });
    expect(tokens.check(config.formToken, seller.id, Date.now() + 5000).ok).toBe(true);
  });

  it('refuses unknown and blocked shops with a clear text', async () => {
    for (const code of ['NO-SUCH-SHOP', blockedCode]) {
      const read = await t.app.inject({ url: `${API}/${code}` });
      expect(read.statusCode).toBe(404);
      expect(json<{ message: string }>(read).message).toBe(ENQUIRY_MESSAGES.unknownShop);
      expect((await send(form(), undefined, code)).statusCode).toBe(404);
    }
  });

  it("lists the shop's live products, 20 at a time, searchable", async () => {
    const live = await t.database.db
      .select({ id: products.id, title: products.title })
      .from(products)
      .where(and(eq(products.sellerId, seller.id), eq(products.status, 'live')));
    const page = json<{ items: { id: string; title: string }[]; hasMore: boolean }>(
      await t.app.inject({ url: `${API}/${seller.code}/products` }),
    );
    expect(page.items.length).toBe(Math.min(20, live.length));
    expect(page.hasMore).toBe(live.length > 20);
    const wanted = live[0];
    if (wanted) {
      const found = json<{ items: { id: string }[] }>(
        await t.app.inject({
          url: `${API}/${seller.code}/products?search=${encodeURIComponent(wanted.title)}`,
        }),
      );
      expect(found.items.map((item) => item.id)).toContain(wanted.id);
    }
  });

  it('refuses a filled honeypot and a missing, forged, expired or other shop token with one text', async () => {
    const cases = [
      form({ website: 'http://spam.example' }),
      form({ formToken: '' }),
      form({ formToken: `${aged(20).slice(0, -4)}AAAA` }),
      form({ formToken: aged(TOKEN_MAX_AGE_MS / 1000 + 60) }),
      form({ formToken: aged(20, other.id) }),
    ];
    for (const body of cases) {
      const answer = await send(body);
      expect(answer.statusCode).toBe(400);
      expect(json<{ message: string }>(answer).message).toBe(ENQUIRY_MESSAGES.refused);
    }
  });

  it('refuses a form sent under 3 s after it was issued, and says why', async () => {
    const answer = await send(form({ formToken: aged(1) }));
    expect(answer.statusCode).toBe(400);
    expect(json<{ message: string }>(answer).message).toBe(ENQUIRY_MESSAGES.tooFast);
  });

  it('takes a question: the query is stored with channel form', async () => {
    const body = form({ mode: 'question', lines: [], productId: liveProductId, phone: '+44 20 7946 0000' });
    const answer = await send(body);
    expect(answer.statusCode).toBe(201);
    const [stored] = await t.database.db
      .select()
      .from(customerQueries)
      .where(eq(customerQueries.email, body.email as string));
    expect(stored).toMatchObject({ sellerId: seller.id, channel: 'form', subject: 'Delivery time' });
  });

  it('takes an offer request: requested, with its products, quantities and shipping country', async () => {
    const [foreign] = await t.database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.sellerId, other.id))
      .limit(1);
    const body = form({
      mode: 'offer',
      subject: '',
      lines: [{ productId: liveProductId, quantity: 12 }],
      shippingCountry: 'de',
    });
    const answer = await send(body);
    expect(answer.statusCode).toBe(201);
    expect(json<{ reference: string }>(answer).reference).toMatch(/^OFR-\d+$/);
    const [stored] = await t.database.db
      .select()
      .from(offers)
      .where(eq(offers.email, body.email as string));
    expect(stored).toMatchObject({ sellerId: seller.id, status: 'requested', message: body.message });
    expect(stored?.requestedItems).toMatchObject([{ productId: liveProductId, quantity: 12 }]);
    expect(stored?.shippingAddress?.country).toBe('DE');

    const noLines = await send(form({ mode: 'offer', lines: [] }));
    expect(noLines.statusCode).toBe(400);
    if (foreign) {
      const elsewhere = await send(form({ mode: 'offer', lines: [{ productId: foreign.id, quantity: 1 }] }));
      expect(elsewhere.statusCode).toBe(400);
    }
  });

  it('refuses the same message from the same address again within 24 h with 409', async () => {
    const body = form();
    expect((await send(body)).statusCode).toBe(201);
    const again = await send({
      ...body,
      formToken: aged(30),
      message: `  ${(body.message as string).toUpperCase()}  `,
    });
    expect(again.statusCode).toBe(409);
    expect(json<{ message: string }>(again).message).toBe(ENQUIRY_MESSAGES.duplicate);
  });

  it('limits submits per address and per e-mail with 429 and Retry-After', async () => {
    const ip = nextAddress();
    for (let index = 0; index < 3; index++) expect((await send(form(), ip)).statusCode).toBe(201);
    const over = await send(form(), ip);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(json<{ message: string }>(over).message).toBe(ENQUIRY_MESSAGES.tooMany);

    const email = `limit-${Math.random().toString(36).slice(2)}@example.com`;
    for (let index = 0; index < 2; index++) expect((await send(form({ email }))).statusCode).toBe(201);
    const byEmail = await send(form({ email }));
    expect(byEmail.statusCode).toBe(429);
    expect(byEmail.headers['retry-after']).toBeDefined();
  });

  it('answers allowed embedding sites (CORS, frame-ancestors) and refuses others, without a restart', async () => {
    const { version } = json<SectionState>(await as('Seller', 'GET', '/api/v1/settings/website'));
    const saved = await as('Seller', 'PUT', '/api/v1/settings/website', {
      version,
      set: { embedOrigins: ['https://shop.example'] },
    });
    expect(saved.statusCode).toBe(200);
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: `${API}/${seller.code}`,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight('https://shop.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
    const refusedSite = await preflight('https://evil.example');
    expect(refusedSite.headers['access-control-allow-origin']).toBeUndefined();
    const read = await t.app.inject({
      url: `${API}/${seller.code}`,
      headers: { origin: 'https://evil.example' },
    });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();

    const csp = String(
      (await t.app.inject({ url: `/enquiry/${seller.code}` })).headers['content-security-policy'],
    );
    expect(/frame-ancestors ([^;]*)/.exec(csp)?.[1]).toBe("'self' https://shop.example");
    expect((await t.app.inject({ url: '/enquiry.js' })).headers['cross-origin-resource-policy']).not.toBe(
      'same-origin',
    );
  });
});
