// A status-tabbed list whose view lives in the URL (the queries inbox, the offer requests): the status
// tab, its filters, the search, the page and its size, and the saved view loaded. A list declares its
// filters once (URL parameter, parser, request field) and gets the parser, the URL writer, the list
// request and the saved-view mapping. Reading is forgiving: anything unknown or invalid falls back to
// the default, so a shared or old link always opens. A saved view stores the tab and each filter as an
// `equals` condition of the saved-views query tree (a flag as '1'), so the views menu works as it does
// for the query-builder lists.
import { isUuid } from '../../contracts/domain/ids';
import type { QueryCondition } from '../../contracts/query-tree';
import type { ViewState } from '../../contracts/saved-views';

type FilterValue = string | boolean | null;

/** One filter: its URL parameter, how a raw parameter reads (null when absent), its request field. */
export interface FilterSpec<Value extends FilterValue> {
  param: string;
  parse: (raw: string | null) => Value;
  request: string;
}

export type FilterSpecs<Filters> = { [Key in keyof Filters]: FilterSpec<Filters[Key] & FilterValue> };

/** What every tabbed list's view has besides its filters. */
export interface ListViewBase<Status extends string, Size extends number> {
  /** The status tab; null: every status. */
  status: Status | null;
  search: string;
  /** 1-based. */
  page: number;
  size: Size;
  viewId: string | null;
}

export type ListView<Filters, Status extends string, Size extends number> = Filters &
  ListViewBase<Status, Size>;

// ── Parsers for the usual filters ────────────────────────────────────────────────────────────────────

export const oneOf = <T extends string | number>(allowed: readonly T[], value: unknown): T | null =>
  allowed.includes(value as T) ? (value as T) : null;
export const idParam = (value: string | null) => (value && isUuid(value) ? value : null);
/** A day, YYYY-MM-DD. */
export const dayParam = (value: string | null) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
export const currencyParam = (value: string | null) => {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{3}$/.test(code) ? code : null;
};
export const flagParam = (value: string | null) => value === '1';
export const enumParam =
  <T extends string>(allowed: readonly T[]) =>
  (value: string | null) =>
    oneOf(allowed, value);

/** The created-between filters every list has. */
export const dayRangeFilters = {
  from: { param: 'from', parse: dayParam, request: 'from' },
  to: { param: 'to', parse: dayParam, request: 'to' },
} as const;

/** "From" after "To": the server would find nothing, so the page says why instead. */
export const rangeProblem = (view: { from: string | null; to: string | null }): string | null =>
  view.from && view.to && view.from > view.to ? 'The start date is after the end date.' : null;

export function defineListView<
  Filters extends { [Key in keyof Filters]: FilterValue },
  Status extends string,
  Size extends number,
>(spec: {
  statuses: readonly Status[];
  sizes: readonly Size[];
  filters: FilterSpecs<Filters>;
  /** The order the list shows, as a saved view records it. */
  sort: string;
}) {
  type View = ListView<Filters, Status, Size>;
  const keys = Object.keys(spec.filters) as (keyof Filters & string)[];
  const filtersOf = (raw: (param: string) => string | null) =>
    Object.fromEntries(
      keys.map((key) => [key, spec.filters[key].parse(raw(spec.filters[key].param))]),
    ) as unknown as Filters;
  const noFilters = filtersOf(() => null);
  const defaultView = {
    ...noFilters,
    status: null,
    search: '',
    page: 1,
    size: spec.sizes[0],
    viewId: null,
  } as View;
  /** The saved-view field of each URL parameter: the tab, then the filters. */
  const paramOf: Record<string, string> = { status: 'status' };
  for (const key of keys) paramOf[key] = spec.filters[key].param;

  function parse(search: string): View {
    const params = new URLSearchParams(search);
    const page = Number(params.get('page'));
    return {
      ...filtersOf((param) => params.get(param)),
      status: oneOf(spec.statuses, params.get('status')),
      search: (params.get('s') ?? '').trim().slice(0, 200),
      page: Number.isInteger(page) && page >= 1 && page <= 50_000 ? page : 1,
      size: oneOf(spec.sizes, Number(params.get('size'))) ?? defaultView.size,
      viewId: idParam(params.get('view')),
    } as View;
  }

  const paramValue = (value: FilterValue) => (value === true ? '1' : value || null);

  /** `?…` with only what differs from the default (empty string when nothing does). */
  function toSearch(view: View): string {
    const params = new URLSearchParams();
    if (view.status) params.set('status', view.status);
    for (const key of keys) {
      const value = paramValue(view[key] as FilterValue);
      if (value) params.set(spec.filters[key].param, value);
    }
    if (view.search) params.set('s', view.search);
    if (view.page !== 1) params.set('page', String(view.page));
    if (view.size !== defaultView.size) params.set('size', String(view.size));
    if (view.viewId) params.set('view', view.viewId);
    const text = params.toString();
    return text ? `?${text}` : '';
  }

  /** The server's list request: the page, the tab, each filter set, and the text as `query`. */
  function listRequestOf(
    view: View,
  ): Record<string, string | number | boolean> & { skip: number; limit: number } {
    const request: Record<string, string | number | boolean> & { skip: number; limit: number } = {
      skip: (view.page - 1) * view.size,
      limit: view.size,
    };
    if (view.status) request.status = view.status;
    for (const key of keys) {
      const value = view[key] as FilterValue;
      if (value !== null && value !== false) request[spec.filters[key].request] = value;
    }
    if (view.search) request.query = view.search;
    return request;
  }

  const hasFilters = (view: Filters): boolean => keys.some((key) => view[key] !== noFilters[key]);

  /** What a saved view records: the tab and the filters as conditions, the search and the page size. */
  function viewStateOf(view: View): ViewState {
    const children: QueryCondition[] = [];
    for (const field of ['status', ...keys] as const) {
      const value = paramValue(view[field as keyof View] as FilterValue);
      if (value) children.push({ field, op: 'equals', value });
    }
    return {
      query: { combinator: 'and', children },
      search: view.search,
      columns: [],
      sort: spec.sort,
      order: 'desc',
      pageSize: view.size,
    };
  }

  /** The list when a saved view is loaded: its tab and filters from the first page. */
  function viewOf(state: ViewState, viewId: string | null): View {
    const search = new URLSearchParams();
    for (const node of state.query.children) {
      if ('combinator' in node) continue;
      const param = paramOf[node.field];
      if (param && typeof node.value === 'string') search.set(param, node.value);
    }
    search.set('s', state.search);
    search.set('size', String(state.pageSize));
    return { ...parse(search.toString()), page: 1, viewId };
  }

  return { noFilters, defaultView, parse, toSearch, listRequestOf, hasFilters, viewStateOf, viewOf };
}
