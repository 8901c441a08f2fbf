import { Box, Button, HStack } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { plural } from '../../../contracts/domain/format';
import { offerStatuses, offerStatusLabels } from '../../../contracts/domain/offer-status';
import { OFFERS_ROUTE } from '../../../contracts/offers';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { RefreshButton } from '../../ui/list-controls';
import { PageHeader } from '../../ui/page-states';
import { TabbedList } from '../../ui/tabbed-list';
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

      <TabbedList
        view={view}
        setView={setView}
        query={list}
        tabs={{
          label: 'Offer status',
          statuses: offerStatuses,
          labels: offerStatusLabels,
          tour: 'offer-tabs',
        }}
        search={{
          label: 'Search offer requests',
          placeholder: 'Search by OFR number, customer, e-mail or message',
          tour: 'search',
        }}
        views={{
          list: 'offers',
          state: viewStateOf(view),
          ofSaved: (saved) => offersViewOf(saved.state, saved.id),
          canPublish: can('publish'),
          neutralLabel: 'All offer requests',
        }}
        sizes={OFFER_PAGE_SIZES}
        filters={
          <OfferFilters
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
            title: 'No offer matches',
            description: 'Choose another tab, clear a filter or the search.',
          },
          none: {
            title: 'No offer requests yet',
            description:
              'Requests arrive from the enquiry form ("Ask for an offer"), or record one for a customer.',
          },
        }}
        noun={(total) => plural(total, 'offer request')}
        totalTestId="offer-total-count"
        pagerLabel="Offer request pages"
        loadingLabel="Loading offer requests"
        tour="offer-list"
      >
        <OfferTable rows={list.data?.result ?? []} showSeller={!isSeller} />
      </TabbedList>

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
