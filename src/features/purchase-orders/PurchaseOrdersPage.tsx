import { Box, Button, Field, Flex, HStack, Text } from '@chakra-ui/react';
import { Plus, Truck } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import {
  purchaseOrderStatuses,
  purchaseOrderStatusLabels,
} from '../../../contracts/domain/purchase-order-state';
import { CREATE_PURCHASE_ORDER_ROUTE, PURCHASE_ORDERS_ROUTE } from '../../../contracts/purchase-orders';
import { useRouteActions } from '../../services/route-permissions';
import { FilterBar } from '../../ui/filter-bar';
import { PageSizeSelect, RefreshButton } from '../../ui/list-controls';
import { OptionSelect } from '../../ui/option-select';
import { PageHeader } from '../../ui/page-states';
import { PagedList } from '../../ui/paged-list';
import { SearchBox } from '../../ui/search-box';
import { StatusTabs } from '../../ui/status-tabs';
import { useUrlView } from '../../ui/url-view';
import { usePurchaseOrderList, useSupplierList } from './api';
import { PurchaseOrderTable } from './PurchaseOrderTable';
import { SuppliersDialog } from './SuppliersDialog';
import {
  hasFilters,
  listRequestOf,
  noFilters,
  PURCHASE_ORDER_PAGE_SIZES,
  type PurchaseOrdersView,
  parsePurchaseOrdersView,
  purchaseOrdersViewToSearch,
} from './url-state';

const hrefOf = (view: PurchaseOrdersView) => `${PURCHASE_ORDERS_ROUTE}${purchaseOrdersViewToSearch(view)}`;

/** The supplier filter: every supplier (inactive ones too: their orders stay), "All suppliers" when none. */
function SupplierFilter({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const suppliers = useSupplierList({ limit: 100 });
  const options = (suppliers.data?.result ?? []).map((supplier) => ({
    value: supplier.id,
    label: supplier.active ? supplier.name : `${supplier.name} (inactive)`,
  }));
  if (value && !options.some((option) => option.value === value))
    options.unshift({ value, label: 'The chosen supplier' });
  return (
    <Field.Root width={{ base: 'full', md: '64' }}>
      <Field.Label htmlFor="po-filter-supplier">Supplier</Field.Label>
      <OptionSelect
        id="po-filter-supplier"
        blank="All suppliers"
        value={value ?? ''}
        options={options}
        onChange={(next) => onChange(next || null)}
      />
    </Field.Root>
  );
}

/**
 * Purchase Orders (issue 31): the stock the marketplace orders from its suppliers, by status tab with
 * the maintained counts, searched and paged on the server (all in the URL). "New purchase order" drafts
 * one; "Suppliers" manages who they go to and the tolerance of their deliveries.
 */
export default function PurchaseOrdersPage() {
  const { view, setView } = useUrlView(parsePurchaseOrdersView, hrefOf);
  const list = usePurchaseOrderList(listRequestOf(view));
  const create = useRouteActions(CREATE_PURCHASE_ORDER_ROUTE);
  const { can } = useRouteActions(PURCHASE_ORDERS_ROUTE);
  const [suppliersOpen, setSuppliersOpen] = useState(false);
  const filtered = hasFilters(view) || view.search !== '' || view.status !== null;
  const total = list.data?.total ?? 0;

  return (
    <>
      <PageHeader
        title="Purchase orders"
        description="Stock ordered from the suppliers: mailed to them as a PDF, then taken in delivery by delivery."
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            </Box>
            {can('edit') ? (
              <Button variant="outline" data-tour="po-suppliers" onClick={() => setSuppliersOpen(true)}>
                <Truck /> Suppliers
              </Button>
            ) : null}
            {create.can('create') ? (
              <Button asChild colorPalette="brand" data-tour="new-po">
                <RouterLink href={CREATE_PURCHASE_ORDER_ROUTE}>
                  <Plus /> New purchase order
                </RouterLink>
              </Button>
            ) : null}
          </HStack>
        }
      />
      <StatusTabs
        label="Purchase order status"
        statuses={purchaseOrderStatuses}
        labels={purchaseOrderStatusLabels}
        value={view.status}
        counts={list.data?.tabs}
        onChange={(status) => setView({ status, page: 1 })}
        tour="po-tabs"
      >
        <Flex gap="3" mb="3" wrap="wrap" align="center">
          <SearchBox
            value={view.search}
            onSearch={(text) => setView({ search: text, page: 1 }, { replace: true })}
            label="Search purchase orders"
            placeholder="Search by PO number or supplier"
            data-tour="search"
          />
          <HStack gap="2" ms="auto">
            <PageSizeSelect
              sizes={PURCHASE_ORDER_PAGE_SIZES}
              value={view.size}
              width="24"
              onChange={(size) => setView({ size, page: 1 })}
            />
          </HStack>
        </Flex>
        <FilterBar
          label="Filter purchase orders"
          active={hasFilters(view)}
          onClear={() => setView({ ...noFilters, page: 1 })}
        >
          <SupplierFilter
            value={view.supplierId}
            onChange={(supplierId) => setView({ supplierId, page: 1 })}
          />
        </FilterBar>
        <Box data-tour="po-list">
          <PagedList
            query={list}
            empty={(list.data?.result.length ?? 0) === 0}
            loadingLabel="Loading purchase orders"
            emptyState={
              filtered
                ? {
                    title: 'No purchase order matches',
                    description: 'Choose another tab, clear the filter or the search.',
                  }
                : {
                    title: 'No purchase orders yet',
                    description:
                      'Order stock of a shop’s products from a supplier with “New purchase order”.',
                  }
            }
            page={view.page}
            size={view.size}
            total={total}
            onPage={(page) => setView({ page })}
            pagerLabel="Purchase order pages"
            summary={
              <Text fontSize="sm" color="fg.muted" data-testid="po-total-count">
                {list.data?.totalCapped ? 'more than ' : ''}
                {plural(total, 'purchase order')}
              </Text>
            }
          >
            <PurchaseOrderTable rows={list.data?.result ?? []} />
          </PagedList>
        </Box>
      </StatusTabs>
      {suppliersOpen ? <SuppliersDialog open onClose={() => setSuppliersOpen(false)} /> : null}
    </>
  );
}
