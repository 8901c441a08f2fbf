// The renewal flow: a seller asks for a plan, an admin approves (a new period starts, the seller is let
// back in) or rejects with a reason. Every step is written to the seller's history in the same
// transaction as the change, so the history never misses or invents one.
import { and, eq } from 'drizzle-orm';
import { isoDay } from '../../../contracts/domain/format';
import type {
  DecideRenewalResult,
  RenewalDecision,
  RequestRenewalResult,
} from '../../../contracts/subscriptions';
import type { Db } from '../../db/client';
import { sellerSubscriptions, sellers, subscriptionRequests } from '../../db/schema';
import { type Actor, diffFields, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import type { PaymentProvider } from './payment-provider';
import { currentSubscription, findPlan, findRenewalRequest, latestPeriod, sellerNotFound } from './service';

const DAY_MS = 86_400_000;
const ONE_PENDING_INDEX = 'subscription_requests_one_pending_uq';

const alreadyPending = () =>
  new HttpError(409, 'You already have a renewal request waiting for approval.', 'RENEWAL_ALREADY_PENDING');

export async function requestRenewal(
  db: Db,
  payments: PaymentProvider,
  input: { sellerId: string; planId: string; note?: string; actor: Actor },
): Promise<RequestRenewalResult> {
  const plan = await findPlan(db, input.planId);
  if (!plan.isActive) {
    throw new HttpError(409, 'This plan is no longer offered. Choose another plan.', 'PLAN_UNAVAILABLE');
  }
  let requestId: string;
  try {
    requestId = await db.transaction(async (tx) => {
      const [seller] = await tx.select().from(sellers).where(eq(sellers.id, input.sellerId));
      if (!seller) throw sellerNotFound();
      if (seller.isFree) {
        throw new HttpError(409, 'Your store is on a free plan: there is nothing to renew.', 'SELLER_FREE');
      }
      const [pending] = await tx
        .select({ id: subscriptionRequests.id })
        .from(subscriptionRequests)
        .where(and(eq(subscriptionRequests.sellerId, seller.id), eq(subscriptionRequests.status, 'pending')));
      if (pending) throw alreadyPending();
      const [created] = await tx
        .insert(subscriptionRequests)
        .values({
          sellerId: seller.id,
          planId: plan.id,
          note: input.note || null,
          requestedBy: input.actor.id,
        })
        .returning({ id: subscriptionRequests.id });
      await recordAudit(tx, {
        subject: { type: 'seller', id: seller.id },
        actor: input.actor,
        action: 'subscription',
        note: `Renewal requested: ${plan.name} (${plan.periodDays} days)${input.note ? `. ${input.note}` : ''}`,
      });
      return created!.id;
    });
  } catch (error) {
    // Two requests at the same moment both pass the check; the partial unique index stops the second.
    if (isUniqueViolation(error, ONE_PENDING_INDEX)) throw alreadyPending();
    throw error;
  }
  const payment = await payments.startPayment({
    requestId,
    sellerId: input.sellerId,
    plan: { name: plan.name, priceMinor: plan.priceMinor, currency: plan.currency },
  });
  return { request: await findRenewalRequest(db, requestId), payment };
}

export async function decideRenewal(
  db: Db,
  payments: PaymentProvider,
  input: { requestId: string; decision: RenewalDecision; note?: string; actor: Actor },
): Promise<DecideRenewalResult> {
  const request = await findRenewalRequest(db, input.requestId);
  if (request.status !== 'pending') throw alreadyDecided(request.status);
  let reference: string | null = null;
  if (input.decision === 'approve') {
    const payment = await payments.confirmPayment({ requestId: request.id, sellerId: request.seller.id });
    if (!payment.confirmed) {
      throw new HttpError(
        409,
        payment.reason ?? 'The payment for this renewal has not been received yet.',
        'PAYMENT_NOT_CONFIRMED',
      );
    }
    reference = payment.reference;
  }

  await db.transaction(async (tx) => {
    const now = new Date();
    // Only a request that is still pending changes: of two admins deciding at once, one wins.
    const [decided] = await tx
      .update(subscriptionRequests)
      .set({
        status: input.decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: input.actor.id,
        decisionNote: input.note || null,
        decidedAt: now,
      })
      .where(and(eq(subscriptionRequests.id, request.id), eq(subscriptionRequests.status, 'pending')))
      .returning();
    if (!decided) {
      const [current] = await tx
        .select({ status: subscriptionRequests.status })
        .from(subscriptionRequests)
        .where(eq(subscriptionRequests.id, request.id));
      throw alreadyDecided(current?.status ?? 'decided');
    }

    if (input.decision === 'reject') {
      await recordAudit(tx, {
        subject: { type: 'seller', id: decided.sellerId },
        actor: input.actor,
        action: 'subscription',
        note: `Renewal request for ${request.plan.name} rejected: ${input.note ?? ''}`.trim(),
      });
      return;
    }

    // Lock the seller so a concurrent block/unblock cannot interleave with the new period.
    const [seller] = await tx.select().from(sellers).where(eq(sellers.id, decided.sellerId)).for('update');
    if (!seller) throw sellerNotFound();
    const plan = await findPlan(tx, decided.planId);
    const latest = await latestPeriod(tx, seller.id);
    // A period still running is extended from its end, so the seller never loses paid days.
    const startsAt = latest && latest.period.endsAt > now ? latest.period.endsAt : now;
    const endsAt = new Date(startsAt.getTime() + plan.periodDays * DAY_MS);
    await tx.insert(sellerSubscriptions).values({ sellerId: seller.id, planId: plan.id, startsAt, endsAt });
    await tx
      .update(sellers)
      .set({ blocked: false, isNewSeller: false, updatedAt: now })
      .where(eq(sellers.id, seller.id));
    const before = {
      blocked: seller.blocked,
      isNewSeller: seller.isNewSeller,
      plan: latest?.plan.name ?? null,
      renewalDate: latest ? isoDay(latest.period.endsAt) : null,
    };
    const after = { blocked: false, isNewSeller: false, plan: plan.name, renewalDate: isoDay(endsAt) };
    await recordAudit(tx, {
      subject: { type: 'seller', id: seller.id },
      actor: input.actor,
      action: 'subscription',
      changes: diffFields(before, after, ['blocked', 'isNewSeller', 'plan', 'renewalDate']),
      note: [
        `Renewal approved: ${plan.name}, ${isoDay(startsAt)} to ${isoDay(endsAt)}`,
        reference ? `payment ${reference}` : null,
        input.note || null,
      ]
        .filter(Boolean)
        .join('. '),
    });
  });

  const [seller] = await db.select().from(sellers).where(eq(sellers.id, request.seller.id));
  if (!seller) throw sellerNotFound();
  return {
    request: await findRenewalRequest(db, request.id),
    current: await currentSubscription(db, seller),
  };
}

function alreadyDecided(status: string) {
  return new HttpError(409, `This request has already been ${status}.`, 'REQUEST_ALREADY_DECIDED');
}

/** Blocks or unblocks a seller by an admin's decision (blockSubscription). */
export async function setSellerBlocked(
  db: Db,
  input: { sellerId: string; blocked: boolean; reason?: string; actor: Actor },
) {
  await db.transaction(async (tx) => {
    const [seller] = await tx.select().from(sellers).where(eq(sellers.id, input.sellerId)).for('update');
    if (!seller) throw sellerNotFound();
    if (seller.blocked === input.blocked) {
      throw new HttpError(
        409,
        input.blocked ? 'This seller is already blocked.' : 'This seller is not blocked.',
        input.blocked ? 'ALREADY_BLOCKED' : 'NOT_BLOCKED',
      );
    }
    await tx
      .update(sellers)
      .set({ blocked: input.blocked, updatedAt: new Date() })
      .where(eq(sellers.id, seller.id));
    await recordAudit(tx, {
      subject: { type: 'seller', id: seller.id },
      actor: input.actor,
      action: 'subscription',
      changes: [{ field: 'blocked', before: seller.blocked, after: input.blocked }],
      note: [input.blocked ? 'Subscription blocked' : 'Subscription unblocked', input.reason || null]
        .filter(Boolean)
        .join(': '),
    });
  });
  const [seller] = await db.select().from(sellers).where(eq(sellers.id, input.sellerId));
  if (!seller) throw sellerNotFound();
  return {
    sellerId: seller.id,
    blocked: seller.blocked,
    isNewSeller: seller.isNewSeller,
    current: await currentSubscription(db, seller),
  };
}
