// Live auctions end to end (issue 32), in two browsers: the admin on the auction's page and a customer
// on its public page (registered with the code from the outbox mail). The admin bids for another
// customer, the public bidder outbids them (their outbid mail lands in the outbox), the admin's second
// bid is answered by the bidder's proxy, the soft-close extension shows live on both pages, the close
// job ends it, and the winner's shipping address makes their order.
import { expect, type Page, test } from '@playwright/test';
import { AUCTIONS_API, type AuctionDetail } from '../../contracts/auctions';
import { apiSession, axeClean, mailContaining, signedIn } from './support';

const status = (page: Page) => page.getByTestId('auction-status');
const price = (page: Page) => page.getByTestId('auction-price');

test('an auction watched by staff and a public bidder: bids, a proxy counter-bid, the extension, the close and the order', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const bidderEmail = `asha-${tag}@example.com`;
  const caraEmail = `cara-${tag}@example.com`;

  // A seller's product in stock, auctioned by the admin: starting at 10.00, every bid extends the end
  // (a soft-close window longer than the auction), and no extension passes the hard end.
  const admin = await apiSession(request, 'admin@demo.local');
  const headers = { authorization: `Bearer ${admin.token}` };
  const search = await request.post('/api/v1/stagingProducts/method/search', { headers, data: { limit: 1 } });
  const product = (await search.json()).result[0] as { id: string; sellerId: string; currency: string };
  const received = await request.post(`/api/v1/stock/${product.id}/adjustments`, {
    headers,
    data: { reason: 'received', delta: 5, note: 'auctions.spec' },
  });
  expect(received.ok()).toBe(true);
  const now = Date.now();
  const made = await request.post(AUCTIONS_API, {
    headers,
    data: {
      sellerId: product.sellerId,
      productId: product.id,
      quantity: 1,
      title: `Brass lamp ${tag}`,
      currency: product.currency,
      startingPriceMinor: 1000,
      // Time to open both pages and register before the start; every bid then moves the end to the bid
      // plus 45 s, and the job closes it then.
      startsAt: new Date(now + 20_000).toISOString(),
      endsAt: new Date(now + 40_000).toISOString(),
      hardEndAt: new Date(now + 180_000).toISOString(),
      softCloseSeconds: 3600,
      extensionSeconds: 45,
      publish: true,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const auction = (await made.json()) as AuctionDetail;

  const staff = await signedIn(browser, 'admin@demo.local');
  // Signed in (the shell is drawn) before leaving the sign-in page, or the sign-in is cut short.
  await expect(staff.page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  const bidder = await (await browser.newContext()).newPage();
  try {
    await staff.page.goto(`/auctions/auction-details?id=${auction.id}`);
    await expect(staff.page.getByRole('heading', { level: 1 })).toHaveText(
      `#${auction.number}: Brass lamp ${tag}`,
    );
    await bidder.goto(new URL(auction.publicUrl!).pathname);
    await expect(bidder.getByRole('heading', { level: 1 })).toHaveText(`Brass lamp ${tag}`);

    // The customer registers with the code mailed to them.
    await bidder.getByLabel('Your name').fill('Asha Verma');
    await bidder.getByLabel('E-mail address').fill(bidderEmail);
    await bidder.getByRole('button', { name: 'Send me a code' }).click();
    const codeMail = await mailContaining(bidderEmail, 'Your code to bid');
    const code = /is (\d{6})\./.exec(codeMail)?.[1] as string;
    await bidder.getByLabel('Six-digit code').fill(code);
    await bidder.getByRole('button', { name: 'Confirm' }).click();
    await expect(bidder.getByText('Bidding as Asha Verma.')).toBeVisible();

    await expect(status(bidder)).toHaveText('Upcoming');
    await axeClean(bidder);
    await axeClean(staff.page);

    // Both views go live at the start, on the server's clock.
    await expect(status(staff.page)).toHaveText('Live', { timeout: 30_000 });
    await expect(status(bidder)).toHaveText('Live');

    // The admin bids 30.00 for Cara, a customer on the phone: she leads at the starting price.
    await staff.page.getByLabel('Customer’s name').fill('Cara Diaz');
    await staff.page.getByLabel('Customer’s e-mail').fill(caraEmail);
    await staff.page.getByLabel(/Your maximum bid/).fill('30');
    await staff.page.getByRole('button', { name: 'Place bid' }).click();
    await expect(price(bidder)).toContainText('10.00');
    await expect(bidder.getByTestId('auction-leader')).toHaveText('C***z');
    // Every bid lands in the soft-close window: the end moved, and both pages say so.
    await expect(staff.page.getByTestId('auction-extended')).toBeVisible();
    await expect(bidder.getByTestId('auction-extended')).toBeVisible();

    // The public bidder sets a maximum of 50.00: she leads at 31.00; Cara is mailed that she was outbid.
    await bidder.getByLabel(/Your maximum bid/).fill('50');
    await bidder.getByRole('button', { name: 'Place bid' }).click();
    await expect(status(bidder)).toHaveText('You are leading');
    await expect(price(staff.page)).toContainText('31.00');
    await expect(staff.page.getByTestId('auction-leader')).toHaveText('A***a');
    await mailContaining(caraEmail, 'Someone has bid more than your maximum');

    // The admin raises Cara to 40.00: Asha's proxy answers at once, and she stays ahead at 41.00.
    const select = staff.page.getByLabel('Bidder', { exact: true });
    await select.selectOption({ label: `Cara Diaz (${caraEmail})` });
    await staff.page.getByLabel(/Your maximum bid/).fill('40');
    await staff.page.getByRole('button', { name: 'Place bid' }).click();
    await expect(price(staff.page)).toContainText('41.00');
    await expect(price(bidder)).toContainText('41.00');
    await expect(status(bidder)).toHaveText('You are leading');
    await expect(staff.page.getByTestId('auction-leader')).toHaveText('A***a');

    // The close job ends it at the extended end; both pages see it end without a reload.
    await expect(status(bidder)).toHaveText('You won', { timeout: 90_000 });
    await expect(status(staff.page)).toHaveText('Sold');

    // The winner gives her address: the order is made at the hammer price.
    await bidder.getByLabel('Address', { exact: true }).fill('12 Park Street');
    await bidder.getByLabel('City').fill('Berlin');
    await bidder.getByLabel('Postcode').fill('10115');
    await bidder.getByLabel('Country code (e.g. DE)').fill('DE');
    await bidder.getByRole('button', { name: 'Place my order' }).click();
    await expect(bidder.getByText(/Your order is placed/)).toBeVisible();
    await staff.page.reload();
    await expect(staff.page.getByTestId('auction-settlement')).toHaveText('Ordered');
    await staff.page.getByRole('link', { name: 'Open the winner’s order' }).click();
    await expect(staff.page.getByRole('heading', { level: 1 })).toContainText('Asha Verma');
  } finally {
    await staff.context.close();
    await bidder.context().close();
  }
});
