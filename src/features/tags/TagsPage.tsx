// Manage Tags (issue 16, SPEC §1–2 "Tags"): the tag hierarchy the storefront navigates and filters by.
// Staff edit a DRAFT of it — add, rename, move (drag and drop, or "Move to…"), delete — and nothing
// reaches the storefront until someone who may publish reads the diff and publishes it as a new
// version. Every version can be opened, compared and rolled back to. "Calculate node levels" refreshes
// levels and product counts as a task; the overview shows where the draft stands. Sellers read the
// published tree and its history.
import { Alert, Badge, Button, HStack, Stack, Tabs } from '@chakra-ui/react';
import { Calculator, Send } from 'lucide-react';
import { useState } from 'react';
import { TAGS_ROUTE } from '../../../contracts/tags';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { PageHeader } from '../../ui/page-states';
import { useUrlView } from '../../ui/url-view';
import { useCalculateLevels, usePublishPreview, useTreeState } from './api';
import { HierarchyTab } from './HierarchyTab';
import { OverviewTab } from './OverviewTab';
import { PublishDialog } from './PublishDialog';
import { TagExportMenu } from './TagExportMenu';
import { parseTagsView, type TagsView, tagsHref } from './url-state';
import { VersionsTab } from './VersionsTab';

export default function TagsPage() {
  const { view, setView } = useUrlView(parseTagsView, tagsHref);
  const { can } = useRouteActions(TAGS_ROUTE);
  const user = useCurrentUser();
  const seller = user.data?.isSeller ?? true;
  const staff = !seller && user.data !== undefined;
  const state = useTreeState();
  const calculate = useCalculateLevels();
  const [publishing, setPublishing] = useState(false);
  // The count of pending changes on the Publish button: only staff read the draft.
  const pending = usePublishPreview(staff && can('publish'));
  const changes = pending.data
    ? pending.data.diff.counts.added +
      pending.data.diff.counts.removed +
      pending.data.diff.counts.renamed +
      pending.data.diff.counts.moved +
      pending.data.diff.counts.recoded
    : null;

  const permissions = { create: can('create'), edit: can('edit'), delete: can('delete') };
  const tab = seller && view.tab === 'overview' ? 'hierarchy' : view.tab;
  const source = staff ? 'draft' : 'latest';

  return (
    <>
      <PageHeader
        title="Manage Tags"
        description={
          staff
            ? 'The tag hierarchy the storefront navigates by. You edit a draft; publishing makes it live.'
            : 'The tag hierarchy the storefront navigates by, as published.'
        }
        actions={
          staff ? (
            <HStack gap="2" wrap="wrap">
              {permissions.edit ? (
                <Button
                  variant="outline"
                  loading={calculate.isPending}
                  onClick={() => calculate.mutate()}
                  data-tour="calculate-levels"
                >
                  <Calculator /> Calculate node levels
                </Button>
              ) : null}
              {can('export') ? <TagExportMenu source="draft" data-tour="export" /> : null}
              {can('publish') ? (
                <Button colorPalette="brand" onClick={() => setPublishing(true)} data-tour="publish">
                  <Send /> Publish
                  {changes ? (
                    <Badge variant="solid" colorPalette="gray" size="sm" aria-label={`${changes} changes`}>
                      {changes}
                    </Badge>
                  ) : null}
                </Button>
              ) : null}
            </HStack>
          ) : null
        }
      />
      {staff && state.data?.rolledBackFrom ? (
        <Alert.Root status="warning" mb="4" data-testid="rolled-back">
          <Alert.Indicator />
          <Alert.Title>
            The draft is version {state.data.rolledBackFrom} brought back. The storefront shows version{' '}
            {state.data.latest} until you publish it.
          </Alert.Title>
        </Alert.Root>
      ) : null}
      <Tabs.Root
        value={tab}
        onValueChange={(details) => setView({ tab: details.value as TagsView['tab'] })}
        lazyMount
        unmountOnExit
        data-tour="tag-tabs"
      >
        <Tabs.List mb="4">
          <Tabs.Trigger value="hierarchy">Hierarchy</Tabs.Trigger>
          {staff ? (
            <Tabs.Trigger value="overview" data-tour="status-overview">
              Status overview
            </Tabs.Trigger>
          ) : null}
          <Tabs.Trigger value="history" data-tour="publish-history">
            Publish history
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="hierarchy">
          {user.data ? (
            <Stack gap="2" data-tour="tag-tree">
              <HierarchyTab
                source={source}
                permissions={permissions}
                selectedId={view.tagId}
                onSelect={(tagId) => setView({ tagId }, { replace: true })}
                treeLabel={staff ? 'Draft tags' : 'Published tags'}
              />
            </Stack>
          ) : null}
        </Tabs.Content>
        {staff ? (
          <Tabs.Content value="overview">
            <OverviewTab />
          </Tabs.Content>
        ) : null}
        <Tabs.Content value="history">
          <VersionsTab canRollback={staff && can('publish')} canExport={can('export')} staff={staff} />
        </Tabs.Content>
      </Tabs.Root>
      {publishing ? <PublishDialog onClose={() => setPublishing(false)} /> : null}
    </>
  );
}
