// The inbox's view in the URL (src/ui/list-url-state.ts): the status tab, every filter, the search, the
// page and its size, and the saved view loaded.
import {
  type QueryChannel,
  type QueryPriority,
  type QueryStatus,
  queryChannels,
  queryPriorities,
  queryStatuses,
} from '../../../contracts/domain/query-status';
import {
  dayRangeFilters,
  defineListView,
  enumParam,
  flagParam,
  idParam,
  type ListView,
} from '../../ui/list-url-state';
import type { QueryListRequest } from './api';

export { rangeProblem } from '../../ui/list-url-state';

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

export type QueriesView = ListView<QueryFilters, QueryStatus, QueryPageSize>;

const assigneeParam = (value: string | null) => (value === 'me' || value === 'none' ? value : idParam(value));

const queriesList = defineListView<QueryFilters, QueryStatus, QueryPageSize>({
  statuses: queryStatuses,
  sizes: QUERY_PAGE_SIZES,
  filters: {
    sellerId: { param: 'seller', parse: idParam, request: 'sellerId' },
    assignee: { param: 'assignee', parse: assigneeParam, request: 'assigneeId' },
    channel: { param: 'channel', parse: enumParam(queryChannels), request: 'channel' },
    priority: { param: 'priority', parse: enumParam(queryPriorities), request: 'priority' },
    overdue: { param: 'overdue', parse: flagParam, request: 'overdue' },
    slaBreached: { param: 'breached', parse: flagParam, request: 'slaBreached' },
    ...dayRangeFilters,
  },
  sort: 'lastActivityAt',
});

export const {
  noFilters,
  defaultView: defaultQueriesView,
  parse: parseQueriesView,
  toSearch: queriesViewToSearch,
  hasFilters,
  viewStateOf,
  viewOf: queriesViewOf,
} = queriesList;
/** The list request of a view: the search route is used only when there is text to search. */
export const listRequestOf = (view: QueriesView) => queriesList.listRequestOf(view) as QueryListRequest;
