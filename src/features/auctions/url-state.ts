// The auction list's view in the URL (src/ui/list-url-state.ts): the status tab, the filters (seller,
// currency, event), the search, the page and its size, and the saved view loaded.
import { type AuctionListQuery, type AuctionStatus, auctionStatuses } from '../../../contracts/auctions';
import { currencyParam, defineListView, idParam, type ListView } from '../../ui/list-url-state';

export const AUCTION_PAGE_SIZES = [20, 50, 100] as const;
export type AuctionPageSize = (typeof AUCTION_PAGE_SIZES)[number];

export interface AuctionFilters {
  sellerId: string | null;
  currency: string | null;
  /** The lots of one event (from "New event", or a lot's page). */
  eventId: string | null;
}

export type AuctionsView = ListView<AuctionFilters, AuctionStatus, AuctionPageSize>;

const auctionsList = defineListView<AuctionFilters, AuctionStatus, AuctionPageSize>({
  statuses: auctionStatuses,
  sizes: AUCTION_PAGE_SIZES,
  filters: {
    sellerId: { param: 'seller', parse: idParam, request: 'sellerId' },
    currency: { param: 'currency', parse: currencyParam, request: 'currency' },
    eventId: { param: 'event', parse: idParam, request: 'eventId' },
  },
  // The server lists the latest start first.
  sort: 'startsAt',
});

export type AuctionListRequest = Partial<AuctionListQuery> & Pick<AuctionListQuery, 'skip' | 'limit'>;

export const {
  noFilters,
  defaultView: defaultAuctionsView,
  parse: parseAuctionsView,
  toSearch: auctionsViewToSearch,
  hasFilters,
  viewStateOf,
  viewOf: auctionsViewOf,
} = auctionsList;
export const listRequestOf = (view: AuctionsView) => auctionsList.listRequestOf(view) as AuctionListRequest;
