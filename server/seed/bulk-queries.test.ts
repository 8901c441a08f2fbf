// `npm run seed -- --queries N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is
// set): every status, priority and channel appears, each query has its first event, and the status
// counters the inbox's tabs read agree with the rows; past follow-ups count as announced.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryChannels, queryPriorities, queryStatuses } from '../../contracts/domain/query-status';
import { rowsOf } from '../db/rows';
import { createTestApp, type TestApp, testBackends } from '../test-support';
import { seedBulkQueries } from './bulk-queries';

describe.each(testBackends)('npm run seed -- --queries on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    await seedBulkQueries(t.database.db, 700, { batchSize: 300 });
  });
  afterAll(() => t?.close());

  it('spreads the queries over every status, priority and channel, each with its message', async () => {
    const db = t.database.db;
    const [spread] = rowsOf<{
      statuses: string[];
      priorities: string[];
      channels: string[];
      without: number;
    }>(
      await db.execute(sql`
        SELECT array_agg(DISTINCT status) AS statuses, array_agg(DISTINCT priority) AS priorities,
               array_agg(DISTINCT channel) AS channels,
               count(*) FILTER (WHERE NOT EXISTS (
                 SELECT 1 FROM query_events e WHERE e.query_id = q.id AND e.kind = 'message_in'))::integer AS without
        FROM customer_queries q WHERE email LIKE '%@bulk-queries.example.com'`),
    );
    expect([...spread!.statuses].sort()).toEqual([...queryStatuses].sort());
    expect([...spread!.priorities].sort()).toEqual([...queryPriorities].sort());
    expect([...spread!.channels].sort()).toEqual([...queryChannels].sort());
    expect(spread!.without).toBe(0);
  });

  it('counts past follow-ups as announced, so the first follow-up sweep sends no burst', async () => {
    const [row] = rowsOf<{ past: number; unannounced: number }>(
      await t.database.db.execute(sql`
        SELECT count(*) FILTER (WHERE next_follow_up_at <= now())::integer AS past,
               count(*) FILTER (WHERE next_follow_up_at <= now() AND follow_up_notified_at IS NULL)::integer AS unannounced
        FROM customer_queries WHERE email LIKE '%@bulk-queries.example.com'`),
    );
    expect(row!.past).toBeGreaterThan(0);
    expect(row!.unannounced).toBe(0);
  });

  it('keeps the tab counters equal to the rows', async () => {
    const [row] = rowsOf<{ mismatched: number }>(
      await t.database.db.execute(sql`
        SELECT count(*)::integer AS mismatched FROM (
          SELECT coalesce(seller_id, '00000000-0000-0000-0000-000000000000'::uuid) AS k, status, count(*)::integer AS n
          FROM customer_queries GROUP BY 1, 2
        ) real FULL JOIN query_status_counts c ON c.seller_key = real.k AND c.status = real.status
        WHERE coalesce(real.n, 0) <> coalesce(c.queries, 0)`),
    );
    expect(row!.mismatched).toBe(0);
  });
});
