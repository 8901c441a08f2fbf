// The order list's view in the URL (src/ui/list-url-state.ts): the status tab, the filters (seller,
// payment state, currency, the placed range), the search, the page and its size, and the saved view.
import {
  type OrderStatus,
  orderStatuses,
  type PaymentState,
  paymentStates,
} from '../../../contracts/domain/order-state';
import type { OrderListQuery } from '../../../contracts/orders';
import {
  currencyParam,
  dayRangeFilters,
  defineListView,
  enumParam,
  idParam,
  type ListView,
} from '../../ui/list-url-state';

export { rangeProblem } from '../../ui/list-url-state';

export const ORDER_PAGE_SIZES = [20, 50, 100] as const;
export type OrderPageSize = (typeof ORDER_PAGE_SIZES)[number];

export interface OrderFilters {
  sellerId: string | null;
  paymentState: PaymentState | null;
  currency: string | null;
  /** Placed from / to these days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
}

export type OrdersView = ListView<OrderFilters, OrderStatus, OrderPageSize>;

const ordersList = defineListView<OrderFilters, OrderStatus, OrderPageSize>({
  statuses: orderStatuses,
  sizes: ORDER_PAGE_SIZES,
  filters: {
    sellerId: { param: 'seller', parse: idParam, request: 'sellerId' },
    paymentState: { param: 'payment', parse: enumParam(paymentStates), request: 'paymentState' },
    currency: { param: 'currency', parse: currencyParam, request: 'currency' },
    ...dayRangeFilters,
  },
  sort: 'createdAt',
});

export type OrderListRequest = Partial<OrderListQuery> & Pick<OrderListQuery, 'skip' | 'limit'>;

export const {
  noFilters,
  parse: parseOrdersView,
  toSearch: ordersViewToSearch,
  hasFilters,
  viewStateOf,
  viewOf: ordersViewOf,
} = ordersList;
export const listRequestOf = (view: OrdersView) => ordersList.listRequestOf(view) as OrderListRequest;
