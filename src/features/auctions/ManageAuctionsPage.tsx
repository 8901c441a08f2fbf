import { Badge, Box, Button, HStack, Link, Table, Text } from '@chakra-ui/react';
import { CalendarRange, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import {
  AUCTION_OUTCOME_LABELS,
  AUCTION_STATUS_LABELS,
  AUCTIONS_ROUTE,
  type AuctionListItem,
  type AuctionOutcome,
  type AuctionStatus,
  auctionPageLink,
  auctionStatuses,
} from '../../../contracts/auctions';
import { formatMinor } from '../../../contracts/domain/currency';
import { formatDateTime, plural } from '../../../contracts/domain/format';
import { type StatusPalette, statusColor } from '../../lib/status-color';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { CurrencyFilter, FilterBar, SellerFilter } from '../../ui/filter-bar';
import { RefreshButton } from '../../ui/list-controls';
import { PageHeader } from '../../ui/page-states';
import { TabbedList } from '../../ui/tabbed-list';
import { TableScroll } from '../../ui/table-scroll';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import { AuctionEventDialog } from './AuctionEventDialog';
import { AuctionFormDialog } from './AuctionFormDialog';
import { useAuctionEvent, useAuctionList } from './api';
import {
  AUCTION_PAGE_SIZES,
  type AuctionFilters,
  type AuctionsView,
  auctionsViewOf,
  auctionsViewToSearch,
  hasFilters,
  listRequestOf,
  noFilters,
  parseAuctionsView,
  viewStateOf,
} from './url-state';

const auctionsUrlView: SavedUrlView<AuctionsView> = {
  route: AUCTIONS_ROUTE,
  list: 'auctions',
  parse: parseAuctionsView,
  toSearch: auctionsViewToSearch,
  ofSaved: auctionsViewOf,
};

/**
 * A status's colour by the words of src/lib/status-color.ts (SPEC §9: draft blue, scheduled yellow,
 * live green, cancelled red); an ended auction is done: sold as completed, unsold in grey.
 */
export function auctionStatusPalette(status: AuctionStatus, outcome: AuctionOutcome | null): StatusPalette {
  if (status === 'ended') return statusColor(outcome === 'sold' ? 'completed' : 'ended');
  return statusColor(AUCTION_STATUS_LABELS[status]);
}

/** "Live", "Ended · Sold": the words say it, the colour only repeats them. */
export const auctionStatusText = (status: AuctionStatus, outcome: AuctionOutcome | null) =>
  status === 'ended' && outcome
    ? `${AUCTION_STATUS_LABELS.ended} · ${AUCTION_OUTCOME_LABELS[outcome]}`
    : AUCTION_STATUS_LABELS[status];

export function AuctionStatusBadge({
  status,
  outcome,
}: {
  status: AuctionStatus;
  outcome: AuctionOutcome | null;
}) {
  return (
    <Badge colorPalette={auctionStatusPalette(status, outcome)} variant="subtle">
      {auctionStatusText(status, outcome)}
    </Badge>
  );
}

/** Seller (admins and staff) and currency; every change goes to the URL, back to page 1. */
function AuctionFiltersBar({
  view,
  showSeller,
  onChange,
}: {
  view: AuctionFilters;
  showSeller: boolean;
  onChange: (patch: Partial<AuctionFilters>) => void;
}) {
  return (
    <FilterBar
      label="Filter auctions"
      tour="auction-filters"
      active={hasFilters(view)}
      onClear={() => onChange(noFilters)}
    >
      {view.eventId ? (
        <EventFilter eventId={view.eventId} onClear={() => onChange({ eventId: null })} />
      ) : null}
      {showSeller ? (
        <SellerFilter
          id="auction-filter-seller"
          value={view.sellerId}
          onChange={(sellerId) => onChange({ sellerId })}
        />
      ) : null}
      <CurrencyFilter
        id="auction-filter-currency"
        value={view.currency}
        onChange={(currency) => onChange({ currency })}
      />
    </FilterBar>
  );
}

/** "Lots of “Winter sale” · 5 lots, ending 1 minute apart", with a way back to every auction. */
function EventFilter({ eventId, onClear }: { eventId: string; onClear: () => void }) {
  const event = useAuctionEvent(eventId);
  const minutes = event.data ? Math.round((event.data.gapSeconds / 60) * 100) / 100 : null;
  return (
    <HStack gap="2" wrap="wrap" data-testid="auction-event-filter">
      <Text fontSize="sm">
        {event.data
          ? `Lots of “${event.data.title}” · ${plural(event.data.lots.length, 'lot')}, ending ${plural(minutes ?? 0, 'minute')} apart`
          : event.isError
            ? 'The lots of an event that is not there.'
            : 'The lots of one event'}
      </Text>
      <Button size="xs" variant="outline" onClick={onClear}>
        Show every auction
      </Button>
    </HStack>
  );
}

const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** The list's rows: the title opens the auction's page. */
function AuctionTable({ rows, showSeller }: { rows: AuctionListItem[]; showSeller: boolean }) {
  return (
    <TableScroll label="Auctions">
      <Table.Root size="sm" aria-label="Auctions" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Number</Table.ColumnHeader>
            <Table.ColumnHeader>Title</Table.ColumnHeader>
            <Table.ColumnHeader>Product</Table.ColumnHeader>
            {showSeller ? <Table.ColumnHeader>Seller</Table.ColumnHeader> : null}
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Current price</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Bids</Table.ColumnHeader>
            <Table.ColumnHeader>Starts</Table.ColumnHeader>
            <Table.ColumnHeader>Ends</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell whiteSpace="nowrap">#{row.number}</Table.Cell>
              <Table.Cell>
                <Link asChild fontWeight="medium">
                  <RouterLink href={auctionPageLink(row.id)}>{row.title}</RouterLink>
                </Link>
              </Table.Cell>
              <Table.Cell>
                <Text truncate maxW="48" title={row.productName ?? undefined}>
                  {row.productName ?? '—'}
                  {row.quantity > 1 ? ` × ${row.quantity}` : ''}
                </Text>
              </Table.Cell>
              {showSeller ? (
                <Table.Cell>
                  <Text truncate maxW="40" title={row.sellerName ?? undefined}>
                    {row.sellerName ?? '—'}
                  </Text>
                </Table.Cell>
              ) : null}
              <Table.Cell>
                <AuctionStatusBadge status={row.status} outcome={row.outcome} />
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {row.priceMinor === null ? '—' : formatMinor(row.priceMinor, row.currency)}
              </Table.Cell>
              <Table.Cell textAlign="end">{row.bids}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{time(row.startsAt)}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{time(row.effectiveEndAt)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}

/**
 * Manage Auctions (issue 32): every auction the user may see, by status tab with the maintained
 * counts, filtered, searched and paged on the server (all in the URL, with saved views). "New auction"
 * creates one as a draft or published to start at its time; "New event" creates several lots whose ends
 * are staggered, then lists them; the title opens the auction's page.
 */
export default function ManageAuctionsPage() {
  const { view, setView } = useSavedUrlView(auctionsUrlView);
  const { can } = useRouteActions(AUCTIONS_ROUTE);
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? true;
  const [, navigate] = useLocation();
  const [adding, setAdding] = useState<'auction' | 'event' | null>(null);
  const list = useAuctionList(listRequestOf(view));

  return (
    <>
      <PageHeader
        title="Manage Auctions"
        description="Live auctions of a seller's product: drafts, scheduled and live ones, and how each ended."
        actions={
          <HStack gap="2" wrap="wrap">
            <Box data-tour="refresh">
              <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            </Box>
            {can('create') ? (
              <>
                <Button variant="outline" colorPalette="brand" onClick={() => setAdding('event')}>
                  <CalendarRange /> New event
                </Button>
                <Button colorPalette="brand" onClick={() => setAdding('auction')} data-tour="new-auction">
                  <Plus /> New auction
                </Button>
              </>
            ) : null}
          </HStack>
        }
      />
      <TabbedList
        view={view}
        setView={setView}
        query={list}
        tabs={{
          label: 'Auction status',
          statuses: auctionStatuses,
          labels: AUCTION_STATUS_LABELS,
          tour: 'auction-tabs',
        }}
        search={{
          label: 'Search auctions',
          placeholder: 'Search by title, product or number',
          tour: 'search',
        }}
        views={{
          list: 'auctions',
          state: viewStateOf(view),
          ofSaved: (saved) => auctionsViewOf(saved.state, saved.id),
          canPublish: can('publish'),
          neutralLabel: 'All auctions',
        }}
        sizes={AUCTION_PAGE_SIZES}
        filters={
          <AuctionFiltersBar
            view={view}
            showSeller={!isSeller}
            onChange={(patch) => setView({ ...patch, page: 1 })}
          />
        }
        rangeError={null}
        filtered={hasFilters(view) || view.search !== '' || view.status !== null}
        empty={{
          filtered: {
            title: 'No auction matches',
            description: 'Choose another tab, clear a filter or the search.',
          },
          none: {
            title: 'No auctions yet',
            description: 'Create one from a product: save it as a draft, or publish it to start at its time.',
          },
        }}
        noun={(total) => plural(total, 'auction')}
        totalTestId="auction-total-count"
        pagerLabel="Auction pages"
        loadingLabel="Loading auctions"
        tour="auction-list"
      >
        <AuctionTable rows={list.data?.result ?? []} showSeller={!isSeller} />
      </TabbedList>

      {can('create') ? (
        <>
          <AuctionFormDialog
            open={adding === 'auction'}
            onClose={() => setAdding(null)}
            onSaved={(detail) => navigate(auctionPageLink(detail.id))}
          />
          <AuctionEventDialog
            open={adding === 'event'}
            onClose={() => setAdding(null)}
            onSaved={(event) =>
              setView({ ...noFilters, eventId: event.id, status: null, search: '', page: 1 })
            }
          />
        </>
      ) : null}
    </>
  );
}
