// Seller subscriptions (SPEC §7 "Subscription manager"): plans, periods, the state a seller's
// subscription is in, renewal requests and blocking. Shared by the API, the seller's subscription page
// and the admin's subscription requests page.
import { z } from 'zod';
import { intParam } from './int-param';

// ── State ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Where a seller's subscription stands. Blocked wins over everything (an admin's decision, or the
 * subscription lapsed); a free seller never needs a period; otherwise the latest period decides.
 */
export const subscriptionStates = [
  'Active',
  'Expiring soon',
  'Expired',
  'Blocked',
  'Free',
  'No subscription',
] as const;
export type SubscriptionState = (typeof subscriptionStates)[number];

/** The `status` filter of getSubscriptions, one key per state (URL-friendly). */
export const subscriptionStateKeys = {
  active: 'Active',
  expiring: 'Expiring soon',
  expired: 'Expired',
  blocked: 'Blocked',
  free: 'Free',
  none: 'No subscription',
} as const satisfies Record<string, SubscriptionState>;
export type SubscriptionStateKey = keyof typeof subscriptionStateKeys;
export const subscriptionStateKeyList = Object.keys(subscriptionStateKeys) as [
  SubscriptionStateKey,
  ...SubscriptionStateKey[],
];

/** A period ending within this many days shows as "Expiring soon", so the seller renews in time. */
export const EXPIRING_SOON_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The one state rule (the server's SQL filter mirrors it; a test checks they agree). `endsAt` is the
 * end of the seller's latest period, or null when they never had one.
 */
export function subscriptionState(
  seller: { blocked: boolean; isFree: boolean },
  endsAt: Date | null,
  now: Date = new Date(),
): SubscriptionState {
  if (seller.blocked) return 'Blocked';
  if (seller.isFree) return 'Free';
  if (!endsAt) return 'No subscription';
  const left = endsAt.getTime() - now.getTime();
  if (left <= 0) return 'Expired';
  if (left <= EXPIRING_SOON_DAYS * DAY_MS) return 'Expiring soon';
  return 'Active';
}

/** Whole days until `endsAt`, rounded up (ends in 3 h → 1 day left); 0 once it has ended. */
export function daysLeft(endsAt: Date, now: Date = new Date()): number {
  return Math.max(0, Math.ceil((endsAt.getTime() - now.getTime()) / DAY_MS));
}

// ── Plans and periods ────────────────────────────────────────────────────────────────────────────────

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** In minor units (paise for INR). */
  priceMinor: z.number(),
  currency: z.string(),
  periodDays: z.number(),
  isActive: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;

export const planListSchema = z.object({ result: z.array(planSchema) });

export const periodSchema = z.object({
  id: z.string(),
  plan: planSchema.pick({ id: true, name: true, priceMinor: true, currency: true, periodDays: true }),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type Period = z.infer<typeof periodSchema>;

/** The seller's subscription right now: state, plan and renewal date (the latest period's end). */
export const currentSubscriptionSchema = z.object({
  state: z.enum(subscriptionStates),
  plan: planSchema.nullable(),
  startsAt: z.string().nullable(),
  /** When the subscription must be renewed: the end of the latest period. */
  endsAt: z.string().nullable(),
  daysLeft: z.number().nullable(),
});
export type CurrentSubscription = z.infer<typeof currentSubscriptionSchema>;

// ── Renewal requests ─────────────────────────────────────────────────────────────────────────────────

export const renewalStatuses = ['pending', 'approved', 'rejected'] as const;
export type RenewalStatus = (typeof renewalStatuses)[number];

export const renewalRequestSchema = z.object({
  id: z.string(),
  seller: z.object({ id: z.string(), sellerCode: z.string(), sellerName: z.string() }),
  plan: planSchema.pick({ id: true, name: true, priceMinor: true, currency: true, periodDays: true }),
  status: z.enum(renewalStatuses),
  note: z.string().nullable(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type RenewalRequest = z.infer<typeof renewalRequestSchema>;

const note = z.string().trim().max(500, 'Keep the note under 500 characters');

export const requestRenewalBodySchema = z.object({
  planId: z.string().uuid('Choose a plan'),
  note: note.optional(),
});
export type RequestRenewalBody = z.infer<typeof requestRenewalBodySchema>;

export const renewalDecisions = ['approve', 'reject'] as const;
export type RenewalDecision = (typeof renewalDecisions)[number];

export const decideRenewalBodySchema = z
  .object({ decision: z.enum(renewalDecisions), note: note.optional() })
  // A rejected seller needs to know why and what to do next.
  .refine((body) => body.decision === 'approve' || !!body.note, {
    message: 'Give the seller a reason for the rejection',
    path: ['note'],
  });
export type DecideRenewalBody = z.infer<typeof decideRenewalBodySchema>;

/** `decided` = approved or rejected, newest decision first; `pending` is oldest first (a queue). */
export const renewalListFilters = ['pending', 'approved', 'rejected', 'decided'] as const;
export type RenewalListFilter = (typeof renewalListFilters)[number];

export const pageQuerySchema = z.object({
  skip: intParam.default(0),
  limit: intParam.min(1).max(100).default(20),
});

export const listRenewalRequestsQuerySchema = pageQuerySchema.extend({
  status: z.enum(renewalListFilters).default('pending'),
});

export const renewalRequestListSchema = z.object({
  result: z.array(renewalRequestSchema),
  count: z.number(),
});

// ── One seller's subscription (getSellerSubscriptions) ───────────────────────────────────────────────

export const subscriptionSellerSchema = z.object({
  id: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
  blocked: z.boolean(),
  isNewSeller: z.boolean(),
  isFree: z.boolean(),
});

export const sellerSubscriptionsSchema = z.object({
  seller: subscriptionSellerSchema,
  current: currentSubscriptionSchema,
  /** Periods, latest first, paged by skip/limit. */
  periods: z.array(periodSchema),
  periodCount: z.number(),
  /** The open renewal request, if any (at most one per seller). */
  pendingRequest: renewalRequestSchema.nullable(),
  /** The latest few requests, newest first, so the seller sees how earlier ones were decided. */
  recentRequests: z.array(renewalRequestSchema),
});
export type SellerSubscriptions = z.infer<typeof sellerSubscriptionsSchema>;

export const sellerSubscriptionsQuerySchema = pageQuerySchema.extend({
  limit: intParam.min(1).max(100).default(12),
  /** Sellers may name only themselves; anything else is refused (403), never silently swapped. */
  sellerId: z.string().uuid('sellerId must be a seller id').optional(),
});

// ── Every seller's subscription (getSubscriptions) and blocking ──────────────────────────────────────

export const subscriptionRowSchema = subscriptionSellerSchema.extend({
  email: z.string(),
  current: currentSubscriptionSchema,
  hasPendingRequest: z.boolean(),
});
export type SubscriptionRow = z.infer<typeof subscriptionRowSchema>;

export const listSubscriptionsQuerySchema = pageQuerySchema.extend({
  status: z.enum(subscriptionStateKeyList).optional(),
  query: z.string().trim().max(100).optional(),
});

export const subscriptionListSchema = z.object({
  result: z.array(subscriptionRowSchema),
  count: z.number(),
});

export const blockSubscriptionBodySchema = z.object({
  sellerId: z.string().uuid('sellerId must be a seller id'),
  blocked: z.boolean(),
  reason: note.optional(),
});
export type BlockSubscriptionBody = z.infer<typeof blockSubscriptionBodySchema>;

export const blockSubscriptionResultSchema = z.object({
  sellerId: z.string(),
  blocked: z.boolean(),
  isNewSeller: z.boolean(),
  current: currentSubscriptionSchema,
});

/** What the blocked-seller guard answers (403) on every API a blocked seller may not use. */
export const SELLER_BLOCKED_CODE = 'SELLER_BLOCKED';
export const SELLER_BLOCKED_MESSAGE = 'Your subscription is blocked. Renew it to continue.';

/** What the seller does next after requesting a renewal (server/modules/subscriptions/payment-provider.ts). */
export const paymentStartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('manual'), instructions: z.string() }),
  z.object({ kind: z.literal('redirect'), url: z.string() }),
]);

export const requestRenewalResultSchema = z.object({
  request: renewalRequestSchema,
  payment: paymentStartSchema,
});
export type RequestRenewalResult = z.infer<typeof requestRenewalResultSchema>;

export const decideRenewalResultSchema = z.object({
  request: renewalRequestSchema,
  /** The seller's subscription after the decision (a new period once approved). */
  current: currentSubscriptionSchema,
});
export type DecideRenewalResult = z.infer<typeof decideRenewalResultSchema>;
