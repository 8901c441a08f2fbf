// The offer list's view lives in the URL: the status tab, the filters (seller, date range, currency),
// the search, the page and its size, and the saved view loaded. Reading is forgiving: anything unknown
// or invalid falls back to the default, so a shared or old link always opens. A saved view stores the
// filters as `equals` conditions of the saved-views query tree, as the queries inbox does.
import { isUuid } from '../../../contracts/domain/ids';
import { type OfferStatus, offerStatuses } from '../../../contracts/domain/offer-status';
import type { OfferListQuery } from '../../../contracts/offers';
import type { QueryCondition, QueryTree } from '../../../contracts/query-tree';
import type { ViewState } from '../../../contracts/saved-views';

export const OFFER_PAGE_SIZES = [20, 50, 100] as const;
export type OfferPageSize = (typeof OFFER_PAGE_SIZES)[number];

export interface OfferFilters {
  sellerId: string | null;
  currency: string | null;
  /** Created from / to these days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
}

export interface OffersView extends OfferFilters {
  /** The status tab; null: every status. */
  status: OfferStatus | null;
  search: string;
  /** 1-based. */
  page: number;
  size: OfferPageSize;
  viewId: string | null;
}

export const noFilters: OfferFilters = { sellerId: null, currency: null, from: null, to: null };

export const defaultOffersView: OffersView = {
  ...noFilters,
  status: null,
  search: '',
  page: 1,
  size: 20,
  viewId: null,
};

const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown): T | null =>
  allowed.includes(value as T) ? (value as T) : null;
const idOf = (value: string | null | undefined) => (value && isUuid(value) ? value : null);
const dayOf = (value: string | null | undefined) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
const currencyOf = (value: string | null | undefined) => {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{3}$/.test(code) ? code : null;
};

export function parseOffersView(search: string): OffersView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    status: oneOf(offerStatuses, params.get('status')),
    sellerId: idOf(params.get('seller')),
    currency: currencyOf(params.get('currency')),
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
    search: (params.get('s') ?? '').trim().slice(0, 200),
    page: Number.isInteger(page) && page >= 1 && page <= 50_000 ? page : 1,
    size: oneOf(OFFER_PAGE_SIZES, Number(params.get('size'))) ?? defaultOffersView.size,
    viewId: idOf(params.get('view')),
  };
}

/** `?…` with only what differs from the default (empty string when nothing does). */
export function offersViewToSearch(view: OffersView): string {
  const params = new URLSearchParams();
  if (view.status) params.set('status', view.status);
  if (view.sellerId) params.set('seller', view.sellerId);
  if (view.currency) params.set('currency', view.currency);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.search) params.set('s', view.search);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== defaultOffersView.size) params.set('size', String(view.size));
  if (view.viewId) params.set('view', view.viewId);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export type OfferListRequest = Partial<OfferListQuery> & Pick<OfferListQuery, 'skip' | 'limit'>;

export function listRequestOf(view: OffersView): OfferListRequest {
  const request: OfferListRequest = { skip: (view.page - 1) * view.size, limit: view.size };
  if (view.status) request.status = view.status;
  if (view.sellerId) request.sellerId = view.sellerId;
  if (view.currency) request.currency = view.currency;
  if (view.from) request.from = view.from;
  if (view.to) request.to = view.to;
  if (view.search) request.query = view.search;
  return request;
}

/** "From" after "To": the server would find nothing, so the page says why instead. */
export const rangeProblem = (view: OfferFilters): string | null =>
  view.from && view.to && view.from > view.to ? 'The start date is after the end date.' : null;

export const hasFilters = (view: OfferFilters): boolean =>
  (Object.keys(noFilters) as (keyof OfferFilters)[]).some((key) => view[key] !== noFilters[key]);

// ── Saved views ──────────────────────────────────────────────────────────────────────────────────────

const FILTER_FIELDS = ['status', 'sellerId', 'currency', 'from', 'to'] as const;
type FilterField = (typeof FILTER_FIELDS)[number];
const PARAM_OF: Record<FilterField, string> = {
  status: 'status',
  sellerId: 'seller',
  currency: 'currency',
  from: 'from',
  to: 'to',
};

/** What a saved view records: the tab and the filters as conditions, the search and the page size. */
export function viewStateOf(view: OffersView): ViewState {
  const children: QueryCondition[] = [];
  for (const field of FILTER_FIELDS) {
    const value = view[field];
    if (value !== null) children.push({ field, op: 'equals', value });
  }
  return {
    query: { combinator: 'and', children },
    search: view.search,
    columns: [],
    sort: 'createdAt',
    order: 'desc',
    pageSize: view.size,
  };
}

function conditionValues(tree: QueryTree): Partial<Record<FilterField, string>> {
  const values: Partial<Record<FilterField, string>> = {};
  for (const node of tree.children) {
    if ('combinator' in node) continue;
    if ((FILTER_FIELDS as readonly string[]).includes(node.field) && typeof node.value === 'string')
      values[node.field as FilterField] = node.value;
  }
  return values;
}

/** The list when a saved view is loaded: its tab and filters from the first page. */
export function offersViewOf(state: ViewState, viewId: string | null): OffersView {
  const search = new URLSearchParams();
  for (const [field, value] of Object.entries(conditionValues(state.query)))
    search.set(PARAM_OF[field as FilterField], value);
  search.set('s', state.search);
  search.set('size', String(state.pageSize));
  return { ...parseOffersView(search.toString()), page: 1, viewId };
}
