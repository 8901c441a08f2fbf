// One auction (`/auctions/auction-details?id=…`, issue 32): the live view (the auction statechart over
// its read-only topic, as bidders see it), staff bidding for a customer, the ledger with each bid's
// hidden maximum and, for admins, cancelling a bid, the bidders, the terms, the winner's settlement
// and the history (the one audit trail). Edit while draft or scheduled; cancel with a reason.
import {
  Badge,
  Button,
  DataList,
  Field,
  Grid,
  HStack,
  Input,
  Link,
  NativeSelect,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useSearch } from 'wouter';
import {
  AUCTION_PAGE,
  AUCTIONS_ROUTE,
  type AuctionDetail,
  auctionPageLink,
  type LedgerEntry,
} from '../../../contracts/auctions';
import { formatDateTime } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import { money } from '../../lib/money';
import { isLive } from '../../machines/auction.machine';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { useRuntimeConfig } from '../../services/runtime-config';
import { useCurrentUser } from '../../services/session-queries';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EntryList } from '../../ui/entry-list';
import { notify } from '../../ui/notify';
import { ErrorState, FullPageMessage, LoadingState, PageHeader } from '../../ui/page-states';
import { ReasonDialog } from '../../ui/reason-dialog';
import { SectionCard } from '../../ui/section-card';
import { TableScroll } from '../../ui/table-scroll';
import { AuctionFormDialog } from './AuctionFormDialog';
import {
  fetchLiveSnapshot,
  placeStaffBid,
  useAuction,
  useAuctionRefetch,
  useCancelAuction,
  useCancelBid,
  useOfferToNextBidder,
  useRelist,
} from './api';
import { AuctionLiveView } from './live/AuctionLiveView';
import { useAuctionLive } from './live/auction-live';
import { type AuctionSocket, openAuctionSocket } from './live/auction-socket';
import { BidForm } from './live/BidForm';
import { AuctionStatusBadge } from './ManageAuctionsPage';

const ACTIONS: Record<string, string> = {
  created: 'created it',
  updated: 'changed the terms',
  cancelled: 'cancelled it',
  'bid cancelled': 'cancelled a bid',
  ordered: 'ordered',
  lapsed: 'lapsed',
  'offered to next bidder': 'offered it to the next bidder',
  relisted: 'relisted it',
};

/** 120 → "2 min", 45 → "45 s". */
const duration = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`);

const publicTokenOf = (url: string | null) => (url ? (url.split('/').pop() ?? null) : null);

/** The live view and, while live, staff bidding for a registered bidder or a new customer. */
function Live({ auction, canBid }: { auction: AuctionDetail; canBid: boolean }) {
  const runtime = useRuntimeConfig();
  const token = publicTokenOf(auction.publicUrl);
  const refetch = useAuctionRefetch(auction.id);
  const [socket, setSocket] = useState<AuctionSocket | null>(null);
  const mqttUrl = runtime.data?.mqttUrl ?? null;
  const ready = runtime.isSuccess;
  // One connection per auction page (the auction's public topic, as the public page watches it).
  useEffect(() => {
    if (!token || !ready) return;
    const opened = openAuctionSocket({ auctionId: auction.id, publicToken: token, mqttUrl });
    setSocket(opened);
    return () => {
      opened.close();
      setSocket(null);
    };
  }, [auction.id, token, mqttUrl, ready]);
  // Stable while the socket is: the live view restarts when its connection changes.
  const deps = useMemo(
    () => ({
      auctionId: auction.id,
      bidderId: null,
      fetchSnapshot: () => fetchLiveSnapshot(auction.id),
      subscribe: (topic: string, onMessage: (payload: unknown) => void) =>
        socket ? socket.subscribe(topic, onMessage) : () => {},
      onConnection: (listener: (connected: boolean) => void) =>
        socket ? socket.onConnection(listener) : () => {},
      now: () => Date.now(),
      onOutbid: () => {},
    }),
    [auction.id, socket],
  );
  const live = useAuctionLive(deps);
  const state = live.snapshot.context.state ?? auction.snapshot.state;
  const [bidderId, setBidderId] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const confirmed = auction.bidders.filter((b) => b.confirmed);
  return (
    <AuctionLiveView snapshot={live.snapshot} now={live.now} heading="Live">
      {canBid && isLive(live.snapshot) ? (
        <BidForm
          currency={state.currency}
          minimumBidMinor={state.minimumBidMinor}
          open
          onBid={async (maxMinor) => {
            try {
              const who = bidderId ? { bidderId } : { name: name.trim(), email: email.trim() };
              live.bidAccepted(
                await placeStaffBid(auction.id, { ...who, maxMinor, currency: state.currency }),
              );
              refetch();
            } catch (error) {
              throw new Error(getErrorMessage(error));
            }
          }}
        >
          <Text fontWeight="medium">Bid for a customer</Text>
          <Field.Root mt="2">
            <Field.Label>Bidder</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={bidderId} onChange={(e) => setBidderId(e.target.value)}>
                <option value="">A new customer</option>
                {confirmed.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name} ({b.email})
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {bidderId ? null : (
            <HStack mt="2" align="start" wrap="wrap">
              <Field.Root flex="1" minW="40">
                <Field.Label>Customer’s name</Field.Label>
                <Input name="bidderName" value={name} onChange={(e) => setName(e.target.value)} />
              </Field.Root>
              <Field.Root flex="1" minW="40">
                <Field.Label>Customer’s e-mail</Field.Label>
                <Input
                  name="bidderEmail"
                  type="email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              </Field.Root>
            </HStack>
          )}
        </BidForm>
      ) : null}
    </AuctionLiveView>
  );
}

function CancelBidButton({ auction, entry }: { auction: AuctionDetail; entry: LedgerEntry }) {
  const [open, setOpen] = useState(false);
  const mutation = useCancelBid(auction.id, entry.sequence);
  return (
    <>
      <Button size="xs" variant="outline" colorPalette="red" onClick={() => setOpen(true)}>
        Cancel bid {entry.sequence}
      </Button>
      {open ? (
        <ReasonDialog
          title={`Cancel bid ${entry.sequence}`}
          intro="The ledger keeps the bid, marked cancelled; the price, leader and end are worked out again without it and shown to everyone."
          submitLabel="Cancel the bid"
          danger
          mutation={mutation}
          done={() => `Bid ${entry.sequence} cancelled.`}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function Ledger({ auction, canCancel }: { auction: AuctionDetail; canCancel: boolean }) {
  if (auction.ledger.length === 0) return <Text color="fg.muted">No bids yet.</Text>;
  const live = auction.status === 'live';
  return (
    <TableScroll label="Ledger of bids">
      <Table.Root size="sm" aria-label="Ledger of bids">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>#</Table.ColumnHeader>
            <Table.ColumnHeader>Bidder</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Maximum</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Price after</Table.ColumnHeader>
            <Table.ColumnHeader>Time</Table.ColumnHeader>
            {canCancel && live ? <Table.ColumnHeader>Action</Table.ColumnHeader> : null}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {auction.ledger.map((entry) => (
            <Table.Row key={entry.sequence} data-testid="ledger-entry">
              <Table.Cell>{entry.sequence}</Table.Cell>
              <Table.Cell>
                <Text textDecoration={entry.cancelled ? 'line-through' : undefined}>{entry.bidderName}</Text>
                {entry.cancelled ? (
                  <Text fontSize="xs" color="fg.error">
                    Cancelled: {entry.cancelReason}
                  </Text>
                ) : null}
                {entry.placedBy ? (
                  <Text fontSize="xs" color="fg.muted">
                    Placed by staff
                  </Text>
                ) : null}
              </Table.Cell>
              <Table.Cell textAlign="end">{money(entry.maxMinor, auction.currency)}</Table.Cell>
              <Table.Cell textAlign="end">{money(entry.priceMinor, auction.currency)}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDateTime(entry.at)}</Table.Cell>
              {canCancel && live ? (
                <Table.Cell>
                  {entry.cancelled ? null : <CancelBidButton auction={auction} entry={entry} />}
                </Table.Cell>
              ) : null}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}

function Terms({ auction }: { auction: AuctionDetail }) {
  const amount = (minor: number | null) => (minor === null ? '—' : money(minor, auction.currency));
  const rows: [string, string][] = [
    ['Product', `${auction.quantity} × ${auction.productName ?? '—'}`],
    ['Seller', auction.sellerName ?? '—'],
    ['Starting price', amount(auction.startingPriceMinor)],
    ['Reserve (hidden)', amount(auction.reserveMinor)],
    ['Buy Now', amount(auction.buyNowMinor)],
    ['Starts', formatDateTime(auction.startsAt)],
    ['Scheduled end', formatDateTime(auction.endsAt)],
    ['Hard end', formatDateTime(auction.hardEndAt)],
    [
      'Soft close',
      `A bid in the last ${duration(auction.softCloseSeconds)} moves the end to it + ${duration(auction.extensionSeconds)}`,
    ],
    [
      'Increments',
      auction.increments.map((t) => `from ${amount(t.fromMinor)}: ${amount(t.stepMinor)}`).join('; '),
    ],
    ['Winner pays within', `${auction.paymentHours} h`],
  ];
  return (
    <DataList.Root orientation="horizontal" size="sm">
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

const SETTLEMENT_TEXT: Record<string, string> = {
  awaiting_winner: 'Waiting for the winner’s address',
  ordered: 'Ordered',
  lapsed: 'The winner did not answer in time',
  relisted: 'Relisted',
};

function Settlement({ auction, canEdit }: { auction: AuctionDetail; canEdit: boolean }) {
  const [, navigate] = useLocation();
  const next = useOfferToNextBidder(auction.id);
  const relist = useRelist(auction.id);
  const [confirm, setConfirm] = useState<'next' | 'relist' | null>(null);
  const relistable =
    auction.status === 'ended' &&
    auction.settlement !== 'relisted' &&
    (auction.outcome !== 'sold' || auction.settlement === 'lapsed');
  if (auction.status !== 'ended') return null;
  return (
    <SectionCard title="After the close">
      <Stack gap="2" fontSize="sm">
        {auction.settlement ? (
          <Text data-testid="auction-settlement">
            {SETTLEMENT_TEXT[auction.settlement] ?? auction.settlement}
          </Text>
        ) : (
          <Text>The seller was told how it ended.</Text>
        )}
        {auction.winnerDeadline && auction.settlement === 'awaiting_winner' ? (
          <Text color="fg.muted">Deadline: {formatDateTime(auction.winnerDeadline)}</Text>
        ) : null}
        {auction.orderId ? (
          <Link asChild>
            <RouterLink href={`/orders/order?id=${auction.orderId}`}>Open the winner’s order</RouterLink>
          </Link>
        ) : null}
        {canEdit ? (
          <HStack wrap="wrap">
            {auction.settlement === 'lapsed' ? (
              <Button size="sm" onClick={() => setConfirm('next')}>
                Offer to the next bidder
              </Button>
            ) : null}
            {relistable ? (
              <Button size="sm" variant="outline" onClick={() => setConfirm('relist')}>
                Relist
              </Button>
            ) : null}
          </HStack>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'next' ? 'Offer to the next bidder' : 'Relist this lot'}
        description={
          confirm === 'next'
            ? 'The highest other bidder is offered the lot at their maximum or the hammer price, whichever is lower, and mailed a link to give their address.'
            : 'A new draft auction with the same lot and terms is made, starting tomorrow. Check its dates before publishing it.'
        }
        confirmLabel={confirm === 'next' ? 'Offer it' : 'Relist'}
        pending={next.isPending || relist.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          const done = (message: string) => {
            notify({ type: 'success', title: message });
            setConfirm(null);
          };
          const failed = (error: unknown) => notify({ type: 'error', title: getErrorMessage(error) });
          if (confirm === 'next')
            next.mutate(undefined, { onSuccess: () => done('Offered to the next bidder.'), onError: failed });
          else
            relist.mutate(undefined, {
              onSuccess: (copy) => {
                done(`Relisted as #${copy.number}.`);
                navigate(auctionPageLink(copy.id));
              },
              onError: failed,
            });
        }}
      />
    </SectionCard>
  );
}

/** One auction's page. */
export default function AuctionDetailsPage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const validId = id && isUuid(id) ? id : null;
  const detail = useAuction(validId);
  const page = useRouteActions(AUCTION_PAGE);
  const list = useRouteActions(AUCTIONS_ROUTE);
  const user = useCurrentUser().data;
  const [editing, setEditing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const cancel = useCancelAuction(validId ?? '');

  if (!validId)
    return (
      <FullPageMessage title="No auction chosen" description="Open an auction from the auctions list." />
    );
  if (detail.isPending) return <LoadingState rows={6} label="Loading the auction" />;
  if (detail.isError)
    return <ErrorState message={getErrorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const auction = detail.data;
  const editable = auction.status === 'draft' || auction.status === 'scheduled';
  const cancellable = editable || auction.status === 'live';
  const isAdmin = Boolean(user?.isAdmin || user?.roles.includes('Admin'));
  return (
    <>
      <PageHeader
        title={`#${auction.number}: ${auction.title}`}
        description={`${auction.quantity} × ${auction.productName ?? 'a product'} of ${auction.sellerName ?? 'a seller'}`}
        actions={
          list.can('edit') ? (
            <HStack>
              {editable ? (
                <Button size="sm" onClick={() => setEditing(true)}>
                  Edit
                </Button>
              ) : null}
              {cancellable ? (
                <Button size="sm" variant="outline" colorPalette="red" onClick={() => setCancelling(true)}>
                  Cancel auction
                </Button>
              ) : null}
            </HStack>
          ) : undefined
        }
      />
      <HStack gap="2" mb="4" wrap="wrap">
        <span data-testid="auction-page-status">
          <AuctionStatusBadge status={auction.status} outcome={auction.outcome} />
        </span>
        {auction.cancelReason ? <Badge variant="outline">Cancelled: {auction.cancelReason}</Badge> : null}
        {auction.event ? (
          <Text fontSize="sm" data-testid="auction-event-place">
            {`Lot ${auction.event.lot} of ${auction.event.lots} of `}
            {list.can('view') ? (
              <Link asChild>
                <RouterLink href={`${AUCTIONS_ROUTE}?event=${auction.event.id}`}>
                  “{auction.event.title}”
                </RouterLink>
              </Link>
            ) : (
              `“${auction.event.title}”`
            )}
          </Text>
        ) : null}
        {auction.publicUrl ? (
          <Link href={auction.publicUrl} target="_blank" rel="noreferrer" fontSize="sm">
            Public page
          </Link>
        ) : null}
      </HStack>
      <Grid
        templateColumns={{ base: '1fr', xl: 'minmax(0, 2fr) minmax(18rem, 1fr)' }}
        gap="4"
        alignItems="start"
      >
        <Stack gap="4" minW="0">
          {auction.status === 'draft' ? (
            <SectionCard title="Live">
              <Text color="fg.muted">A draft has no live view. Publish it to open bidding at its start.</Text>
            </SectionCard>
          ) : (
            <Live auction={auction} canBid={page.can('edit')} />
          )}
          <SectionCard title="Ledger">
            <Ledger auction={auction} canCancel={isAdmin && page.can('edit')} />
          </SectionCard>
          <SectionCard title="Bidders">
            {auction.bidders.length === 0 ? (
              <Text color="fg.muted">Nobody has registered yet.</Text>
            ) : (
              <Table.Root size="sm" aria-label="Bidders">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Name</Table.ColumnHeader>
                    <Table.ColumnHeader>E-mail</Table.ColumnHeader>
                    <Table.ColumnHeader>Registered</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {auction.bidders.map((b) => (
                    <Table.Row key={b.id}>
                      <Table.Cell>{b.name}</Table.Cell>
                      <Table.Cell overflowWrap="anywhere">{b.email}</Table.Cell>
                      <Table.Cell>
                        {b.byStaff ? 'By staff' : b.confirmed ? 'Confirmed' : 'Code not confirmed'} ·{' '}
                        {formatDateTime(b.createdAt)}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            )}
          </SectionCard>
        </Stack>
        <Stack gap="4">
          <Settlement auction={auction} canEdit={list.can('edit')} />
          <SectionCard title="Terms">
            <Terms auction={auction} />
          </SectionCard>
          <SectionCard title="History">
            <EntryList entries={auction.history} actions={ACTIONS} label="Auction history" />
          </SectionCard>
        </Stack>
      </Grid>
      {editing ? (
        <AuctionFormDialog
          open
          auction={auction}
          onClose={() => setEditing(false)}
          onSaved={() => setEditing(false)}
        />
      ) : null}
      {cancelling ? (
        <ReasonDialog
          title="Cancel the auction"
          intro="Bidding stops at once; every registered bidder is mailed your reason."
          submitLabel="Cancel the auction"
          danger
          mutation={cancel}
          done={() => 'Auction cancelled.'}
          onClose={() => setCancelling(false)}
        />
      ) : null}
    </>
  );
}
