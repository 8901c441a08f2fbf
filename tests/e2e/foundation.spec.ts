import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { apiSession, fillSignIn, PASSWORD } from './support';

const dataDir = process.env.E2E_DATA_DIR ?? path.resolve('.tmp/e2e-manual');

async function sidebarNames(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  return nav.getByRole('link').allTextContents();
}

/** User Permissions is a detail page of Manage Staff: reached from there, without reloading the SPA. */
async function openUserPermissions(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manage Staff' }).click();
  await page.getByRole('link', { name: 'Role permissions' }).click();
}

test('a signed-out visitor is sent to sign-in and comes back after signing in', async ({ page }) => {
  await page.goto('/permission/UserPermission?userId=abc');
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Fpermission%2FUserPermission%3FuserId%3Dabc$/);
  await fillSignIn(page, 'admin@demo.local');
  await expect(page).toHaveURL(/\/permission\/UserPermission\?userId=abc$/);
  await expect(page.getByRole('heading', { name: 'User Permissions' })).toBeVisible();
  // The stored auth is encrypted: never readable as JSON, never showing the token.
  const stored = await page.evaluate(() => localStorage.getItem('auth'));
  expect(stored).toBeTruthy();
  expect(() => JSON.parse(stored as string)).toThrow();
  expect(stored).not.toContain('admin@demo.local');
});

test('a wrong password shows the server message', async ({ page }) => {
  await page.goto('/signin');
  await fillSignIn(page, 'staff@demo.local', 'wrong-password-1');
  await expect(page.getByRole('alert')).toContainText('Invalid e-mail or password');
  await expect(page).toHaveURL(/\/signin$/);
});

const roles = [
  {
    email: 'admin@demo.local',
    landing: /\/$/,
    heading: 'Dashboard',
    menu: [
      'Dashboard',
      'Staging Products',
      'Attributes',
      'Imports',
      'Manage Tags',
      'Bulk Mails',
      'Contacts',
      'Invoices',
      'Manage Invoices',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Subscription Requests',
      'Manage Orders',
      'Purchase Orders',
      'Manage Auctions',
      'Manage Sellers',
      'Manage Category',
      'Customers',
      'Manage Staff',
      'Settings',
    ],
  },
  {
    email: 'staff@demo.local',
    landing: /\/$/,
    heading: 'Dashboard',
    menu: [
      'Dashboard',
      'Staging Products',
      'Attributes',
      'Imports',
      'Manage Tags',
      'Bulk Mails',
      'Contacts',
      'Invoices',
      'Manage Invoices',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Subscription Requests',
      'Manage Orders',
      'Purchase Orders',
      'Manage Sellers',
      'Manage Category',
      'Customers',
      'Settings',
    ],
  },
  {
    email: 'seller@demo.local',
    landing: /\/sellers\/general-dashboard$/,
    heading: 'Demo Seller Store',
    crumb: 'General Dashboard',
    menu: [
      'General Dashboard',
      'My Subscription',
      'Staging Products',
      'Attributes',
      'Imports',
      'Manage Tags',
      'Manage Invoices',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Manage Orders',
      'Customers',
      'Settings',
    ],
  },
  {
    email: 'blocked@demo.local',
    landing: /\/sellers\/payment-seller-subscriptions$/,
    heading: 'My Subscription',
    menu: ['My Subscription'],
  },
  {
    // In Pending KYC after a rejection: the seller's own pages, the dashboard first (to upload papers).
    email: 'kyc@demo.local',
    landing: /\/sellers\/general-dashboard$/,
    heading: 'Kesar Crafts',
    crumb: 'General Dashboard',
    menu: [
      'General Dashboard',
      'My Subscription',
      'Staging Products',
      'Attributes',
      'Imports',
      'Manage Tags',
      'Manage Invoices',
      'Queries',
      'Offer Requests',
      'Help Chats',
      'Call History',
      'Manage Orders',
      'Customers',
      'Settings',
    ],
  },
];

for (const role of roles) {
  test(`${role.email} lands where SPEC §4 says and sees their sidebar`, async ({ page }) => {
    await page.goto('/signin');
    await fillSignIn(page, role.email);
    await expect(page).toHaveURL(role.landing);
    await expect(page.getByRole('heading', { name: role.heading, level: 1 }).first()).toBeVisible();
    expect(await sidebarNames(page)).toEqual(role.menu);
    const crumbs = page.getByRole('navigation', { name: 'breadcrumb' });
    await expect(crumbs).toContainText(role.crumb ?? role.heading);
  });
}

test('a route the user may not open shows No access, and the sidebar never offers it', async ({ page }) => {
  await page.goto('/signin');
  await fillSignIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/general-dashboard$/);
  await page.goto('/permission/UserPermission');
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
});

test('the theme toggles to the -dark variant and survives a reload; sellers get the seller theme', async ({
  page,
}) => {
  await page.goto('/signin');
  await fillSignIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/general-dashboard$/);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'seller');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('color-theme'))).toBe('seller-dark');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  expect(await page.evaluate(() => localStorage.getItem('color-theme'))).toBe('seller');
});

test('a 401 gets one silent refresh with the rotating cookie, and the request succeeds on retry', async ({
  page,
}) => {
  await page.goto('/signin');
  await fillSignIn(page, 'admin@demo.local');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const storedBefore = await page.evaluate(() => localStorage.getItem('auth'));
  // The server refuses the access token once (as when it has expired); everything after is real.
  let refused = 0;
  await page.route('**/api/v1/users/getUserPermissionConfig**', (route) => {
    if (refused++ > 0) return route.fallback();
    return route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Access token expired', code: 'TOKEN_EXPIRED' }),
    });
  });
  const refresh = page.waitForResponse((response) => response.url().includes('/api/v1/auth/refresh'));
  await openUserPermissions(page);
  expect((await refresh).status()).toBe(200);
  await expect(page).toHaveURL(/\/permission\/UserPermission/);
  await expect(page.getByRole('heading', { name: 'User Permissions', level: 1 })).toBeVisible();
  expect(refused).toBe(2);
  // The new session is stored (still encrypted, never plain JSON).
  const storedAfter = await page.evaluate(() => localStorage.getItem('auth'));
  expect(storedAfter).not.toBe(storedBefore);
  expect(storedAfter).not.toContain('accessToken');
});

test('a 401 that a refresh cannot cure sends the user to sign-in and removes the stored auth', async ({
  page,
  context,
}) => {
  await page.goto('/signin');
  await fillSignIn(page, 'admin@demo.local');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  // The session ends on the server side: no refresh cookie, and the API refuses the access token.
  await context.clearCookies();
  await page.route('**/api/v1/users/getUserPermissionConfig**', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Access token expired', code: 'TOKEN_EXPIRED' }),
    }),
  );
  await openUserPermissions(page);
  await expect(page).toHaveURL(/\/signin/);
  expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('a forbidden API call shows the server message', async ({ page, request }) => {
  const admin = await apiSession(request, 'admin@demo.local');
  const staff = await apiSession(request, 'staff@demo.local');
  const setStaff = (overrides: Record<string, string[]>) =>
    request.post(`/api/v1/users/updateUserPermissions/${staff.userId}`, {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { overrides },
    });
  expect(
    (
      await setStaff({ '/staff/manage-staff': ['view'], '/permission/UserPermission': ['view', 'edit'] })
    ).ok(),
  ).toBe(true);
  try {
    await page.goto('/signin');
    await fillSignIn(page, 'staff@demo.local');
    await openUserPermissions(page);
    await page.getByRole('tab', { name: 'Roles' }).click();
    await page.getByLabel('view Dashboard').click({ force: true });
    // Meanwhile an admin takes the edit right away: the save is refused by the server.
    expect(
      (await setStaff({ '/staff/manage-staff': ['view'], '/permission/UserPermission': ['view'] })).ok(),
    ).toBe(true);
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect(page.getByText('You do not have permission to edit User Permissions.')).toBeVisible();
  } finally {
    await setStaff({});
  }
});

test('forgot password mails a reset link to the outbox, and the link sets a new password', async ({
  page,
}) => {
  const outbox = path.join(dataDir, 'outbox');
  const before = await readdir(outbox).catch(() => [] as string[]);
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('E-mail').fill('staff@demo.local');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If an account exists for that e-mail, a reset link is on its way.'),
  ).toBeVisible();

  let mailFile: string | undefined;
  await expect(async () => {
    mailFile = (await readdir(outbox)).find((name) => !before.includes(name));
    expect(mailFile).toBeTruthy();
  }).toPass();
  const mail = (await readFile(path.join(outbox, mailFile as string), 'utf8'))
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const link = /http:\/\/[^\s"]+\/reset-password\?token=[\w-]+/.exec(mail)?.[0];
  expect(link).toBeTruthy();
  const linkPath = new URL(link as string).pathname + new URL(link as string).search;

  // The new password is the demo one again: later specs sign in as staff, and a second reset mail
  // within a minute is refused by design. That the password really changes is an API test.
  const choose = async (password: string) => {
    await page.goto(linkPath);
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Repeat the new password').fill(password);
    await page.getByRole('button', { name: 'Set new password' }).click();
  };
  await choose(PASSWORD);
  await expect(page.getByText('Your password has been changed. Sign in with the new one.')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await fillSignIn(page, 'staff@demo.local', PASSWORD);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // The link is spent: it cannot set a password twice.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await choose('Another-pass-7');
  await expect(page.getByRole('alert')).toBeVisible();
});
