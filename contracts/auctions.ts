// Live auctions (issue 32, docs/auctions.md): the staff API, the public page's API and what the server
// publishes on an auction's topic. The rules themselves are pure in contracts/domain/auction-rules.ts.
// Money is integer minor units of the auction's currency (contracts/domain/currency.ts moneyDigits);
// times on the wire are ISO strings, decided by the database's clock.
import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { auctionTopicOf } from './broker-topics';
import { intParam } from './int-param';
import { orderAddressSchema } from './orders';

export const AUCTIONS_ROUTE = '/auctions/manage-auctions';
/** One auction's page (its permission guards the auction's own API and staff bidding). */
export const AUCTION_PAGE = '/auctions/auction-details';
export const auctionPageLink = (id: string) => `${AUCTION_PAGE}?id=${id}`;
export const AUCTIONS_API = '/api/v1/auctions';
/** The public page a customer opens from the signed link: `/auction/{token}`. */
export const PUBLIC_AUCTION_PREFIX = '/auction/';

/** The auction's public, read-only broker topic: only the server publishes here (broker-topics.ts ACL). */
export const auctionTopic = auctionTopicOf;
/** The broker username a public page connects with; its password is the auction's public token. */
export const AUCTION_WATCHER_USERNAME = 'auction-watcher';

/** Stored statuses; `live` is `scheduled` once its start has passed (decided by the database's clock). */
export const auctionStatuses = ['draft', 'scheduled', 'live', 'ended', 'cancelled'] as const;
export type AuctionStatus = (typeof auctionStatuses)[number];
export const auctionOutcomes = ['sold', 'reserve_not_met', 'no_bids'] as const;
export type AuctionOutcome = (typeof auctionOutcomes)[number];
/** After a sale: the winner gives an address (→ ordered) or lets the deadline pass (→ lapsed). */
export const settlementStates = ['awaiting_winner', 'ordered', 'lapsed', 'relisted'] as const;
export type SettlementState = (typeof settlementStates)[number];

export const AUCTION_STATUS_LABELS: Record<AuctionStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  live: 'Live',
  ended: 'Ended',
  cancelled: 'Cancelled',
};
export const AUCTION_OUTCOME_LABELS: Record<AuctionOutcome, string> = {
  sold: 'Sold',
  reserve_not_met: 'Reserve not met',
  no_bids: 'No bids',
};

const money = z
  .number()
  .int('Amounts are whole minor units (cents).')
  .min(1, 'An amount is more than 0.')
  .max(1e13);
const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'A currency is a three-letter code.');
const instant = z.iso.datetime({ offset: true, message: 'A time is an ISO date and time.' });
const text = (max: number, message: string) => z.string().trim().min(1, message).max(max);

export const incrementTierSchema = z.object({
  fromMinor: z.number().int().min(0).max(1e13),
  stepMinor: z.number().int('A step is whole minor units.').min(1, 'A step is at least 1.').max(1e12),
});

/** What one lot sells and from what price: an auction's own terms, or one lot of an event. */
export const auctionLotSchema = z.object({
  productId: z.uuid('Choose a product from the list.'),
  quantity: z.number().int('A quantity is a whole number.').min(1, 'A quantity is at least 1.').max(10_000),
  title: text(200, 'Give the lot a title.'),
  description: z.string().trim().max(5000).default(''),
  startingPriceMinor: money,
  reserveMinor: money.nullable().default(null),
  buyNowMinor: money.nullable().default(null),
});
export type AuctionLot = z.infer<typeof auctionLotSchema>;

/** Create or edit (a draft or scheduled auction; a live one's terms cannot change). */
export const auctionBodySchema = z.object({
  /** Admins and staff choose the seller; a seller's auctions are always their own. */
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  ...auctionLotSchema.shape,
  title: text(200, 'Give the auction a title.'),
  currency,
  /** Absent: the default table in this currency (Trade Me's). */
  increments: z.array(incrementTierSchema).max(30).optional(),
  startsAt: instant,
  endsAt: instant,
  /** Absent: the scheduled end plus one hour. No extension passes it. */
  hardEndAt: instant.optional(),
  softCloseSeconds: z.number().int().min(0).max(3600).default(120),
  extensionSeconds: z.number().int().min(0).max(3600).default(120),
  /** Hours the winner has to give a shipping address. */
  paymentHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(48),
  /** Publish now (scheduled) or keep as a draft. */
  publish: z.boolean().default(false),
});
export type AuctionBody = z.infer<typeof auctionBodySchema>;

export const cancelBodySchema = z.object({ reason: text(500, 'Say why (the bidders are told).') });
export const cancelBidBodySchema = cancelBodySchema;

export const auctionListQuerySchema = z.object({
  status: z.enum(auctionStatuses).optional(),
  sellerId: z.uuid().optional(),
  currency: currency.optional(),
  /** The lots of one event. */
  eventId: z.uuid().optional(),
  /** Title, product name or number. */
  query: z.string().trim().max(200, 'Search with at most 200 characters.').default(''),
  skip: intParam.max(1_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});
export type AuctionListQuery = z.infer<typeof auctionListQuerySchema>;

export const auctionListItemSchema = z.object({
  id: z.string(),
  number: z.number(),
  title: z.string(),
  sellerId: z.string(),
  sellerName: z.string().nullable(),
  productId: z.string(),
  productName: z.string().nullable(),
  quantity: z.number(),
  currency: z.string(),
  status: z.enum(auctionStatuses),
  outcome: z.enum(auctionOutcomes).nullable(),
  priceMinor: z.number().nullable(),
  bids: z.number(),
  startsAt: z.string(),
  effectiveEndAt: z.string(),
  /** The event it is a lot of, if any. */
  eventId: z.string().nullable(),
});
export type AuctionListItem = z.infer<typeof auctionListItemSchema>;

export const auctionTabsSchema = z.object(
  Object.fromEntries(auctionStatuses.map((status) => [status, z.number()])) as Record<
    AuctionStatus,
    z.ZodNumber
  >,
);
export type AuctionTabs = z.infer<typeof auctionTabsSchema>;

export const auctionListSchema = z.object({
  result: z.array(auctionListItemSchema),
  total: z.number(),
  totalCapped: z.boolean(),
  tabs: auctionTabsSchema,
});
export type AuctionList = z.infer<typeof auctionListSchema>;

// ---------------------------------------------------------------------------------------------------
// Events: several lots whose scheduled ends are staggered (`staggeredEnds`), so bidders can follow each
// lot's close in turn (fishauctions#33). Each lot is an auction of its own with its own effective end:
// one lot's extension never delays the next.

export const AUCTION_EVENTS_API = `${AUCTIONS_API}/events`;

export const auctionEventBodySchema = z.object({
  sellerId: z.uuid('Choose a seller from the list.').optional(),
  title: text(200, 'Give the event a title.'),
  currency,
  startsAt: instant,
  /** The first lot's scheduled end; lot n ends `gapSeconds × (n − 1)` later. */
  firstEndsAt: instant,
  gapSeconds: z
    .number()
    .int()
    .min(10, 'Lots end at least 10 seconds apart.')
    .max(3600, 'Lots end at most an hour apart.')
    .default(60),
  /** Each lot's hard end is its scheduled end plus this: no extension passes it. */
  hardEndAfterSeconds: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600)
    .default(3600),
  softCloseSeconds: z.number().int().min(0).max(3600).default(120),
  extensionSeconds: z.number().int().min(0).max(3600).default(120),
  paymentHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(48),
  publish: z.boolean().default(false),
  lots: z.array(auctionLotSchema).min(1, 'Add at least one lot.').max(100, 'An event has at most 100 lots.'),
});
export type AuctionEventBody = z.infer<typeof auctionEventBodySchema>;

export const auctionEventSchema = z.object({
  id: z.string(),
  title: z.string(),
  sellerId: z.string(),
  sellerName: z.string().nullable(),
  gapSeconds: z.number(),
  createdAt: z.string(),
  /** In the order they end. */
  lots: z.array(auctionListItemSchema),
});
export type AuctionEvent = z.infer<typeof auctionEventSchema>;

/** Where an auction stands in its event (on its page and the public page). */
export const eventPlaceSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** 1-based, in the order the lots end. */
  lot: z.number(),
  lots: z.number(),
});
export type EventPlace = z.infer<typeof eventPlaceSchema>;

/** The event's other lots as a public page lists them, each with its own signed link. */
export const publicLotSchema = z.object({
  title: z.string(),
  url: z.string(),
  status: z.enum(auctionStatuses),
  effectiveEndAt: z.string(),
  current: z.boolean(),
});

// ---------------------------------------------------------------------------------------------------
// The live state: what the topic carries and what a reconnecting view catches up from

/** One accepted bid as watchers see it (the maximum stays hidden). */
export const publicBidSchema = z.object({
  sequence: z.number(),
  bidder: z.string(),
  /** The visible price after this bid. */
  priceMinor: z.number(),
  at: z.string(),
  /** Set when an admin cancelled it; the price was recomputed without it. */
  cancelled: z.boolean(),
});
export type PublicBid = z.infer<typeof publicBidSchema>;

/**
 * The auction's state as everyone sees it. `version` rises by one with every change (a bid, a
 * cancelled bid, a status change), so a view notices a gap and catches up instead of showing a stale
 * price as current.
 */
export const liveStateSchema = z.object({
  auctionId: z.string(),
  version: z.number(),
  status: z.enum(auctionStatuses),
  outcome: z.enum(auctionOutcomes).nullable(),
  currency: z.string(),
  startingPriceMinor: z.number(),
  priceMinor: z.number().nullable(),
  /** The least the next bid may be. */
  minimumBidMinor: z.number(),
  /** The leader's opaque bidder id (a bidder knows their own) and masked name. */
  leaderId: z.string().nullable(),
  leaderName: z.string().nullable(),
  reserveMet: z.boolean().nullable(),
  buyNowMinor: z.number().nullable(),
  bids: z.number(),
  startsAt: z.string(),
  effectiveEndAt: z.string(),
  hardEndAt: z.string(),
  /** True when a late bid has moved the end past the scheduled one. */
  extended: z.boolean(),
  watchers: z.number(),
  cancelReason: z.string().nullable(),
});
export type LiveState = z.infer<typeof liveStateSchema>;

/**
 * A message on `auctions/{id}`: the whole new state, the bids accepted since the auction's previous
 * message (several when messages are coalesced, at most ten a second; none for a status change) and
 * the server's time. A view applies a message whose version is newer than its own and ignores the
 * rest; when the bids do not follow on from the last one it knows, it catches up from the ledger.
 */
export const auctionUpdateSchema = z.object({
  type: z.literal('state'),
  state: liveStateSchema,
  bids: z.array(publicBidSchema),
  /** The bidders who lost the lead in these changes (their view shows "outbid"). */
  outbidIds: z.array(z.string()),
  serverTime: z.string(),
});
export type AuctionUpdate = z.infer<typeof auctionUpdateSchema>;

/** The watchers' count alone (at most once a second); it does not change the version. */
export const auctionWatchersSchema = z.object({
  type: z.literal('watchers'),
  auctionId: z.string(),
  watchers: z.number(),
  serverTime: z.string(),
});
export type AuctionWatchers = z.infer<typeof auctionWatchersSchema>;
export const auctionMessageSchema = z.discriminatedUnion('type', [
  auctionUpdateSchema,
  auctionWatchersSchema,
]);
export type AuctionMessage = z.infer<typeof auctionMessageSchema>;

/** GET …/live: the state and the latest bids, to start from or catch up after a gap. */
export const liveSnapshotSchema = z.object({
  state: liveStateSchema,
  recentBids: z.array(publicBidSchema),
  serverTime: z.string(),
});
export type LiveSnapshot = z.infer<typeof liveSnapshotSchema>;

// ---------------------------------------------------------------------------------------------------
// Bids

export const bidBodySchema = z.object({
  /** The most the bidder will pay; the server bids for them by the increment up to it. */
  maxMinor: money,
  /** The currency the bidder saw: a bid in another currency is refused. */
  currency,
});
export type BidBody = z.infer<typeof bidBodySchema>;

/** Staff bidding for a customer: the bidder registered on this auction, or a new one by name and e-mail. */
export const staffBidBodySchema = bidBodySchema.extend({
  bidderId: z.uuid().optional(),
  name: text(120, 'Enter the customer’s name.').optional(),
  email: z.email('Enter a valid e-mail address.').max(254).optional(),
});
export type StaffBidBody = z.infer<typeof staffBidBodySchema>;

export const bidResultSchema = z.object({
  sequence: z.number(),
  state: liveStateSchema,
  /** Whether this bidder leads after it (a lower maximum is out-bid at once by the leader's proxy). */
  leading: z.boolean(),
});
export type BidResult = z.infer<typeof bidResultSchema>;

export const BID_TOO_LOW_CODE = 'BID_TOO_LOW';
export const bidTooLowMessage = (minimum: string) => `Bid at least ${minimum}.`;
export const RAISE_OWN_MAX_MESSAGE = (minimum: string) =>
  `You are leading. To raise your maximum, bid at least ${minimum}.`;
export const AUCTION_NOT_STARTED_MESSAGE = 'This auction has not started yet.';
export const AUCTION_ENDED_MESSAGE = 'This auction has ended.';
export const WRONG_CURRENCY_MESSAGE = (currency: string) => `This auction takes bids in ${currency}.`;
export const UNCONFIRMED_BIDDER_MESSAGE = 'Confirm your e-mail address with the code we sent before bidding.';

// ---------------------------------------------------------------------------------------------------
// The public page

export const publicTokenSchema = z.string().min(20).max(200);

export const publicAuctionSchema = z.object({
  title: z.string(),
  description: z.string(),
  productName: z.string().nullable(),
  quantity: z.number(),
  sellerName: z.string().nullable(),
  snapshot: liveSnapshotSchema,
  /** After a sale: whether the winner's address is awaited, and until when. */
  settlement: z.enum(settlementStates).nullable(),
  winnerDeadline: z.string().nullable(),
  /** The event this lot belongs to, with every lot in the order they end. */
  event: z.object({ title: z.string(), lots: z.array(publicLotSchema) }).nullable(),
});
export type PublicAuction = z.infer<typeof publicAuctionSchema>;

export const registerBodySchema = z.object({
  name: text(120, 'Enter your name.'),
  email: z.email('Enter a valid e-mail address.').max(254),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;
export const confirmBodySchema = z.object({
  registrationId: z.uuid(),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code is six digits.'),
});
export type ConfirmBody = z.infer<typeof confirmBodySchema>;
export const registrationSchema = z.object({ registrationId: z.string() });
/** The bidder's key for this auction, kept by their browser and sent as `X-Bidder-Token`. */
export const bidderSessionSchema = z.object({
  bidderId: z.string(),
  bidderToken: z.string(),
  name: z.string(),
});
export type BidderSession = z.infer<typeof bidderSessionSchema>;
export const BIDDER_TOKEN_HEADER = 'x-bidder-token';

/** The winner's shipping address, given on the public page before the deadline: it makes their order. */
export const claimBodySchema = z.object({ shippingAddress: orderAddressSchema });
export type ClaimBody = z.infer<typeof claimBodySchema>;
export const claimResultSchema = z.object({ orderNumber: z.number(), message: z.string() });
export const CLAIMED_MESSAGE =
  'Thank you. Your order is placed; the seller will be in touch about payment and delivery.';
export const REGISTRATION_CODE_SENT_MESSAGE = 'We sent a six-digit code to your e-mail address.';
export const WRONG_CODE_MESSAGE = 'That code is not right. Check the latest e-mail we sent.';
export const INVALID_AUCTION_LINK_MESSAGE = 'This auction link is not valid.';

// ---------------------------------------------------------------------------------------------------
// One auction's page

export const bidderSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  confirmed: z.boolean(),
  /** Placed by staff for the customer. */
  byStaff: z.boolean(),
  createdAt: z.string(),
});
export const ledgerEntrySchema = publicBidSchema.extend({
  bidderId: z.string(),
  bidderName: z.string(),
  maxMinor: z.number(),
  placedBy: z.string().nullable(),
  cancelReason: z.string().nullable(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const auctionDetailSchema = auctionListItemSchema.extend({
  description: z.string(),
  startingPriceMinor: z.number(),
  reserveMinor: z.number().nullable(),
  buyNowMinor: z.number().nullable(),
  increments: z.array(incrementTierSchema),
  endsAt: z.string(),
  hardEndAt: z.string(),
  softCloseSeconds: z.number(),
  extensionSeconds: z.number(),
  paymentHours: z.number(),
  cancelReason: z.string().nullable(),
  publicUrl: z.string().nullable(),
  settlement: z.enum(settlementStates).nullable(),
  winnerDeadline: z.string().nullable(),
  orderId: z.string().nullable(),
  event: eventPlaceSchema.nullable(),
  snapshot: liveSnapshotSchema,
  ledger: z.array(ledgerEntrySchema),
  bidders: z.array(bidderSchema),
  history: z.array(auditEntrySchema),
});
export type AuctionDetail = z.infer<typeof auctionDetailSchema>;

export const ledgerQuerySchema = z.object({
  after: intParam.max(1e9).default(0),
  limit: intParam.min(1).max(500).default(100),
});
