// The offer list's view in the URL (src/ui/list-url-state.ts): the status tab, the filters (seller,
// currency, the requested range), the search, the page and its size, and the saved view loaded.
import { type OfferStatus, offerStatuses } from '../../../contracts/domain/offer-status';
import type { OfferListQuery } from '../../../contracts/offers';
import {
  currencyParam,
  dayRangeFilters,
  defineListView,
  idParam,
  type ListView,
} from '../../ui/list-url-state';

export { rangeProblem } from '../../ui/list-url-state';

export const OFFER_PAGE_SIZES = [20, 50, 100] as const;
export type OfferPageSize = (typeof OFFER_PAGE_SIZES)[number];

export interface OfferFilters {
  sellerId: string | null;
  currency: string | null;
  /** Created from / to these days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
}

export type OffersView = ListView<OfferFilters, OfferStatus, OfferPageSize>;

const offersList = defineListView<OfferFilters, OfferStatus, OfferPageSize>({
  statuses: offerStatuses,
  sizes: OFFER_PAGE_SIZES,
  filters: {
    sellerId: { param: 'seller', parse: idParam, request: 'sellerId' },
    currency: { param: 'currency', parse: currencyParam, request: 'currency' },
    ...dayRangeFilters,
  },
  sort: 'createdAt',
});

export type OfferListRequest = Partial<OfferListQuery> & Pick<OfferListQuery, 'skip' | 'limit'>;

export const {
  noFilters,
  defaultView: defaultOffersView,
  parse: parseOffersView,
  toSearch: offersViewToSearch,
  hasFilters,
  viewStateOf,
  viewOf: offersViewOf,
} = offersList;
export const listRequestOf = (view: OffersView) => offersList.listRequestOf(view) as OfferListRequest;
