// The signed-in user's client settings (issue 29): the defaults every request carries (SPEC §7
// `defaultCountry`, `defaultLanguage`, `defaultCurrency`: the user's own, else the marketplace's) and
// the locale and time zone every date, number and price is written in. Fetched after sign-in, applied
// to the HTTP client and to contracts/domain/format.ts, and fetched again when the broker says the
// settings changed, so every open browser follows a change without a reload.
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { settingsTopic } from '../../contracts/broker-topics';
import { configureFormats, resetFormats } from '../../contracts/domain/format';
import {
  type ClientSettings,
  clientSettingsSchema,
  type SettingsChangedMessage,
  settingsChangedMessageSchema,
} from '../../contracts/settings';
import { http, resetDefaultParams, setDefaultParams } from './http';
import { sessionKeys } from './session-queries';

/** Under ['settings'], so the settings page's invalidation reaches it too. */
export const clientSettingsKey = ['settings', 'client'] as const;

/** Makes these settings the ones every request and every format uses from now on. */
export function applyClientSettings(settings: ClientSettings): void {
  setDefaultParams({
    defaultCountry: settings.defaultCountry,
    defaultLanguage: settings.defaultLanguage,
    defaultCurrency: settings.defaultCurrency,
  });
  configureFormats({ locale: settings.locale, timeZone: settings.timeZone || undefined });
}

/** Back to SPEC §9's defaults and the default formats (sign-out). */
export function forgetClientSettings(): void {
  resetDefaultParams();
  resetFormats();
}

export const clientSettingsQuery = () =>
  queryOptions({
    queryKey: clientSettingsKey,
    queryFn: async ({ signal }): Promise<ClientSettings> => {
      const settings = clientSettingsSchema.parse(
        (await http.get('/api/v1/settings/client', { signal, silent: true })).data,
      );
      // Applied before the data reaches any component, so the render it causes already formats anew.
      applyClientSettings(settings);
      return settings;
    },
    // Changes arrive through the broker (SETTINGS_CHANGED), not by polling.
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The client settings, for a component that shows them (the Localization section's example). */
export const useClientSettings = () => useQuery(clientSettingsQuery());

/**
 * The shell's hook: loads the settings after sign-in and applies them; the component that calls it
 * re-renders with every change, and so does the page under it, formatted with the new settings.
 * Leaving (sign-out) puts the defaults back.
 */
export function useClientSettingsSync(): ClientSettings | undefined {
  const query = useClientSettings();
  useEffect(() => () => forgetClientSettings(), []);
  return query.data;
}

/** Whether a change concerns this user's own client settings (the rest only refreshes settings views). */
export function concernsUser(
  message: SettingsChangedMessage,
  user: { userId: string; sellerId: string | null },
): boolean {
  if (message.userId) return message.userId === user.userId;
  return message.sellerId === null || message.sellerId === user.sellerId;
}

/**
 * After a SETTINGS_CHANGED message: this user's client settings first (so the requests that follow
 * carry the new defaults), then every settings view and the current user refetch.
 */
export async function refreshAfterSettingsChange(
  client: QueryClient,
  message: SettingsChangedMessage,
  user: { userId: string; sellerId: string | null },
): Promise<void> {
  const mine = concernsUser(message, user);
  if (mine) {
    try {
      await client.fetchQuery({ ...clientSettingsQuery(), staleTime: 0 });
    } catch {
      // The next change or sign-in fetches them again; the views below still refresh.
    }
  }
  await Promise.all([
    client.invalidateQueries({
      queryKey: ['settings'],
      predicate: (query) => query.queryKey[1] !== clientSettingsKey[1],
    }),
    mine ? client.invalidateQueries({ queryKey: sessionKeys.currentUser() }) : undefined,
  ]);
}

/**
 * The broker's settings messages: returns true when `topic` is the settings topic (the message is then
 * handled here, whatever it holds), false for every other topic.
 */
export function createSettingsMessageHandler(options: {
  client: QueryClient;
  prefix: string;
  userId: string;
  sellerId: string | null;
}): (topic: string, payload: Uint8Array | string) => boolean {
  const topic = settingsTopic(options.prefix);
  return (received, payload) => {
    if (received !== topic) return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
    } catch {
      parsed = undefined;
    }
    const message = settingsChangedMessageSchema.safeParse(parsed);
    if (message.success) void refreshAfterSettingsChange(options.client, message.data, options);
    else console.warn('A settings message that is not SETTINGS_CHANGED was dropped.');
    return true;
  };
}
