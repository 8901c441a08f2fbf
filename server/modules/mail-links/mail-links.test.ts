import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_GONE_MESSAGE,
  INVALID_LINK_MESSAGE,
  RESPONSE_RECORDED_MESSAGE,
  UNSUBSCRIBED_MESSAGE,
} from '../../../contracts/mail-links';
import { campaigns, emailResponses, emailUnsubscribes } from '../../db/schema';
import { createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { createMailLinks } from './links';
import { TOO_MANY_MESSAGE } from './routes';
import { isUnsubscribed } from './service';

const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('signed mail links', () => {
  const links = createMailLinks('s'.repeat(40), 'https://shop.example');

  it('point at the public pages and verify only for the address and campaign they were made for', () => {
    const unsubscribe = params(links.unsubscribeUrl('Ann@Example.com'));
    expect(links.unsubscribeUrl('ann@example.com')).toMatch(/^https:\/\/shop\.example\/unsubscribe\?/);
    expect(links.verify('unsubscribe', unsubscribe.token!, 'ann@example.com')).toBe(true);
    expect(links.verify('unsubscribe', unsubscribe.token!, 'bob@example.com')).toBe(false);
    expect(links.verify('response', unsubscribe.token!, 'ann@example.com')).toBe(false);

    const answer = params(links.responseUrl('ann@example.com', 'spring-sale', 'Yes'));
    expect(answer).toMatchObject({ email: 'ann@example.com', campaign: 'spring-sale', response: 'Yes' });
    expect(links.verify('response', answer.token!, 'ann@example.com', 'spring-sale')).toBe(true);
    expect(links.verify('response', answer.token!, 'ann@example.com', 'other')).toBe(false);
    expect(
      createMailLinks('t'.repeat(40), 'x').verify(
        'response',
        answer.token!,
        'ann@example.com',
        'spring-sale',
      ),
    ).toBe(false);
  });
});

describe.each(testBackends)('mail link API on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(() => t.close());

  const post = (path: string, payload: object, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: `/api/v1/helperQuery/method/${path}`, payload, remoteAddress: ip });

  it('unsubscribes the address of a signed link, without an account, and is idempotent', async () => {
    const link = params(t.app.mailLinks.unsubscribeUrl('Reader@Example.com'));
    const first = await post('unsubscribeEmailUser', { email: 'Reader@Example.com', token: link.token });
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual({ message: UNSUBSCRIBED_MESSAGE });
    expect(await isUnsubscribed(t.database.db, 'reader@example.com')).toBe(true);
    const again = await post('unsubscribeEmailUser', { email: 'reader@example.com', token: link.token });
    expect(again.statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(emailUnsubscribes)
      .where(eq(emailUnsubscribes.email, 'reader@example.com'));
    expect(rows).toHaveLength(1);
  });

  it('refuses a link made for another address and writes nothing', async () => {
    const link = params(t.app.mailLinks.unsubscribeUrl('someone@example.com'));
    const response = await post('unsubscribeEmailUser', { email: 'victim@example.com', token: link.token });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ message: INVALID_LINK_MESSAGE, code: 'INVALID_LINK' });
    expect(await isUnsubscribed(t.database.db, 'victim@example.com')).toBe(false);
  });

  /** A campaign row offering `answers` (the mail-link routes read only its answers). */
  const campaignOffering = async (answers: string[]) => {
    const [row] = await t.database.db
      .insert(campaigns)
      .values({
        name: `Answers ${answers.join(' ')} ${Math.random()}`,
        audience: { combinator: 'and', children: [] },
        counts: { queued: 0, sending: 0, sent: 0, deferred: 0, failed: 0, skipped: 0 },
        responseOptions: answers,
        status: 'sent',
      })
      .returning({ id: campaigns.id });
    return row?.id as string;
  };
  const optionsOf = (query: Record<string, string>, ip = '10.0.0.3') =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/helperQuery/method/responseOptions?${new URLSearchParams(query).toString()}`,
      remoteAddress: ip,
    });

  it('records an answer to a campaign, and a second answer replaces the first', async () => {
    const campaign = await campaignOffering(['Interested', 'Not now']);
    const link = params(t.app.mailLinks.responseUrl('fan@example.com', campaign));
    const body = { email: 'fan@example.com', token: link.token as string, campaign };
    const before = await optionsOf(body);
    expect(before.statusCode, before.body).toBe(200);
    expect(json(before)).toEqual({
      options: ['Interested', 'Not now'],
      labels: ['Interested', 'Not now'],
      current: null,
    });
    const first = await post('collectResponse', { ...body, response: 'Interested', comment: '  Call me  ' });
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual({ message: RESPONSE_RECORDED_MESSAGE });
    // Case and spaces aside, the campaign's spelling is what is stored.
    await post('collectResponse', { ...body, response: ' not NOW ' });
    const rows = await t.database.db
      .select()
      .from(emailResponses)
      .where(eq(emailResponses.email, 'fan@example.com'));
    expect(rows).toEqual([expect.objectContaining({ campaign, response: 'Not now', comment: null })]);
    expect(json(await optionsOf(body))).toMatchObject({ current: 'Not now' });
  });

  it('refuses an answer the campaign does not offer, and a campaign that is gone, storing nothing', async () => {
    const campaign = await campaignOffering(['Yes', 'No']);
    const link = params(t.app.mailLinks.responseUrl('picky@example.com', campaign));
    const body = { email: 'picky@example.com', token: link.token as string, campaign };
    const made = await post('collectResponse', { ...body, response: 'Buy me a pony' }, '10.0.0.4');
    expect(made.statusCode).toBe(400);
    expect(json(made)).toMatchObject({
      message: 'Choose one of the campaign’s answers: Yes, No.',
      code: 'UNKNOWN_ANSWER',
    });
    const silent = await campaignOffering([]);
    const silentLink = params(t.app.mailLinks.responseUrl('picky@example.com', silent));
    const none = await post(
      'collectResponse',
      { email: 'picky@example.com', token: silentLink.token, campaign: silent, response: 'Yes' },
      '10.0.0.4',
    );
    expect(json(none)).toMatchObject({
      message: 'This campaign asks for no answer.',
      code: 'UNKNOWN_ANSWER',
    });
    // A signed link of a deleted (or never existing) campaign.
    const goneId = '00000000-0000-4000-8000-000000000000';
    const gone = params(t.app.mailLinks.responseUrl('picky@example.com', goneId));
    const answer = await post(
      'collectResponse',
      { email: 'picky@example.com', token: gone.token, campaign: goneId, response: 'Yes' },
      '10.0.0.4',
    );
    expect(answer.statusCode).toBe(404);
    expect(json(answer)).toEqual({ message: CAMPAIGN_GONE_MESSAGE, code: 'CAMPAIGN_NOT_FOUND' });
    expect(
      (await optionsOf({ email: 'picky@example.com', token: gone.token as string, campaign: goneId }))
        .statusCode,
    ).toBe(404);
    // The options need the signed link too.
    const forged = await optionsOf({ email: 'other@example.com', token: link.token as string, campaign });
    expect(forged.statusCode).toBe(403);
    const rows = await t.database.db
      .select()
      .from(emailResponses)
      .where(eq(emailResponses.email, 'picky@example.com'));
    expect(rows).toEqual([]);
  });

  it('rejects bad input with a clear message and stores nothing', async () => {
    const link = params(t.app.mailLinks.responseUrl('x@example.com', 'c1'));
    const cases = [
      { email: 'not-an-email', token: link.token, campaign: 'c1', response: 'Yes' },
      { email: 'x@example.com', token: link.token, campaign: 'c1', response: '   ' },
      { email: 'x@example.com', token: link.token, campaign: 'c1', response: 'y'.repeat(101) },
      { email: 'x@example.com', token: 'short', campaign: 'c1', response: 'Yes' },
      {
        email: 'x@example.com',
        token: link.token,
        campaign: 'c1',
        response: 'Yes',
        comment: 'c'.repeat(2001),
      },
    ];
    for (const payload of cases) {
      const response = await post('collectResponse', payload, '10.0.0.2');
      expect(response.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(json<{ message: string }>(response).message).toEqual(expect.any(String));
    }
    const forged = await post(
      'collectResponse',
      { email: 'x@example.com', token: link.token, campaign: 'c2', response: 'Yes' },
      '10.0.0.2',
    );
    expect(forged.statusCode).toBe(403);
    const rows = await t.database.db
      .select()
      .from(emailResponses)
      .where(eq(emailResponses.email, 'x@example.com'));
    expect(rows).toEqual([]);
  });

  it('answers 429 when one address calls too often', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await post(
        'unsubscribeEmailUser',
        { email: 'a@example.com', token: 'x'.repeat(43) },
        '10.0.0.9',
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 403)).toBe(true);
    expect(statuses[20]).toBe(429);
    const last = await post(
      'unsubscribeEmailUser',
      { email: 'a@example.com', token: 'x'.repeat(43) },
      '10.0.0.9',
    );
    expect(json(last)).toEqual({ message: TOO_MANY_MESSAGE, code: 'RATE_LIMITED' });
  });
});
