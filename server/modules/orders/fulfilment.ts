// An order's money and goods after it is placed (issue 31): payments recorded by hand, refunds (any
// number, each with a reason, never more than was captured; goods sent back restocked or written off),
// the shipment (its stock consumed, the customer mailed the tracking number), delivery and cancelling
// (its stock released). Each runs under `SELECT … FOR UPDATE` of the order, so two refunds at once
// cannot both take the last of the captured money; status and payment state are recomputed from the
// sums (contracts/domain/order-state.ts), never typed in.
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatMoney } from '../../../contracts/domain/currency';
import { minorToDecimal } from '../../../contracts/domain/offer-pricing';
import {
  type OrderStatus,
  orderActionProblem,
  orderReference,
  paymentStateOf,
  statusAfterMoney,
} from '../../../contracts/domain/order-state';
import type { OfferPricing } from '../../../contracts/offers';
import {
  type PaymentBody,
  paymentMethodLabels,
  type RefundBody,
  type ShipmentBody,
} from '../../../contracts/orders';
import type { Tx } from '../../db/client';
import { orderPayments, orderRefunds, orderShipments, orders } from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import type { RouteViewer } from '../../lib/route-viewer';
import { sellerName } from '../invoices/drafts';
import { storeInvoiceFiles } from '../invoices/files';
import { creditOrderRefund, followOrderPayment, refundCreditContext } from '../invoices/issue';
import { todayFor } from '../invoices/numbering';
import { adjustStock, consumeStock, releaseStock } from '../stock/stock';
import { findOrder, holderOf, type OrderRow } from './service';

type OrderApp = Pick<FastifyInstance, 'db' | 'mailer' | 'settings' | 'storage'>;
type Action = Parameters<typeof orderActionProblem>[0];

const amountText = (amountMinor: number, currency: string) =>
  formatMoney(Number(minorToDecimal(amountMinor, currency)), currency);

/** Locks the order and refuses the action when its status does not allow it. */
async function lockedFor(tx: Tx, viewer: RouteViewer, id: string, action: Action): Promise<OrderRow> {
  const row = await findOrder(tx, viewer, id, true);
  const problem = orderActionProblem(action, row.status as OrderStatus, row);
  if (problem) throw new HttpError(409, problem, 'ORDER_ACTION_REFUSED');
  return row;
}

/** Writes the new sums with the status and payment state they give. */
async function writeMoney(tx: Tx, row: OrderRow, paidMinor: number, refundedMinor: number) {
  const money = { totalMinor: row.totalMinor, paidMinor, refundedMinor };
  const status = statusAfterMoney(row.status as OrderStatus, money);
  await tx
    .update(orders)
    .set({ paidMinor, refundedMinor, status, paymentState: paymentStateOf(money), updatedAt: new Date() })
    .where(eq(orders.id, row.id));
  return status;
}

export async function recordPayment(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  body: PaymentBody,
) {
  const peek = await findOrder(app.db, viewer, id);
  const today = todayFor(await app.settings.effective(peek.sellerId));
  await app.db.transaction(async (tx) => {
    const row = await lockedFor(tx, viewer, id, 'pay');
    const due = row.totalMinor - row.paidMinor;
    if (body.amountMinor > due)
      throw new HttpError(
        409,
        `That is more than the ${amountText(due, row.currency)} still due.`,
        'PAYMENT_OVER_BALANCE',
      );
    await tx.insert(orderPayments).values({ orderId: id, ...body, actorId: actor.id, actorName: actor.name });
    const status = await writeMoney(tx, row, row.paidMinor + body.amountMinor, row.refundedMinor);
    await followOrderPayment(tx, id, row.paidMinor + body.amountMinor, today);
    await recordAudit(tx, {
      subject: { type: 'order', id },
      actor,
      action: 'payment',
      changes: status !== row.status ? [{ field: 'Status', before: row.status, after: status }] : [],
      note: `${amountText(body.amountMinor, row.currency)} by ${paymentMethodLabels[body.method].toLowerCase()}${body.reference ? ` (${body.reference})` : ''}, paid on ${body.paidOn}`,
    });
  });
}

/**
 * A refund of part or all of what was captured. Goods sent back (only from a shipped order) go back on
 * hand or are written off. A full refund of an order not yet shipped releases its stock.
 */
export async function recordRefund(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  body: RefundBody,
): Promise<{ refundId: string; number: number; creditNoteId: string }> {
  const peek = await findOrder(app.db, viewer, id);
  const credit = await refundCreditContext(
    app,
    peek.sellerId,
    await sellerName(app.db, peek.sellerId),
    actor,
  );
  const result = await app.db.transaction(async (tx) => {
    const row = await lockedFor(tx, viewer, id, 'refund');
    const refundable = row.paidMinor - row.refundedMinor;
    if (body.amountMinor > refundable)
      throw new HttpError(
        409,
        `At most ${amountText(refundable, row.currency)} can be refunded: that is what was paid and not refunded yet.`,
        'REFUND_OVER_CAPTURED',
      );
    const pricing = row.pricing as unknown as OfferPricing;
    const returns = checkedReturns(row, pricing, body.returns);
    for (const item of returns)
      if (item.restock)
        await adjustStock(tx, item.productId, item.quantity, 'return', {
          note: `${orderReference(row.number)}: ${body.reason}`,
          actor,
        });
    const [{ next }] = (await tx
      .select({ next: sql<number>`coalesce(max(${orderRefunds.number}), 0)::integer + 1` })
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, id))) as [{ next: number }];
    const [refund] = await tx
      .insert(orderRefunds)
      .values({
        orderId: id,
        number: next,
        amountMinor: body.amountMinor,
        reason: body.reason,
        returns,
        actorId: actor.id,
        actorName: actor.name,
      })
      .returning({ id: orderRefunds.id });
    const refunded = row.refundedMinor + body.amountMinor;
    const status = await writeMoney(tx, row, row.paidMinor, refunded);
    if (status === 'refunded' && (row.status === 'pending' || row.status === 'paid'))
      await releaseStock(tx, holderOf(id), actor);
    await recordAudit(tx, {
      subject: { type: 'order', id },
      actor,
      action: 'refund',
      changes: status !== row.status ? [{ field: 'Status', before: row.status, after: status }] : [],
      note: `Refund ${next}: ${amountText(body.amountMinor, row.currency)} — ${body.reason}${
        returns.length
          ? `; returned ${returns.map((item) => `${item.quantity} × ${item.name} (${item.restock ? 'restocked' : 'written off'})`).join(', ')}`
          : ''
      }`,
    });
    const note = await creditOrderRefund(tx, row, { id: refund!.id, ...body }, credit);
    return { refundId: refund!.id, number: next, creditNote: note };
  });
  // The credit note's files (and those of an invoice issued with it are stored on their first read).
  await storeInvoiceFiles(app, result.creditNote).catch(() => undefined);
  return { refundId: result.refundId, number: result.number, creditNoteId: result.creditNote.id };
}

/** Goods back must be of the order, and no more than it shipped (less what earlier refunds took back). */
function checkedReturns(row: OrderRow, pricing: OfferPricing, returns: RefundBody['returns']) {
  if (returns.length === 0) return [];
  if (row.status !== 'shipped' && row.status !== 'delivered')
    throw new HttpError(409, 'Goods come back only from a shipped order.', 'NOT_SHIPPED');
  const ordered = new Map<string, { name: string; quantity: number }>();
  for (const line of pricing.lines)
    if (line.productId) {
      const seen = ordered.get(line.productId);
      ordered.set(line.productId, { name: line.name, quantity: (seen?.quantity ?? 0) + line.quantity });
    }
  const asked = new Map<string, number>();
  for (const item of returns) {
    const line = ordered.get(item.productId);
    if (!line) throw new HttpError(400, 'Return only products of this order.', 'RETURN_NOT_IN_ORDER');
    const total = (asked.get(item.productId) ?? 0) + item.quantity;
    if (total > line.quantity)
      throw new HttpError(
        400,
        `At most ${line.quantity} of ${line.name} can come back.`,
        'RETURN_OVER_ORDERED',
      );
    asked.set(item.productId, total);
  }
  return returns.map((item) => ({ ...item, name: ordered.get(item.productId)!.name }));
}

export async function shipOrder(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  body: ShipmentBody,
) {
  const row = await app.db.transaction(async (tx) => {
    const locked = await lockedFor(tx, viewer, id, 'ship');
    await consumeStock(tx, holderOf(id), actor);
    await tx.insert(orderShipments).values({
      orderId: id,
      carrier: body.carrier,
      trackingNumber: body.trackingNumber,
      actorId: actor.id,
      actorName: actor.name,
    });
    await tx
      .update(orders)
      .set({ status: 'shipped', shippedAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, id));
    await recordAudit(tx, {
      subject: { type: 'order', id },
      actor,
      action: 'shipped',
      changes: [{ field: 'Status', before: locked.status, after: 'shipped' }],
      note: `${body.carrier}${body.trackingNumber ? `, tracking ${body.trackingNumber}` : ''}`,
    });
    return locked;
  });
  if (body.notifyCustomer) {
    const reference = orderReference(row.number);
    await app.mailer.send({
      to: row.email,
      subject: `Your order ${reference} has shipped`,
      text: `Hello ${row.customerName},\n\nYour order ${reference} is on its way with ${body.carrier}.${
        body.trackingNumber ? `\nTracking number: ${body.trackingNumber}` : ''
      }\n\nThank you for your order.\n`,
      key: `order-shipped-${row.id}`,
    });
  }
}

export async function deliverOrder(app: OrderApp, viewer: RouteViewer, actor: Actor, id: string) {
  await app.db.transaction(async (tx) => {
    await lockedFor(tx, viewer, id, 'deliver');
    await tx
      .update(orders)
      .set({ status: 'delivered', deliveredAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, id));
    await recordAudit(tx, {
      subject: { type: 'order', id },
      actor,
      action: 'delivered',
      changes: [{ field: 'Status', before: 'shipped', after: 'delivered' }],
    });
  });
}

export async function cancelOrder(
  app: OrderApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  reason: string,
) {
  await app.db.transaction(async (tx) => {
    const row = await lockedFor(tx, viewer, id, 'cancel');
    await releaseStock(tx, holderOf(id), actor);
    await tx
      .update(orders)
      .set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, id));
    await recordAudit(tx, {
      subject: { type: 'order', id },
      actor,
      action: 'cancelled',
      changes: [{ field: 'Status', before: row.status, after: 'cancelled' }],
      note: reason,
    });
  });
}
