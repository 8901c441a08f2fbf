// The settings page's address: the open tab (`?tab=shipping`), whose settings an admin or staff member
// is looking at (`seller`, a shop's id; none: the marketplace's) and the history tab's filters
// (`hsection`, `huser`, `hfrom`, `hto`, `hpage`), so a shared link opens the same view.
import {
  type SettingsSection,
  type StoredSection,
  settingsSections,
  storedSections,
} from '../../../contracts/settings';

export const SETTINGS_PATH = '/settings/manage-settings';

export interface SettingsView {
  tab: SettingsSection | 'history';
  /** The shop whose settings are shown, or null: the marketplace's (a seller's page ignores it). */
  sellerId: string | null;
  history: {
    section: StoredSection | null;
    userId: string | null;
    from: string | null;
    to: string | null;
    page: number;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const day = (text: string | null) => (text && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null);

export function parseSettingsView(search: string): SettingsView {
  const params = new URLSearchParams(search);
  const tab = params.get('tab');
  const section = params.get('hsection');
  const page = Number(params.get('hpage'));
  return {
    tab:
      tab === 'history' || (settingsSections as readonly string[]).includes(tab ?? '')
        ? (tab as SettingsView['tab'])
        : 'profile',
    sellerId: UUID.test(params.get('seller') ?? '') ? (params.get('seller') as string) : null,
    history: {
      section: (storedSections as readonly string[]).includes(section ?? '')
        ? (section as StoredSection)
        : null,
      userId: params.get('huser') || null,
      from: day(params.get('hfrom')),
      to: day(params.get('hto')),
      page: Number.isInteger(page) && page > 1 ? page : 1,
    },
  };
}

export function settingsHref(view: SettingsView): string {
  const params = new URLSearchParams();
  if (view.tab !== 'profile') params.set('tab', view.tab);
  if (view.sellerId) params.set('seller', view.sellerId);
  const { section, userId, from, to, page } = view.history;
  if (section) params.set('hsection', section);
  if (userId) params.set('huser', userId);
  if (from) params.set('hfrom', from);
  if (to) params.set('hto', to);
  if (page > 1) params.set('hpage', String(page));
  const search = params.toString();
  return search ? `${SETTINGS_PATH}?${search}` : SETTINGS_PATH;
}
