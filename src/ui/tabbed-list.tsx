import { Box, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { SavedView, ViewList, ViewState } from '../../contracts/saved-views';
import { ListToolbar } from './list-toolbar';
import type { ListView, ListViewBase } from './list-url-state';
import { PagedList } from './paged-list';
import { StatusTabs } from './status-tabs';

type Empty = { title: string; description: string };

/** One page of a status-tabbed list, as the server answers it: rows, a bounded total, the tab counts. */
export interface TabbedPage<Status extends string> {
  result: unknown[];
  total: number;
  totalCapped: boolean;
  tabs: Record<Status, number>;
}

/**
 * A status-tabbed list page's body (the queries inbox, the offer requests): the tabs with their counts,
 * the search, saved views and page size, the page's filters, then the paged list with its states and
 * "N things" under it. The view lives in the URL (src/ui/list-url-state.ts); every change but paging
 * goes back to page 1. A date range the wrong way round shows its problem (in the filters) instead of
 * an empty list.
 */
export function TabbedList<Filters, Status extends string, Size extends number>({
  view,
  setView,
  query,
  tabs,
  search,
  views,
  sizes,
  filters,
  rangeError,
  filtered,
  empty,
  noun,
  totalTestId,
  pagerLabel,
  loadingLabel,
  tour,
  children,
}: {
  view: ListView<Filters, Status, Size>;
  setView: (patch: Partial<ListView<Filters, Status, Size>>, options?: { replace?: boolean }) => void;
  query: UseQueryResult<TabbedPage<Status>>;
  tabs: { label: string; statuses: readonly Status[]; labels: Record<Status, string>; tour: string };
  search: { label: string; placeholder: string; tour: string };
  views: {
    list: ViewList;
    state: ViewState;
    ofSaved: (saved: SavedView) => ListView<Filters, Status, Size>;
    canPublish: boolean;
    neutralLabel: string;
  };
  sizes: readonly Size[];
  filters: ReactNode;
  rangeError: string | null;
  /** A tab, a filter or a search narrows the list (the empty state says so). */
  filtered: boolean;
  empty: { filtered: Empty; none: Empty };
  /** "34 queries" */
  noun: (total: number) => string;
  totalTestId: string;
  pagerLabel: string;
  loadingLabel: string;
  /** The list's page-guide target. */
  tour: string;
  children: ReactNode;
}) {
  const total = query.data?.total ?? 0;
  // The shell changes only the tab, search, page, size and saved view; the filters are the page's.
  const go = setView as (patch: Partial<ListViewBase<Status, Size>>, options?: { replace?: boolean }) => void;
  return (
    <StatusTabs
      label={tabs.label}
      statuses={tabs.statuses}
      labels={tabs.labels}
      value={view.status}
      counts={query.data?.tabs}
      onChange={(status) => go({ status, page: 1 })}
      tour={tabs.tour}
    >
      <ListToolbar
        search={{
          value: view.search,
          onSearch: (text) => go({ search: text, page: 1 }, { replace: true }),
          label: search.label,
          placeholder: search.placeholder,
          'data-tour': search.tour,
        }}
        views={{
          list: views.list,
          current: views.state,
          viewId: view.viewId,
          onLoad: (saved) => setView(views.ofSaved(saved)),
          onUnload: () => go({ viewId: null }),
          canPublish: views.canPublish,
          neutralLabel: views.neutralLabel,
        }}
        sizes={sizes}
        size={view.size}
        onSize={(size) => go({ size, page: 1 })}
      />
      {filters}
      <Box data-tour={tour}>
        {rangeError ? null : (
          <PagedList
            query={query}
            empty={(query.data?.result.length ?? 0) === 0}
            loadingLabel={loadingLabel}
            emptyState={filtered ? empty.filtered : empty.none}
            page={view.page}
            size={view.size}
            total={total}
            onPage={(page) => go({ page })}
            pagerLabel={pagerLabel}
            summary={
              <Text fontSize="sm" color="fg.muted" data-testid={totalTestId}>
                {query.data?.totalCapped ? 'more than ' : ''}
                {noun(total)}
              </Text>
            }
          >
            {children}
          </PagedList>
        )}
      </Box>
    </StatusTabs>
  );
}
