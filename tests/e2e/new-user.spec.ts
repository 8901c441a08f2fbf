// What a new user tripped on (issue 12): the return-to page after a sign-out, and the call UI of users
// who may not call.
import { expect, type Page, type Response, test } from '@playwright/test';
import { fillSignIn, signIn } from './support';

/** Signs in as the admin and opens Manage Sellers once the dashboard is there. */
async function adminOnManageSellers(page: Page) {
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goto('/sellers/manage-sellers');
  await expect(page.getByRole('heading', { name: 'Manage Sellers', level: 1 })).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

test('a sign-out leaves no return-to: the next person lands on their own home', async ({ page }) => {
  await adminOnManageSellers(page);

  await signOut(page);
  // Exactly /signin: nothing of the admin's page is kept for whoever signs in next.
  await expect(page).toHaveURL(/\/signin$/);

  await fillSignIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
  await expect(page.getByRole('heading', { name: 'No access' })).toHaveCount(0);
});

test("the previous user's page opened again after a sign-out is not handed to the next one", async ({
  page,
}) => {
  await adminOnManageSellers(page);
  await signOut(page);
  await expect(page).toHaveURL(/\/signin$/);

  // The admin's page again (history, a bookmark): signed out, it sends to sign-in with it as return-to…
  await page.goto('/sellers/manage-sellers');
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Fsellers%2Fmanage-sellers$/);
  // …which is the admin's, not the seller's: the seller lands on their own home.
  await fillSignIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
  await expect(page.getByRole('heading', { name: 'No access' })).toHaveCount(0);

  // A reload of the sign-in page keeps that rule (whose session ended is kept per tab).
  await signOut(page);
  await page.goto('/sellers/help-chats');
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Fsellers%2Fhelp-chats$/);
  await page.reload();
  await fillSignIn(page, 'staff@demo.local');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('a deep link opened signed out returns there after signing in', async ({ page }) => {
  await page.goto('/sellers/manage-sellers?tab=pending-kyc');
  await expect(page).toHaveURL(/\/signin\?returnTo=/);
  await fillSignIn(page, 'admin@demo.local');
  await expect(page).toHaveURL(/\/sellers\/manage-sellers\?tab=pending-kyc$/);
  await expect(page.getByRole('heading', { name: 'Manage Sellers', level: 1 })).toBeVisible();
});

/** Every API answer of 400 or more while `action` runs, and until the page has settled after it. */
async function failedApiCalls(page: Page, action: () => Promise<void>): Promise<string[]> {
  const failed: string[] = [];
  const onResponse = (response: Response) => {
    if (response.url().includes('/api/') && response.status() >= 400)
      failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  };
  page.on('response', onResponse);
  try {
    await action();
  } finally {
    page.off('response', onResponse);
  }
  return failed;
}

test('a blocked seller gets no phone and no 403 at page load', async ({ page }) => {
  const failed = await failedApiCalls(page, async () => {
    await signIn(page, 'blocked@demo.local');
    await expect(page).toHaveURL(/\/sellers\/payment-seller-subscriptions$/);
    await expect(page.getByRole('heading', { name: 'My Subscription', level: 1 })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'My Subscription', level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
  });
  expect(failed).toEqual([]);
  await expect(page.getByRole('button', { name: 'Phone' })).toHaveCount(0);
});

test('a seller who may call gets the phone (the same page load fetches the voice token)', async ({
  page,
}) => {
  const tokens: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/v1/voice/method/getAccessToken')) tokens.push(response.status());
  });
  await signIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
  await expect(page.getByRole('button', { name: 'Phone' })).toBeVisible();
  await expect.poll(() => tokens).toContain(200);
  expect(tokens.filter((status) => status >= 400)).toEqual([]);
});
