// Purchase orders and suppliers (issue 31) on PGlite and PostgreSQL: a supplier with a 5 % tolerance, a
// purchase order drafted, sent (the supplier mailed its PDF), received in two receipts that raise the
// stock, the line counted received within the tolerance, an over-receipt refused until confirmed with a
// reason, cancelling refused once goods arrived, a product's own tolerance over its supplier's, and bad
// input and roles refused in words.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lowestAccepted } from '../../../contracts/domain/purchase-order-state';
import type { PurchaseOrderDetail, PurchaseOrderList, Supplier } from '../../../contracts/purchase-orders';
import { products, productTolerances, stockItems, users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  type TestApp,
  testBackends,
} from '../../test-support';

describe.each(testBackends)('purchase orders API (%s)', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let sellerId: string;
  let mugs: string;
  let plates: string;
  let supplier: Supplier;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const [seller] = await t.app.db
      .select({ sellerId: users.sellerId })
      .from(users)
      .where(eq(users.email, demoEmails.Seller));
    sellerId = seller!.sellerId!;
    const product = async (sku: string) => {
      const [row] = await t.app.db
        .insert(products)
        .values({
          sellerId,
          title: `PO test ${sku}`,
          titleKey: `po test ${sku}`.toLowerCase(),
          sku,
          skuKey: sku.toLowerCase(),
          priceMinor: 1000,
          currency: 'EUR',
          inventory: 5,
        })
        .returning({ id: products.id });
      return row!.id;
    };
    mugs = await product('PO-MUG');
    plates = await product('PO-PLATE');
    await t.app.db.insert(productTolerances).values({ productId: plates, kind: 'units', value: 0 });
    const res = await as('Admin', 'POST', '/api/v1/suppliers', {
      name: 'Jaipur Ceramics',
      email: 'orders@jaipur-ceramics.example.com',
      currency: 'EUR',
      tolerance: { kind: 'percent', value: 500 },
    });
    expect(res.statusCode, res.body).toBe(201);
    supplier = json<Supplier>(res);
  }, 120_000);
  afterAll(() => t?.close());

  const onHand = async (productId: string) => {
    const [row] = await t.app.db.select().from(stockItems).where(eq(stockItems.productId, productId));
    return row?.onHand ?? null;
  };
  const draft = async () => {
    const res = await as('Admin', 'POST', '/api/v1/purchaseOrders', {
      supplierId: supplier.id,
      sellerId,
      currency: 'EUR',
      expectedOn: '2026-12-15',
      lines: [
        { productId: mugs, quantity: 100, unitCostMinor: 350 },
        { productId: plates, quantity: 10, unitCostMinor: 900 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<PurchaseOrderDetail>(res);
  };
  const act = async (id: string, path: string, body: object = {}) =>
    as('Admin', 'POST', `/api/v1/purchaseOrders/${id}/${path}`, body);

  it('sends a purchase order with its PDF and receives it in two receipts, raising the stock', async () => {
    const po = await draft();
    expect(po).toMatchObject({
      status: 'draft',
      totalMinor: 100 * 350 + 10 * 900,
      supplierName: 'Jaipur Ceramics',
    });
    expect(po.lines.map((line) => [line.tolerance, line.lowestAccepted, line.highestAccepted])).toEqual([
      [{ kind: 'percent', value: 500 }, 95, 105],
      [{ kind: 'units', value: 0 }, 10, 10],
    ]);
    expect(
      (await act(po.id, 'receipts', { lines: [{ lineId: po.lines[0]!.id, quantity: 1 }] })).statusCode,
    ).toBe(409);

    const send = vi.spyOn(t.app.mailer, 'send');
    const sent = json<PurchaseOrderDetail>(await act(po.id, 'send'));
    expect(sent.status).toBe('sent');
    const mail = send.mock.calls.at(-1)![0];
    expect(mail).toMatchObject({
      to: 'orders@jaipur-ceramics.example.com',
      subject: expect.stringContaining(po.reference),
    });
    expect(mail.attachments?.[0]).toMatchObject({
      filename: `${po.reference}.pdf`,
      contentType: 'application/pdf',
    });
    expect(mail.attachments?.[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    send.mockRestore();

    const before = await onHand(mugs);
    const first = json<PurchaseOrderDetail>(
      await act(po.id, 'receipts', {
        lines: [{ lineId: po.lines[0]!.id, quantity: 60 }],
        note: 'First pallet',
      }),
    );
    expect(first.status).toBe('partially_received');
    expect(await onHand(mugs)).toBe((before ?? 5) + 60);
    // 96 of 100 is within 5 %: the mugs count as received; the plates (no tolerance) need all 10.
    const second = json<PurchaseOrderDetail>(
      await act(po.id, 'receipts', {
        lines: [
          { lineId: po.lines[0]!.id, quantity: 36 },
          { lineId: po.lines[1]!.id, quantity: 10 },
        ],
      }),
    );
    expect(second.status).toBe('received');
    expect(second.lines.map((line) => [line.received, line.done])).toEqual([
      [96, true],
      [10, true],
    ]);
    expect(second.receipts.map((receipt) => receipt.number)).toEqual([1, 2]);
    expect(await onHand(mugs)).toBe((before ?? 5) + 96);
    expect(await onHand(plates)).toBe(15);
    const consistency = await as('Admin', 'GET', '/api/v1/stock/consistency');
    expect(json<{ ok: boolean }>(consistency).ok).toBe(true);
    expect((await act(po.id, 'cancel', { reason: 'Too late' })).statusCode).toBe(409);
    const pdf = await as('Staff', 'GET', `/api/v1/purchaseOrders/${po.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('refuses more than the tolerance over the order until it is confirmed with a reason', async () => {
    const po = await draft();
    await act(po.id, 'send');
    const line = po.lines[0]!;
    const over = await act(po.id, 'receipts', { lines: [{ lineId: line.id, quantity: 106 }] });
    expect(over.statusCode).toBe(409);
    expect(json<{ message: string }>(over).message).toContain('106 of 100 ordered (tolerance 5 %)');
    const noReason = await act(po.id, 'receipts', {
      lines: [{ lineId: line.id, quantity: 106 }],
      confirmOver: true,
    });
    expect(noReason.statusCode).toBe(400);
    expect(json<{ message: string }>(noReason).message).toContain('Say why more than ordered is kept.');
    const kept = json<PurchaseOrderDetail>(
      await act(po.id, 'receipts', {
        lines: [{ lineId: line.id, quantity: 106 }],
        confirmOver: true,
        overReason: 'Supplier sent a full carton',
      }),
    );
    expect(kept.lines[0]!.received).toBe(106);
    expect(kept.receipts[0]!.overReason).toBe('Supplier sent a full carton');
    expect(kept.status).toBe('partially_received');
  });

  it('lists with tabs, cancels an order nothing arrived on, and keeps sellers and bad input out', async () => {
    const po = await draft();
    const cancelled = json<PurchaseOrderDetail>(await act(po.id, 'cancel', { reason: 'Ordered twice' }));
    expect(cancelled.status).toBe('cancelled');
    expect((await act(po.id, 'send')).statusCode).toBe(409);
    const list = json<PurchaseOrderList>(await as('Staff', 'GET', '/api/v1/purchaseOrders?status=cancelled'));
    expect(list.result.map((row) => row.id)).toContain(po.id);
    expect(list.tabs.cancelled).toBeGreaterThan(0);
    const found = json<PurchaseOrderList>(
      await as('Admin', 'GET', `/api/v1/purchaseOrders?query=${po.reference}`),
    );
    expect(found.result.map((row) => row.id)).toEqual([po.id]);
    expect((await as('Seller', 'GET', '/api/v1/purchaseOrders')).statusCode).toBe(403);
    expect((await as('Staff', 'POST', `/api/v1/purchaseOrders/${po.id}/send`, {})).statusCode).toBe(403);
    const empty = await as('Admin', 'POST', '/api/v1/purchaseOrders', {
      supplierId: supplier.id,
      sellerId,
      currency: 'EUR',
      lines: [],
    });
    expect(empty.statusCode).toBe(400);
    expect(json<{ message: string }>(empty).message).toContain('Add at least one line.');
    const twice = await as('Admin', 'POST', '/api/v1/suppliers', {
      name: 'jaipur ceramics',
      email: 'x@example.com',
      currency: 'EUR',
    });
    expect(twice.statusCode).toBe(409);
    expect(lowestAccepted(101, { kind: 'percent', value: 250 })).toBe(99);
  });
});
