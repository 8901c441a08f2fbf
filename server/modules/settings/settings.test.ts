// Settings API on PGlite and PostgreSQL: scopes and roles, versioned saves (409 naming who), seller
// overrides and resets, field checks, secrets, the audit trail and its history, the browser's defaults,
// and a change reaching a second instance's cache without a restart.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SectionState } from '../../../contracts/settings';
import { buildApp } from '../../app';
import { type Database, openDatabase } from '../../db/client';
import { sellers, settingSections, users } from '../../db/schema';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';

const API = '/api/v1/settings';

describe.each(testBackends)('settings API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let otherSellerId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [own] = await t.database.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, 'seller@demo.local'));
    sellerId = own?.sellerId as string;
    const [other] = await t.database.db.select({ id: sellers.id }).from(sellers).limit(2);
    const rows = await t.database.db.select({ id: sellers.id }).from(sellers).limit(5);
    otherSellerId = (rows.find((row) => row.id !== sellerId) ?? other)?.id as string;
  });
  afterAll(() => t.close());

  const get = async (who: 'Admin' | 'Staff' | 'Seller', section: string, query = '') =>
    json<SectionState>(await as(who, 'GET', `${API}/${section}${query}`));

  it('shows each role the sections of its scope', async () => {
    const admin = json(await as('Admin', 'GET', API));
    expect(admin).toMatchObject({
      scope: { type: 'marketplace', sellerId: null },
      canEdit: true,
      sections: ['profile', 'localization', 'communication', 'shipping', 'website', 'company', 'content'],
    });
    expect(json(await as('Staff', 'GET', API))).toMatchObject({
      canEdit: false,
      scope: { type: 'marketplace' },
    });
    const seller = json<{ sections: string[]; scope: unknown; canEdit: boolean }>(
      await as('Seller', 'GET', API),
    );
    expect(seller.scope).toEqual({ type: 'seller', sellerId });
    expect(seller.canEdit).toBe(true);
    expect(seller.sections).toEqual(['profile', 'localization', 'shipping', 'website', 'company', 'content']);
  });

  it('answers the SPEC §9 defaults until changed, and saves a field with its version', async () => {
    const before = await get('Admin', 'localization');
    expect(before.version).toBe(0);
    expect(before.fields.defaultCurrency).toMatchObject({ value: 'INR', source: 'default', editable: true });
    const saved = await as('Admin', 'PUT', `${API}/localization`, {
      version: 0,
      set: { defaultCurrency: 'EUR' },
    });
    expect(saved.statusCode).toBe(200);
    const after = json<SectionState>(saved);
    expect(after.version).toBe(1);
    expect(after.fields.defaultCurrency).toMatchObject({ value: 'EUR', source: 'marketplace' });
    expect(after.updatedBy).toBeTruthy();
    // Every instance's cache and the browser's defaults follow at once.
    expect((await t.app.settings.effective(null)).localization.defaultCurrency).toBe('EUR');
    const client = json(await as('Staff', 'GET', `${API}/client`));
    expect(client).toMatchObject({ defaultCurrency: 'EUR', defaultCountry: 'IN', defaultLanguage: 'EN' });
  });

  it('refuses a stale save with 409 naming who saved in between, and keeps their value', async () => {
    const stale = await as('Admin', 'PUT', `${API}/localization`, {
      version: 0,
      set: { defaultCurrency: 'USD' },
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toMatch(/saved Localization at .* while you were editing/);
    expect((await get('Admin', 'localization')).fields.defaultCurrency?.value).toBe('EUR');
  });

  it('refuses bad input with a message naming the field, and stores nothing', async () => {
    const { version } = await get('Admin', 'localization');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['localization', { defaultCurrency: 'euro' }, /ISO 4217/],
      ['localization', { defaultCurrency: 'SEK' }, /one of the currencies offered/],
      ['website', { storefrontUrl: 'not a url' }, /valid http/],
      ['website', { embedOrigins: ['https://shop.example.com/path'] }, /origin/],
      [
        'shipping',
        {
          zones: [
            {
              id: 'z1',
              name: 'India',
              countries: ['IN'],
              currency: 'INR',
              bands: [{ fromKg: 0, toKg: 1, rateMinor: -5 }],
            },
          ],
        },
        /negative/,
      ],
      [
        'shipping',
        {
          zones: [
            {
              id: 'z1',
              name: 'India',
              countries: ['IN'],
              currency: 'INR',
              bands: [
                { fromKg: 0, toKg: 2, rateMinor: 100 },
                { fromKg: 1, toKg: 3, rateMinor: 200 },
              ],
            },
          ],
        },
        /overlap/i,
      ],
      ['company', { invoiceSeries: 'INVOICE-{YYYY}-{seq:06}' }, /at most 16 characters/],
      ['company', { nonsense: 1 }, /no field "nonsense"/],
    ];
    for (const [section, set, message] of cases) {
      const current = await get('Admin', section);
      const response = await as('Admin', 'PUT', `${API}/${section}`, { version: current.version, set });
      expect(response.statusCode, `${section} ${JSON.stringify(set)}`).toBe(400);
      expect(json(response).message).toMatch(message);
      expect((await get('Admin', section)).version).toBe(current.version);
    }
    expect((await get('Admin', 'localization')).version).toBe(version);
  });

  it('lets a seller override a field, shows it overridden beside the inherited value, and resets it', async () => {
    const zone = {
      id: 'in',
      name: 'India',
      countries: ['IN'],
      currency: 'INR',
      bands: [{ fromKg: 0, toKg: null, rateMinor: 5000 }],
    };
    const market = await get('Admin', 'shipping');
    await as('Admin', 'PUT', `${API}/shipping`, { version: market.version, set: { zones: [zone] } });
    const inherited = await get('Seller', 'shipping');
    expect(inherited.scope).toEqual({ type: 'seller', sellerId });
    expect(inherited.fields.zones).toMatchObject({ source: 'marketplace', value: [zone], inherited: [zone] });
    const own = { ...zone, bands: [{ fromKg: 0, toKg: null, rateMinor: 3000 }] };
    const overridden = json<SectionState>(
      await as('Seller', 'PUT', `${API}/shipping`, { version: inherited.version, set: { zones: [own] } }),
    );
    expect(overridden.fields.zones).toMatchObject({ source: 'overridden', value: [own], inherited: [zone] });
    expect((await t.app.settings.effective(sellerId)).shipping.zones).toEqual([own]);
    // The marketplace's own view is untouched.
    expect((await get('Admin', 'shipping')).fields.zones?.value).toEqual([zone]);
    const reset = json<SectionState>(
      await as('Seller', 'PUT', `${API}/shipping`, { version: overridden.version, reset: ['zones'] }),
    );
    expect(reset.fields.zones).toMatchObject({ source: 'marketplace', value: [zone] });
    expect((await t.app.settings.effective(sellerId)).shipping.zones).toEqual([zone]);
  });

  it("keeps sellers to their own shop's fields", async () => {
    const own = await get('Seller', 'localization');
    expect(Object.keys(own.fields)).toEqual(['timeZone']);
    const marketOnly = await as('Seller', 'PUT', `${API}/localization`, {
      version: own.version,
      set: { defaultCurrency: 'USD' },
    });
    expect(marketOnly.statusCode).toBe(403);
    expect((await as('Seller', 'GET', `${API}/communication`)).statusCode).toBe(403);
    expect((await as('Seller', 'GET', `${API}/shipping?sellerId=${otherSellerId}`)).statusCode).toBe(403);
    const other = await as('Seller', 'PUT', `${API}/shipping?sellerId=${otherSellerId}`, {
      version: 0,
      set: {},
    });
    expect(other.statusCode).toBe(403);
    expect((await as('Staff', 'PUT', `${API}/localization`, { version: 0, set: {} })).statusCode).toBe(403);
    // Admins may look at (and help with) a seller's scope.
    const asAdmin = await get('Admin', 'shipping', `?sellerId=${sellerId}`);
    expect(asAdmin.scope).toEqual({ type: 'seller', sellerId });
  });

  /** The marketplace's communication row as the database holds it. */
  const storedCommunication = async () => {
    const [row] = await t.database.db
      .select({ values: settingSections.values, version: settingSections.version })
      .from(settingSections)
      .where(and(isNull(settingSections.sellerId), eq(settingSections.section, 'communication')));
    return row as { values: Record<string, unknown>; version: number };
  };

  it('never answers a secret, stores it encrypted, and audits its change as "changed"', async () => {
    const before = await get('Admin', 'communication');
    expect(before.fields.smtpPassword).toMatchObject({ value: '', secret: true });
    const saved = json<SectionState>(
      await as('Admin', 'PUT', `${API}/communication`, {
        version: before.version,
        set: { transport: 'smtp', smtpHost: 'smtp.example.com', smtpPassword: 'hunter2-secret' },
      }),
    );
    expect(saved.fields.smtpPassword?.value).toBe('••••••••');
    expect(JSON.stringify(saved)).not.toContain('hunter2');
    // At rest the column holds AES-256-GCM's output, never the password.
    const sealed = await storedCommunication();
    expect(JSON.stringify(sealed.values)).not.toContain('hunter2');
    expect(sealed.values.smtpPassword).toMatch(/^enc:v1:[\w-]+:[\w-]+:[\w-]+$/);
    // Saving the form again with the mask, or the same password, leaves the stored value as it was.
    await as('Admin', 'PUT', `${API}/communication`, {
      version: saved.version,
      set: { smtpPassword: '••••••••', senderName: 'Bazaar' },
    });
    const unchanged = await as('Admin', 'PUT', `${API}/communication`, {
      version: saved.version + 1,
      set: { smtpPassword: 'hunter2-secret' },
    });
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    const after = await storedCommunication();
    expect(after).toEqual({ values: { ...sealed.values, senderName: 'Bazaar' }, version: saved.version + 1 });
    // The settings hold it sealed; only its users open it.
    const { communication } = await t.app.settings.effective(null);
    expect(communication.smtpPassword).toBe(sealed.values.smtpPassword);
    expect(t.app.settings.secrets.open(communication.smtpPassword)).toBe('hunter2-secret');
    const history = json<{
      result: { section: string; changes: { field: string; before: unknown; after: unknown }[] }[];
    }>(await as('Admin', 'GET', `${API}/history?section=communication`));
    expect(JSON.stringify(history)).not.toContain('hunter2');
    const password = history.result
      .flatMap((row) => row.changes)
      .find((change) => change.field === 'smtpPassword');
    expect(password).toEqual({ field: 'smtpPassword', before: null, after: 'changed' });
    expect(history.result[0]?.changes).toEqual([
      { field: 'senderName', before: 'Marketplace', after: 'Bazaar' },
    ]);
  });

  it('lists the history newest first with who, section, before → after, paged and filtered', async () => {
    const all = json<{
      count: number;
      result: {
        section: string;
        sellerId: string | null;
        requestId: string | null;
        actor: { name: string };
      }[];
    }>(await as('Admin', 'GET', `${API}/history?limit=2`));
    expect(all.count).toBeGreaterThanOrEqual(5);
    expect(all.result).toHaveLength(2);
    expect(all.result[0]?.requestId).toBeTruthy();
    const second = json<{ result: unknown[] }>(await as('Admin', 'GET', `${API}/history?limit=2&skip=2`));
    expect(second.result).toHaveLength(2);
    const localization = json<{ result: { section: string; changes: unknown[] }[] }>(
      await as('Admin', 'GET', `${API}/history?section=localization`),
    );
    expect(localization.result.map((row) => row.section)).toEqual(['localization']);
    expect(localization.result[0]?.changes).toEqual([
      { field: 'defaultCurrency', before: 'INR', after: 'EUR' },
    ]);
    const mine = json<{ result: { sellerId: string | null }[] }>(await as('Seller', 'GET', `${API}/history`));
    expect(mine.result.length).toBeGreaterThan(0);
    expect(mine.result.every((row) => row.sellerId === sellerId)).toBe(true);
    const staff = json<{ result: { sellerId: string | null }[] }>(await as('Staff', 'GET', `${API}/history`));
    expect(staff.result.every((row) => row.sellerId === null)).toBe(true);
    const byUser = json<{ count: number }>(
      await as('Admin', 'GET', `${API}/history?userId=${as.ids.Seller}`),
    );
    expect(byUser.count).toBe(2);
    const future = json<{ count: number }>(await as('Admin', 'GET', `${API}/history?from=2099-01-01`));
    expect(future.count).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const around = json<{ count: number }>(
      await as('Admin', 'GET', `${API}/history?from=2000-01-01&to=2098-12-31`),
    );
    expect(around.count).toBe(all.count);
    expect(today).toMatch(/^\d{4}/);
  });

  it('reaches a second instance on the same database without a restart', async () => {
    const bDatabase: Database | null = t.databaseUrl
      ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: t.dataDir })
      : null;
    const b = await buildApp({ config: t.config, database: bDatabase ?? t.database });
    await b.ready();
    try {
      expect((await b.settings.effective(null)).localization.defaultCurrency).toBe('EUR');
      // Both derive the secrets' key from the shared signing key: one opens what the other sealed.
      expect(b.settings.secrets.open(t.app.settings.secrets.seal('shared'))).toBe('shared');
      const heard = new Promise<string | null>((resolve) => b.settings.onChange(resolve));
      const { version } = await get('Admin', 'localization');
      await as('Admin', 'PUT', `${API}/localization`, { version, set: { defaultCurrency: 'GBP' } });
      expect(await heard).toBeNull();
      expect((await b.settings.effective(null)).localization.defaultCurrency).toBe('GBP');
    } finally {
      await b.close();
      await bDatabase?.close();
    }
  });
});

describe('settings decided by the environment', () => {
  it('shows the SMTP fields read-only when SMTP_URL is set, and refuses to change them', async () => {
    const t = await createTestApp({ jobs: { enabled: false }, env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
    try {
      const as = await apiAs(t.app);
      const state = json<SectionState>(await as('Admin', 'GET', `${API}/communication`));
      expect(state.fields.smtpHost).toMatchObject({ editable: false, fromEnvironment: true });
      expect(state.fields.senderName).toMatchObject({ editable: true });
      expect(state.fields.senderName?.fromEnvironment).toBeUndefined();
      const refused = await as('Admin', 'PUT', `${API}/communication`, {
        version: state.version,
        set: { smtpHost: 'smtp.example.com' },
      });
      expect(refused.statusCode).toBe(409);
      expect(json(refused).message).toMatch(/smtpHost is set in the server's environment/);
      const sender = await as('Admin', 'PUT', `${API}/communication`, {
        version: state.version,
        set: { senderName: 'Bazaar' },
      });
      expect(sender.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
