// THE FLOOD TEST: scripted bots against a real listening server (127.0.0.1 only, bounded: 120 bot
// submits and 20 people), each sender from a loopback address of its own (the client socket binds
// 127.x.y.z, which the server sees as the request's address: no proxy header is trusted). Bots: no
// JavaScript (no token), instant submits (a fresh token sent at once), the same text over and over,
// rotating e-mails from one address, honeypot fillers, and forged tokens. People fill the form at a
// human pace: the wait is simulated by a token issued 15–90 s earlier (the token's clock), not by
// sleeping. Asserted: at least 90 % of bot submits refused, and every person's enquiry accepted.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnquiryConfig } from '../../../contracts/enquiry';
import { products, sellers, users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test-support';
import { mailLinkSecret } from '../mail-links/links';
import { createFormTokens, type FormTokens } from './form-token';

interface Answer {
  status: number;
  body: string;
}

describe('enquiry form under a bot flood', () => {
  let t: TestApp;
  let tokens: FormTokens;
  let port: number;
  let seller: { id: string; code: string };
  let liveProductId: string;

  beforeAll(async () => {
    t = await createTestApp({ jobs: { enabled: false } });
    tokens = createFormTokens(await mailLinkSecret(t.database.db, t.config.MAIL_LINK_SECRET));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    const [own] = await t.database.db
      .select({ code: sellers.sellerCode, id: sellers.id })
      .from(users)
      .innerJoin(sellers, eq(sellers.id, users.sellerId))
      .where(eq(users.email, 'seller@demo.local'));
    seller = own as { id: string; code: string };
    const [live] = await t.database.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.sellerId, seller.id), eq(products.status, 'live')))
      .limit(1);
    liveProductId = live?.id as string;
  });
  afterAll(() => t.close());

  const call = (from: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          localAddress: from,
          agent: false,
          headers: payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {},
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const url = () => `/api/v1/enquiry/${seller.code}`;
  const submit = (from: string, body: Record<string, unknown>) => call(from, 'POST', url(), body);
  // Offer requests (the checks do not depend on the mode; a question goes the same way).
  const fields = (tag: string) => ({
    mode: 'offer',
    lines: [{ productId: liveProductId, quantity: 1 }],
    name: `Sender ${tag}`,
    email: `${tag}@example.com`,
    subject: 'Question',
    message: `Hello, a question about your products (${tag}).`,
  });

  it('refuses at least 90 % of bot submits and accepts every person', async () => {
    const bots: Answer[] = [];
    const botRun = async (
      from: string,
      count: number,
      body: (index: number) => Promise<Record<string, unknown>>,
    ) => {
      for (let index = 0; index < count; index++) bots.push(await submit(from, await body(index)));
    };
    const aged = (seconds: number) => tokens.issue(seller.id, Date.now() - seconds * 1000);

    // No JavaScript: the form's HTML only, no token.
    await botRun('127.0.2.1', 20, async (index) => fields(`nojs-${index}`));
    // Instant: loads the form (a real token) and posts at once.
    await botRun('127.0.2.2', 20, async (index) => {
      const form = JSON.parse((await call('127.0.2.2', 'GET', url())).body) as EnquiryConfig;
      return { ...fields(`instant-${index}`), formToken: form.formToken };
    });
    // Patient, but the same text from the same address over and over.
    await botRun('127.0.2.3', 20, async () => ({ ...fields('repeat'), formToken: aged(30) }));
    // Patient, rotating e-mails (and texts) from one address.
    await botRun('127.0.2.4', 20, async (index) => ({ ...fields(`rotate-${index}`), formToken: aged(30) }));
    // Fills every field it finds, the hidden one too.
    await botRun('127.0.2.5', 20, async (index) => ({
      ...fields(`honeypot-${index}`),
      formToken: aged(30),
      website: 'https://cheap-pills.example',
    }));
    // Forges a token (or replays one of another shop).
    await botRun('127.0.2.6', 20, async (index) => ({
      ...fields(`forged-${index}`),
      formToken: `${seller.id}.${(Date.now() - 60_000).toString(36)}.bm90LWEtc2lnbmF0dXJl`,
    }));

    const people: Answer[] = [];
    for (let index = 0; index < 20; index++) {
      const from = `127.0.1.${index + 1}`;
      const form = JSON.parse((await call(from, 'GET', url())).body) as EnquiryConfig;
      expect(form.formToken).toBeTruthy();
      people.push(
        await submit(from, {
          ...fields(`person-${index}`),
          phone: index % 2 ? '+49 30 1234567' : '',
          // 15 to 90 s spent filling the form.
          formToken: aged(15 + ((index * 7) % 75)),
        }),
      );
    }

    const refused = bots.filter((answer) => answer.status !== 201).length;
    const rate = refused / bots.length;
    console.info(
      `Enquiry flood: ${refused} of ${bots.length} bot submits refused (${(rate * 100).toFixed(1)} %); ` +
        `${people.filter((answer) => answer.status === 201).length} of ${people.length} people accepted`,
    );
    expect(bots.every((answer) => [201, 400, 409, 429].includes(answer.status))).toBe(true);
    expect(rate).toBeGreaterThanOrEqual(0.9);
    expect(people.map((answer) => answer.status)).toEqual(people.map(() => 201));
  });
});
