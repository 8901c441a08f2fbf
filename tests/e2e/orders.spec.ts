// Orders end to end (issue 31): an accepted offer becomes an order on its page (the address asked for,
// the offer's frozen prices kept), the order is paid, shipped (the customer mailed the tracking number)
// and refunded twice in part, each refund with its credit note; the order's invoice opens as a PDF whose
// text pdftotext reads; each page passes axe. The offer is made and accepted through the API first:
// offers.spec.ts walks that part in the browser.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { OFFERS_API } from '../../contracts/offers';
import { apiSession, axeClean, mailContaining, pdfText, signedIn } from './support';

test('an accepted offer becomes an order, which is paid, shipped and refunded twice in part', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const name = `Olga Order ${tag}`;
  const email = `olga-${tag}@example.com`;

  // The seller prices an offer of two units at 10.00 (+19 % VAT for DE) and sends it; the customer accepts.
  const { token } = await apiSession(request, 'seller@demo.local');
  const headers = { authorization: `Bearer ${token}` };
  const search = await request.post('/api/v1/stagingProducts/method/search', { headers, data: { limit: 1 } });
  const productId = (await search.json()).result[0].id as string;
  // Goods received, so the order's two units are in stock whatever earlier specs left.
  const received = await request.post(`/api/v1/stock/${productId}/adjustments`, {
    headers,
    data: { reason: 'received', delta: 10, note: 'orders.spec' },
  });
  expect(received.ok()).toBe(true);
  const made = await request.post(OFFERS_API, {
    headers,
    data: { customerName: name, email, items: [{ productId, quantity: 2 }], message: 'Two, please.' },
  });
  expect(made.status()).toBe(201);
  const offer = (await made.json()) as { id: string; number: number };
  const drafted = await request.put(`${OFFERS_API}/${offer.id}/draft`, {
    headers,
    data: {
      lines: [
        {
          productId,
          name: 'Order test goods',
          quantity: 2,
          unitPriceMinor: 1000,
          taxOptionId: 'DE-standard',
        },
      ],
      currency: 'EUR',
      shippingCountry: 'DE',
      validUntil: null,
      notes: '',
    },
  });
  expect(drafted.ok()).toBe(true);
  expect((await request.post(`${OFFERS_API}/${offer.id}/send`, { headers })).ok()).toBe(true);
  const mail = await mailContaining(email, `OFR-${offer.number} `);
  const link = /\/offer\/([\w.-]+)/.exec(mail)?.[1] as string;
  const accepted = await request.post(`${OFFERS_API}/public/${link}/accept`, { data: { typedName: name } });
  expect(accepted.ok()).toBe(true);

  const admin = await signedIn(browser, 'admin@demo.local');
  const page = admin.page;
  try {
    // Signed in once the menu shows; then the admin makes the order on the offer's page, giving the
    // street the request did not have.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.goto(`/customers/offer?id=${offer.id}`);
    await expect(page.getByTestId('offer-status')).toHaveText('Accepted');
    await page.getByRole('button', { name: 'Create order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create the order' });
    await expect(dialog.getByRole('textbox', { name: /^Country/ })).toHaveValue('DE');
    await dialog.getByRole('textbox', { name: /^Address line 1/ }).fill('Unter den Linden 1');
    await dialog.getByRole('textbox', { name: /^City/ }).fill('Berlin');
    await dialog.getByRole('textbox', { name: /^Zip code/ }).fill('10117');
    await axeClean(page, '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Create order' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`^ORD-\\d+: ${name}$`));
    const reference = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').split(
      ':',
    )[0] as string;
    await expect(page.getByTestId('order-total')).toContainText('23.80');
    await expect(page.getByTestId('order-status')).toHaveText('Pending');
    await expect(page.getByText(`From OFR-${offer.number}, version 1`)).toBeVisible();
    await axeClean(page);

    // Paid in full: the amount due is offered.
    await page.getByRole('button', { name: 'Record payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Record a payment' });
    await expect(payment.getByRole('textbox', { name: /Amount/ })).toHaveValue('23.80');
    await payment.getByRole('textbox', { name: 'Reference' }).fill(`TX-${tag}`);
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByTestId('order-status')).toHaveText('Paid');
    await expect(page.getByTestId('order-money-due')).toContainText('0.00');

    // Shipped: the customer is mailed the tracking number.
    await page.getByRole('button', { name: 'Ship' }).click();
    const ship = page.getByRole('dialog', { name: 'Ship the order' });
    await ship.getByRole('textbox', { name: /Carrier/ }).fill('DHL');
    await ship.getByRole('textbox', { name: 'Tracking number' }).fill(`JD-${tag}`);
    await ship.getByRole('button', { name: 'Ship' }).click();
    await expect(page.getByTestId('order-status')).toHaveText('Shipped');
    const shippedMail = await mailContaining(email, `Your order ${reference} has shipped`);
    expect(shippedMail).toContain(`JD-${tag}`);

    // Two partial refunds, each with its reason.
    for (const [amount, reason] of [
      ['5.00', 'Box arrived dented'],
      ['3.50', 'Late delivery'],
    ] as const) {
      await page.getByRole('button', { name: 'Refund' }).click();
      const refund = page.getByRole('dialog', { name: 'Refund' });
      await refund.getByRole('textbox', { name: /Amount/ }).fill(amount);
      await refund.getByRole('textbox', { name: /Reason/ }).fill(reason);
      await refund.getByRole('button', { name: 'Refund' }).click();
      await expect(refund).toBeHidden();
    }
    await expect(page.getByTestId('order-refund')).toHaveCount(2);
    await expect(page.getByTestId('order-refund').nth(1)).toContainText('Late delivery');
    await expect(page.getByTestId('order-money-refunded')).toContainText('8.50');
    await expect(page.getByTestId('order-payment-state')).toHaveText('Partly refunded');
    await axeClean(page);

    // Each refund has its credit note, against the order's invoice (issued with the first refund).
    const documents = page.locator('[data-tour="order-documents"]');
    await expect(documents.getByRole('link', { name: /^Credit note / })).toHaveCount(2);
    await documents.getByRole('link', { name: /^Invoice / }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Invoice \S+$/);
    const invoiceNumber = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').slice(
      'Invoice '.length,
    );
    await expect(page.getByRole('link', { name: /^CN/ })).toHaveCount(2);
    await axeClean(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'PDF', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const text = await pdfText(await readFile((await download.path()) as string));
    expect(text).toContain(invoiceNumber);
    expect(text).toContain(tag); // the buyer's name (pdftotext may wrap it)
    expect(text).toContain('Order test goods');
    expect(text).toContain('€23.80');
    await page.getByRole('link', { name: reference }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`^${reference}: `));

    // The list finds it by its number, in the Shipped tab.
    await page.goto(`/orders/manage-orders?status=shipped&s=${reference}`);
    await expect(page.getByRole('row').filter({ hasText: name })).toContainText(reference);
    await axeClean(page);
  } finally {
    await admin.context.close();
  }
});
