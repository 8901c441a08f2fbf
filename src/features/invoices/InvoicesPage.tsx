import { Box, Button, HStack } from '@chakra-ui/react';
import { FileSpreadsheet, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import { invoiceStatuses, invoiceStatusLabels } from '../../../contracts/domain/invoice-state';
import { CREATE_INVOICE_ROUTE, INVOICES_ROUTE, MARKETING_INVOICES_ROUTE } from '../../../contracts/invoices';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { RefreshButton } from '../../ui/list-controls';
import { PageHeader } from '../../ui/page-states';
import { TabbedList } from '../../ui/tabbed-list';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import { type InvoiceListSource, useInvoiceList } from './api';
import { InvoiceFilters } from './InvoiceFilters';
import { InvoiceTable } from './InvoiceTable';
import { RegisterDialog } from './RegisterDialog';
import {
  hasFilters,
  INVOICE_PAGE_SIZES,
  type InvoicesView,
  invoicesViewOf,
  invoicesViewToSearch,
  listRequestOf,
  parseInvoicesView,
  rangeProblem,
  viewStateOf,
} from './url-state';

const urlViews: Record<InvoiceListSource, SavedUrlView<InvoicesView>> = {
  invoices: {
    route: INVOICES_ROUTE,
    list: 'invoices',
    parse: parseInvoicesView,
    toSearch: invoicesViewToSearch,
    ofSaved: invoicesViewOf,
  },
  marketing: {
    route: MARKETING_INVOICES_ROUTE,
    list: 'marketing-invoices',
    parse: parseInvoicesView,
    toSearch: invoicesViewToSearch,
    ofSaved: invoicesViewOf,
  },
};

/**
 * The invoices and credit notes the user may see (issue 31), by status tab with the counts, filtered,
 * searched and paged on the server (all in the URL, with saved views). Manage Invoices adds "New
 * invoice" and the register export; the Marketing section's page (`source="marketing"`) reads the same
 * list through its own permission and changes nothing.
 */
export function InvoiceList({ source }: { source: InvoiceListSource }) {
  const { view, setView } = useSavedUrlView(urlViews[source]);
  const manage = source === 'invoices';
  const list = useRouteActions(INVOICES_ROUTE);
  const create = useRouteActions(CREATE_INVOICE_ROUTE);
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? true;
  const rangeError = rangeProblem(view);
  const invoices = useInvoiceList(source, listRequestOf(view));
  const [registering, setRegistering] = useState(false);
  const canCreate = manage && create.can('create');

  return (
    <>
      <PageHeader
        title="Invoices"
        description={
          manage
            ? 'Invoices and credit notes: drafts, issued documents, their payments and the register of a period.'
            : 'Invoices and credit notes issued to customers and sellers, as the accounts show them.'
        }
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => invoices.refetch()} refreshing={invoices.isFetching} />
            </Box>
            {manage && list.can('export') ? (
              <Button variant="outline" data-tour="invoice-register" onClick={() => setRegistering(true)}>
                <FileSpreadsheet /> Register
              </Button>
            ) : null}
            {canCreate ? (
              <Button asChild colorPalette="brand" data-tour="new-invoice">
                <RouterLink href={CREATE_INVOICE_ROUTE}>
                  <Plus /> New invoice
                </RouterLink>
              </Button>
            ) : null}
          </HStack>
        }
      />
      <TabbedList
        view={view}
        setView={setView}
        query={invoices}
        tabs={{
          label: 'Invoice status',
          statuses: invoiceStatuses,
          labels: invoiceStatusLabels,
          tour: 'invoice-tabs',
        }}
        search={{
          label: 'Search invoices',
          placeholder: 'Search by number, buyer or e-mail',
          tour: 'search',
        }}
        views={{
          list: urlViews[source].list,
          state: viewStateOf(view),
          ofSaved: (saved) => invoicesViewOf(saved.state, saved.id),
          canPublish: false,
          neutralLabel: 'All invoices',
        }}
        sizes={INVOICE_PAGE_SIZES}
        filters={
          <InvoiceFilters
            view={view}
            showSeller={!isSeller}
            rangeError={rangeError}
            onChange={(patch) => setView({ ...patch, page: 1 })}
          />
        }
        rangeError={rangeError}
        filtered={hasFilters(view) || view.search !== '' || view.status !== null}
        empty={{
          filtered: {
            title: 'No invoice matches',
            description: 'Choose another tab, clear a filter or the search.',
          },
          none: {
            title: 'No invoices yet',
            description: canCreate
              ? 'Make one from an order, from a subscription period or by hand with New invoice.'
              : 'Invoices show here once they are made.',
          },
        }}
        noun={(total) => plural(total, 'invoice')}
        totalTestId="invoice-total-count"
        pagerLabel="Invoice pages"
        loadingLabel="Loading invoices"
        tour="invoice-list"
      >
        <InvoiceTable rows={invoices.data?.result ?? []} showSeller={!isSeller} />
      </TabbedList>
      {registering ? <RegisterDialog onClose={() => setRegistering(false)} /> : null}
    </>
  );
}

/** Manage Invoices (`/invoices/manage-invoices`, issue 31). */
export default function InvoicesPage() {
  return <InvoiceList source="invoices" />;
}
