// What a campaign's mail carries and what it is credited with: one unsubscribe count wherever it shows
// (campaigns list, campaign page and its tab, the dashboard), and the footer and answer buttons in the
// language of the template version the recipient gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, CampaignInput } from '../../../contracts/campaigns';
import type { CampaignsDashboard } from '../../../contracts/campaigns-dashboard';
import type { SavedTemplate } from '../../../contracts/mail-templates';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import { unsubscribeAddress } from '../contacts/subscription';
import { twoLanguageTemplate } from '../mail-templates/test-helpers';
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
});
