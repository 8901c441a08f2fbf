// What a bidder or a watcher sees of a live auction (issue 32, docs/auctions.md "The live view"): the
// status in words, the price, the masked leader, the bids, the watchers and a countdown to the
// effective end on the server's clock. Presentational: it draws a snapshot of the auction statechart
// (src/machines/auction.machine.ts) at the time `now` (the page re-renders it every second, see
// `useAuctionLive`); the page passes its own bid form as `children`.
//
// While reconnecting or catching up the last known state stays on screen, greyed and labelled as such
// ("Last known price"), never as the current price. The status and the price are one polite live
// region; the countdown is outside it, so a screen reader is not told every second.
import { Badge, Box, DataList, Heading, HStack, List, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import { formatMinor } from '../../../../contracts/domain/currency';
import {
  type AuctionViewSnapshot,
  EXTENDED_TEXT,
  isCurrent,
  isExtended,
  type LiveStatus,
  liveStatus,
  liveStatusText,
  remainingMs,
  untilStartMs,
} from '../../../machines/auction.machine';

const two = (n: number) => String(n).padStart(2, '0');

/** "01:02:03", or "2 d 03:04:05" from a day on; whole seconds, rounded up (0 shows as "00:00:00"). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const clock = `${two(hours)}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
  return days > 0 ? `${days} d ${clock}` : clock;
}

export const bidsText = (count: number) =>
  count === 0 ? 'No bids yet' : count === 1 ? '1 bid' : `${count} bids`;
export const watchersText = (count: number) => `${count} watching`;

/** The price's label: what the number is. */
export function priceLabelOf(snapshot: AuctionViewSnapshot): string {
  const state = snapshot.context.state;
  if (!isCurrent(snapshot)) return 'Last known price';
  if (!state || state.priceMinor === null) return 'Starting price';
  return snapshot.value === 'ended' ? 'Final price' : 'Current price';
}

const PALETTE: Record<LiveStatus, string> = {
  loading: 'gray',
  upcoming: 'blue',
  live: 'blue',
  leading: 'green',
  outbid: 'orange',
  reconnecting: 'yellow',
  catchingUp: 'yellow',
  won: 'green',
  lost: 'gray',
  sold: 'gray',
  reserveNotMet: 'gray',
  noBids: 'gray',
  cancelled: 'red',
};

/** How many of the latest bids are listed. */
const BIDS_LISTED = 5;

export interface AuctionLiveViewProps {
  /** A snapshot of the auction statechart. */
  snapshot: AuctionViewSnapshot;
  /** The local clock, epoch ms (the countdown corrects it by the server's offset). */
  now: number;
  /** The section's heading (an h2). */
  heading?: string;
  /** The page's bid form. */
  children?: ReactNode;
}

export function AuctionLiveView({ snapshot, now, heading = 'Live auction', children }: AuctionLiveViewProps) {
  const headingId = useId();
  const { context } = snapshot;
  const state = context.state;
  const status = liveStatus(snapshot);
  const current = isCurrent(snapshot);
  const muted = current ? undefined : 'fg.muted';

  let body: ReactNode;
  if (!state) {
    body = (
      <Box aria-live="polite">
        <Text data-testid="auction-status">{liveStatusText(snapshot)}</Text>
        {context.loadFailed ? (
          <Text color="fg.error">The auction could not be loaded. Trying again…</Text>
        ) : null}
      </Box>
    );
  } else {
    const price = state.priceMinor ?? state.startingPriceMinor;
    const upcoming = snapshot.value === 'upcoming';
    const ended = snapshot.value === 'ended';
    const countdown = upcoming ? untilStartMs(context, now) : remainingMs(context, now);
    const own = context.bidderId !== null && state.leaderId === context.bidderId;
    const bids = context.recentBids.slice(0, BIDS_LISTED);
    body = (
      <>
        <Stack gap="1" aria-live="polite" data-testid="auction-live-region" data-stale={!current}>
          <HStack gap="2" wrap="wrap">
            <Badge size="lg" colorPalette={PALETTE[status]} data-testid="auction-status">
              {liveStatusText(snapshot)}
            </Badge>
            {isExtended(snapshot) ? (
              <Badge size="lg" colorPalette="purple" data-testid="auction-extended">
                {EXTENDED_TEXT}
              </Badge>
            ) : null}
          </HStack>
          <Text fontSize="sm" color="fg.muted" data-testid="auction-price-label">
            {priceLabelOf(snapshot)}
          </Text>
          <Text fontSize="3xl" fontWeight="semibold" color={muted} data-testid="auction-price">
            {formatMinor(price, state.currency)}
          </Text>
        </Stack>
        <DataList.Root orientation="horizontal" size="sm" color={muted}>
          <DataList.Item>
            <DataList.ItemLabel>Leader</DataList.ItemLabel>
            <DataList.ItemValue data-testid="auction-leader">
              {state.leaderName ? `${state.leaderName}${own ? ' (you)' : ''}` : 'No bids yet'}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Bids</DataList.ItemLabel>
            <DataList.ItemValue data-testid="auction-bids">{bidsText(state.bids)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Watchers</DataList.ItemLabel>
            <DataList.ItemValue data-testid="auction-watchers">
              {watchersText(context.watchers ?? state.watchers)}
            </DataList.ItemValue>
          </DataList.Item>
          {!ended && countdown !== null ? (
            <DataList.Item>
              <DataList.ItemLabel data-testid="auction-countdown-label">
                {upcoming ? 'Starts in' : 'Ends in'}
              </DataList.ItemLabel>
              <DataList.ItemValue>
                <time
                  data-testid="auction-countdown"
                  dateTime={upcoming ? state.startsAt : state.effectiveEndAt}
                >
                  {formatCountdown(countdown)}
                </time>
              </DataList.ItemValue>
            </DataList.Item>
          ) : null}
          {current && !ended ? (
            <DataList.Item>
              <DataList.ItemLabel>Next bid from</DataList.ItemLabel>
              <DataList.ItemValue data-testid="auction-minimum">
                {formatMinor(state.minimumBidMinor, state.currency)}
              </DataList.ItemValue>
            </DataList.Item>
          ) : null}
        </DataList.Root>
        {bids.length > 0 ? (
          <List.Root as="ol" aria-label="Latest bids" listStyle="none" gap="1" fontSize="sm" color={muted}>
            {bids.map((bid) => (
              <List.Item key={bid.sequence} data-testid="auction-bid">
                <Text as="span" textDecoration={bid.cancelled ? 'line-through' : undefined}>
                  {bid.bidder} {formatMinor(bid.priceMinor, state.currency)}
                </Text>
                {bid.cancelled ? ' (cancelled)' : null}
              </List.Item>
            ))}
          </List.Root>
        ) : null}
      </>
    );
  }

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3" borderWidth="1px" rounded="l2" p="4">
      <Heading as="h2" size="md" id={headingId}>
        {heading}
      </Heading>
      {body}
      {children}
    </Stack>
  );
}
