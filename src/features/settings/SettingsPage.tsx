// Settings (issue 29, SPEC §1–2): one URL-addressable tab per section (`?tab=shipping`), the sections
// this user may see in their scope — the marketplace's for admins and staff, their own shop's for a
// seller, each value inherited or overridden — and the overall history of changes. Admins and staff
// may open a shop's settings instead (`?seller=`): the page then shows exactly what that seller sees,
// and every request of the page asks for that shop (scope.tsx); admins may change them.
import { Tabs } from '@chakra-ui/react';
import { lazy, type ReactNode, Suspense } from 'react';
import type { SettingsSection } from '../../../contracts/settings';
import { getErrorMessage } from '../../services/http';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { useUrlView } from '../../ui/url-view';
import { type SettingsOverview, useScopeOverview } from './api';
import { SettingsScopeSwitch } from './SettingsScopeSwitch';
import { SettingsScopeProvider } from './scope';
import { sectionTitles } from './section-words';
import { sectionComponents } from './sections';
import { useSellerOption } from './seller-scope-api';

const HistoryTab = lazy(() => import('./HistoryTab').then((module) => ({ default: module.HistoryTab })));

import { parseSettingsView, type SettingsView, settingsHref } from './url-state';

/** The tabs' labels, each marked for the guided tour (src/ui/tour/tour-texts.ts). */
const tabLabels: Record<SettingsSection, ReactNode> = {
  profile: <span data-tour="settings-profile">{sectionTitles.profile}</span>,
  localization: <span data-tour="settings-localization">{sectionTitles.localization}</span>,
  communication: <span data-tour="settings-communication">{sectionTitles.communication}</span>,
  shipping: <span data-tour="settings-shipping">{sectionTitles.shipping}</span>,
  website: <span data-tour="settings-website">{sectionTitles.website}</span>,
  company: <span data-tour="settings-company">{sectionTitles.company}</span>,
  content: <span data-tour="settings-content">{sectionTitles.content}</span>,
};

export default function SettingsPage() {
  const { view, setView } = useUrlView(parseSettingsView, settingsHref);
  // The user's own scope says who they are: a seller's own page has no switch and ignores `?seller=`.
  const own = useScopeOverview(null);
  const mayChoose = own.data?.scope.type === 'marketplace';
  const sellerId = mayChoose ? view.sellerId : null;
  const overview = useScopeOverview(sellerId);
  const shop = useSellerOption(sellerId);
  const shopName = sellerId ? (shop.data?.label ?? (shop.isPending ? '…' : 'a seller')) : null;
  return (
    <>
      <PageHeader
        title={shopName ? `Settings of ${shopName}` : 'Settings'}
        description={describeScope(own.data, overview.data, shopName)}
        actions={
          mayChoose ? (
            <SettingsScopeSwitch
              sellerId={sellerId}
              // Another scope's history has other people and shops: its filters start afresh.
              onChange={(next) => setView({ sellerId: next, history: parseSettingsView('').history })}
            />
          ) : null
        }
      />
      {own.isPending || overview.isPending ? (
        <LoadingState rows={6} label="Loading settings" />
      ) : own.isError || overview.isError ? (
        <ErrorState
          message={getErrorMessage(own.error ?? overview.error)}
          onRetry={() => (own.isError ? own.refetch() : overview.refetch())}
        />
      ) : (
        <SettingsScopeProvider sellerId={sellerId}>
          <SettingsTabs
            overview={overview.data}
            // A shop's page has no Profile: that tab is always the signed-in user's own.
            withProfile={sellerId === null}
            tab={view.tab}
            onTab={(tab) => setView({ tab })}
            // A tab's state is its scope's: another scope mounts every tab afresh.
            key={sellerId ?? 'own'}
          />
        </SettingsScopeProvider>
      )}
    </>
  );
}

function describeScope(
  own: SettingsOverview | undefined,
  shown: SettingsOverview | undefined,
  shopName: string | null,
): string {
  if (own?.scope.type === 'seller') {
    return "Your shop's settings. Each value is the marketplace's until you override it; reset it to follow the marketplace again.";
  }
  if (shopName) {
    const may = shown?.canEdit ? 'You may change them for the shop' : 'You may view them, not change them';
    return `The settings ${shopName} sees: each value is the marketplace's until overridden for the shop, and a reset follows the marketplace again. ${may}.`;
  }
  return "The marketplace's settings. Every change takes effect at once, everywhere, and is recorded in the history.";
}

function SettingsTabs({
  overview,
  withProfile,
  tab,
  onTab,
}: {
  overview: SettingsOverview;
  withProfile: boolean;
  tab: SettingsView['tab'];
  onTab: (tab: SettingsView['tab']) => void;
}) {
  const sections = overview.sections.filter(
    (section) => sectionComponents[section] && (withProfile || section !== 'profile'),
  );
  const tabs: SettingsView['tab'][] = [...sections, 'history'];
  const current = tabs.includes(tab) ? tab : (tabs[0] ?? 'history');
  return (
    <Tabs.Root
      value={current}
      onValueChange={(details) => onTab(details.value as SettingsView['tab'])}
      lazyMount
      unmountOnExit
      data-tour="settings-tabs"
    >
      <Tabs.List mb="5" flexWrap="wrap">
        {sections.map((section) => (
          <Tabs.Trigger key={section} value={section}>
            {tabLabels[section]}
          </Tabs.Trigger>
        ))}
        <Tabs.Trigger value="history">
          <span data-tour="settings-history">History</span>
        </Tabs.Trigger>
      </Tabs.List>
      {sections.map((section) => (
        <Tabs.Content key={section} value={section}>
          <Suspense fallback={<LoadingState rows={5} label={`Loading ${sectionTitles[section]}`} />}>
            <SectionTab section={section} />
          </Suspense>
        </Tabs.Content>
      ))}
      <Tabs.Content value="history">
        <Suspense fallback={<LoadingState rows={5} label="Loading history" />}>
          <HistoryTab />
        </Suspense>
      </Tabs.Content>
    </Tabs.Root>
  );
}

function SectionTab({ section }: { section: SettingsSection }) {
  const Section = sectionComponents[section];
  return Section ? <Section /> : null;
}
