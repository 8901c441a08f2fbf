import { Box, Button, HStack } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import { queryStatuses, queryStatusLabels } from '../../../contracts/domain/query-status';
import { QUERIES_ROUTE } from '../../../contracts/queries';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { RefreshButton } from '../../ui/list-controls';
import { PageHeader } from '../../ui/page-states';
import { TabbedList } from '../../ui/tabbed-list';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import { useQueryList } from './api';
import { useLiveQueries } from './live-refresh';
import { NewQueryDialog } from './NewQueryDialog';
import { QueryFilters } from './QueryFilters';
import { QueryTable, queryHref } from './QueryTable';
import {
  hasFilters,
  listRequestOf,
  parseQueriesView,
  QUERY_PAGE_SIZES,
  type QueriesView,
  queriesViewOf,
  queriesViewToSearch,
  rangeProblem,
  viewStateOf,
} from './url-state';

const queriesUrlView: SavedUrlView<QueriesView> = {
  route: QUERIES_ROUTE,
  list: 'queries',
  parse: parseQueriesView,
  toSearch: queriesViewToSearch,
  ofSaved: queriesViewOf,
};

/** Re-renders every half minute, so "due in 5 min" and "Overdue" read true while the page stays open. */
function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * Customer queries (issue 30): the inbox of every query the user may see, by status tab with the
 * maintained counts, filtered, searched and paged on the server (all in the URL, with saved views);
 * live: a new query's notification refreshes it. "New query" enters one by hand.
 */
export default function QueriesPage() {
  const { view, setView } = useSavedUrlView(queriesUrlView);
  const { can } = useRouteActions(QUERIES_ROUTE);
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? true;
  const [, navigate] = useLocation();
  const [adding, setAdding] = useState(false);
  const now = useNow();
  useLiveQueries();

  const rangeError = rangeProblem(view);
  const list = useQueryList(listRequestOf(view));

  return (
    <>
      <PageHeader
        title="Queries"
        description="Customers' questions from the enquiry form, help chats, calls and e-mail: answer them before their SLA runs out."
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            </Box>
            {can('edit') ? (
              <Button colorPalette="brand" onClick={() => setAdding(true)} data-tour="new-query">
                <Plus /> New query
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
          label: 'Query status',
          statuses: queryStatuses,
          labels: queryStatusLabels,
          tour: 'query-tabs',
        }}
        search={{
          label: 'Search queries',
          placeholder: 'Search by number, subject, customer or e-mail',
          tour: 'search',
        }}
        views={{
          list: 'queries',
          state: viewStateOf(view),
          ofSaved: (saved) => queriesViewOf(saved.state, saved.id),
          canPublish: can('publish'),
          neutralLabel: 'All queries',
        }}
        sizes={QUERY_PAGE_SIZES}
        filters={
          <QueryFilters
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
            title: 'No query matches',
            description: 'Choose another tab, clear a filter or the search.',
          },
          none: {
            title: 'No queries yet',
            description: 'Queries arrive from the enquiry form, help chats and calls, or add one by hand.',
          },
        }}
        noun={(total) => plural(total, 'query', 'queries')}
        totalTestId="query-total"
        pagerLabel="Query pages"
        loadingLabel="Loading queries"
        tour="query-list"
      >
        <QueryTable rows={list.data?.result ?? []} showSeller={!isSeller} now={now} />
      </TabbedList>

      {can('edit') ? (
        <NewQueryDialog
          open={adding}
          chooseSeller={!isSeller}
          onClose={() => setAdding(false)}
          onCreated={(id) => navigate(queryHref(id))}
        />
      ) : null}
    </>
  );
}
