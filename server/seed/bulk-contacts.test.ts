// `npm run seed -- --contacts N` on a small scale, on PGlite (and PostgreSQL when TEST_DATABASE_URL is
// set): every contact is whole (unique normalised e-mail, the search key its fields give, a known
// country, language and company type), the spread is a real list's, and a second run adds beside the
// first without a clash.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows';
import { countries } from '../modules/configs/countries';
import { contactSearchKey } from '../modules/contacts/audience';
import { createTestApp, type TestApp, testBackends } from '../test-support';
import { seedBulkContacts } from './bulk-contacts';

describe.each(testBackends)('npm run seed -- --contacts on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, seed: false, jobs: { enabled: false } });
    await seedBulkContacts(t.database.db, 2500, { batchSize: 1000 });
  }, 120_000);
  afterAll(() => t?.close());

  const all = async () =>
    rowsOf<{
      email: string;
      first_name: string;
      last_name: string;
      company: string;
      search_key: string;
      country: string;
      language: string;
      company_type_id: string | null;
      source: string;
      subscription: string;
      tags: string[];
    }>(await t.database.db.execute(sql`SELECT * FROM contacts`));

  it('writes whole contacts with unique, normalised addresses', async () => {
    const rows = await all();
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((row) => row.email)).size).toBe(2500);
    const known = new Set(countries().map((country) => country.code));
    for (const row of rows) {
      expect(row.email).toBe(row.email.trim().toLowerCase());
      expect(known.has(row.country), row.country).toBe(true);
      expect(row.search_key).toBe(
        contactSearchKey({
          firstName: row.first_name,
          lastName: row.last_name,
          email: row.email,
          company: row.company,
        }),
      );
      expect(row.subscription).toBe('subscribed');
    }
    expect(new Set(rows.map((row) => row.country)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(rows.map((row) => row.language)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(rows.map((row) => row.company_type_id)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(rows.map((row) => row.source)).size).toBe(4);
    // Tags arrive as arrays of text, some contacts with none.
    expect(rows.some((row) => row.tags.length === 0)).toBe(true);
    expect(rows.flatMap((row) => row.tags).every((tag) => /^[a-z0-9-]+$/.test(tag))).toBe(true);
  });

  it('adds a second run beside the first', async () => {
    await seedBulkContacts(t.database.db, 700);
    const rows = await all();
    expect(rows).toHaveLength(3200);
    expect(new Set(rows.map((row) => row.email)).size).toBe(3200);
  });
});
