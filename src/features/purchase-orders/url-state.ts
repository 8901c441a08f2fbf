// The purchase-order list's view in the URL (src/ui/list-url-state.ts): the status tab, the supplier,
// the search, the page and its size.
import {
  type PurchaseOrderStatus,
  purchaseOrderStatuses,
} from '../../../contracts/domain/purchase-order-state';
import type { PurchaseOrderListQuery } from '../../../contracts/purchase-orders';
import { defineListView, idParam, type ListView } from '../../ui/list-url-state';

export const PURCHASE_ORDER_PAGE_SIZES = [20, 50, 100] as const;
export type PurchaseOrderPageSize = (typeof PURCHASE_ORDER_PAGE_SIZES)[number];

export interface PurchaseOrderFilters {
  supplierId: string | null;
}

export type PurchaseOrdersView = ListView<PurchaseOrderFilters, PurchaseOrderStatus, PurchaseOrderPageSize>;

const purchaseOrdersList = defineListView<PurchaseOrderFilters, PurchaseOrderStatus, PurchaseOrderPageSize>({
  statuses: purchaseOrderStatuses,
  sizes: PURCHASE_ORDER_PAGE_SIZES,
  filters: {
    supplierId: { param: 'supplier', parse: idParam, request: 'supplierId' },
  },
  sort: 'createdAt',
});

export type PurchaseOrderListRequest = Partial<PurchaseOrderListQuery> &
  Pick<PurchaseOrderListQuery, 'skip' | 'limit'>;

export const {
  noFilters,
  parse: parsePurchaseOrdersView,
  toSearch: purchaseOrdersViewToSearch,
  hasFilters,
  viewStateOf,
  viewOf: purchaseOrdersViewOf,
} = purchaseOrdersList;
export const listRequestOf = (view: PurchaseOrdersView) =>
  purchaseOrdersList.listRequestOf(view) as PurchaseOrderListRequest;
