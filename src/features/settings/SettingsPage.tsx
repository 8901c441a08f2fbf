// Settings (issue 29, SPEC §1–2): one URL-addressable tab per section (`?tab=shipping`), the sections
// this user may see in their scope — the marketplace's for admins and staff, their own shop's for a
// seller, each value inherited or overridden — and the overall history of changes.
import { Tabs } from '@chakra-ui/react';
import { lazy, type ReactNode, Suspense } from 'react';
import type { SettingsSection } from '../../../contracts/settings';
import { getErrorMessage } from '../../services/http';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { useUrlView } from '../../ui/url-view';
import { useSettingsOverview } from './api';
import { sectionTitles } from './section-words';
import { sectionComponents } from './sections';

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
  const overview = useSettingsOverview();
  const { view, setView } = useUrlView(parseSettingsView, settingsHref);
  const sections = (overview.data?.sections ?? []).filter((section) => sectionComponents[section]);
  const tabs: SettingsView['tab'][] = [...sections, 'history'];
  const current = tabs.includes(view.tab) ? view.tab : (tabs[0] ?? 'history');
  const seller = overview.data?.scope.type === 'seller';
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          seller
            ? "Your shop's settings. Each value is the marketplace's until you override it; reset it to follow the marketplace again."
            : "The marketplace's settings. Every change takes effect at once, everywhere, and is recorded in the history."
        }
      />
      {overview.isPending ? (
        <LoadingState rows={6} label="Loading settings" />
      ) : overview.isError ? (
        <ErrorState message={getErrorMessage(overview.error)} onRetry={() => overview.refetch()} />
      ) : (
        <Tabs.Root
          value={current}
          onValueChange={(details) => setView({ tab: details.value as SettingsView['tab'] })}
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
      )}
    </>
  );
}

function SectionTab({ section }: { section: SettingsSection }) {
  const Section = sectionComponents[section];
  return Section ? <Section /> : null;
}
