// The invoice list's view in the URL (src/ui/list-url-state.ts): the status tab, the filters (seller,
// kind, currency, the issued range), the search, the page and its size, and the saved view.
import {
  type InvoiceKind,
  type InvoiceStatus,
  invoiceKinds,
  invoiceStatuses,
} from '../../../contracts/domain/invoice-state';
import type { InvoiceListQuery } from '../../../contracts/invoices';
import {
  currencyParam,
  dayRangeFilters,
  defineListView,
  enumParam,
  idParam,
  type ListView,
} from '../../ui/list-url-state';

export { rangeProblem } from '../../ui/list-url-state';

export const INVOICE_PAGE_SIZES = [20, 50, 100] as const;
export type InvoicePageSize = (typeof INVOICE_PAGE_SIZES)[number];

export interface InvoiceFilters {
  sellerId: string | null;
  kind: InvoiceKind | null;
  currency: string | null;
  /** Issued (drafts: created) from / to these days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
}

export type InvoicesView = ListView<InvoiceFilters, InvoiceStatus, InvoicePageSize>;

const invoicesList = defineListView<InvoiceFilters, InvoiceStatus, InvoicePageSize>({
  statuses: invoiceStatuses,
  sizes: INVOICE_PAGE_SIZES,
  filters: {
    sellerId: { param: 'seller', parse: idParam, request: 'sellerId' },
    kind: { param: 'kind', parse: enumParam(invoiceKinds), request: 'kind' },
    currency: { param: 'currency', parse: currencyParam, request: 'currency' },
    ...dayRangeFilters,
  },
  sort: 'createdAt',
});

export type InvoiceListRequest = Partial<InvoiceListQuery> & Pick<InvoiceListQuery, 'skip' | 'limit'>;

export const {
  noFilters,
  parse: parseInvoicesView,
  toSearch: invoicesViewToSearch,
  hasFilters,
  viewStateOf,
  viewOf: invoicesViewOf,
} = invoicesList;
export const listRequestOf = (view: InvoicesView) => invoicesList.listRequestOf(view) as InvoiceListRequest;
