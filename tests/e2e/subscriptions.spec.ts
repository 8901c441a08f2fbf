import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { ChatList } from '../../contracts/help-chats';
import type { QueryList } from '../../contracts/queries';
import { DEMO_SELLER_FIGURES } from '../../server/seed/subscriptions';
import { apiSession, signedIn, signIn } from './support';

/** The number of a stat card (Chakra's Stat is a dl: the label a dt, the value the first dd). */
function stat(page: Page, label: string) {
  return page
    .getByRole('main')
    .locator('dl')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .first();
}

/**
 * The demo seller's chats as they are now: other specs (help chats) start new ones, which are open, so
 * the seeded figures grow by them. Unread messages are the sum over the list.
 */
async function currentChatFigures(request: APIRequestContext) {
  const { token } = await apiSession(request, 'seller@demo.local');
  const response = await request.get('/api/v1/queryBot/listSellerQueryBotChats?limit=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  const list = (await response.json()) as ChatList;
  const seeded = DEMO_SELLER_FIGURES.chats;
  return {
    open: seeded.open + (list.count - seeded.open - seeded.closed),
    unreadMessages: list.result.reduce((sum, chat) => sum + chat.newMessagesCount, 0),
  };
}

/**
 * The demo seller's queries per status as the inbox counts them: other specs (the enquiry form's) add
 * queries to this shop, so the seeded figures grow by them.
 */
async function currentQueryFigures(request: APIRequestContext) {
  const { token } = await apiSession(request, 'seller@demo.local');
  const response = await request.get('/api/v1/helperQuery?limit=1', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  const tabs = ((await response.json()) as QueryList).tabs;
  // Nothing else removes or resolves the seeded ones: at least the seeded figures.
  expect(tabs.new).toBeGreaterThanOrEqual(DEMO_SELLER_FIGURES.queries.new);
  return tabs;
}

test("the demo seller's dashboard shows the store's real figures", async ({ page, request }) => {
  const chats = await currentChatFigures(request);
  const queries = await currentQueryFigures(request);
  await signIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
  await expect(page.getByRole('heading', { name: 'Demo Seller Store', level: 1 })).toBeVisible();
  const { products } = DEMO_SELLER_FIGURES;

  await expect(stat(page, 'Live products')).toHaveText(String(products.live));
  await expect(stat(page, 'Awaiting review')).toHaveText(String(products.in_review));
  await expect(stat(page, 'Open queries')).toHaveText(String(queries.new + queries.open + queries.waiting));
  await expect(stat(page, 'Open chats')).toHaveText(String(chats.open));
  await expect(page.getByText(`${chats.unreadMessages} unread messages`)).toBeVisible();
  await expect(
    page.getByRole('img', {
      name: `Products by status: Draft ${products.draft}, In review ${products.in_review}, Approved ${products.approved}, Live ${products.live}, Rejected ${products.rejected}, Inactive ${products.inactive}`,
    }),
  ).toBeVisible();
  await expect(
    page.getByRole('img', {
      name: `Customer queries by status: New ${queries.new}, Open ${queries.open}, Waiting for customer ${queries.waiting}, Resolved ${queries.resolved}, Closed ${queries.closed}`,
    }),
  ).toBeVisible();
  // The subscription, with its renewal date and a way to manage it.
  await expect(page.getByText('Quarterly · ₹2,699.00')).toBeVisible();
  await expect(
    page.getByText(String(DEMO_SELLER_FIGURES.subscriptionDaysLeft), { exact: true }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Manage subscription' }).click();
  await expect(page).toHaveURL(/\/sellers\/payment-seller-subscriptions$/);
  await expect(page.getByText('Your subscription is active')).toBeVisible();
  await expect(page.getByRole('table').first()).toContainText('Quarterly');
});

// Staff hold exactly this permission (view, no approve). The staff demo account is not used here:
// foundation.spec.ts changes its password. An admin limited to view by an override stands in for it.
test('who may only view sees the requests and subscriptions without any decision buttons', async ({
  page,
  request,
}) => {
  const admin = await apiSession(request, 'admin@demo.local');
  const setOverride = (overrides: Record<string, string[]>) =>
    request.post(`/api/v1/users/updateUserPermissions/${admin.userId}`, {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { overrides },
    });
  expect((await setOverride({ '/subscriptions/subscriptions-request': ['view'] })).ok()).toBe(true);
  try {
    await signIn(page, 'admin@demo.local');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Subscription Requests' })
      .click();
    await expect(page).toHaveURL(/\/subscriptions\/subscriptions-request$/);
    const pending = page.getByRole('table', { name: 'Pending renewal requests' });
    await expect(pending.getByRole('row')).toHaveCount(3); // header + the two seeded requests
    await expect(page.getByRole('button', { name: /^(Approve|Reject) / })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Seller subscriptions' }).click();
    await page.getByLabel('Subscription state').selectOption('blocked');
    const sellers = page.getByRole('table', { name: 'Seller subscriptions' });
    await expect(sellers).toContainText('Lapsed Goods Co');
    await expect(page.getByRole('button', { name: /^(Block|Unblock) / })).toHaveCount(0);
    // The seller's detail opens from the list.
    await sellers.getByRole('button', { name: 'Lapsed Goods Co' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toContainText('SEL-0002');
    await expect(drawer).toContainText('Blocked');
  } finally {
    await setOverride({});
  }
});

test.describe('a blocked seller renews', () => {
  // Put the demo back as it was (blocked) for any spec that runs after this one.
  test.afterAll(async ({ request }) => {
    const { token } = await apiSession(request, 'admin@demo.local');
    const headers = { authorization: `Bearer ${token}` };
    const sellers = await request.get(
      '/api/v1/subscriptionManager/getSubscriptions?query=blocked%40demo.local',
      {
        headers,
      },
    );
    const sellerId = (await sellers.json()).result[0]?.id;
    if (sellerId) {
      await request.post('/api/v1/subscriptionManager/blockSubscription', {
        headers,
        data: { sellerId, blocked: true, reason: 'Restoring the demo after the e2e test' },
      });
    }
  });

  test('requests a renewal, an admin approves it, and the seller is let back in', async ({ browser }) => {
    const seller = await signedIn(browser, 'blocked@demo.local');
    const admin = await signedIn(browser, 'admin@demo.local');
    try {
      // SPEC §4: a blocked seller who is not new lands on the subscription page.
      await expect(seller.page).toHaveURL(/\/sellers\/payment-seller-subscriptions$/);
      await expect(seller.page.getByText('Your subscription is blocked')).toBeVisible();
      // Everything else is closed until the subscription is renewed: the menu offers only this page,
      // and any other address leads back here.
      await expect(seller.page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
        'My Subscription',
      ]);
      await seller.page.goto('/sellers/general-dashboard');
      await expect(seller.page).toHaveURL(/\/sellers\/payment-seller-subscriptions$/);
      await expect(seller.page.getByText('Your subscription is blocked')).toBeVisible();

      // Asking without a plan is refused in the form.
      await seller.page.getByRole('button', { name: 'Request renewal' }).click();
      await expect(seller.page.getByText('Choose a plan')).toBeVisible();
      await seller.page.locator('label').filter({ hasText: 'Monthly' }).click();
      await seller.page.getByLabel('Note for the marketplace team').fill('Paid by NEFT, ref E2E-42');
      await seller.page.getByRole('button', { name: 'Request renewal' }).click();
      const request = seller.page.getByRole('status', { name: 'Renewal request', exact: true });
      await expect(request).toContainText('Waiting for approval');
      await expect(request).toContainText('Paid by NEFT, ref E2E-42');

      // The admin approves it on the subscription requests page.
      await admin.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Subscription Requests' })
        .click();
      const pending = admin.page.getByRole('table', { name: 'Pending renewal requests' });
      const row = pending.getByRole('row').filter({ hasText: 'Lapsed Goods Co' });
      await expect(row).toContainText('Paid by NEFT, ref E2E-42');
      await row.getByRole('button', { name: 'Approve Lapsed Goods Co' }).click();
      const dialog = admin.page.getByRole('dialog');
      await expect(dialog).toContainText('Monthly period of 30 days');
      await dialog.getByLabel(/Note/).fill('Received');
      await dialog.getByRole('button', { name: 'Approve renewal' }).click();
      await expect(dialog).toBeHidden();
      await expect(pending.getByRole('row').filter({ hasText: 'Lapsed Goods Co' })).toHaveCount(0);
      await admin.page.getByRole('tab', { name: 'Decided' }).click();
      const decided = admin.page.getByRole('table', { name: 'Decided renewal requests' });
      await expect(decided.getByRole('row').nth(1)).toContainText('Lapsed Goods Co');
      await expect(decided.getByRole('row').nth(1)).toContainText('Approved');

      // The seller's page notices on its own (it polls while a request is pending).
      await expect(seller.page.getByText('Your renewal was approved')).toBeVisible({ timeout: 25_000 });
      await seller.page.getByRole('link', { name: 'Go to your dashboard' }).click();
      await expect(seller.page).toHaveURL(/\/sellers\/general-dashboard$/);
      await expect(seller.page.getByRole('heading', { name: 'Lapsed Goods Co', level: 1 })).toBeVisible();

      // And `/` now leads to the general dashboard, with the store's own figures.
      await seller.page.goto('/');
      await expect(seller.page).toHaveURL(/\/sellers\/general-dashboard$/);
      await expect(stat(seller.page, 'Live products')).toHaveText('2');
      await expect(stat(seller.page, 'Open queries')).toHaveText('1');
      await expect(
        seller.page.getByRole('img', {
          name: /^Products by status: Draft 1, In review 1, Approved 0, Live 2/,
        }),
      ).toBeVisible();
      await expect(seller.page.getByText('Monthly · ₹999.00')).toBeVisible();
    } finally {
      await seller.context.close();
      await admin.context.close();
    }
  });
});
