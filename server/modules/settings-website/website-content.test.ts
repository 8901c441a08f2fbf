// Settings → Website and Content on PGlite and PostgreSQL: who may frame a shop's chat page and call
// its widget API (the marketplace's and the shop's sites, applied without a restart), the storefront
// URL check, content stored sanitised, and the bot greeting and answering with the configured texts.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SectionState } from '../../../contracts/settings';
import { sellers, users } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';

const API = '/api/v1/settings';
const WIDGET = '/api/v1/queryBot/widget';

describe.each(testBackends)('Settings → Website and Content on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerCode: string;
  let otherCode: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [own] = await t.database.db
      .select({ code: sellers.sellerCode, id: sellers.id })
      .from(users)
      .innerJoin(sellers, eq(sellers.id, users.sellerId))
      .where(eq(users.email, 'seller@demo.local'));
    sellerCode = own?.code as string;
    const rows = await t.database.db
      .select({ code: sellers.sellerCode })
      .from(sellers)
      .where(and(eq(sellers.isActive, true), eq(sellers.blocked, false)))
      .limit(5);
    otherCode = rows.find((row) => row.code !== sellerCode)?.code as string;
  });
  afterAll(() => t.close());

  const save = async (who: 'Admin' | 'Seller', section: string, set: Record<string, unknown>) => {
    const { version } = json<SectionState>(await as(who, 'GET', `${API}/${section}`));
    return as(who, 'PUT', `${API}/${section}`, { version, set });
  };
  const frameAncestors = async (code: string) => {
    const csp = String((await t.app.inject({ url: `/chat/${code}` })).headers['content-security-policy']);
    return /frame-ancestors ([^;]*)/.exec(csp)?.[1];
  };
  const preflight = (code: string, origin: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url: `${WIDGET}/${code}/start`,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });

  it('lets any site frame the chat page while no site is named', async () => {
    expect(await frameAncestors(sellerCode)).toBe('*');
    const answer = await preflight(sellerCode, 'https://anyone.example');
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('https://anyone.example');
  });

  it("frames and CORS follow the marketplace's and the shop's sites at once", async () => {
    expect((await save('Admin', 'website', { embedOrigins: ['https://mall.example'] })).statusCode).toBe(200);
    expect(await frameAncestors(sellerCode)).toBe("'self' https://mall.example");
    expect(await frameAncestors(otherCode)).toBe("'self' https://mall.example");

    expect((await save('Seller', 'website', { embedOrigins: ['https://Shop.example'] })).statusCode).toBe(
      200,
    );
    expect(await frameAncestors(sellerCode)).toBe("'self' https://mall.example https://shop.example");
    // Another shop does not inherit this shop's site.
    expect(await frameAncestors(otherCode)).toBe("'self' https://mall.example");

    const allowed = await preflight(sellerCode, 'https://shop.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(allowed.headers['access-control-allow-methods']).toContain('POST');
    const refused = await preflight(sellerCode, 'https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(
      (await preflight(otherCode, 'https://shop.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    const read = await t.app.inject({
      url: `${WIDGET}/${sellerCode}`,
      headers: { origin: 'https://mall.example' },
    });
    expect(read.headers['access-control-allow-origin']).toBe('https://mall.example');
    expect(read.headers.vary).toContain('Origin');
  });

  it('serves the launcher look to the widget', async () => {
    await save('Seller', 'website', { widgetColour: '#112233', widgetPosition: 'bottom-left' });
    const shop = json<{ look: Record<string, string> }>(
      await t.app.inject({ url: `${WIDGET}/${sellerCode}` }),
    );
    expect(shop.look).toMatchObject({ colour: '#112233', position: 'bottom-left', textColour: '#ffffff' });

    // White on yellow would not read: the launcher gets black, as the chat page paints it.
    await save('Seller', 'website', { widgetColour: '#ffd400', widgetTextColour: '#ffffff' });
    const yellow = json<{ look: Record<string, string> }>(
      await t.app.inject({ url: `${WIDGET}/${sellerCode}` }),
    );
    expect(yellow.look).toMatchObject({ colour: '#ffd400', textColour: '#000000' });
  });

  it('refuses a storefront URL that fails the URL check, and a site with a path', async () => {
    const badUrl = await save('Admin', 'website', { storefrontUrl: 'javascript:alert(1)' });
    expect(badUrl.statusCode).toBe(400);
    expect(json<{ message: string }>(badUrl).message).toMatch(/^storefrontUrl: /);
    expect((await save('Admin', 'website', { embedOrigins: ['https://mall.example/shop'] })).statusCode).toBe(
      400,
    );
    expect((await save('Admin', 'website', { storefrontUrl: 'https://shop.example/en' })).statusCode).toBe(
      200,
    );
  });

  it('stores content sanitised: no script, no handlers', async () => {
    const saved = await save('Admin', 'content', {
      botWelcome: {
        EN: '<p onclick="steal()">Namaste!<script>alert(1)</script> <strong>Ask us</strong></p>',
      },
      unsubscribeText: { EN: '<p><br></p>' },
    });
    expect(saved.statusCode).toBe(200);
    const state = json<SectionState>(saved);
    expect(state.fields.botWelcome?.value).toEqual({ EN: '<p>Namaste! <strong>Ask us</strong></p>' });
    expect(state.fields.unsubscribeText?.value).toEqual({ EN: '' });
  });

  it("greets and answers with the shop's texts, in the chat's language, else English", async () => {
    await save('Admin', 'content', { botGeneralReply: { EN: '<p>Sorry, try the menu.</p>' } });
    await save('Seller', 'content', {
      botWelcome: { EN: '<p>Hello from our shop</p>', HI: '<p>Namaste</p>' },
    });
    const start = async (code: string, language: string) =>
      json<{ sessionId: string; messages: { message: string }[] }>(
        await t.app.inject({
          method: 'POST',
          url: `${WIDGET}/${code}/start`,
          headers: { 'accept-language': language },
          payload: { name: 'Asha', email: 'asha@example.com' },
        }),
      );
    expect((await start(sellerCode, 'hi-IN,hi;q=0.9')).messages[0]?.message).toBe('Namaste');
    const chat = await start(sellerCode, 'de-DE');
    expect(chat.messages[0]?.message).toBe('Hello from our shop');
    // Another shop inherits the marketplace's welcome.
    expect((await start(otherCode, 'en')).messages[0]?.message).toBe('Namaste! Ask us');

    const reply = json<{ messages: { message: string }[] }>(
      await t.app.inject({
        method: 'POST',
        url: `${WIDGET}/${sellerCode}/messages`,
        payload: { sessionId: chat.sessionId, message: 'zzqx plover' },
      }),
    );
    expect(reply.messages.at(-1)?.message).toBe('Sorry, try the menu.');

    // Empty everywhere: today's built-in greeting.
    await save('Seller', 'content', { botWelcome: { EN: '' } });
    await save('Admin', 'content', { botWelcome: { EN: '' } });
    expect((await start(sellerCode, 'en')).messages[0]?.message).toMatch(/^Hi Asha! Welcome to /);
  });
});
