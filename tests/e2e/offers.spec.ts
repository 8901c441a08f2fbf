// Offer requests end to end (issue 30): a customer asks for an offer on the public enquiry form; the
// seller prices it (the server computes the totals), sends version 1, revises it (the draft's diff
// against the sent version shows the new price), sends version 2; the customer opens version 2's link
// from the outbox mail and accepts it with a typed name; the seller sees it accepted with the evidence.
import { expect, test } from '@playwright/test';
import { axeClean, mailContaining, signedIn } from './support';

const LIST = '/customers/offer-requests';

test('an offer asked for on the enquiry form is priced, revised, sent twice and accepted through the mailed link', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const seller = await signedIn(browser, 'seller@demo.local');
  const customer = await (await browser.newContext()).newPage();
  try {
    // The customer asks for an offer on twelve of a product.
    const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const name = `Ada Buyer ${tag}`;
    const email = `ada-${tag}@example.com`;
    await customer.goto('/enquiry/SEL-0001');
    // The radio's label takes the click (Chakra draws the control over the hidden input).
    await customer
      .locator('label')
      .filter({ hasText: /^Ask for an offer$/ })
      .click();
    await expect(customer.getByRole('radio', { name: 'Ask for an offer' })).toBeChecked();
    await customer.getByLabel('Your name').fill(name);
    await customer.getByLabel('Your e-mail').fill(email);
    const products = customer.getByRole('combobox', { name: 'Product to add' });
    await expect(products.locator('option').nth(1)).toBeAttached();
    // The option reads "Title (SKU)"; the offer's line carries the title.
    const productTitle = ((await products.locator('option').nth(1).textContent()) ?? '')
      .replace(/\s*\([^)]*\)\s*$/, '')
      .trim();
    await products.selectOption({ index: 1 });
    await customer.getByRole('button', { name: 'Add to the request' }).click();
    const quantity = customer.getByRole('spinbutton', { name: /^Quantity of / });
    await quantity.fill('12');
    await customer.getByRole('textbox', { name: /message/i }).fill('Your best price for twelve, please.');
    await customer.getByRole('button', { name: 'Ask for an offer' }).click();
    const confirmation = await customer
      .getByRole('status')
      .filter({ hasText: /OFR-\d+/ })
      .textContent();
    const reference = /OFR-\d+/.exec(confirmation ?? '')?.[0] as string;
    expect(reference).toBeTruthy();

    // The seller finds it among the requests and opens it.
    await seller.page.goto(`${LIST}?status=requested&s=${encodeURIComponent(email)}`);
    await expect(seller.page.getByRole('heading', { level: 1, name: 'Offer requests' })).toBeVisible();
    const row = seller.page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(reference);
    await axeClean(seller.page);
    await row.getByRole('link', { name: reference }).click();
    const page = seller.page;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${reference}: ${name}`);
    await expect(page.getByTestId('offer-message')).toHaveText('Your best price for twelve, please.');

    // Version 1: ten a piece; the server prices it.
    await page.getByRole('textbox', { name: /^Line 1 unit price/ }).fill('10.00');
    await page.getByRole('textbox', { name: 'Notes for the customer' }).fill('Delivery in two weeks');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const priced = page.getByTestId('priced-draft');
    await expect(priced.getByTestId('offer-total')).toContainText('120.00');
    await axeClean(page);
    await page.getByRole('button', { name: 'Send version 1' }).click();
    await expect(page.getByText('Version 1 sent', { exact: true }).first()).toBeVisible();
    await expect(page.getByTestId('offer-status')).toHaveText('Offered');

    // Version 2: a lower price; the draft shows what changed against the sent version.
    await page.getByRole('textbox', { name: /^Line 1 unit price/ }).fill('9.50');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(priced.getByTestId('offer-total')).toContainText('114.00');
    const draftDiff = priced.getByTestId('offer-diff');
    await expect(draftDiff).toContainText(productTitle);
    await expect(draftDiff).toContainText(/Unit price: .*10\.00 → .*9\.50/);
    await page.getByRole('button', { name: 'Send version 2' }).click();
    await expect(page.getByText('Version 2 sent', { exact: true }).first()).toBeVisible();
    // The versions list shows version 2's changes against version 1.
    await expect(page.getByRole('group', { name: 'Changes in version 2 against version 1' })).toContainText(
      /Total: .*120\.00 → .*114\.00/,
    );
    await axeClean(page);

    // The customer opens version 2's link from the mail and accepts it with a typed name.
    const mail = await mailContaining(email, `${reference} `, 'version 2');
    const link = /\/offer\/[\w.-]+/.exec(mail)?.[0] as string;
    expect(link).toBeTruthy();
    await customer.goto(link);
    await expect(customer.getByRole('heading', { level: 1, name: 'Your offer' })).toBeVisible();
    await expect(customer.getByText(`${reference}, version 2`, { exact: false })).toBeVisible();
    await expect(customer.getByTestId('offer-total')).toContainText('114.00');
    await axeClean(customer, 'body');
    await customer.getByRole('textbox', { name: /Your full name/ }).fill(name);
    await customer.getByRole('textbox', { name: /Comment/ }).fill('Agreed.');
    await customer.getByRole('button', { name: 'Accept the offer' }).click();
    await expect(
      customer.getByText(`you accepted version 2 of this offer as ${name}`, { exact: false }),
    ).toBeVisible();

    // The seller sees it accepted, with the evidence.
    await page.reload();
    await expect(page.getByTestId('offer-status')).toHaveText('Accepted');
    const evidence = page.getByTestId('offer-evidence');
    await expect(evidence).toContainText('Accepted');
    await expect(evidence).toContainText(name);
    await expect(evidence).toContainText('Agreed.');
    await expect(evidence).toContainText('127.0.0.1');
    await expect(evidence).toContainText(/[0-9a-f]{64}/);
    await axeClean(page);
  } finally {
    await seller.context.close();
    await customer.context().close();
  }
});
