// An auction's public page (issue 32), reached by its signed link `/auction/{token}` with no account:
// the lot, the live view (the auction statechart over the auction's read-only topic), registration by
// name and e-mail confirmed with a mailed code, bidding with a maximum, and, for the winner after the
// close, the shipping address that makes their order. The bidder's token stays in this browser.
import { Button, Field, Heading, Input, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { BidderSession, PublicAuction } from '../../../contracts/auctions';
import { AUCTION_STATUS_LABELS, CLAIMED_MESSAGE, PUBLIC_AUCTION_PREFIX } from '../../../contracts/auctions';
import { formatDateTime } from '../../../contracts/domain/format';
import type { OrderAddress } from '../../../contracts/orders';
import { isLive } from '../../machines/auction.machine';
import { getErrorMessage } from '../../services/api-error';
import { FormMessage, TextField } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { AuctionLiveView } from './live/AuctionLiveView';
import { useAuctionLive } from './live/auction-live';
import { type AuctionSocket, openAuctionSocket } from './live/auction-socket';
import { BidForm } from './live/BidForm';
import {
  brokerAddress,
  claimWin,
  confirmCode,
  loadLiveSnapshot,
  loadPublicAuction,
  placePublicBid,
  registerToBid,
  storeBidder,
  storedBidder,
} from './public-api';

export const BAD_AUCTION_LINK = 'This auction link is not valid.';

function tokenOf(pathname: string): string {
  return decodeURIComponent(pathname.slice(PUBLIC_AUCTION_PREFIX.length));
}

function Register({ token, onConfirmed }: { token: string; onConfirmed: (session: BidderSession) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [registrationId, setRegistrationId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const run = (action: () => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPending(true);
    try {
      await action();
    } catch (error) {
      setFailure(getErrorMessage(error));
    } finally {
      setPending(false);
    }
  };
  const register = run(async () => {
    const answer = await registerToBid(token, { name: name.trim(), email: email.trim() });
    setRegistrationId(answer.registrationId);
    setNotice(answer.message);
  });
  const confirm = run(async () => {
    if (!registrationId) return;
    onConfirmed(await confirmCode(token, { registrationId, code: code.trim() }));
  });

  if (registrationId)
    return (
      <Stack asChild gap="3">
        <form onSubmit={confirm} noValidate aria-label="Confirm your e-mail address">
          <FormMessage status="success">{notice}</FormMessage>
          <FormMessage status="error">{failure}</FormMessage>
          <TextField
            label="Six-digit code"
            name="code"
            type="text"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
          />
          <Button type="submit" colorPalette="brand" loading={pending} alignSelf="start">
            Confirm
          </Button>
        </form>
      </Stack>
    );
  return (
    <Stack asChild gap="3">
      <form onSubmit={register} noValidate aria-label="Register to bid">
        <Text>To bid, give your name and e-mail address. We send you a code to confirm it.</Text>
        <FormMessage status="error">{failure}</FormMessage>
        <TextField
          label="Your name"
          name="name"
          type="text"
          autoComplete="name"
          value={name}
          onChange={setName}
        />
        <TextField
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <Button type="submit" colorPalette="brand" loading={pending} alignSelf="start">
          Send me a code
        </Button>
      </form>
    </Stack>
  );
}

const EMPTY_ADDRESS: OrderAddress = {
  fullName: '',
  email: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  country: '',
  zipcode: '',
};

function ClaimForm({
  token,
  session,
  deadline,
}: {
  token: string;
  session: BidderSession;
  deadline: string | null;
}) {
  const [address, setAddress] = useState<OrderAddress>({ ...EMPTY_ADDRESS, fullName: session.name });
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const field = (key: keyof OrderAddress, label: string, autoComplete: string, required = true) => (
    <Field.Root required={required}>
      <Field.Label>{label}</Field.Label>
      <Input
        name={key}
        autoComplete={autoComplete}
        value={address[key]}
        onChange={(e) => setAddress({ ...address, [key]: e.target.value })}
      />
    </Field.Root>
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPending(true);
    try {
      setDone((await claimWin(token, session, address)).message);
    } catch (error) {
      setFailure(getErrorMessage(error));
    } finally {
      setPending(false);
    }
  };
  if (done) return <FormMessage status="success">{done}</FormMessage>;
  return (
    <Stack asChild gap="3">
      <form onSubmit={submit} noValidate aria-label="Your shipping address">
        <Text fontWeight="semibold">You won. Give your shipping address to receive your order.</Text>
        {deadline ? (
          <Text fontSize="sm">Please give it by {new Date(deadline).toLocaleString()}.</Text>
        ) : null}
        <FormMessage status="error">{failure}</FormMessage>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
          {field('fullName', 'Full name', 'name')}
          {field('email', 'E-mail address', 'email', false)}
          {field('addressLine1', 'Address', 'address-line1')}
          {field('addressLine2', 'Address line 2', 'address-line2', false)}
          {field('city', 'City', 'address-level2')}
          {field('state', 'State or region', 'address-level1', false)}
          {field('zipcode', 'Postcode', 'postal-code', false)}
          {field('country', 'Country code (e.g. DE)', 'country')}
        </SimpleGrid>
        <Button type="submit" colorPalette="brand" loading={pending} alignSelf="start">
          Place my order
        </Button>
      </form>
    </Stack>
  );
}

function LiveAuction({ token, auction: loaded }: { token: string; auction: PublicAuction }) {
  const auctionId = loaded.snapshot.state.auctionId;
  // The settlement (the winner's address awaited) is decided at the close: read the page again then.
  const [auction, setAuction] = useState(loaded);
  const [session, setSession] = useState<BidderSession | null>(() => storedBidder(auctionId));
  const [socket, setSocket] = useState<AuctionSocket | null>(null);
  useEffect(() => {
    let opened: AuctionSocket | null = null;
    let cancelled = false;
    void brokerAddress().then((mqttUrl) => {
      if (cancelled) return;
      opened = openAuctionSocket({ auctionId, publicToken: token, mqttUrl });
      setSocket(opened);
    });
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [auctionId, token]);
  const deps = useMemo(
    () => ({
      auctionId,
      bidderId: session?.bidderId ?? null,
      fetchSnapshot: () => loadLiveSnapshot(token),
      subscribe: (topic: string, onMessage: (payload: unknown) => void) =>
        socket ? socket.subscribe(topic, onMessage) : () => {},
      onConnection: (listener: (connected: boolean) => void) =>
        socket ? socket.onConnection(listener) : () => {},
      now: () => Date.now(),
    }),
    [auctionId, session, socket, token],
  );
  const live = useAuctionLive(deps);
  const state = live.snapshot.context.state ?? auction.snapshot.state;
  const confirmed = (next: BidderSession | null) => {
    storeBidder(auctionId, next);
    setSession(next);
  };
  const ended = state.status === 'ended';
  const version = state.version;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each newer version after the close (the lot offered to the next bidder) reads the settlement again
  useEffect(() => {
    if (!ended) return;
    let cancelled = false;
    loadPublicAuction(token).then(
      (next) => !cancelled && setAuction(next),
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [ended, version, token]);
  const isWinner =
    session !== null &&
    state.status === 'ended' &&
    state.outcome === 'sold' &&
    state.leaderId === session.bidderId;
  // The view's own status: it goes live at the start on the server's clock (no message comes then).
  const biddingOpen = isLive(live.snapshot);
  // Registering and the bid form stay on the page while the view reconnects (what was typed is kept).
  const open = state.status !== 'ended' && state.status !== 'cancelled';

  return (
    <AuctionLiveView snapshot={live.snapshot} now={live.now}>
      {isWinner && auction.settlement === 'awaiting_winner' ? (
        <ClaimForm token={token} session={session} deadline={auction.winnerDeadline} />
      ) : isWinner && auction.settlement === 'ordered' ? (
        <FormMessage status="success">{CLAIMED_MESSAGE}</FormMessage>
      ) : session === null ? (
        open ? (
          <Register token={token} onConfirmed={confirmed} />
        ) : null
      ) : open ? (
        <BidForm
          currency={state.currency}
          minimumBidMinor={state.minimumBidMinor}
          open={biddingOpen}
          onBid={async (maxMinor) => {
            try {
              live.bidAccepted(await placePublicBid(token, session, { maxMinor, currency: state.currency }));
            } catch (error) {
              // The token is no longer known (another browser confirmed since): register again.
              if ((error as { status?: number }).status === 401) confirmed(null);
              throw new Error(getErrorMessage(error));
            }
          }}
        >
          <Text fontSize="sm">Bidding as {session.name}.</Text>
        </BidForm>
      ) : null}
    </AuctionLiveView>
  );
}

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; auction: PublicAuction };

/**
 * The event's lots in the order they end, each ending a little after the one before, so a bidder can
 * follow them in turn; each lot has its own page (a full load: the page reads its link's token).
 */
function EventLots({ event }: { event: NonNullable<PublicAuction['event']> }) {
  return (
    <Stack gap="2" as="section" aria-labelledby="event-lots-heading">
      <Heading as="h2" size="md" id="event-lots-heading">
        The lots of “{event.title}”
      </Heading>
      <Stack as="ol" gap="1" ps="5" listStyleType="decimal">
        {event.lots.map((lot) => (
          <li key={lot.url}>
            {lot.current ? (
              <Text as="span" fontWeight="semibold" aria-current="page">
                {lot.title} (this lot)
              </Text>
            ) : (
              <Link href={lot.url}>{lot.title}</Link>
            )}
            <Text as="span" color="fg.muted">
              {` · ${AUCTION_STATUS_LABELS[lot.status]} · ${lot.status === 'ended' || lot.status === 'cancelled' ? 'ended' : 'ends'} `}
              <time dateTime={lot.effectiveEndAt}>{formatDateTime(lot.effectiveEndAt)}</time>
            </Text>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

export default function PublicAuctionPage() {
  const token = tokenOf(window.location.pathname);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    loadPublicAuction(token).then(
      (auction) => !cancelled && setLoaded({ status: 'ready', auction }),
      (error: unknown) => !cancelled && setLoaded({ status: 'error', message: getErrorMessage(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  if (loaded.status === 'loading')
    return (
      <PublicLayout title="Auction" wide>
        <Text>Loading…</Text>
      </PublicLayout>
    );
  if (loaded.status === 'error')
    return (
      <PublicLayout title="Auction" wide>
        <FormMessage status="error">{loaded.message || BAD_AUCTION_LINK}</FormMessage>
      </PublicLayout>
    );
  const { auction } = loaded;
  const subtitle = [auction.sellerName, auction.productName && `${auction.quantity} × ${auction.productName}`]
    .filter(Boolean)
    .join(' · ');
  return (
    <PublicLayout title={auction.title} subtitle={subtitle} wide>
      {auction.description ? <Text whiteSpace="pre-wrap">{auction.description}</Text> : null}
      <LiveAuction token={token} auction={auction} />
      {auction.event ? <EventLots event={auction.event} /> : null}
    </PublicLayout>
  );
}
