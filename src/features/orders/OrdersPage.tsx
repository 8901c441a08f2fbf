import { Box, Button, HStack } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { Link as RouterLink } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import { orderStatuses, orderStatusLabels } from '../../../contracts/domain/order-state';
import type { ExportFormat } from '../../../contracts/exports';
import { CREATE_ORDER_ROUTE, ORDERS_ROUTE } from '../../../contracts/orders';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { notifyTaskStarted } from '../../services/task-started';
import { FileFormatMenu } from '../../ui/file-format-menu';
import { RefreshButton } from '../../ui/list-controls';
import { PageHeader } from '../../ui/page-states';
import { TabbedList } from '../../ui/tabbed-list';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import { useExportOrders, useOrderList } from './api';
import { OrderFilters } from './OrderFilters';
import { OrderTable } from './OrderTable';
import {
  hasFilters,
  listRequestOf,
  ORDER_PAGE_SIZES,
  type OrdersView,
  ordersViewOf,
  ordersViewToSearch,
  parseOrdersView,
  rangeProblem,
  viewStateOf,
} from './url-state';

const ordersUrlView: SavedUrlView<OrdersView> = {
  route: ORDERS_ROUTE,
  list: 'orders',
  parse: parseOrdersView,
  toSearch: ordersViewToSearch,
  ofSaved: ordersViewOf,
};

/**
 * Manage Orders (issue 31): every order the user may see, by status tab with the maintained counts,
 * filtered, searched and paged on the server (all in the URL, with saved views). "New order" places
 * one by hand; an accepted offer becomes an order from its own page.
 */
export default function OrdersPage() {
  const { view, setView } = useSavedUrlView(ordersUrlView);
  const create = useRouteActions(CREATE_ORDER_ROUTE);
  const { can } = useRouteActions(ORDERS_ROUTE);
  const exportOrders = useExportOrders();
  const startExport = (format: ExportFormat) => {
    const { skip: _skip, limit: _limit, ...filters } = listRequestOf(view);
    exportOrders.mutate(
      { query: '', ...filters, format },
      {
        onSuccess: (task) =>
          notifyTaskStarted(task, {
            type: 'info',
            title: 'Orders export started. You will be notified when it is ready.',
          }),
      },
    );
  };
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? true;
  const rangeError = rangeProblem(view);
  const list = useOrderList(listRequestOf(view));

  return (
    <>
      <PageHeader
        title="Orders"
        description="Customers' orders: their money, their stock and their shipment, from placing to delivery."
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            </Box>
            {can('export') ? (
              <FileFormatMenu
                label="Export"
                data-tour="orders-export"
                loading={exportOrders.isPending}
                onChoose={startExport}
              />
            ) : null}
            {create.can('create') ? (
              <Button asChild colorPalette="brand" data-tour="new-order">
                <RouterLink href={CREATE_ORDER_ROUTE}>
                  <Plus /> New order
                </RouterLink>
              </Button>
            ) : null}
          </HStack>
        }
      />
      <TabbedList
        view={view}
        setView={setView}
        query={list}
        tabs={{
          label: 'Order status',
          statuses: orderStatuses,
          labels: orderStatusLabels,
          tour: 'order-tabs',
        }}
        search={{
          label: 'Search orders',
          placeholder: 'Search by ORD number, customer or e-mail',
          tour: 'search',
        }}
        views={{
          list: 'orders',
          state: viewStateOf(view),
          ofSaved: (saved) => ordersViewOf(saved.state, saved.id),
          canPublish: false,
          neutralLabel: 'All orders',
        }}
        sizes={ORDER_PAGE_SIZES}
        filters={
          <OrderFilters
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
            title: 'No order matches',
            description: 'Choose another tab, clear a filter or the search.',
          },
          none: {
            title: 'No orders yet',
            description: 'Place one by hand, or make one from an accepted offer on its page.',
          },
        }}
        noun={(total) => plural(total, 'order')}
        totalTestId="order-total-count"
        pagerLabel="Order pages"
        loadingLabel="Loading orders"
        tour="order-list"
      >
        <OrderTable rows={list.data?.result ?? []} showSeller={!isSeller} />
      </TabbedList>
    </>
  );
}
