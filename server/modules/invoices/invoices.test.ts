// The invoices API (issue 31) on PGlite and PostgreSQL: an order's invoice drafted, issued with its
// number and frozen document, its PDF/A-3 with the EN 16931 XML whose totals are the invoice's; refunds
// that each issue a credit note (the invoice issued first when there was none); drafts deleted without a
// gap; issued invoices that nothing edits (not even SQL); gapless numbers under 100 parallel issues; a
// fiscal-year boundary; payments, a failed payment, cancelling; the overdue sweep and its reminder with
// the PDF; the register with its per-rate summary; a seller kept to their own; bad input refused.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInvoiceBodySchema, type InvoiceDetail, type InvoiceList } from '../../../contracts/invoices';
import type { OrderDetail } from '../../../contracts/orders';
import {
  invoiceCounters,
  invoices,
  products,
  sellerSubscriptions,
  subscriptionPlans,
  users,
} from '../../db/schema';
import { SYSTEM_ACTOR } from '../../lib/audit';
import { readCiiTotals } from '../../lib/documents/cii';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';
import { draftByHand } from './drafts';
import { insertDraft, issueLocked, issuerSettings } from './issue';
import { runOverdueSweep } from './overdue';
import { findInvoice } from './read';
import { invoiceRegister } from './register-export';

const address = {
  fullName: 'Ada Buyer',
  email: 'ada@example.com',
  addressLine1: '1 Main Street',
  addressLine2: '',
  city: 'Berlin',
  state: '',
  country: 'DE',
  zipcode: '10115',
};

describe.each(testBackends)('invoices API (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [seller] = await t.app.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const [row] = await t.app.db
      .insert(products)
      .values({
        sellerId,
        title: 'Invoice test mug',
        titleKey: 'invoice test mug',
        sku: 'INV-MUG',
        skuKey: 'inv-mug',
        priceMinor: 1999,
        currency: 'EUR',
        inventory: 1000,
      })
      .returning({ id: products.id });
    productId = row!.id;
  }, 120_000);
  afterAll(() => t?.close());

  const order = async (quantity = 2) => {
    const res = await as('Admin', 'POST', '/api/v1/orders', {
      sellerId,
      customerName: 'Ada Buyer',
      email: 'ada@example.com',
      shippingAddress: address,
      currency: 'EUR',
      lines: [{ productId, quantity }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<OrderDetail>(res);
  };
  const post = async (path: string, body: object = {}, who: 'Admin' | 'Seller' | 'Staff' = 'Admin') => {
    const res = await as(who, 'POST', path, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return json<InvoiceDetail>(res);
  };
  const manualBody = (overrides: Record<string, unknown> = {}) => ({
    source: 'manual',
    sellerId,
    buyer: { name: 'Bob Trader GmbH', email: 'bob@example.com', country: 'DE', taxId: 'DE123456789' },
    currency: 'EUR',
    lines: [
      { name: 'Consulting', quantity: 3, unitPriceMinor: 10_000, taxRate: 19 },
      { name: 'Book', quantity: 1, unitPriceMinor: 2_000, taxRate: 7 },
    ],
    ...overrides,
  });
  const sequenceOf = (number: string | null) => Number(/(\d+)$/.exec(number ?? '')?.[1]);

  it('drafts an order’s invoice, issues it with its number, and serves a PDF/A-3 carrying its XML', async () => {
    const placed = await order(2);
    const draft = await post('/api/v1/invoices', { source: 'order', orderId: placed.id });
    expect(draft).toMatchObject({
      status: 'draft',
      number: null,
      kind: 'invoice',
      totalMinor: placed.totalMinor,
    });
    expect(draft.order).toEqual({ id: placed.id, reference: placed.reference });
    const again = await as('Admin', 'POST', '/api/v1/invoices', { source: 'order', orderId: placed.id });
    expect(again.statusCode).toBe(409);
    expect(json<{ message: string }>(again).message).toBe('This order has a draft invoice already.');
    const pdfOfDraft = await as('Admin', 'GET', `/api/v1/invoices/${draft.id}/pdf`);
    expect(pdfOfDraft.statusCode).toBe(409);

    const issued = await post(`/api/v1/invoices/${draft.id}/issue`);
    expect(issued.status).toBe('unpaid');
    expect(issued.number).toMatch(/\d+$/);
    expect(issued.documentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.dueDate! > issued.issueDate!).toBe(true);
    expect(issued.problems).toMatchObject({ issue: 'It is issued already.', pay: expect.any(String) });

    const pdf = await as('Seller', 'GET', `/api/v1/invoices/${draft.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.includes(Buffer.from('factur-x.xml'))).toBe(true);
    const row = await findInvoice(t.app.db, null, draft.id);
    expect(row.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    // The same bytes on every read: the stored file, not a new render.
    const second = await as('Admin', 'GET', `/api/v1/invoices/${draft.id}/pdf`);
    expect(second.rawPayload.equals(pdf.rawPayload)).toBe(true);

    const xml = await as('Admin', 'GET', `/api/v1/invoices/${draft.id}/xml`);
    expect(xml.statusCode).toBe(200);
    const totals = readCiiTotals(xml.body);
    expect(totals).toMatchObject({
      typeCode: '380',
      currency: 'EUR',
      grandTotalMinor: issued.totalMinor,
      taxTotalMinor: issued.taxMinor,
      duePayableMinor: issued.totalMinor,
    });
    expect(totals.taxes.map(({ rate, baseMinor, taxMinor }) => ({ rate, baseMinor, taxMinor }))).toEqual(
      issued.taxBreakdown,
    );

    // Paying the order pays its invoice.
    await as('Admin', 'POST', `/api/v1/orders/${placed.id}/payments`, {
      amountMinor: placed.totalMinor,
      method: 'card',
      paidOn: '2026-11-29',
    });
    expect(json<InvoiceDetail>(await as('Admin', 'GET', `/api/v1/invoices/${draft.id}`))).toMatchObject({
      status: 'paid',
      paidMinor: placed.totalMinor,
      balanceMinor: 0,
    });
  });

  it('issues a credit note for every refund, the order’s invoice first when it had none', async () => {
    const placed = await order(3);
    await as('Admin', 'POST', `/api/v1/orders/${placed.id}/payments`, {
      amountMinor: placed.totalMinor,
      method: 'bank_transfer',
      paidOn: '2026-11-29',
    });
    for (const [amountMinor, reason] of [
      [1000, 'Late delivery'],
      [500, 'Scratched mug'],
    ] as const) {
      const res = await as('Admin', 'POST', `/api/v1/orders/${placed.id}/refunds`, { amountMinor, reason });
      expect(res.statusCode, res.body).toBe(200);
    }
    const detail = json<OrderDetail>(await as('Admin', 'GET', `/api/v1/orders/${placed.id}`));
    expect(detail.refunds.every((refund) => refund.creditNoteId !== null)).toBe(true);
    const notes = await t.app.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, placed.id), eq(invoices.kind, 'credit_note')));
    expect(notes.map((note) => note.totalMinor).sort()).toEqual([1000, 500].sort());
    expect(notes.every((note) => note.status === 'issued' && note.number !== null)).toBe(true);
    const sequences = notes.map((note) => sequenceOf(note.number)).sort((a, b) => a - b);
    expect(sequences[1]).toBe((sequences[0] as number) + 1);
    const [invoice] = await t.app.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, placed.id), eq(invoices.kind, 'invoice')));
    expect(invoice).toMatchObject({ status: 'paid', creditedMinor: 1500 });
    const credit = json<InvoiceDetail>(await as('Admin', 'GET', `/api/v1/invoices/${notes[0]!.id}`));
    expect(credit.creditedInvoice).toEqual({ id: invoice!.id, number: invoice!.number });
    // The credit note's lines split the refund over the rates and add up to it exactly.
    expect(credit.lines.reduce((sum, line) => sum + line.totalMinor, 0)).toBe(credit.totalMinor);
    const pdf = await as('Admin', 'GET', `/api/v1/invoices/${credit.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
  });

  it('deletes drafts without leaving a gap and never lets an issued invoice change, even by SQL', async () => {
    const a = await post('/api/v1/invoices', manualBody());
    const deleted = await as('Admin', 'DELETE', `/api/v1/invoices/${a.id}`);
    expect(deleted.statusCode).toBe(204);
    const b = await post(`/api/v1/invoices/${(await post('/api/v1/invoices', manualBody())).id}/issue`);
    const c = await post(`/api/v1/invoices/${(await post('/api/v1/invoices', manualBody())).id}/issue`);
    expect(sequenceOf(c.number)).toBe(sequenceOf(b.number) + 1);
    const refused = await as('Admin', 'DELETE', `/api/v1/invoices/${b.id}`);
    expect(refused.statusCode).toBe(409);
    expect(json<{ message: string }>(refused).message).toBe(
      'An issued invoice is never deleted: cancel it with a credit note.',
    );
    await expect(
      t.app.db.execute(sql`UPDATE invoices SET total_minor = 1 WHERE id = ${b.id}`),
    ).rejects.toThrow();
    await expect(t.app.db.execute(sql`DELETE FROM invoices WHERE id = ${b.id}`)).rejects.toThrow();
    // Hand-computed: 3 × 100.00 at 19 % and 20.00 at 7 %.
    expect(b).toMatchObject({ netMinor: 32_000, taxMinor: 5_700 + 140, totalMinor: 32_000 + 5_840 });
    expect(b.taxBreakdown).toEqual([
      { rate: 7, baseMinor: 2_000, taxMinor: 140 },
      { rate: 19, baseMinor: 30_000, taxMinor: 5_700 },
    ]);
  });

  it('gives 100 invoices issued at once 100 unique numbers with no gap', async () => {
    const drafts = await Promise.all(
      Array.from({ length: 100 }, async () => (await post('/api/v1/invoices', manualBody())).id),
    );
    const issued = await Promise.all(drafts.map((id) => post(`/api/v1/invoices/${id}/issue`)));
    const sequences = issued.map((invoice) => sequenceOf(invoice.number)).sort((a, b) => a - b);
    expect(new Set(sequences).size).toBe(100);
    expect((sequences[99] as number) - (sequences[0] as number)).toBe(99);
  }, 120_000);

  it('restarts the sequence in a new fiscal year and leaves the old year’s counter as it was', async () => {
    const settings = await issuerSettings(t.app, sellerId);
    const issueAt = async (now: Date) => {
      const draft = await draftByHand(
        t.app,
        createInvoiceBodySchema.parse(manualBody()) as Parameters<typeof draftByHand>[1],
      );
      return t.app.db.transaction(async (tx) => {
        const row = await insertDraft(tx, draft, SYSTEM_ACTOR);
        return issueLocked(tx, row, { settings, now, actor: SYSTEM_ACTOR });
      });
    };
    const start = settings.company.fiscalYearStartMonth;
    const lastDayOld = new Date(Date.UTC(2031, start - 1, 1) - 36 * 3_600_000);
    const firstDayNew = new Date(Date.UTC(2031, start - 1, 1, 12));
    const old = await issueAt(lastDayOld);
    const fresh = await issueAt(firstDayNew);
    expect(fresh.period).not.toBe(old.period);
    expect(fresh.sequence).toBe(1);
    const [oldCounter] = await t.app.db
      .select()
      .from(invoiceCounters)
      .where(and(eq(invoiceCounters.issuer, sellerId), eq(invoiceCounters.period, old.period!)));
    expect(oldCounter!.last).toBe(old.sequence);
  });

  it('records payments, a failed payment, cancels an unpaid invoice with a credit note, and refuses bad input', async () => {
    const issued = await post(`/api/v1/invoices/${(await post('/api/v1/invoices', manualBody())).id}/issue`);
    const over = await as('Admin', 'POST', `/api/v1/invoices/${issued.id}/payments`, {
      amountMinor: issued.totalMinor + 1,
      paidOn: '2026-11-29',
    });
    expect(over.statusCode).toBe(409);
    const failed = await post(`/api/v1/invoices/${issued.id}/failed`, { reason: 'Card declined' });
    expect(failed.status).toBe('failed');
    const part = await post(`/api/v1/invoices/${issued.id}/payments`, {
      amountMinor: 1000,
      paidOn: '2026-11-29',
    });
    expect(part.status).toBe('pending');
    const rest = await post(`/api/v1/invoices/${issued.id}/payments`, {
      amountMinor: issued.totalMinor - 1000,
      paidOn: '2026-11-29',
    });
    expect(rest.status).toBe('paid');

    const unpaid = await post(`/api/v1/invoices/${(await post('/api/v1/invoices', manualBody())).id}/issue`);
    const cancelled = await post(`/api/v1/invoices/${unpaid.id}/cancel`, { reason: 'Wrong buyer' });
    expect(cancelled).toMatchObject({ status: 'cancelled', creditedMinor: unpaid.totalMinor });
    expect(cancelled.creditNotes).toHaveLength(1);

    const empty = await as('Admin', 'POST', '/api/v1/invoices', manualBody({ lines: [] }));
    expect(empty.statusCode).toBe(400);
    expect(json<{ message: string }>(empty).message).toContain('Add at least one line.');
    const badRate = await as(
      'Admin',
      'POST',
      '/api/v1/invoices',
      manualBody({ lines: [{ name: 'x', quantity: 1, unitPriceMinor: 1, taxRate: 150 }] }),
    );
    expect(badRate.statusCode).toBe(400);
    const noReason = await as('Admin', 'POST', `/api/v1/invoices/${issued.id}/cancel`, { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
  });

  it('keeps a seller to their own invoices and to reading them; staff read only', async () => {
    const mine = await post(`/api/v1/invoices/${(await post('/api/v1/invoices', manualBody())).id}/issue`);
    const list = json<InvoiceList>(await as('Seller', 'GET', '/api/v1/invoices?limit=100'));
    expect(list.result.every((row) => row.sellerId === sellerId)).toBe(true);
    expect(list.tabs.unpaid).toBeGreaterThan(0);
    const [other] = await t.app.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(sql`${invoices.sellerId} <> ${sellerId}`)
      .limit(1);
    if (other) expect((await as('Seller', 'GET', `/api/v1/invoices/${other.id}`)).statusCode).toBe(404);
    expect((await as('Seller', 'POST', '/api/v1/invoices', manualBody())).statusCode).toBe(403);
    expect(
      (
        await as('Staff', 'POST', `/api/v1/invoices/${mine.id}/payments`, {
          amountMinor: 1,
          paidOn: '2026-11-29',
        })
      ).statusCode,
    ).toBe(403);
    const found = json<InvoiceList>(
      await as('Staff', 'GET', `/api/v1/invoices?query=${encodeURIComponent(mine.number!)}`),
    );
    expect(found.result.map((row) => row.id)).toContain(mine.id);
  });

  it('bills a seller for a subscription period from the marketplace', async () => {
    const [plan] = await t.app.db.select().from(subscriptionPlans).limit(1);
    const [period] = await t.app.db
      .insert(sellerSubscriptions)
      .values({
        sellerId,
        planId: plan!.id,
        startsAt: new Date('2026-11-01'),
        endsAt: new Date('2026-12-01'),
      })
      .returning();
    const draft = await post('/api/v1/invoices', { source: 'subscription', subscriptionId: period!.id });
    expect(draft).toMatchObject({ sellerId, totalMinor: plan!.priceMinor, currency: plan!.currency });
    expect(draft.lines[0]!.name).toContain(plan!.name);
  });

  it('marks invoices overdue past their due date and reminds the buyer with the PDF, once per interval', async () => {
    const issued = await post(`/api/v1/invoices/${(await post('/api/v1/invoices', manualBody())).id}/issue`);
    // Issued long ago: only the sweep's own columns may change, so the due date is set before issue.
    const late = await post('/api/v1/invoices', manualBody());
    await t.app.db.transaction(async (tx) => {
      const row = await findInvoice(tx, null, late.id, true);
      await issueLocked(tx, row, {
        settings: await issuerSettings(t.app, sellerId).then((s) => ({
          ...s,
          company: { ...s.company, invoicePaymentDays: 0 },
        })),
        now: new Date('2026-01-10T12:00:00Z'),
        actor: SYSTEM_ACTOR,
      });
    });
    const send = vi.spyOn(t.app.mailer, 'send');
    const now = new Date('2026-11-29T12:00:00Z');
    await runOverdueSweep(t.app, now);
    const row = await findInvoice(t.app.db, null, late.id);
    expect(row.status).toBe('overdue');
    const reminders = send.mock.calls.filter(([mail]) => mail.subject.includes(row.number!));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]![0].attachments?.[0]?.contentType).toBe('application/pdf');
    await runOverdueSweep(t.app, new Date(now.getTime() + 3_600_000));
    expect(send.mock.calls.filter(([mail]) => mail.subject.includes(row.number!))).toHaveLength(1);
    expect((await findInvoice(t.app.db, null, issued.id)).status).toBe('unpaid');
    send.mockRestore();
  });

  it('writes the register of a period with the tax summary per rate', async () => {
    const payload = { from: '2000-01-01', to: '2100-12-31', format: 'csv' as const, sellerId };
    const rows = await invoiceRegister.readBatch(t.app.db, payload, null, 10_000);
    const summary = rows.filter((row) => String(row.cells[0]).startsWith('Summary'));
    expect(summary.length).toBeGreaterThan(0);
    const eur19 = summary.find((row) => row.cells[8] === 'EUR' && row.cells[9] === 19);
    const detail = rows.filter(
      (row) => row.cells[8] === 'EUR' && row.cells[9] === 19 && !String(row.cells[0]).startsWith('Summary'),
    );
    const sum = detail.reduce((total, row) => total + Math.round((row.cells[11] as number) * 100), 0);
    expect(Math.round((eur19!.cells[11] as number) * 100)).toBe(sum);
    expect(await invoiceRegister.readBatch(t.app.db, payload, { key: '~summary', id: 'x' }, 10)).toEqual([]);
  });
});
