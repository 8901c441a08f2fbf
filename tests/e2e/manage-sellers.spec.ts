import { expect, type Page, test } from '@playwright/test';
import { apiSession, signIn } from './support';

const tabs = [
  { key: 'active', label: 'Active Sellers', status: 'Active' },
  { key: 'pending-verification', label: 'Pending Verification', status: 'Pending Verification' },
  { key: 'pending-kyc', label: 'Pending KYC', status: 'Pending KYC' },
  { key: 'inactive', label: 'Inactive Sellers', status: 'Inactive' },
] as const;

const sellersTable = (page: Page) => page.getByRole('table', { name: 'Sellers' });
/** The seller detail drawer (its accessible name is the seller's name). */
const sellerDrawer = (page: Page) =>
  page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close seller details' }) });
const bodyRows = (page: Page) => sellersTable(page).locator('tbody tr');

async function openManageSellers(page: Page) {
  await signIn(page, 'admin@demo.local');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manage Sellers' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Sellers', level: 1 })).toBeVisible();
}

/** A real 1×1 PNG followed by padding (decoders stop at IEND): big enough to watch it upload. */
function paddedPng(bytes: number): Buffer {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  return Buffer.concat([png, Buffer.alloc(bytes - png.length)]);
}

test('an admin walks the four tabs and each count matches its rows; the view survives a reload', async ({
  page,
}) => {
  await openManageSellers(page);
  await page.getByLabel('Rows per page').selectOption('100');
  await expect(page).toHaveURL(/size=100/);

  for (const tab of tabs) {
    await page.getByRole('tab', { name: new RegExp(`^${tab.label}`) }).click();
    await expect(page).toHaveURL(
      tab.key === 'active' ? /manage-sellers\?size=100$/ : new RegExp(`tab=${tab.key}`),
    );
    await expect(async () => {
      const count = Number(await page.getByTestId(`count-${tab.key}`).textContent());
      const rows = await bodyRows(page).count();
      expect(count).toBeGreaterThan(0);
      expect(rows).toBe(count);
      // Every row really is in this tab.
      const statuses = await bodyRows(page).locator('td:nth-child(4)').allTextContents();
      for (const status of statuses) expect(status.startsWith(tab.status)).toBe(true);
    }).toPass();
  }

  // Sorting by name goes into the URL, and the whole view comes back after a reload.
  await sellersTable(page).getByRole('button', { name: 'Seller' }).click();
  await expect(page).toHaveURL(/sort=sellerName&order=asc/);
  await expect(sellersTable(page)).toHaveAttribute('aria-busy', 'false');
  const names = await bodyRows(page).locator('td:first-child a').allTextContents();
  const lower = names.map((n) => n.toLowerCase());
  expect(lower).toEqual([...lower].sort());
  await page.reload();
  await expect(page.getByRole('tab', { name: /^Inactive Sellers/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Rows per page')).toHaveValue('100');
  await expect(bodyRows(page).first().locator('td:first-child a')).toHaveText(names[0] as string);
});

test('an admin creates a seller, verifies the e-mail, approves KYC and uploads a logo with progress', async ({
  page,
}) => {
  const name = `Playwright Traders ${Date.now()}`;
  await openManageSellers(page);

  // Create: the new seller opens in Pending Verification.
  await page.getByRole('button', { name: 'New seller' }).click();
  const dialog = page.getByRole('dialog', { name: 'New seller' });
  // The code hint is the code the server would give now, never a made-up example.
  const hint = dialog.getByText(/^Leave empty to get the next free code \(now SEL-\d{4,}\)\.$/);
  await expect(hint).toBeVisible();
  const nextCode = /SEL-\d+/.exec((await hint.textContent()) ?? '')?.[0] as string;
  await dialog.getByLabel('Seller name').fill(name);
  await dialog.getByLabel(/^E-mail/).fill('seller@demo.local');
  await dialog.getByLabel('Phone').fill('+91 98765 43210');
  await dialog.getByRole('button', { name: 'Create seller' }).click();
  // The service's message is shown as it is.
  await expect(dialog.getByRole('alert')).toContainText(
    'A seller with the e-mail seller@demo.local already exists.',
  );
  await dialog.getByLabel(/^E-mail/).fill(`pw.${Date.now()}@sellers.example`);
  await dialog.getByRole('button', { name: 'Create seller' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/tab=pending-verification.*seller=/);
  const drawer = sellerDrawer(page);
  await expect(drawer.getByRole('heading', { name })).toBeVisible();
  await expect(drawer.getByText('Status: Pending Verification')).toBeVisible();
  await expect(drawer.getByText(nextCode, { exact: true })).toBeVisible();

  // Only the valid action is offered; verifying moves the seller to Pending KYC.
  await expect(drawer.getByRole('button', { name: 'Approve KYC' })).toHaveCount(0);
  await drawer.getByRole('button', { name: 'Verify e-mail' }).click();
  await expect(drawer.getByText('Status: Pending KYC')).toBeVisible();
  await drawer.getByRole('button', { name: 'Close seller details' }).click();
  await page.getByLabel('Search sellers').fill(name);
  await expect(page).toHaveURL(/q=Playwright/);
  await expect(page.getByText(`No sellers match “${name}”`)).toBeVisible();
  await page.getByRole('tab', { name: /^Pending KYC/ }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Pending KYC');

  // Approve KYC: the seller is Active, and shows up in the Active tab.
  await row.getByRole('link', { name }).click();
  await drawer.getByRole('button', { name: 'Approve KYC' }).click();
  await expect(drawer.getByText('Status: Active')).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Deactivate' })).toBeVisible();

  // The history tells who did what.
  await drawer.getByRole('tab', { name: 'History' }).click();
  const history = drawer.getByRole('list', { name: 'Update history' });
  await expect(history.getByRole('listitem').first()).toContainText('Asha Admin changed the status');
  await expect(history).toContainText('Status: Pending KYC → Active');
  await expect(history).toContainText('Asha Admin created the seller');

  // Logo: a slow link so the real upload progress can be watched from the first bytes to the end.
  await drawer.getByRole('tab', { name: 'Profile' }).click();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 400 * 1024,
  });
  await drawer.getByTestId('logo-input').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: paddedPng(1_500_000),
  });
  const progress = drawer.getByRole('progressbar');
  await expect(progress).toBeVisible();
  await expect(drawer.getByText('Uploading logo.png…')).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { intervals: [50] })
    .toBeGreaterThan(0);
  await expect(drawer.getByText('Uploaded logo.png')).toBeVisible({ timeout: 30_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(drawer.getByRole('img', { name: `${name} logo` }).first()).toHaveAttribute(
    'src',
    /^\/files\/logos\/[0-9a-f-]{36}\.png$/,
  );

  await drawer.getByRole('button', { name: 'Close seller details' }).click();
  await page.getByRole('tab', { name: /^Active Sellers/ }).click();
  const activeRow = page.getByRole('row', { name: new RegExp(name) });
  await expect(activeRow).toContainText('Active');
  await expect(activeRow.getByRole('img', { name: `${name} logo` })).toBeVisible();
});

/**
 * Staff's default on this page is view only. The same permission is given to the admin for this test
 * through a user override (so no other spec's use of the staff account matters), and taken back
 * afterwards.
 */
test('a user who may only view sees the sellers but no create, edit or lifecycle controls', async ({
  page,
  request,
}) => {
  const { token: accessToken, userId } = await apiSession(request, 'admin@demo.local');
  const setOverrides = (overrides: Record<string, string[]>) =>
    request.post(`/api/v1/users/updateUserPermissions/${userId}`, {
      data: { overrides },
      headers: { authorization: `Bearer ${accessToken}` },
    });
  expect((await setOverrides({ '/sellers/manage-sellers': ['view'] })).ok()).toBe(true);
  try {
    await openManageSellers(page);
    await expect(page.getByRole('button', { name: 'New seller' })).toHaveCount(0);
    await page.getByRole('tab', { name: /^Pending KYC/ }).click();
    await expect(sellersTable(page)).toHaveAttribute('aria-busy', 'false');
    await bodyRows(page).first().locator('td:first-child a').click();
    const drawer = sellerDrawer(page);
    await expect(drawer.getByText('Status: Pending KYC')).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Approve KYC' })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: 'Reject KYC' })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: 'Upload logo' })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
    await expect(drawer.getByRole('checkbox', { name: /Free seller/ })).toBeDisabled();
    await drawer.getByRole('tab', { name: 'Documents' }).click();
    await expect(drawer.getByRole('button', { name: 'Choose file' })).toHaveCount(0);
  } finally {
    await setOverrides({});
  }
});
