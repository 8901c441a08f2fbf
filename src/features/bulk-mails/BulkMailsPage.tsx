// Bulk Mails (issue 17, SPEC §1–2): campaigns that mail one template to an audience of contacts, now
// or later, through a throttled, pausable send job; and the mail templates they send, in several
// languages. Everything open is in the address: the tab, the list's filters, the campaign shown, the
// campaign composed and the template edited.
//
// Permissions mirror the route's actions: view reads; create composes, tests and sends campaigns;
// edit writes templates and pauses or resumes a send; delete removes drafts and templates.
import { Button, Tabs } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { BULK_MAILS_ROUTE } from '../../../contracts/campaigns';
import { useRouteActions } from '../../services/route-permissions';
import { PageHeader } from '../../ui/page-states';
import { useUrlView } from '../../ui/url-view';
import { CampaignComposer } from './CampaignComposer';
import { CampaignDetail } from './CampaignDetail';
import { CampaignsTab } from './CampaignsTab';
import { TemplateEditor } from './TemplateEditor';
import { TemplatesTab } from './TemplatesTab';
import { type BulkMailsView, bulkMailsHref, parseBulkMailsView } from './url-state';

export default function BulkMailsPage() {
  const { view, setView } = useUrlView(parseBulkMailsView, bulkMailsHref);
  const { can } = useRouteActions(BULK_MAILS_ROUTE);
  const canCreate = can('create');
  const canEdit = can('edit');
  const canDelete = can('delete');

  return (
    <>
      <PageHeader
        title="Bulk Mails"
        description="Mail a template to the contacts you choose, now or at a set time, and follow every delivery, answer and unsubscribe."
        actions={
          canCreate ? (
            <Button colorPalette="brand" onClick={() => setView({ compose: 'new' })} data-tour="compose">
              <Plus /> New campaign
            </Button>
          ) : null
        }
      />
      <Tabs.Root
        value={view.tab}
        onValueChange={(details) =>
          setView({ tab: details.value as BulkMailsView['tab'], query: '', page: 1, status: null })
        }
        lazyMount
        unmountOnExit
        data-tour="bulk-mail-tabs"
      >
        <Tabs.List mb="4">
          <Tabs.Trigger value="campaigns">Campaigns</Tabs.Trigger>
          <Tabs.Trigger value="templates" data-tour="templates">
            Templates
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="campaigns">
          <CampaignsTab
            query={view.query}
            status={view.status}
            page={view.page}
            onChange={(patch) => setView(patch, { replace: true })}
            onOpen={(id) => setView({ campaignId: id })}
            onCompose={() => setView({ compose: 'new' })}
            canCreate={canCreate}
          />
        </Tabs.Content>
        <Tabs.Content value="templates">
          <TemplatesTab
            query={view.query}
            page={view.page}
            onSearch={(query) => setView({ query, page: 1 }, { replace: true })}
            onPage={(page) => setView({ page }, { replace: true })}
            onOpen={(templateId) => setView({ templateId })}
            canEdit={canEdit}
            canDelete={canDelete}
          />
        </Tabs.Content>
      </Tabs.Root>
      {view.campaignId && !view.compose ? (
        <CampaignDetail
          id={view.campaignId}
          onClose={() => setView({ campaignId: null })}
          onEdit={() => setView({ compose: view.campaignId, campaignId: null })}
          canPause={canEdit}
          canEdit={canCreate}
        />
      ) : null}
      {view.compose && canCreate ? (
        <CampaignComposer
          id={view.compose}
          onClose={() => setView({ compose: null })}
          onSaved={(id) => setView({ compose: id }, { replace: true })}
          onSent={(id) => setView({ compose: null, campaignId: id, tab: 'campaigns' })}
          onOpenDetail={(id) => setView({ compose: null, campaignId: id })}
          canDelete={canDelete}
        />
      ) : null}
      {view.templateId && (canEdit || view.templateId !== 'new') ? (
        <TemplateEditor
          id={view.templateId}
          canEdit={canEdit}
          onClose={() => setView({ templateId: null })}
        />
      ) : null}
    </>
  );
}
