import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { Building2, FileUp, Plus } from 'lucide-react';
import { useState } from 'react';
import { CONTACT_PAGE_SIZES, CONTACTS_ROUTE, type Contact } from '../../../contracts/contacts';
import { plural } from '../../../contracts/domain/format';
import type { ExportFormat } from '../../../contracts/exports';
import { useRouteActions } from '../../services/route-permissions';
import { notifyTaskStarted } from '../../services/task-started';
import { FileFormatMenu } from '../../ui/file-format-menu';
import { RefreshButton } from '../../ui/list-controls';
import { ListToolbar } from '../../ui/list-toolbar';
import { PageHeader } from '../../ui/page-states';
import { PagedList } from '../../ui/paged-list';
import {
  describeQuery,
  FiltersButton,
  FiltersPanel,
  QueryBuilder,
  useQueryDraft,
} from '../../ui/query-builder';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import { useContactFields, useContactList, useExportContacts } from './api';
import { CompanyTypesDialog } from './CompanyTypesDialog';
import { ContactDialog } from './ContactDialog';
import { ContactDrawer } from './ContactDrawer';
import { ContactTable } from './ContactTable';
import { LeadImportDialog } from './LeadImportDialog';
import {
  type ContactsView,
  contactsViewOf,
  contactsViewToSearch,
  listQueryOf,
  parseContactsView,
  toggleSort,
  viewStateOf,
} from './url-state';

export const CONTACTS_EXPORT_STARTED = 'Contacts export started. You will be notified when it is ready.';

/**
 * Contacts (SPEC §2, issue 17): the server-paged list under the filters (one query tree over country,
 * company type, language, tags, source, subscription, created and last-contacted dates, built with the
 * shared query builder) and the search box, all in the URL; refresh; add, edit, delete; a contact's page
 * with its timeline; the company types (admins); and "Import leads".
 */
const contactsUrlView: SavedUrlView<ContactsView> = {
  route: CONTACTS_ROUTE,
  list: 'contacts',
  parse: parseContactsView,
  toSearch: contactsViewToSearch,
  ofSaved: contactsViewOf,
};

export default function ContactsPage() {
  // A bare URL (from the menu) opens the user's default saved view, when they chose one.
  const { view, setView } = useSavedUrlView(contactsUrlView);
  const { can } = useRouteActions(CONTACTS_ROUTE);

  const exportContacts = useExportContacts();
  const startExport = (format: ExportFormat) => {
    const { skip: _skip, limit: _limit, ...selection } = listQueryOf(view);
    exportContacts.mutate(
      { ...selection, format },
      // A failure is toasted by the http client; the file comes as a notification with its link.
      { onSuccess: (task) => notifyTaskStarted(task, { type: 'info', title: CONTACTS_EXPORT_STARTED }) },
    );
  };

  const [filtersOpen, setFiltersOpen] = useState(view.query.children.length > 0);
  const fields = useContactFields(filtersOpen || view.query.children.length > 0);
  const fieldList = fields.data;
  const [draft, onQueryChange] = useQueryDraft(view.query, fieldList, (query) =>
    setView({ query, page: 1 }, { replace: true }),
  );

  const list = useContactList(listQueryOf(view));
  const rows = list.data?.result ?? [];
  const total = list.data?.count ?? 0;
  const about = list.data && !list.data.countExact ? 'about ' : '';
  const filtered = view.query.children.length > 0 || view.search !== '';

  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [typesOpen, setTypesOpen] = useState(false);
  const [importing, setImporting] = useState(false);
  const importOpen = importing || view.leadImport !== null;

  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people marketing mails: leads, help-chat customers and query senders, with their subscription."
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            </Box>
            {can('export') ? (
              <FileFormatMenu
                label="Export"
                data-tour="contacts-export"
                loading={exportContacts.isPending}
                onChoose={startExport}
              />
            ) : null}
            {can('edit') ? (
              <Button variant="outline" onClick={() => setTypesOpen(true)} data-tour="company-types">
                <Building2 /> Company types
              </Button>
            ) : null}
            {can('import') ? (
              <Button variant="outline" onClick={() => setImporting(true)} data-tour="lead-import">
                <FileUp /> Import leads
              </Button>
            ) : null}
            {can('create') ? (
              <Button colorPalette="brand" onClick={() => setEditing('new')} data-tour="add-contact">
                <Plus /> Add contact
              </Button>
            ) : null}
          </HStack>
        }
      />

      <ListToolbar
        search={{
          value: view.search,
          onSearch: (text) => setView({ search: text, page: 1 }, { replace: true }),
          label: 'Search contacts',
          placeholder: 'Search by name, e-mail or company',
          maxW: '80',
          'data-tour': 'contact-search',
        }}
        views={{
          list: 'contacts',
          current: viewStateOf(view),
          viewId: view.viewId,
          onLoad: (saved) =>
            setView({ ...contactsViewOf(saved.state, saved.id), contact: null, leadImport: null }),
          onUnload: () => setView({ viewId: null }),
          canPublish: can('publish'),
          neutralLabel: 'All contacts',
        }}
        sizes={CONTACT_PAGE_SIZES}
        size={view.size}
        onSize={(size) => setView({ size, page: 1 })}
      >
        <FiltersButton
          open={filtersOpen}
          count={view.query.children.length}
          onToggle={() => setFiltersOpen((open) => !open)}
          tour="filters"
        />
        {view.query.children.length ? (
          <Button
            variant="plain"
            size="sm"
            onClick={() => setView({ query: { combinator: 'and', children: [] }, page: 1 })}
          >
            Clear filters
          </Button>
        ) : null}
      </ListToolbar>

      <FiltersPanel open={filtersOpen} fields={fields}>
        {(loaded) => <QueryBuilder fields={loaded} value={draft} onChange={onQueryChange} />}
      </FiltersPanel>
      {!filtersOpen && view.query.children.length && fieldList ? (
        <Text fontSize="sm" color="fg.muted" mb="3" data-testid="contact-query-summary">
          {describeQuery(view.query, fieldList)}
        </Text>
      ) : null}

      <PagedList
        query={list}
        empty={rows.length === 0}
        loadingLabel="Loading contacts"
        emptyState={
          filtered
            ? {
                title: 'No contact matches',
                description: 'Loosen a condition, switch a group from AND to OR, or clear the search.',
              }
            : {
                title: 'No contacts yet',
                description:
                  'Add a contact, or import a lead sheet. Help chats and customer queries add theirs.',
              }
        }
        page={view.page}
        size={view.size}
        total={total}
        onPage={(page) => setView({ page })}
        pagerLabel="Contact pages"
        summary={
          <Text fontSize="sm" color="fg.muted" data-testid="contact-total">
            {about}
            {plural(total, 'contact')}
          </Text>
        }
      >
        <ContactTable
          rows={rows}
          sort={view.sort}
          order={view.order}
          onSort={(field) => setView({ ...toggleSort(view, field), page: 1 })}
          onOpen={(id) => setView({ contact: id })}
        />
      </PagedList>

      <ContactDrawer
        id={view.contact}
        canEdit={can('edit')}
        canDelete={can('delete')}
        onEdit={(contact) => setEditing(contact)}
        onClose={() => setView({ contact: null })}
      />
      <ContactDialog
        open={editing !== null}
        contact={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={(contact) => {
          const created = editing === 'new';
          setEditing(null);
          if (created) setView({ contact: contact.id });
        }}
      />
      {can('edit') ? <CompanyTypesDialog open={typesOpen} onClose={() => setTypesOpen(false)} /> : null}
      {can('import') ? (
        <LeadImportDialog
          open={importOpen}
          importId={view.leadImport}
          onImportChange={(id) => setView({ leadImport: id }, { replace: true })}
          onClose={() => {
            setImporting(false);
            if (view.leadImport) setView({ leadImport: null });
          }}
        />
      ) : null}
    </>
  );
}
