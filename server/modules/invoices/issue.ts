// Writing invoices (issue 31): drafts made and deleted, issuing (the number from the issuer's counter,
// the document frozen with its SHA-256, all in one transaction), payments, a failed payment, and credit
// notes: for a refund of an order (its invoice issued first when it has none: a credit note always
// corrects an invoice) and to cancel an invoice nobody paid. Each runs under the invoice's row lock.
import { createHash } from 'node:crypto';
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { creditLinesFor } from '../../../contracts/domain/credit-note';
import {
  creditableMinor,
  type InvoiceAction,
  type InvoiceKind,
  type InvoiceStatus,
  invoiceActionProblem,
  issuedInvoiceStatus,
} from '../../../contracts/domain/invoice-state';
import type { AllSettings } from '../../../contracts/settings';
import type { Tx } from '../../db/client';
import { invoices, orderRefunds, orders } from '../../db/schema';
import { type Actor, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import type { RouteViewer } from '../../lib/route-viewer';
import { type Draft, draftOfOrder, MARKETPLACE, type StoredDocument, totalsOf } from './drafts';
import { addDays, drawNumber, todayFor } from './numbering';
import { documentOf, findInvoice, type InvoiceRow } from './read';

type InvoiceApp = Pick<FastifyInstance, 'db' | 'settings'>;

/** The issuer's settings: numbering, time zone, payment terms (read before a transaction opens). */
export const issuerSettings = (app: Pick<FastifyInstance, 'settings'>, issuer: string) =>
  app.settings.effective(issuer === MARKETPLACE ? null : issuer);

/** The SHA-256 of the frozen document, over its JSON with sorted keys (the same bytes every time). */
export function documentSha256(document: StoredDocument): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify(canonical(document)))
    .digest('hex');
}

function refuseUnless(row: InvoiceRow, action: InvoiceAction) {
  const problem = invoiceActionProblem(action, {
    kind: row.kind as InvoiceKind,
    status: row.status as InvoiceStatus,
    fromOrder: row.orderId !== null,
    totalMinor: row.totalMinor,
    paidMinor: row.paidMinor,
    creditedMinor: row.creditedMinor,
  });
  if (problem) throw new HttpError(409, problem, 'INVOICE_ACTION_REFUSED');
}

export async function insertDraft(tx: Tx, draft: Draft, actor: Actor): Promise<InvoiceRow> {
  const { document } = draft;
  const [row] = await tx
    .insert(invoices)
    .values({
      kind: document.kind,
      issuer: draft.issuer,
      sellerId: draft.sellerId,
      source: draft.source,
      orderId: draft.orderId ?? null,
      subscriptionId: draft.subscriptionId ?? null,
      currency: document.currency,
      buyerName: document.buyer.name,
      buyerEmail: document.buyer.email,
      document: document as unknown as Record<string, unknown>,
      totalMinor: document.totals.totalMinor,
      taxMinor: document.totals.taxMinor,
      createdBy: actor.id,
    })
    .returning();
  await recordAudit(tx, {
    subject: { type: 'invoice', id: row!.id },
    actor,
    action: 'created',
    note: draft.source === 'order' ? `From ${document.reference}` : null,
  });
  return row!;
}

export async function createDraft(app: InvoiceApp, actor: Actor, draft: Draft): Promise<string> {
  if (draft.source === 'order') {
    const [open] = await app.db
      .select({ id: invoices.id, number: invoices.number })
      .from(invoices)
      .where(
        and(
          eq(invoices.orderId, draft.orderId!),
          eq(invoices.kind, 'invoice'),
          ne(invoices.status, 'cancelled'),
        ),
      );
    if (open)
      throw new HttpError(
        409,
        open.number
          ? `This order is invoiced already (${open.number}).`
          : 'This order has a draft invoice already.',
        'ORDER_INVOICED',
      );
  }
  return app.db.transaction(async (tx) => (await insertDraft(tx, draft, actor)).id);
}

export async function deleteDraft(app: InvoiceApp, viewer: RouteViewer, actor: Actor, id: string) {
  await app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, viewer, id, true);
    refuseUnless(row, 'delete');
    await tx.delete(invoices).where(eq(invoices.id, id));
    await recordAudit(tx, { subject: { type: 'invoice', id }, actor, action: 'deleted' });
  });
}

/** What issuing needs that is read outside the transaction. */
export interface IssueContext {
  settings: AllSettings;
  now: Date;
  actor: Actor;
}

/**
 * Gives a locked draft its number and freezes its document: the issuer's current details, the date in
 * its time zone, the due date from its payment terms, what is already paid (an order's captured money).
 */
export async function issueLocked(tx: Tx, row: InvoiceRow, context: IssueContext): Promise<InvoiceRow> {
  refuseUnless(row, 'issue');
  const drawn = await drawNumber(tx, row.issuer, row.kind as InvoiceKind, context.settings, context.now);
  const issueDate = todayFor(context.settings, context.now);
  const draft = documentOf(row);
  const isInvoice = row.kind === 'invoice';
  const dueDate = isInvoice ? addDays(issueDate, context.settings.company.invoicePaymentDays) : null;
  let paidMinor = 0;
  if (isInvoice && row.orderId) {
    const [order] = await tx
      .select({ paid: orders.paidMinor })
      .from(orders)
      .where(eq(orders.id, row.orderId));
    paidMinor = Math.min(order?.paid ?? 0, row.totalMinor);
  }
  const document: StoredDocument = {
    ...draft,
    number: drawn.number,
    issueDate,
    dueDate,
    totals: { ...draft.totals, paidMinor, dueMinor: draft.totals.totalMinor - paidMinor },
  };
  const status = isInvoice
    ? issuedInvoiceStatus(
        { totalMinor: row.totalMinor, paidMinor, creditedMinor: 0 },
        { dueDate, today: issueDate },
      )
    : 'issued';
  const [issued] = await tx
    .update(invoices)
    .set({
      number: drawn.number,
      series: drawn.series,
      period: drawn.period,
      sequence: drawn.sequence,
      document: document as unknown as Record<string, unknown>,
      documentSha256: documentSha256(document),
      issueDate,
      dueDate,
      paidMinor,
      status,
      issuedAt: context.now,
      issuedBy: context.actor.id,
      paidAt: status === 'paid' ? context.now : null,
      updatedAt: context.now,
    })
    .where(eq(invoices.id, row.id))
    .returning();
  await recordAudit(tx, {
    subject: { type: 'invoice', id: row.id },
    actor: context.actor,
    action: 'issued',
    changes: [{ field: 'Status', before: 'draft', after: status }],
    note: drawn.number,
  });
  return issued!;
}

export async function issueInvoice(app: InvoiceApp, viewer: RouteViewer, actor: Actor, id: string) {
  const peek = await findInvoice(app.db, viewer, id);
  const settings = await issuerSettings(app, peek.issuer);
  return app.db.transaction(async (tx) =>
    issueLocked(tx, await findInvoice(tx, viewer, id, true), { settings, now: new Date(), actor }),
  );
}

/** Writes an issued invoice's new money and the status it gives. */
async function writeInvoiceMoney(
  tx: Tx,
  row: InvoiceRow,
  money: { paidMinor: number; creditedMinor: number; failed?: boolean },
  today: string,
) {
  const status = issuedInvoiceStatus(
    { totalMinor: row.totalMinor, ...money },
    { dueDate: row.dueDate, today, failed: money.failed },
  );
  await tx
    .update(invoices)
    .set({
      paidMinor: money.paidMinor,
      creditedMinor: money.creditedMinor,
      status,
      paidAt: status === 'paid' ? (row.paidAt ?? new Date()) : null,
      updatedAt: new Date(),
    })
    .where(eq(invoices.id, row.id));
  return status;
}

export async function recordInvoicePayment(
  app: InvoiceApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  body: { amountMinor: number; paidOn: string; reference: string },
) {
  const peek = await findInvoice(app.db, viewer, id);
  const today = todayFor(await issuerSettings(app, peek.issuer));
  await app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, viewer, id, true);
    refuseUnless(row, 'pay');
    const balance = row.totalMinor - row.creditedMinor - row.paidMinor;
    if (body.amountMinor > balance)
      throw new HttpError(409, 'That is more than is left to pay on this invoice.', 'PAYMENT_OVER_BALANCE');
    const status = await writeInvoiceMoney(
      tx,
      row,
      { paidMinor: row.paidMinor + body.amountMinor, creditedMinor: row.creditedMinor },
      today,
    );
    await recordAudit(tx, {
      subject: { type: 'invoice', id },
      actor,
      action: 'payment',
      changes: status !== row.status ? [{ field: 'Status', before: row.status, after: status }] : [],
      note: `${body.amountMinor} ${row.currency} minor units paid on ${body.paidOn}${body.reference ? ` (${body.reference})` : ''}`,
    });
  });
}

export async function markPaymentFailed(
  app: InvoiceApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  reason: string,
) {
  const peek = await findInvoice(app.db, viewer, id);
  const today = todayFor(await issuerSettings(app, peek.issuer));
  await app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, viewer, id, true);
    refuseUnless(row, 'fail');
    const status = await writeInvoiceMoney(
      tx,
      row,
      { paidMinor: row.paidMinor, creditedMinor: row.creditedMinor, failed: true },
      today,
    );
    await recordAudit(tx, {
      subject: { type: 'invoice', id },
      actor,
      action: 'payment failed',
      changes: [{ field: 'Status', before: row.status, after: status }],
      note: reason,
    });
  });
}

/**
 * A credit note of `amountMinor` against a locked, issued invoice, issued at once: its lines split the
 * amount over the invoice's tax rates; the invoice's credited sum and status follow.
 */
async function creditLocked(
  tx: Tx,
  invoice: InvoiceRow,
  context: IssueContext,
  credit: { amountMinor: number; reason: string; refundId?: string },
): Promise<InvoiceRow> {
  const room = creditableMinor(invoice);
  if (credit.amountMinor > room)
    throw new HttpError(409, 'That is more than the invoice still has to credit.', 'CREDIT_OVER_INVOICE');
  const source = documentOf(invoice);
  const lines = creditLinesFor(source, credit.amountMinor, credit.reason);
  const draft: Draft = {
    issuer: invoice.issuer,
    sellerId: invoice.sellerId,
    source: invoice.source as Draft['source'],
    orderId: invoice.orderId ?? undefined,
    document: {
      ...source,
      kind: 'credit_note',
      lines,
      shippingMinor: 0,
      totals: totalsOf(lines, 0),
      precedingInvoice: { number: invoice.number!, issueDate: invoice.issueDate! },
      notes: credit.reason,
    },
  };
  const inserted = await insertDraft(tx, draft, context.actor);
  await tx
    .update(invoices)
    .set({ creditedInvoiceId: invoice.id, refundId: credit.refundId ?? null })
    .where(eq(invoices.id, inserted.id));
  const note = await issueLocked(tx, { ...inserted, creditedInvoiceId: invoice.id }, context);
  const creditedMinor = invoice.creditedMinor + credit.amountMinor;
  const status = await writeInvoiceMoney(
    tx,
    invoice,
    { paidMinor: invoice.paidMinor, creditedMinor, failed: invoice.status === 'failed' },
    todayFor(context.settings, context.now),
  );
  await recordAudit(tx, {
    subject: { type: 'invoice', id: invoice.id },
    actor: context.actor,
    action: 'credited',
    changes: status !== invoice.status ? [{ field: 'Status', before: invoice.status, after: status }] : [],
    note: `${note.number}: ${credit.reason}`,
  });
  return note;
}

export async function cancelInvoice(
  app: InvoiceApp,
  viewer: RouteViewer,
  actor: Actor,
  id: string,
  reason: string,
): Promise<InvoiceRow> {
  const peek = await findInvoice(app.db, viewer, id);
  const settings = await issuerSettings(app, peek.issuer);
  return app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, viewer, id, true);
    refuseUnless(row, 'cancel');
    return creditLocked(
      tx,
      row,
      { settings, now: new Date(), actor },
      { amountMinor: creditableMinor(row), reason },
    );
  });
}

/** What an order's refund needs from outside its transaction to credit the order's invoice. */
export interface RefundCreditContext extends IssueContext {
  shopName: string;
}

export const refundCreditContext = async (
  app: InvoiceApp,
  sellerId: string,
  shopName: string,
  actor: Actor,
): Promise<RefundCreditContext> => ({
  settings: await app.settings.effective(sellerId),
  now: new Date(),
  actor,
  shopName,
});

/**
 * Inside an order's refund transaction (the order locked): the credit note of the refund against the
 * order's invoice, which is issued first when the order has none (or only a draft).
 */
export async function creditOrderRefund(
  tx: Tx,
  order: typeof orders.$inferSelect,
  refund: { id: string; amountMinor: number; reason: string },
  context: RefundCreditContext,
): Promise<InvoiceRow> {
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(
      and(eq(invoices.orderId, order.id), eq(invoices.kind, 'invoice'), ne(invoices.status, 'cancelled')),
    )
    .orderBy(asc(invoices.createdAt))
    .for('update');
  let invoice =
    existing ??
    (await insertDraft(tx, draftOfOrder(order, context.settings, context.shopName), context.actor));
  if (invoice.number === null) invoice = await issueLocked(tx, invoice, context);
  const note = await creditLocked(tx, invoice, context, {
    amountMinor: refund.amountMinor,
    reason: refund.reason,
    refundId: refund.id,
  });
  await tx.update(orderRefunds).set({ creditNoteId: note.id }).where(eq(orderRefunds.id, refund.id));
  return note;
}

/** Inside an order's payment transaction: its issued invoice follows what the order has captured. */
export async function followOrderPayment(tx: Tx, orderId: string, paidMinor: number, today: string) {
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice'), isNotNull(invoices.number)))
    .for('update');
  if (!invoice || invoice.status === 'cancelled') return;
  await writeInvoiceMoney(
    tx,
    invoice,
    { paidMinor: Math.min(paidMinor, invoice.totalMinor), creditedMinor: invoice.creditedMinor },
    today,
  );
}
