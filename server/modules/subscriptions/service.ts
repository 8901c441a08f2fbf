// Reads of the subscription manager: plans, a seller's current subscription and periods, everyone's
// subscriptions (paged, filtered by state), renewal requests. Writes live in renewals.ts and block.ts.
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type CurrentSubscription,
  daysLeft,
  EXPIRING_SOON_DAYS,
  type Plan,
  type RenewalListFilter,
  type RenewalRequest,
  type RenewalStatus,
  type SellerSubscriptions,
  type SubscriptionRow,
  type SubscriptionState,
  subscriptionState,
} from '../../../contracts/subscriptions';
import type { Db, Tx } from '../../db/client';
import {
  sellerSubscriptions,
  sellers,
  subscriptionPlans,
  subscriptionRequests,
  users,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { displayName } from '../users/current-user';

type PlanRow = typeof subscriptionPlans.$inferSelect;
type SellerFlags = Pick<typeof sellers.$inferSelect, 'blocked' | 'isFree'>;

export const sellerNotFound = () => new HttpError(404, 'Seller not found', 'SELLER_NOT_FOUND');

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    priceMinor: row.priceMinor,
    currency: row.currency,
    periodDays: row.periodDays,
    isActive: row.isActive,
  };
}

const planSummary = (row: Pick<PlanRow, 'id' | 'name' | 'priceMinor' | 'currency' | 'periodDays'>) => ({
  id: row.id,
  name: row.name,
  priceMinor: row.priceMinor,
  currency: row.currency,
  periodDays: row.periodDays,
});

/** Plans a seller can choose, cheapest first (inactive ones only for the admins' history views). */
export async function listPlans(db: Db, options: { activeOnly: boolean }): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(subscriptionPlans)
    .where(options.activeOnly ? eq(subscriptionPlans.isActive, true) : undefined)
    .orderBy(asc(subscriptionPlans.periodDays), asc(subscriptionPlans.priceMinor));
  return rows.map(toPlan);
}

export async function findPlan(db: Db | Tx, id: string): Promise<PlanRow> {
  const [plan] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
  if (!plan) throw new HttpError(404, 'Subscription plan not found', 'PLAN_NOT_FOUND');
  return plan;
}

/** The latest period of a seller (the current one: latest `startsAt`), with its plan, or null. */
export async function latestPeriod(db: Db | Tx, sellerId: string) {
  const [row] = await db
    .select({ period: sellerSubscriptions, plan: subscriptionPlans })
    .from(sellerSubscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, sellerSubscriptions.planId))
    .where(eq(sellerSubscriptions.sellerId, sellerId))
    .orderBy(desc(sellerSubscriptions.startsAt))
    .limit(1);
  return row ?? null;
}

export function currentSubscriptionOf(
  seller: SellerFlags,
  latest: { period: { startsAt: Date; endsAt: Date }; plan: PlanRow } | null,
  now = new Date(),
): CurrentSubscription {
  const endsAt = latest?.period.endsAt ?? null;
  return {
    state: subscriptionState(seller, endsAt, now),
    plan: latest ? toPlan(latest.plan) : null,
    startsAt: latest?.period.startsAt.toISOString() ?? null,
    endsAt: endsAt?.toISOString() ?? null,
    daysLeft: endsAt ? daysLeft(endsAt, now) : null,
  };
}

/** A seller's subscription right now (state, plan, renewal date), for the dashboards and the guard's page. */
export async function currentSubscription(
  db: Db | Tx,
  seller: SellerFlags & { id: string },
): Promise<CurrentSubscription> {
  return currentSubscriptionOf(seller, await latestPeriod(db, seller.id));
}

// ── Renewal requests ─────────────────────────────────────────────────────────────────────────────────

const decider = users;

function requestSelect() {
  return {
    request: subscriptionRequests,
    seller: { id: sellers.id, sellerCode: sellers.sellerCode, sellerName: sellers.sellerName },
    plan: {
      id: subscriptionPlans.id,
      name: subscriptionPlans.name,
      priceMinor: subscriptionPlans.priceMinor,
      currency: subscriptionPlans.currency,
      periodDays: subscriptionPlans.periodDays,
    },
    decider: { firstName: decider.firstName, lastName: decider.lastName, email: decider.email },
  };
}

type RequestJoinRow = {
  request: typeof subscriptionRequests.$inferSelect;
  seller: { id: string; sellerCode: string; sellerName: string };
  plan: Pick<PlanRow, 'id' | 'name' | 'priceMinor' | 'currency' | 'periodDays'>;
  decider: { firstName: string; lastName: string; email: string } | null;
};

function toRenewalRequest(row: RequestJoinRow): RenewalRequest {
  const { request } = row;
  return {
    id: request.id,
    seller: row.seller,
    plan: planSummary(row.plan),
    status: request.status as RenewalStatus,
    note: request.note,
    requestedAt: request.createdAt.toISOString(),
    decidedAt: request.decidedAt?.toISOString() ?? null,
    decidedBy: row.decider
      ? displayName(row.decider.firstName, row.decider.lastName, row.decider.email)
      : null,
    decisionNote: request.decisionNote,
  };
}

function requestQuery(db: Db | Tx, where: SQL | undefined) {
  return db
    .select(requestSelect())
    .from(subscriptionRequests)
    .innerJoin(sellers, eq(sellers.id, subscriptionRequests.sellerId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptionRequests.planId))
    .leftJoin(decider, eq(decider.id, subscriptionRequests.decidedBy))
    .where(where);
}

export async function findRenewalRequest(db: Db | Tx, id: string): Promise<RenewalRequest> {
  const [row] = await requestQuery(db, eq(subscriptionRequests.id, id));
  if (!row) throw new HttpError(404, 'Renewal request not found', 'REQUEST_NOT_FOUND');
  return toRenewalRequest(row);
}

/** Pending requests oldest first (a queue worked from the top); decided ones newest decision first. */
export async function listRenewalRequests(
  db: Db,
  filter: RenewalListFilter,
  page: { skip: number; limit: number },
): Promise<{ result: RenewalRequest[]; count: number }> {
  const where =
    filter === 'decided'
      ? inArray(subscriptionRequests.status, ['approved', 'rejected'])
      : eq(subscriptionRequests.status, filter);
  const order =
    filter === 'pending'
      ? [asc(subscriptionRequests.createdAt), asc(subscriptionRequests.id)]
      : [desc(subscriptionRequests.decidedAt), desc(subscriptionRequests.id)];
  const [rows, [total]] = await Promise.all([
    requestQuery(db, where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.skip),
    db.select({ value: count() }).from(subscriptionRequests).where(where),
  ]);
  return { result: rows.map(toRenewalRequest), count: total?.value ?? 0 };
}

// ── One seller ───────────────────────────────────────────────────────────────────────────────────────

const RECENT_REQUESTS = 5;

export async function sellerSubscriptionDetail(
  db: Db,
  sellerId: string,
  page: { skip: number; limit: number },
): Promise<SellerSubscriptions> {
  const [seller] = await db.select().from(sellers).where(eq(sellers.id, sellerId));
  if (!seller) throw sellerNotFound();
  const [latest, periods, [periodTotal], requests] = await Promise.all([
    latestPeriod(db, sellerId),
    db
      .select({ period: sellerSubscriptions, plan: subscriptionPlans })
      .from(sellerSubscriptions)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, sellerSubscriptions.planId))
      .where(eq(sellerSubscriptions.sellerId, sellerId))
      .orderBy(desc(sellerSubscriptions.startsAt), desc(sellerSubscriptions.id))
      .limit(page.limit)
      .offset(page.skip),
    db.select({ value: count() }).from(sellerSubscriptions).where(eq(sellerSubscriptions.sellerId, sellerId)),
    requestQuery(db, eq(subscriptionRequests.sellerId, sellerId))
      .orderBy(desc(subscriptionRequests.createdAt), desc(subscriptionRequests.id))
      .limit(RECENT_REQUESTS),
  ]);
  const recentRequests = requests.map(toRenewalRequest);
  // The one pending request is always among the latest: a seller cannot request while one is open.
  const pendingRequest = recentRequests.find((request) => request.status === 'pending') ?? null;
  return {
    seller: {
      id: seller.id,
      sellerCode: seller.sellerCode,
      sellerName: seller.sellerName,
      blocked: seller.blocked,
      isNewSeller: seller.isNewSeller,
      isFree: seller.isFree,
    },
    current: currentSubscriptionOf(seller, latest),
    periods: periods.map(({ period, plan }) => ({
      id: period.id,
      plan: planSummary(plan),
      startsAt: period.startsAt.toISOString(),
      endsAt: period.endsAt.toISOString(),
    })),
    periodCount: periodTotal?.value ?? 0,
    pendingRequest,
    recentRequests,
  };
}

// ── Every seller (getSubscriptions) ──────────────────────────────────────────────────────────────────

/**
 * The state rule of contracts/subscriptions.ts `subscriptionState`, in SQL, so the list filters and
 * pages in the database. subscriptions.test.ts checks that both agree on every seeded seller.
 */
function stateSql(endsAt: SQL): SQL<SubscriptionState> {
  return sql<SubscriptionState>`case
    when ${sellers.blocked} then 'Blocked'
    when ${sellers.isFree} then 'Free'
    when ${endsAt} is null then 'No subscription'
    when ${endsAt} <= now() then 'Expired'
    when ${endsAt} <= now() + make_interval(days => ${EXPIRING_SOON_DAYS}) then 'Expiring soon'
    else 'Active' end`;
}

export async function listSubscriptions(
  db: Db,
  options: { state?: SubscriptionState; query?: string; skip: number; limit: number },
): Promise<{ result: SubscriptionRow[]; count: number }> {
  // Each seller's latest period through an index-backed lateral lookup (seller_id, starts_at).
  const latest = db
    .select({
      planId: sellerSubscriptions.planId,
      startsAt: sellerSubscriptions.startsAt,
      endsAt: sellerSubscriptions.endsAt,
    })
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.sellerId, sellers.id))
    .orderBy(desc(sellerSubscriptions.startsAt))
    .limit(1)
    .as('latest');
  const state = stateSql(sql`${latest.endsAt}`);
  const filters: SQL[] = [];
  if (options.state) filters.push(sql`${state} = ${options.state}`);
  if (options.query) {
    // The same expression as the trigram index sellers_search_trgm_idx, so the index serves it.
    filters.push(
      sql`lower(${sellers.sellerName} || ' ' || ${sellers.sellerCode} || ' ' || ${sellers.email} || ' ' || ${sellers.phone}) like lower(${containsPattern(options.query)})`,
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  const hasPending = sql<boolean>`exists (select 1 from ${subscriptionRequests} where ${subscriptionRequests.sellerId} = ${sellers.id} and ${subscriptionRequests.status} = 'pending')`;

  const [rows, [total]] = await Promise.all([
    db
      .select({
        seller: sellers,
        state,
        startsAt: latest.startsAt,
        endsAt: latest.endsAt,
        plan: subscriptionPlans,
        hasPending,
      })
      .from(sellers)
      .leftJoinLateral(latest, sql`true`)
      .leftJoin(subscriptionPlans, eq(subscriptionPlans.id, latest.planId))
      .where(where)
      // Soonest renewal first: what needs attention is at the top; sellers without a period last.
      .orderBy(sql`${latest.endsAt} asc nulls last`, asc(sellers.sellerName), asc(sellers.id))
      .limit(options.limit)
      .offset(options.skip),
    db.select({ value: count() }).from(sellers).leftJoinLateral(latest, sql`true`).where(where),
  ]);
  const now = new Date();
  return {
    result: rows.map((row) => {
      const { endsAt, startsAt } = row;
      return {
        id: row.seller.id,
        sellerCode: row.seller.sellerCode,
        sellerName: row.seller.sellerName,
        email: row.seller.email,
        blocked: row.seller.blocked,
        isNewSeller: row.seller.isNewSeller,
        isFree: row.seller.isFree,
        hasPendingRequest: Boolean(row.hasPending),
        current: {
          state: row.state,
          plan: row.plan ? toPlan(row.plan) : null,
          startsAt: startsAt?.toISOString() ?? null,
          endsAt: endsAt?.toISOString() ?? null,
          daysLeft: endsAt ? daysLeft(endsAt, now) : null,
        },
      };
    }),
    count: total?.value ?? 0,
  };
}
