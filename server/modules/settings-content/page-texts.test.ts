// The public pages' texts on PGlite and PostgreSQL: Settings → Content's text in the reader's language
// (else English; empty: the page's own words), as plain text, and the shop and terms links when set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SectionState } from '../../../contracts/settings';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';

const TEXTS = '/api/v1/helperQuery/method/pageTexts';

describe.each(testBackends)('public page texts on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const save = async (section: 'content' | 'website', set: Record<string, unknown>) => {
    const { version } = json<SectionState>(await as('Admin', 'GET', `/api/v1/settings/${section}`));
    const saved = await as('Admin', 'PUT', `/api/v1/settings/${section}`, { version, set });
    expect(saved.statusCode, saved.body).toBe(200);
  };
  const read = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `${TEXTS}?${query}` });
    expect(response.statusCode).toBe(200);
    return json<{ text: string; storefrontUrl: string | null; termsUrl: string | null }>(response);
  };

  it('answers nothing until the marketplace words the page, without sign-in', async () => {
    expect(await read('page=unsubscribe')).toEqual({ text: '', storefrontUrl: null, termsUrl: null });
  });

  it("answers the text in the reader's language, else English, as text without markup", async () => {
    await save('content', {
      unsubscribeText: { EN: '<p>Sorry to see you <b>go</b>.</p>', DE: '<p>Schade, dass Sie gehen.</p>' },
      responsePageText: { EN: '<p>Thanks for answering.</p>' },
      termsUrl: 'https://shop.example.com/terms',
    });
    await save('website', { storefrontUrl: 'https://shop.example.com' });
    expect(await read('page=unsubscribe&language=de')).toEqual({
      text: 'Schade, dass Sie gehen.',
      storefrontUrl: 'https://shop.example.com',
      termsUrl: 'https://shop.example.com/terms',
    });
    expect((await read('page=unsubscribe&language=FR')).text).toBe('Sorry to see you go.');
    expect((await read('page=response')).text).toBe('Thanks for answering.');
    const byHeader = await t.app.inject({
      method: 'GET',
      url: `${TEXTS}?page=unsubscribe`,
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(json<{ text: string }>(byHeader).text).toBe('Schade, dass Sie gehen.');
  });

  it('refuses an unknown page or language with a message', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${TEXTS}?page=secrets` });
    expect(page.statusCode).toBe(400);
    const language = await t.app.inject({ method: 'GET', url: `${TEXTS}?page=unsubscribe&language=deutsch` });
    expect(language.statusCode).toBe(400);
    expect(json(language).message).toBeTruthy();
  });
});
