// What a campaign's mail carries and what it is credited with: one unsubscribe count wherever it shows
// (campaigns list, campaign page and its tab, the dashboard), and the footer and answer buttons in the
// language of the template version the recipient gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, CampaignInput } from '../../../contracts/campaigns';
import type { CampaignsDashboard } from '../../../contracts/campaigns-dashboard';
import type { SavedTemplate } from '../../../contracts/mail-templates';
import { templateLanguages } from '../../../contracts/marketing';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { unsubscribeAddress } from '../contacts/subscription';
import { twoLanguageTemplate } from '../mail-templates/test-helpers';
import { mailTextsOf } from './mail-texts';
import { audienceOf, insertContacts, readOutbox } from './test-helpers';

const API = '/api/v1/campaigns';

describe.each(testBackends)('campaign engagement on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let template: SavedTemplate;

  const runJobs = async () => {
    while (await t.app.jobs.worker.runOnce()) {}
  };
  const sendTo = async (tag: string, name: string, extra: Partial<CampaignInput> = {}) => {
    const created = await as('Staff', 'POST', API, {
      name,
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: audienceOf(tag),
      ratePerSecond: 2000,
      ...extra,
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = json<Campaign>(created);
    const sent = await as('Staff', 'POST', `${API}/${campaign.id}/send`, { version: campaign.version });
    expect(sent.statusCode, sent.body).toBe(200);
    await runJobs();
    return campaign.id;
  };
  const get = async (id: string) => json<Campaign>(await as('Staff', 'GET', `${API}/${id}`));

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    template = json<SavedTemplate>(
      await as('Admin', 'POST', '/api/v1/mailTemplates', twoLanguageTemplate('Engagement template')),
    );
  });
  afterAll(() => t.close());

  it('credits an unsubscribe to the last campaign that mailed the contact, the same number everywhere', async () => {
    const [early, late] = await insertContacts(t.database.db, { tag: 'twice', n: 3 });
    const first = await sendTo('twice', 'First mailing');
    // Left after the first mail only: never mailed again.
    await unsubscribeAddress(t.database.db, early?.email as string, 'link');
    const second = await sendTo('twice', 'Second mailing');
    // Got both mails, left after the second: the second's, not the first's as well.
    await unsubscribeAddress(t.database.db, late?.email as string, 'one_click');

    const listed = json<{ result: Campaign[] }>(await as('Staff', 'GET', `${API}?query=mailing`)).result;
    const dashboard = json<CampaignsDashboard>(
      await as('Admin', 'GET', '/api/v1/dashboard/getCampaignsSummary'),
    );
    for (const [id, email] of [
      [first, early?.email],
      [second, late?.email],
    ] as const) {
      const tab = json<{ result: { email: string }[]; count: number }>(
        await as('Staff', 'GET', `${API}/${id}/unsubscribes`),
      );
      expect(tab).toMatchObject({ count: 1, result: [{ email }] });
      expect(listed.find((row) => row.id === id)?.unsubscribes).toBe(1);
      expect((await get(id)).unsubscribes).toBe(1);
      expect(dashboard.perCampaign.find((row) => row.id === id)).toMatchObject({
        unsubscribes: 1,
        unsubscribeRate: id === first ? 33.3 : 50,
      });
    }
  });

  it("words the footer and the answer buttons in the language of the recipient's version", async () => {
    const [en, fr] = await insertContacts(t.database.db, { tag: 'words', n: 2, languages: ['EN', 'FR'] });
    const id = await sendTo('words', 'Worded mailing', {
      responseOptions: ['Interested', 'Not now'],
      responseLabels: { FR: ['Intéressé', 'Pas maintenant'] },
    });
    expect((await get(id)).responseLabels).toEqual({ FR: ['Intéressé', 'Pas maintenant'] });
    const mails = (await readOutbox(t.dataDir)).filter((mail) =>
      mail.name.startsWith(`c${id.replaceAll('-', '')}`),
    );
    const bodyOf = (email?: string) => mails.find((mail) => mail.headers.get('to') === email)?.body ?? '';
    const french = bodyOf(fr?.email);
    expect(french).toContain(
      'Vous recevez cet e-mail parce que vous faites partie de nos contacts marketing.',
    );
    expect(french).toContain('>Se désabonner</a>');
    expect(french).toContain('Répondez en un clic :');
    expect(french).toMatch(/>Intéressé<\/a>.*>Pas maintenant<\/a>/s);
    expect(french).not.toContain('You receive this mail');
    expect(french).not.toContain('>Interested</a>');
    // The button's link carries the answer itself: both languages' answers count together.
    const frenchLinks = [...french.matchAll(/https?:\/\/[^\s"<>]+\/responseCollection\?[^\s"<>]+/g)].map(
      (match) => new URL(match[0].replaceAll('&amp;', '&')),
    );
    expect(new Set(frenchLinks.map((url) => url.searchParams.get('response')))).toEqual(
      new Set(['Interested', 'Not now']),
    );
    const english = bodyOf(en?.email);
    expect(english).toContain('You receive this mail because you are in our marketing contacts.');
    expect(english).toMatch(/>Interested<\/a>.*>Not now<\/a>/s);
    // The answer page words them as the mail did.
    const link = frenchLinks[0] as URL;
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/helperQuery/method/responseOptions?${new URLSearchParams({
        email: link.searchParams.get('email') ?? '',
        campaign: id,
        token: link.searchParams.get('token') ?? '',
      }).toString()}`,
    });
    expect(json(page)).toEqual({
      options: ['Interested', 'Not now'],
      labels: ['Intéressé', 'Pas maintenant'],
      current: null,
    });
    // A wording that does not give every answer is refused.
    const refused = await as('Staff', 'POST', API, {
      name: 'Half worded',
      templateId: template.id,
      fallbackLanguage: 'EN',
      audience: audienceOf('words'),
      responseOptions: ['Interested', 'Not now'],
      responseLabels: { FR: ['Intéressé'] },
    });
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toMatchObject({
      message: 'Give the French wording of each of the 2 answers, in their order.',
      code: 'RESPONSE_LABELS',
    });
  });
});

describe('mail texts', () => {
  it('every template language has its own footer, unsubscribe and answer line', () => {
    const english = mailTextsOf('EN');
    for (const language of templateLanguages.filter((code) => code !== 'EN')) {
      const words = mailTextsOf(language);
      expect(words.footer, language).not.toBe(english.footer);
      expect(words.unsubscribe, language).not.toBe(english.unsubscribe);
      expect(words.answerPrompt, language).not.toBe(english.answerPrompt);
    }
    expect(mailTextsOf('AR').direction).toBe('rtl');
    // A language without texts yet reads English rather than nothing.
    expect(mailTextsOf('XX')).toEqual(english);
  });
});
