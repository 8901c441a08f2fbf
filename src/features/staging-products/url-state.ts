// The staging grid's whole view lives in the URL: the query tree, the search, the columns, the sort,
// the page and its size, and the saved view it came from. A view can be shared, bookmarked and survives
// a reload; the last one is also kept for the tab, so leaving the page and coming back from the menu
// finds it as it was (the anchors' users lose their filters on back, refresh and logout).
// Reading is forgiving: anything unknown or invalid falls back to the default.
import { PRODUCT_PAGE_SIZES, type ProductSortField, productSortFields } from '../../../contracts/catalog';
import { defaultProductColumns, productColumnKeys } from '../../../contracts/catalog-actions';
import { decodeQuery, emptyQuery, encodeQuery, type QueryTree } from '../../../contracts/query-tree';
import type { ViewState } from '../../../contracts/saved-views';

export type ProductPageSize = (typeof PRODUCT_PAGE_SIZES)[number];
export type SortOrder = 'asc' | 'desc';

export interface StagingView {
  query: QueryTree;
  search: string;
  /** Built-in column keys and `attr.<code>`, in display order. */
  columns: string[];
  sort: ProductSortField;
  order: SortOrder;
  /** 1-based. */
  page: number;
  size: ProductPageSize;
  /** The saved view this one was loaded from, if any. */
  viewId: string | null;
}

export const defaultStagingView: StagingView = {
  query: emptyQuery(),
  search: '',
  columns: defaultProductColumns,
  sort: 'updatedAt',
  order: 'desc',
  page: 1,
  size: 50,
  viewId: null,
};

const COLUMN = /^(attr\.[a-z][a-z0-9_]{1,39})$/;
const isColumn = (key: string) => (productColumnKeys as string[]).includes(key) || COLUMN.test(key);
const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

export function parseStagingView(search: string): StagingView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const columns = (params.get('cols') ?? '').split(',').filter(isColumn);
  const viewId = params.get('view');
  return {
    query: decodeQuery(params.get('q')) ?? emptyQuery(),
    search: (params.get('s') ?? '').trim().slice(0, 100),
    columns: columns.length ? [...new Set(columns)].slice(0, 40) : defaultStagingView.columns,
    sort: oneOf(productSortFields, params.get('sort'), defaultStagingView.sort),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), defaultStagingView.order),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    size: oneOf(PRODUCT_PAGE_SIZES, Number(params.get('size')), defaultStagingView.size),
    viewId: viewId && /^[0-9a-f-]{36}$/i.test(viewId) ? viewId : null,
  };
}

/** `?q=…&…` with only what differs from the default (empty string when nothing does). */
export function stagingViewToSearch(view: StagingView): string {
  const params = new URLSearchParams();
  const query = encodeQuery(view.query);
  if (query) params.set('q', query);
  if (view.search) params.set('s', view.search);
  if (view.columns.join(',') !== defaultStagingView.columns.join(','))
    params.set('cols', view.columns.join(','));
  if (view.sort !== defaultStagingView.sort) params.set('sort', view.sort);
  if (view.order !== defaultStagingView.order) params.set('order', view.order);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== defaultStagingView.size) params.set('size', String(view.size));
  if (view.viewId) params.set('view', view.viewId);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What a saved view stores of the grid's view. */
export const viewStateOf = (view: StagingView): ViewState => ({
  query: view.query,
  search: view.search,
  columns: view.columns,
  sort: view.sort,
  order: view.order,
  pageSize: view.size,
});

/** The grid's view when a saved view is loaded (its page size if the grid offers it). */
export const stagingViewOf = (state: ViewState, viewId: string | null): StagingView => ({
  query: state.query,
  search: state.search,
  columns: state.columns.filter(isColumn).length
    ? state.columns.filter(isColumn)
    : defaultStagingView.columns,
  sort: oneOf(productSortFields, state.sort, defaultStagingView.sort),
  order: state.order,
  page: 1,
  size: oneOf(PRODUCT_PAGE_SIZES, state.pageSize, defaultStagingView.size),
  viewId,
});

/** Sorting by a column: a new column starts in its natural order (dates newest first), the same one flips. */
export function toggleSort(view: StagingView, field: ProductSortField): Pick<StagingView, 'sort' | 'order'> {
  if (view.sort === field) return { sort: field, order: view.order === 'asc' ? 'desc' : 'asc' };
  return { sort: field, order: field === 'updatedAt' || field === 'createdAt' ? 'desc' : 'asc' };
}

/** The attribute codes among the columns (the rows carry only these attributes' values). */
export const attributeColumnCodes = (columns: readonly string[]) =>
  columns.filter((key) => key.startsWith('attr.')).map((key) => key.slice('attr.'.length));

const LAST_VIEW_KEY = 'staging-products:last-view';

/** The tab's last view of the grid, so coming back from the menu (a bare URL) restores it. */
export const lastStagingSearch = {
  read(): string {
    try {
      return sessionStorage.getItem(LAST_VIEW_KEY) ?? '';
    } catch {
      return '';
    }
  },
  write(search: string) {
    try {
      if (search) sessionStorage.setItem(LAST_VIEW_KEY, search);
      else sessionStorage.removeItem(LAST_VIEW_KEY);
    } catch {
      // Storage may be off (private mode); the URL still carries the view.
    }
  },
};
