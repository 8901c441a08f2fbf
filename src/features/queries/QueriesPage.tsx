import { Badge, Box, Button, Flex, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import { type QueryStatus, queryStatuses, queryStatusLabels } from '../../../contracts/domain/query-status';
import { QUERIES_ROUTE, type QueryTabs } from '../../../contracts/queries';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { PageSizeSelect, RefreshButton } from '../../ui/list-controls';
import { EmptyListState, ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { SavedViewsMenu } from '../../ui/saved-views';
import { SearchBox } from '../../ui/search-box';
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

const ALL = 'all';
const tabTotal = (tabs: QueryTabs) => queryStatuses.reduce((sum, status) => sum + tabs[status], 0);

/**
 * The status tabs with the counts the server maintains (every query the user may see, per status). The
 * list below is the selected tab's panel; the other panels stay empty (the list is one server query).
 */
function StatusTabs({
  value,
  tabs,
  onChange,
  children,
}: {
  value: QueryStatus | null;
  tabs: QueryTabs | undefined;
  onChange: (status: QueryStatus | null) => void;
  children: ReactNode;
}) {
  const count = (n: number | undefined) =>
    n === undefined ? null : (
      <Badge variant="subtle" size="sm" ms="1">
        {n}
      </Badge>
    );
  const current = value ?? ALL;
  return (
    <Tabs.Root
      value={current}
      onValueChange={(details) => onChange(details.value === ALL ? null : (details.value as QueryStatus))}
      colorPalette="brand"
    >
      <Tabs.List aria-label="Query status" flexWrap="wrap" mb="3" data-tour="query-tabs">
        <Tabs.Trigger value={ALL}>All {count(tabs ? tabTotal(tabs) : undefined)}</Tabs.Trigger>
        {queryStatuses.map((status) => (
          <Tabs.Trigger key={status} value={status}>
            {queryStatusLabels[status]} {count(tabs?.[status])}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {[ALL, ...queryStatuses].map((tab) => (
        <Tabs.Content key={tab} value={tab} pt="0">
          {tab === current ? children : null}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

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
  const rows = list.data?.result ?? [];
  const total = list.data?.total ?? 0;
  const filtered = hasFilters(view) || view.search !== '' || view.status !== null;

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

      <StatusTabs
        value={view.status}
        tabs={list.data?.tabs}
        onChange={(status) => setView({ status, page: 1 })}
      >
        <Flex gap="3" mb="3" wrap="wrap" align="center">
          <SearchBox
            value={view.search}
            onSearch={(text) => setView({ search: text, page: 1 }, { replace: true })}
            label="Search queries"
            placeholder="Search by number, subject, customer or e-mail"
            maxW="96"
            data-tour="search"
          />
          <Box data-tour="saved-views">
            <SavedViewsMenu
              list="queries"
              current={viewStateOf(view)}
              viewId={view.viewId}
              onLoad={(saved) => setView(queriesViewOf(saved.state, saved.id))}
              onUnload={() => setView({ viewId: null })}
              canPublish={can('publish')}
              neutralLabel="All queries"
            />
          </Box>
          <HStack gap="2" ms="auto">
            <PageSizeSelect
              sizes={QUERY_PAGE_SIZES}
              value={view.size}
              width="24"
              onChange={(size) => setView({ size, page: 1 })}
            />
          </HStack>
        </Flex>

        <QueryFilters
          view={view}
          showSeller={!isSeller}
          rangeError={rangeError}
          onChange={(patch) => setView({ ...patch, page: 1 })}
        />

        <Box data-tour="query-list">
          {rangeError ? null : list.isError ? (
            <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
          ) : list.isPending ? (
            <LoadingState label="Loading queries" />
          ) : rows.length === 0 ? (
            <EmptyListState
              title={filtered ? 'No query matches' : 'No queries yet'}
              description={
                filtered
                  ? 'Choose another tab, clear a filter or the search.'
                  : 'Queries arrive from the enquiry form, help chats and calls, or add one by hand.'
              }
              pastTheEnd={view.page > 1}
              onFirstPage={() => setView({ page: 1 })}
            />
          ) : (
            <Stack gap="0" opacity={list.isPlaceholderData ? 0.6 : 1} aria-busy={list.isFetching}>
              <QueryTable rows={rows} showSeller={!isSeller} now={now} />
              <HStack justify="space-between" wrap="wrap">
                <Text fontSize="sm" color="fg.muted" data-testid="query-total">
                  {list.data?.totalCapped ? 'more than ' : ''}
                  {plural(total, 'query', 'queries')}
                </Text>
                <Pager
                  skip={(view.page - 1) * view.size}
                  limit={view.size}
                  count={total}
                  onSkipChange={(skip) => setView({ page: Math.floor(skip / view.size) + 1 })}
                  label="Query pages"
                />
              </HStack>
            </Stack>
          )}
        </Box>
      </StatusTabs>

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
