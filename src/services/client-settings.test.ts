// The default params of requests and the formats follow the user's client settings (issue 29): fetched
// after sign-in, fetched again when the broker says the settings changed, before the views refetch.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settingsTopic } from '../../contracts/broker-topics';
import { formatMoney } from '../../contracts/domain/currency';
import { formatDate, formatSettings } from '../../contracts/domain/format';
import type { ClientSettings } from '../../contracts/settings';
import {
  clientSettingsKey,
  clientSettingsQuery,
  concernsUser,
  createSettingsMessageHandler,
  forgetClientSettings,
} from './client-settings';
import { configureHttp, currentDefaultParams, DEFAULT_PARAMS, http } from './http';
import { createFakeAdapter, type RecordedRequest } from './testing/fake-adapter';

const marketplace: ClientSettings = {
  defaultCountry: 'IN',
  defaultLanguage: 'EN',
  defaultCurrency: 'INR',
  currencies: ['INR', 'USD', 'JPY'],
  languages: ['EN'],
  locale: 'en-GB',
  timeZone: 'Asia/Kolkata',
  weekStart: 'monday',
};

let served: ClientSettings;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;
const me = { userId: 'u-1', sellerId: null };

beforeEach(() => {
  served = { ...marketplace };
  const fake = createFakeAdapter((request) =>
    request.url === '/api/v1/settings/client'
      ? { status: 200, data: served }
      : { status: 200, data: { ok: true } },
  );
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({
    getAccessToken: () => 'token',
    refresh: async () => null,
    onUnauthorized: () => {},
    onTask: () => {},
    notifyError: () => {},
  });
});

afterEach(() => {
  forgetClientSettings();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

const flush = async (client: QueryClient) => {
  await vi.waitFor(() => expect(client.isFetching()).toBe(0));
};

describe('client settings', () => {
  it('make the default params of requests and the formats follow the settings', async () => {
    const client = new QueryClient();
    expect(currentDefaultParams()).toEqual(DEFAULT_PARAMS);
    served = {
      ...marketplace,
      defaultCurrency: 'JPY',
      defaultCountry: 'JP',
      locale: 'de-DE',
      timeZone: 'UTC',
    };
    await client.fetchQuery(clientSettingsQuery());

    await http.get('/api/v1/sellers/listSellers', { params: { skip: 0 } });
    expect(requests.at(-1)?.params).toEqual({
      defaultCountry: 'JP',
      defaultLanguage: 'EN',
      defaultCurrency: 'JPY',
      skip: 0,
    });
    expect(formatSettings()).toEqual({ locale: 'de-DE', timeZone: 'UTC' });
    expect(formatMoney(1234.5, 'KWD')).toBe('1.234,500 KWD');
    expect(formatDate('2026-11-27T23:30:00Z')).toBe('27. Nov. 2026');

    forgetClientSettings();
    expect(currentDefaultParams()).toEqual(DEFAULT_PARAMS);
    expect(formatSettings().locale).toBe('en-GB');
  });

  it('refetch on a SETTINGS_CHANGED message, before the open settings views refetch', async () => {
    const client = new QueryClient();
    await client.fetchQuery(clientSettingsQuery());
    // An open settings view: its refetch must already carry the new defaults.
    const view = new QueryObserver(client, {
      queryKey: ['settings', 'section', 'localization'],
      queryFn: async () => (await http.get('/api/v1/settings/localization')).data,
    });
    const stop = view.subscribe(() => {});
    await flush(client);
    const before = requests.length;

    const handle = createSettingsMessageHandler({ client, prefix: 'mp', ...me });
    served = { ...marketplace, defaultCurrency: 'USD' };
    const payload = JSON.stringify({ type: 'SETTINGS_CHANGED', section: 'localization', sellerId: null });
    expect(handle(settingsTopic('mp'), new TextEncoder().encode(payload))).toBe(true);
    await vi.waitFor(() =>
      expect(requests.slice(before).map((request) => request.url)).toEqual([
        '/api/v1/settings/client',
        '/api/v1/settings/localization',
      ]),
    );
    await flush(client);
    expect(currentDefaultParams().defaultCurrency).toBe('USD');
    expect(client.getQueryData(clientSettingsKey)).toMatchObject({ defaultCurrency: 'USD' });
    expect(requests.at(-1)?.params).toMatchObject({ defaultCurrency: 'USD' });
    stop();
  });

  it('leave other topics to the other handlers and drop what is not SETTINGS_CHANGED', () => {
    const client = new QueryClient();
    const handle = createSettingsMessageHandler({ client, prefix: 'mp', ...me });
    expect(handle('mp_u-1_message', '{"type":"NOTIFICATION"}')).toBe(false);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(handle(settingsTopic('mp'), 'not json')).toBe(true);
    expect(handle(settingsTopic('mp'), '{"type":"OTHER"}')).toBe(true);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
    expect(requests).toEqual([]);
  });

  it("refetch one's own settings only for changes that concern the user", () => {
    const seller = { userId: 'u-2', sellerId: 's-1' };
    const change = (sellerId: string | null, userId?: string) => ({
      type: 'SETTINGS_CHANGED' as const,
      section: 'localization' as const,
      sellerId,
      ...(userId ? { userId } : {}),
    });
    expect(concernsUser(change(null), seller)).toBe(true);
    expect(concernsUser(change('s-1'), seller)).toBe(true);
    expect(concernsUser(change('s-2'), seller)).toBe(false);
    expect(concernsUser(change(null, 'u-2'), seller)).toBe(true);
    expect(concernsUser(change(null, 'u-3'), seller)).toBe(false);
  });
});
