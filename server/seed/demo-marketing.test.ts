// The demo's marketing on PGlite (and PostgreSQL when TEST_DATABASE_URL is set): contacts over several
// countries, company types and languages; the help chats' and queries' people linked, not copied;
// templates in two languages; past campaigns whose counts, bounces, responses and unsubscribes agree
// with their recipients — so the campaigns dashboard shows real, consistent figures on first start.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignsDashboard } from '../../contracts/campaigns-dashboard';
import { rowsOf } from '../db/rows';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../test-support';
import { seedDemo } from './index';

describe.each(testBackends)('the demo marketing on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  const one = async <T>(query: ReturnType<typeof sql>) =>
    rowsOf<T>(await t.database.db.execute(query))[0] as T;

  beforeAll(async () => {
    t = await createTestApp({ backend, seed: false, jobs: { enabled: false } });
    await seedDemo(t.database.db);
    as = await apiAs(t.app);
  }, 180_000);
  afterAll(() => t?.close());

  it('has a few thousand contacts over countries, company types, languages and sources', async () => {
    const spread = await one<Record<string, number>>(sql`
      SELECT count(*)::int AS contacts, count(DISTINCT country)::int AS countries,
        count(DISTINCT company_type_id)::int AS types, count(DISTINCT language)::int AS languages,
        count(DISTINCT source)::int AS sources, count(DISTINCT email)::int AS emails FROM contacts`);
    expect(spread.contacts).toBeGreaterThanOrEqual(2000);
    expect(spread.emails).toBe(spread.contacts);
    expect(spread.countries).toBeGreaterThanOrEqual(8);
    expect(spread.types).toBeGreaterThanOrEqual(5);
    expect(spread.languages).toBeGreaterThanOrEqual(5);
    expect(spread.sources).toBe(4);
  });

  it('links every help chat and customer query to the contact of its address', async () => {
    const unlinked = await one<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM chat_sessions s LEFT JOIN contacts c ON c.id = s.contact_id
               WHERE c.email IS DISTINCT FROM lower(trim(s.email)))::int
           + (SELECT count(*) FROM customer_queries q LEFT JOIN contacts c ON c.id = q.contact_id
               WHERE c.email IS DISTINCT FROM lower(trim(q.email)))::int AS n`);
    expect(unlinked.n).toBe(0);
  });

  it('keeps each past campaign consistent with its recipients, bounces and suppression list', async () => {
    const campaigns = rowsOf<{ id: string; status: string; total: number; counts: Record<string, number> }>(
      await t.database.db.execute(sql`SELECT id, status, total, counts FROM campaigns ORDER BY created_at`),
    );
    const sent = campaigns.filter((row) => row.status === 'sent');
    expect(sent).toHaveLength(3);
    expect(campaigns.map((row) => row.status).sort()).toEqual(['draft', 'scheduled', 'sent', 'sent', 'sent']);
    for (const campaign of sent) {
      const actual = await one<{ total: number; sent: number; failed: number }>(sql`
        SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'sent')::int AS sent,
          count(*) FILTER (WHERE state = 'failed')::int AS failed
        FROM campaign_recipients WHERE campaign_id = ${campaign.id}::uuid`);
      expect(actual.total).toBeGreaterThan(100);
      expect(campaign.total).toBe(actual.total);
      expect(campaign.counts.sent).toBe(actual.sent);
      expect(campaign.counts.failed).toBe(actual.failed);
      expect(actual.failed).toBeGreaterThan(0);
    }
    const mismatch = await one<{ n: number }>(sql`
      SELECT ((SELECT count(*) FROM contacts WHERE subscription = 'unsubscribed')
        - (SELECT count(*) FROM contacts c JOIN email_unsubscribes u ON u.email = c.email))::int AS n`);
    expect(mismatch.n).toBe(0);
    const bouncedMailedAgain = await one<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM campaign_recipients r JOIN contacts c ON c.id = r.contact_id
      WHERE c.subscription = 'bounced' AND r.state = 'sent' AND r.sent_at > c.bounced_at`);
    expect(bouncedMailedAgain.n).toBe(0);
  });

  it('gives the campaigns dashboard real figures', async () => {
    const response = await as('Admin', 'GET', '/api/v1/dashboard/getCampaignsSummary');
    expect(response.statusCode).toBe(200);
    const dashboard = json<CampaignsDashboard>(response);
    expect(dashboard.totals.campaignsSent).toBe(3);
    expect(dashboard.totals.mailsSent).toBeGreaterThan(500);
    expect(dashboard.totals.responses).toBeGreaterThan(50);
    expect(dashboard.totals.unsubscribed).toBeGreaterThan(0);
    expect(dashboard.totals.bounced).toBeGreaterThan(0);
    expect(dashboard.perCampaign).toHaveLength(3);
    for (const row of dashboard.perCampaign) {
      expect(row.responseRate).toBeGreaterThan(0);
      expect(row.unsubscribes).toBeGreaterThan(0);
      expect(row.unsubscribeRate).toBeLessThan(5);
    }
    expect(dashboard.responsesByAnswer.length).toBeGreaterThanOrEqual(3);
    expect(dashboard.latest[0]?.status).toBe('scheduled');
    expect(new Set(dashboard.contactsGrowth.map((row) => row.source)).size).toBe(4);
    expect(dashboard.sentOverTime.reduce((sum, row) => sum + row.mails, 0)).toBe(dashboard.totals.mailsSent);
    // Sellers have a dashboard of their own.
    expect((await as('Seller', 'GET', '/api/v1/dashboard/getCampaignsSummary')).statusCode).toBe(403);
  });
});
