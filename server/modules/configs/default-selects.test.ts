// getDefaultSelects and getCountriesList serve what the Localization settings decide (issue 29), on
// PGlite and PostgreSQL: a settings change changes the answer at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SectionState } from '../../../contracts/settings';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';

interface Option {
  value: string;
  label: string;
  default?: boolean;
}

describe.each(testBackends)('global configs follow the settings on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const selects = async () =>
    json<Record<string, Option[]>>(await as('Staff', 'GET', '/api/v1/globalConfigs/getDefaultSelects'));

  it('offers the SPEC §9 defaults first until changed', async () => {
    const lists = await selects();
    expect(lists.currencies?.[0]).toEqual({ value: 'INR', label: 'INR — Indian Rupee', default: true });
    expect(lists.currencies?.map((option) => option.value)).toEqual([
      'INR',
      'USD',
      'EUR',
      'GBP',
      'JPY',
      'CHF',
      'DZD',
      'PLN',
    ]);
    expect(lists.languages?.[0]).toEqual({ value: 'EN', label: 'English', default: true });
    expect(lists.countries?.[0]).toEqual({ value: 'IN', label: 'India', default: true });
    expect(lists.countries?.length).toBeGreaterThan(240);
    expect(lists.roles?.length).toBeGreaterThan(0);
    const countries = json<{ result: { code: string; name: string }[] }>(
      await as('Seller', 'GET', '/api/v1/globalConfigs/getCountriesList'),
    );
    expect(countries.result[0]).toEqual({ code: 'IN', name: 'India' });
    expect(countries.result).toContainEqual({ code: 'JP', name: 'Japan' });
  });

  it('serves the currencies, languages and defaults the marketplace saves', async () => {
    const current = json<SectionState>(await as('Admin', 'GET', '/api/v1/settings/localization'));
    const saved = await as('Admin', 'PUT', '/api/v1/settings/localization', {
      version: current.version,
      set: {
        defaultCountry: 'JP',
        currencies: ['USD', 'JPY', 'KWD'],
        defaultCurrency: 'JPY',
        languages: ['EN', 'JA'],
        defaultLanguage: 'JA',
      },
    });
    expect(saved.statusCode).toBe(200);

    const lists = await selects();
    expect(lists.currencies).toEqual([
      { value: 'JPY', label: 'JPY — Yen', default: true },
      { value: 'USD', label: 'USD — US Dollar' },
      { value: 'KWD', label: 'KWD — Kuwaiti Dinar' },
    ]);
    expect(lists.languages).toEqual([
      { value: 'JA', label: 'Japanese', default: true },
      { value: 'EN', label: 'English' },
    ]);
    expect(lists.countries?.[0]).toEqual({ value: 'JP', label: 'Japan', default: true });
    expect(lists.countries?.filter((option) => option.default)).toHaveLength(1);
    const only = json<Record<string, Option[]>>(
      await as('Admin', 'GET', '/api/v1/globalConfigs/getDefaultSelects?source=currencies'),
    );
    expect(Object.keys(only)).toEqual(['currencies']);
    const countries = json<{ result: { code: string; name: string }[] }>(
      await as('Admin', 'GET', '/api/v1/globalConfigs/getCountriesList'),
    );
    expect(countries.result[0]).toEqual({ code: 'JP', name: 'Japan' });
    expect(countries.result.filter((c) => c.code === 'JP')).toHaveLength(1);
  });

  it('refuses unknown codes in the Localization settings, naming the field, and keeps the lists', async () => {
    const { version } = json<SectionState>(await as('Admin', 'GET', '/api/v1/settings/localization'));
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ currencies: ['JPY', 'ABC'] }, 'currencies', /Not ISO 4217 currency codes: ABC/],
      [{ defaultCountry: 'ZZ' }, 'defaultCountry', /not an ISO 3166 country/],
      [{ languages: ['JA', 'QQ'] }, 'languages', /Unknown language codes: QQ/],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', /not a time zone/],
      [{ locale: 'xx-YY' }, 'locale', /not a locale/],
    ];
    for (const [set, field, message] of cases) {
      const response = await as('Admin', 'PUT', '/api/v1/settings/localization', { version, set });
      expect(response.statusCode, JSON.stringify(set)).toBe(400);
      const body = json<{ message: string; fields?: Record<string, string> }>(response);
      expect(body.fields?.[field]).toMatch(message);
    }
    expect((await selects()).currencies?.map((option) => option.value)).toEqual(['JPY', 'USD', 'KWD']);
  });

  it('stays behind sign-in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/globalConfigs/getDefaultSelects' });
    expect(response.statusCode).toBe(401);
  });
});
