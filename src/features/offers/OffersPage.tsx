import { Badge, Box, Button, Flex, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import { type OfferStatus, offerStatuses, offerStatusLabels } from '../../../contracts/domain/offer-status';
import { OFFERS_ROUTE, type OfferTabs } from '../../../contracts/offers';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { PageSizeSelect, RefreshButton } from '../../ui/list-controls';
import { EmptyListState, ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { SavedViewsMenu } from '../../ui/saved-views';
import { SearchBox } from '../../ui/search-box';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import { useOfferList } from './api';
import { NewOfferDialog } from './NewOfferDialog';
import { OfferFilters } from './OfferFilters';
import { OfferTable, offerHref } from './OfferTable';
import {
  hasFilters,
  listRequestOf,
  OFFER_PAGE_SIZES,
  type OffersView,
  offersViewOf,
  offersViewToSearch,
  parseOffersView,
  rangeProblem,
  viewStateOf,
} from './url-state';

const offersUrlView: SavedUrlView<OffersView> = {
  route: OFFERS_ROUTE,
  list: 'offers',
  parse: parseOffersView,
  toSearch: offersViewToSearch,
  ofSaved: offersViewOf,
};

const ALL = 'all';
const tabTotal = (tabs: OfferTabs) => offerStatuses.reduce((sum, status) => sum + tabs[status], 0);

/**
 * The status tabs with the counts the server maintains (every offer the user may see, per status); the
 * selected tab's panel holds the list, so each tab controls a panel that exists.
 */
function StatusTabs({
  value,
  tabs,
  onChange,
  children,
}: {
  value: OfferStatus | null;
  tabs: OfferTabs | undefined;
  onChange: (status: OfferStatus | null) => void;
  children: React.ReactNode;
}) {
  const count = (n: number | undefined) =>
    n === undefined ? null : (
      <Badge variant="subtle" size="sm" ms="1">
        {n}
      </Badge>
    );
  return (
    <Tabs.Root
      value={value ?? ALL}
      onValueChange={(details) => onChange(details.value === ALL ? null : (details.value as OfferStatus))}
      colorPalette="brand"
    >
      <Tabs.List aria-label="Offer status" flexWrap="wrap" data-tour="offer-tabs">
        <Tabs.Trigger value={ALL}>All {count(tabs ? tabTotal(tabs) : undefined)}</Tabs.Trigger>
        {offerStatuses.map((status) => (
          <Tabs.Trigger key={status} value={status}>
            {offerStatusLabels[status]} {count(tabs?.[status])}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={value ?? ALL} pt="3">
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}

/**
 * Offer requests (issue 30): every request and offer the user may see, by status tab with the
 * maintained counts, filtered, searched and paged on the server (all in the URL, with saved views).
 * "New offer request" records one on a customer's behalf.
 */
export default function OffersPage() {
  const { view, setView } = useSavedUrlView(offersUrlView);
  const { can } = useRouteActions(OFFERS_ROUTE);
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? true;
  const [, navigate] = useLocation();
  const [adding, setAdding] = useState(false);

  const rangeError = rangeProblem(view);
  const list = useOfferList(listRequestOf(view));
  const rows = list.data?.result ?? [];
  const total = list.data?.total ?? 0;
  const filtered = hasFilters(view) || view.search !== '' || view.status !== null;

  return (
    <>
      <PageHeader
        title="Offer requests"
        description="Customers ask for offers; answer with priced versions they accept or decline through a signed link."
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            </Box>
            {can('edit') ? (
              <Button colorPalette="brand" onClick={() => setAdding(true)} data-tour="new-offer">
                <Plus /> New offer request
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
            label="Search offer requests"
            placeholder="Search by OFR number, customer, e-mail or message"
            maxW="96"
            data-tour="search"
          />
          <Box data-tour="saved-views">
            <SavedViewsMenu
              list="offers"
              current={viewStateOf(view)}
              viewId={view.viewId}
              onLoad={(saved) => setView(offersViewOf(saved.state, saved.id))}
              onUnload={() => setView({ viewId: null })}
              canPublish={can('publish')}
              neutralLabel="All offer requests"
            />
          </Box>
          <HStack gap="2" ms="auto">
            <PageSizeSelect
              sizes={OFFER_PAGE_SIZES}
              value={view.size}
              width="24"
              onChange={(size) => setView({ size, page: 1 })}
            />
          </HStack>
        </Flex>

        <OfferFilters
          view={view}
          showSeller={!isSeller}
          rangeError={rangeError}
          onChange={(patch) => setView({ ...patch, page: 1 })}
        />

        <Box data-tour="offer-list">
          {rangeError ? null : list.isError ? (
            <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
          ) : list.isPending ? (
            <LoadingState label="Loading offer requests" />
          ) : rows.length === 0 ? (
            <EmptyListState
              title={filtered ? 'No offer matches' : 'No offer requests yet'}
              description={
                filtered
                  ? 'Choose another tab, clear a filter or the search.'
                  : 'Requests arrive from the enquiry form ("Ask for an offer"), or record one for a customer.'
              }
              pastTheEnd={view.page > 1}
              onFirstPage={() => setView({ page: 1 })}
            />
          ) : (
            <Stack gap="0" opacity={list.isPlaceholderData ? 0.6 : 1} aria-busy={list.isFetching}>
              <OfferTable rows={rows} showSeller={!isSeller} />
              <HStack justify="space-between" wrap="wrap">
                <Text fontSize="sm" color="fg.muted" data-testid="offer-total-count">
                  {list.data?.totalCapped ? 'more than ' : ''}
                  {plural(total, 'offer request')}
                </Text>
                <Pager
                  skip={(view.page - 1) * view.size}
                  limit={view.size}
                  count={total}
                  onSkipChange={(skip) => setView({ page: Math.floor(skip / view.size) + 1 })}
                  label="Offer request pages"
                />
              </HStack>
            </Stack>
          )}
        </Box>
      </StatusTabs>

      {can('edit') ? (
        <NewOfferDialog
          open={adding}
          chooseSeller={!isSeller}
          onClose={() => setAdding(false)}
          onCreated={(id) => navigate(offerHref(id))}
        />
      ) : null}
    </>
  );
}
