// Purchase orders end to end (issue 31): a purchase order to a supplier with a 5 % tolerance is sent from
// its page (the supplier's mail with the PDF lands in the outbox) and received in two receipts; the
// product's stock rises by what arrived, the line counts as received within the tolerance, and each page
// passes axe. The supplier and the draft are made through the API.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { PURCHASE_ORDERS_API, SUPPLIERS_API } from '../../contracts/purchase-orders';
import { apiSession, axeClean, mailContaining, pdfText, signedIn } from './support';

test('a purchase order is sent with its PDF and received in two receipts, raising the stock', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const { token } = await apiSession(request, 'admin@demo.local');
  const headers = { authorization: `Bearer ${token}` };
  const seller = await apiSession(request, 'seller@demo.local');
  const search = await request.post('/api/v1/stagingProducts/method/search', {
    headers: { authorization: `Bearer ${seller.token}` },
    data: { limit: 1 },
  });
  const product = (await search.json()).result[0] as { id: string; sellerId: string; title: string };
  const stockOf = async () =>
    ((await (await request.get(`/api/v1/stock/${product.id}`, { headers })).json()) as { onHand: number })
      .onHand;
  const before = await stockOf();

  const supplierEmail = `supplier-${tag}@example.com`;
  const supplier = await request.post(SUPPLIERS_API, {
    headers,
    data: {
      name: `Jaipur Ceramics ${tag}`,
      email: supplierEmail,
      currency: 'EUR',
      tolerance: { kind: 'percent', value: 500 },
    },
  });
  expect(supplier.status()).toBe(201);
  const made = await request.post(PURCHASE_ORDERS_API, {
    headers,
    data: {
      supplierId: (await supplier.json()).id,
      sellerId: product.sellerId,
      currency: 'EUR',
      lines: [{ productId: product.id, quantity: 20, unitCostMinor: 450 }],
    },
  });
  expect(made.status()).toBe(201);
  const po = (await made.json()) as { id: string; reference: string };

  const admin = await signedIn(browser, 'admin@demo.local');
  const page = admin.page;
  try {
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.goto(`/orders/purchase-order?id=${po.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `${po.reference}: Jaipur Ceramics ${tag}`,
    );
    await expect(page.getByTestId('po-status')).toHaveText('Draft');
    await axeClean(page);

    // Sent: the supplier is mailed the PDF.
    await page.getByRole('button', { name: 'Send to supplier' }).click();
    await page
      .getByRole('alertdialog', { name: `Send ${po.reference}` })
      .or(page.getByRole('dialog', { name: `Send ${po.reference}` }))
      .getByRole('button', { name: 'Send to supplier' })
      .click();
    await expect(page.getByTestId('po-status')).toHaveText('Sent');
    const mail = await mailContaining(supplierEmail, `Purchase order ${po.reference}`);
    expect(mail).toContain('Content-Type: application/pdf');
    expect(mail).toContain(`${po.reference}.pdf`);

    // Two deliveries: 12, then 7 — 19 of 20 is within 5 %, so the line counts as received.
    for (const [quantity, status] of [
      ['12', 'Partly received'],
      ['7', 'Received'],
    ] as const) {
      await page.getByRole('button', { name: 'Receive goods' }).click();
      const dialog = page.getByRole('dialog', { name: 'Receive goods' });
      await dialog.getByRole('textbox', { name: /^Quantity of .* that arrived$/ }).fill(quantity);
      if (quantity === '12') await axeClean(page, '[role="dialog"]');
      await dialog.getByRole('button', { name: 'Record receipt' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('po-status')).toHaveText(status);
    }
    await expect(page.getByTestId('po-receipt')).toHaveCount(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${po.reference}.pdf`);
    expect(await pdfText(await readFile((await download.path()) as string))).toContain(po.reference);
    expect(await stockOf()).toBe(before + 19);
    await axeClean(page);

    // The list shows it in the Received tab.
    await page.goto(`/orders/manage-purchase-orders?status=received`);
    await expect(page.getByRole('row').filter({ hasText: po.reference })).toContainText(
      `Jaipur Ceramics ${tag}`,
    );
    await axeClean(page);
  } finally {
    await admin.context.close();
  }
});
