// `npm run seed -- --offers N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is
// set): every status appears, sent offers have their versions up to the current one and answered ones
// the customer's answer, the status counters the tabs read agree with the rows, and a seeded offer
// reads through the API like any other.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerStatuses } from '../../contracts/domain/offer-status';
import { OFFERS_API } from '../../contracts/offers';
import { rowsOf } from '../db/rows';
import { createTestApp, signInAs, type TestApp, testBackends } from '../test-support';
import { seedBulkOffers } from './bulk-offers';

describe.each(testBackends)('npm run seed -- --offers on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    await seedBulkOffers(t.database.db, 500, { batchSize: 200 });
  });
  afterAll(() => t?.close());

  it('spreads the offers over every status, with versions up to the current one', async () => {
    const [spread] = rowsOf<{
      statuses: string[];
      offers: number;
      wrongVersions: number;
      wrongAnswers: number;
    }>(
      await t.database.db.execute(sql`
        SELECT array_agg(DISTINCT status) AS statuses, count(*)::integer AS offers,
          count(*) FILTER (WHERE current_version <> (
            SELECT count(*) FROM offer_versions v WHERE v.offer_id = o.id AND v.version <= o.current_version))::integer
            AS "wrongVersions",
          count(*) FILTER (WHERE (status IN ('accepted', 'declined')) <> EXISTS (
            SELECT 1 FROM offer_responses r WHERE r.offer_id = o.id AND r.version = o.current_version
              AND r.decision = o.status))::integer AS "wrongAnswers"
        FROM offers o WHERE email LIKE '%@bulk-offers.example.com'`),
    );
    expect([...spread!.statuses].sort()).toEqual([...offerStatuses].sort());
    expect(spread!.offers).toBe(500);
    expect(spread!.wrongVersions).toBe(0);
    expect(spread!.wrongAnswers).toBe(0);
  });

  it('leaves no reminder due: offers ending within the reminder window were reminded', async () => {
    const [row] = rowsOf<{ due: number }>(
      await t.database.db.execute(sql`
        SELECT count(*)::integer AS due FROM offers WHERE email LIKE '%@bulk-offers.example.com'
          AND status = 'offered' AND reminder_sent_at IS NULL AND expires_at <= now() + interval '3 days'`),
    );
    expect(row!.due).toBe(0);
  });

  it('keeps the tab counters equal to the rows', async () => {
    const [row] = rowsOf<{ mismatched: number }>(
      await t.database.db.execute(sql`
        SELECT count(*)::integer AS mismatched FROM (
          SELECT seller_id AS k, status, count(*)::integer AS n FROM offers GROUP BY 1, 2
        ) real FULL JOIN offer_status_counts c ON c.seller_key = real.k AND c.status = real.status
        WHERE coalesce(real.n, 0) <> coalesce(c.offers, 0)`),
    );
    expect(row!.mismatched).toBe(0);
  });

  it('answers a seeded offer through the API with its versions and answer', async () => {
    const { token } = await signInAs(t.app, 'admin@demo.local');
    const list = await t.app.inject({
      method: 'GET',
      url: `${OFFERS_API}?status=accepted&query=bulk-offers.example.com&limit=1`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.statusCode).toBe(200);
    const [first] = list.json().result;
    const detail = await t.app.inject({
      method: 'GET',
      url: `${OFFERS_API}/${first.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(detail.statusCode).toBe(200);
    const offer = detail.json();
    expect(offer.versions).toHaveLength(offer.currentVersion);
    expect(offer.responses.at(-1)).toMatchObject({ decision: 'accepted', version: offer.currentVersion });
    expect(offer.lastSent.totals.totalMinor).toBe(offer.totalMinor);
  });
});
