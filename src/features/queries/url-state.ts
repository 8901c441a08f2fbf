// The inbox's view lives in the URL: the status tab, every filter, the search, the page and its size,
// and the saved view loaded. Reading is forgiving: anything unknown or invalid falls back to the
// default, so a shared or old link always opens. A saved view stores the filters as conditions of the
// saved-views query tree (one `equals` per filter), so the views menu works as it does for contacts.
import { isUuid } from '../../../contracts/domain/ids';
import {
  type QueryChannel,
  type QueryPriority,
  type QueryStatus,
  queryChannels,
  queryPriorities,
  queryStatuses,
} from '../../../contracts/domain/query-status';
import type { QueryCondition, QueryTree } from '../../../contracts/query-tree';
import type { ViewState } from '../../../contracts/saved-views';
import type { QueryListRequest } from './api';

export const QUERY_PAGE_SIZES = [20, 50, 100] as const;
export type QueryPageSize = (typeof QUERY_PAGE_SIZES)[number];

export interface QueryFilters {
  sellerId: string | null;
  /** 'me', 'none' (unassigned) or a person's id. */
  assignee: string | null;
  channel: QueryChannel | null;
  priority: QueryPriority | null;
  overdue: boolean;
  slaBreached: boolean;
  /** Created from / to these days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
}

export interface QueriesView extends QueryFilters {
  /** The status tab; null: every status. */
  status: QueryStatus | null;
  search: string;
  /** 1-based. */
  page: number;
  size: QueryPageSize;
  viewId: string | null;
}

export const noFilters: QueryFilters = {
  sellerId: null,
  assignee: null,
  channel: null,
  priority: null,
  overdue: false,
  slaBreached: false,
  from: null,
  to: null,
};

export const defaultQueriesView: QueriesView = {
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
const assigneeOf = (value: string | null | undefined) =>
  value === 'me' || value === 'none' ? value : idOf(value);
const dayOf = (value: string | null | undefined) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;

export function parseQueriesView(search: string): QueriesView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    status: oneOf(queryStatuses, params.get('status')),
    sellerId: idOf(params.get('seller')),
    assignee: assigneeOf(params.get('assignee')),
    channel: oneOf(queryChannels, params.get('channel')),
    priority: oneOf(queryPriorities, params.get('priority')),
    overdue: params.get('overdue') === '1',
    slaBreached: params.get('breached') === '1',
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
    search: (params.get('s') ?? '').trim().slice(0, 200),
    page: Number.isInteger(page) && page >= 1 && page <= 50_000 ? page : 1,
    size: oneOf(QUERY_PAGE_SIZES, Number(params.get('size'))) ?? defaultQueriesView.size,
    viewId: idOf(params.get('view')),
  };
}

/** `?…` with only what differs from the default (empty string when nothing does). */
export function queriesViewToSearch(view: QueriesView): string {
  const params = new URLSearchParams();
  if (view.status) params.set('status', view.status);
  if (view.sellerId) params.set('seller', view.sellerId);
  if (view.assignee) params.set('assignee', view.assignee);
  if (view.channel) params.set('channel', view.channel);
  if (view.priority) params.set('priority', view.priority);
  if (view.overdue) params.set('overdue', '1');
  if (view.slaBreached) params.set('breached', '1');
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.search) params.set('s', view.search);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== defaultQueriesView.size) params.set('size', String(view.size));
  if (view.viewId) params.set('view', view.viewId);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The list request of a view: the search route is used only when there is text to search. */
export function listRequestOf(view: QueriesView): QueryListRequest {
  const request: QueryListRequest = { skip: (view.page - 1) * view.size, limit: view.size };
  if (view.status) request.status = view.status;
  if (view.sellerId) request.sellerId = view.sellerId;
  if (view.assignee) request.assigneeId = view.assignee;
  if (view.channel) request.channel = view.channel;
  if (view.priority) request.priority = view.priority;
  if (view.overdue) request.overdue = true;
  if (view.slaBreached) request.slaBreached = true;
  if (view.from) request.from = view.from;
  if (view.to) request.to = view.to;
  if (view.search) request.query = view.search;
  return request;
}

/** "From" after "To": the server would find nothing, so the page says why instead. */
export const rangeProblem = (view: QueryFilters): string | null =>
  view.from && view.to && view.from > view.to ? 'The start date is after the end date.' : null;

export const hasFilters = (view: QueryFilters): boolean =>
  (Object.keys(noFilters) as (keyof QueryFilters)[]).some((key) => view[key] !== noFilters[key]);

// ── Saved views ──────────────────────────────────────────────────────────────────────────────────────

const FILTER_FIELDS = ['status', ...(Object.keys(noFilters) as (keyof QueryFilters)[])] as const;
type FilterField = (typeof FILTER_FIELDS)[number];

/** What a saved view records: the tab and the filters as conditions, the search and the page size. */
export function viewStateOf(view: QueriesView): ViewState {
  const children: QueryCondition[] = [];
  for (const field of FILTER_FIELDS) {
    const value = view[field];
    if (value === null || value === false) continue;
    children.push({ field, op: 'equals', value: value === true ? '1' : value });
  }
  return {
    query: { combinator: 'and', children },
    search: view.search,
    columns: [],
    sort: 'lastActivityAt',
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

/** The inbox when a saved view is loaded: its tab and filters from the first page. */
export function queriesViewOf(state: ViewState, viewId: string | null): QueriesView {
  const values = conditionValues(state.query);
  const search = new URLSearchParams();
  const names: Partial<Record<FilterField, string>> = { sellerId: 'seller', slaBreached: 'breached' };
  for (const [field, value] of Object.entries(values))
    search.set(names[field as FilterField] ?? field, value);
  search.set('s', state.search);
  search.set('size', String(state.pageSize));
  return { ...parseQueriesView(search.toString()), page: 1, viewId };
}
