import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { apiSession, signIn } from './support';

const dataDir = process.env.E2E_DATA_DIR ?? path.resolve('.tmp/e2e-manual');
const outbox = path.join(dataDir, 'outbox');

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'breadcrumb' });

/** The set-password link of the first mail to `to` that was not in the outbox before. */
async function mailedLink(before: string[], to: string): Promise<string> {
  let link: string | undefined;
  await expect(async () => {
    for (const name of (await readdir(outbox)).filter((file) => !before.includes(file))) {
      const mail = (await readFile(path.join(outbox, name), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!mail.includes(`To: ${to}`)) continue;
      link = /http:\/\/[^\s"]+\/reset-password\?token=[\w-]+/.exec(mail)?.[0];
    }
    expect(link).toBeTruthy();
  }).toPass();
  const url = new URL(link as string);
  return url.pathname + url.search;
}

test('an admin invites a staff member, who sets a password from the mail, then deactivates them', async ({
  page,
  browser,
}) => {
  const email = `nadia.${Date.now()}@demo.local`;
  const before = await readdir(outbox).catch(() => [] as string[]);
  await signIn(page, 'admin@demo.local');
  await menu(page).getByRole('link', { name: 'Manage Staff' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Staff', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: /Sam Staff/ })).toBeVisible();

  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a staff member' });
  // The server's refusal shows in the dialog: this address is taken.
  await dialog.getByLabel('First name').fill('Nadia');
  await dialog.getByLabel('Last name').fill('Newhire');
  await dialog.getByLabel('E-mail').fill('staff@demo.local');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByRole('alert')).toContainText('A user with this e-mail address already exists.');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /Nadia Newhire/ });
  await expect(row).toContainText(email);
  await expect(row).toContainText('Active');
  await expect(row.getByRole('link', { name: 'Permissions of Nadia Newhire' })).toHaveAttribute(
    'href',
    /\/permission\/UserPermission\?userId=[0-9a-f-]{36}$/,
  );

  // One link a minute: asking again at once is refused, and the server's reason is shown.
  await expect(row).toContainText('Invitation pending');
  await row.getByRole('button', { name: 'Resend invitation to Nadia Newhire' }).click();
  await expect(page.getByText('A link was sent to this address less than a minute ago.')).toBeVisible();

  // The invitation mail's link sets the first password; the new staff member signs in with it.
  const link = await mailedLink(before, email);
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await staffPage.goto(link);
  await staffPage.getByLabel('New password', { exact: true }).fill('Welcome-aboard-7');
  await staffPage.getByLabel('Repeat the new password').fill('Welcome-aboard-7');
  await staffPage.getByRole('button', { name: 'Set new password' }).click();
  await expect(staffPage.getByText('Your password has been changed.')).toBeVisible();
  await signIn(staffPage, email, 'Welcome-aboard-7');
  await expect(staffPage.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Deactivated: the row says so and the account can no longer sign in.
  await row.getByRole('button', { name: 'Deactivate Nadia Newhire' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Deactivate Nadia Newhire?' });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('Deactivated');
  await expect(row.getByRole('button', { name: 'Reactivate Nadia Newhire' })).toBeVisible();

  await staffContext.close();
  const laterContext = await browser.newContext();
  const laterPage = await laterContext.newPage();
  await signIn(laterPage, email, 'Welcome-aboard-7');
  await expect(laterPage.getByRole('alert')).toContainText('This account has been deactivated');
  await laterContext.close();

  // The permissions page of a staff member sits under Manage Staff in the breadcrumbs.
  await row.getByRole('link', { name: 'Permissions of Nadia Newhire' }).click();
  await expect(page.getByRole('heading', { name: 'User Permissions', level: 1 })).toBeVisible();
  await crumbs(page).getByRole('link', { name: 'Manage Staff' }).click();
  await expect(page).toHaveURL(/\/staff\/manage-staff$/);
});

test('an admin edits a customer', async ({ page }) => {
  await signIn(page, 'admin@demo.local');
  await menu(page).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Customer pages' })).toContainText('1–10 of 30');
  await page.getByLabel('Search customers').fill('SIDDHARTH.reddy19');
  const row = page.getByRole('row', { name: /Siddharth Reddy/ });
  await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row')).toHaveCount(2);
  await expect(row).toContainText('Active');

  await row.getByRole('link', { name: 'Edit Siddharth Reddy' }).click();
  await expect(page).toHaveURL(/\/sellers\/seller-customers\/customer-edit\?customerId=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Edit Siddharth Reddy', level: 1 })).toBeVisible();
  await expect(crumbs(page).getByRole('link', { name: 'Customers' })).toBeVisible();

  // Client-side checks first, then the server's answer.
  const phone = page.getByRole('textbox', { name: 'Phone' });
  await phone.fill('call me maybe');
  await page.getByRole('button', { name: 'Save customer' }).click();
  await expect(page.getByText('Enter a phone number')).toBeVisible();
  await phone.fill('+91 98765 43210');
  await page.getByLabel('City').fill('Udaipur');
  await page.getByText('Active: the customer can sign in and order').click();
  await page.getByRole('button', { name: 'Save customer' }).click();
  await expect(page.getByText('Siddharth Reddy is up to date.')).toBeVisible();

  await crumbs(page).getByRole('link', { name: 'Customers' }).click();
  await page.getByLabel('Search customers').fill('98765 43210');
  await expect(row).toContainText('+91 98765 43210');
  await expect(row).toContainText('Inactive');
});

test('an admin creates a category and a subcategory', async ({ page }) => {
  const name = `Garden Care ${Date.now() % 100000}`;
  const slug = name.toLowerCase().replaceAll(' ', '-');
  await signIn(page, 'admin@demo.local');
  await menu(page).getByRole('link', { name: 'Manage Category' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Category', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: /Apparel/ })).toBeVisible();

  await page.getByRole('button', { name: 'New category' }).click();
  const dialog = page.getByRole('dialog', { name: 'New category' });
  await dialog.getByLabel('Name').fill(name);
  // The slug follows the name until it is edited.
  await expect(dialog.getByLabel('Slug')).toHaveValue(slug);
  await dialog.getByLabel('Description').fill('Tools, seeds and soil.');
  await dialog.getByLabel('Sort order').fill('5');
  await dialog.getByRole('button', { name: 'Create category' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(slug);
  await expect(row).toContainText('Active');

  // A slug another category has is refused by the server, with its message in the dialog.
  await page.getByRole('button', { name: 'New category' }).click();
  const again = page.getByRole('dialog', { name: 'New category' });
  await again.getByLabel('Name').fill('Apparel');
  await again.getByRole('button', { name: 'Create category' }).click();
  await expect(again.getByRole('alert')).toContainText('Another category already uses the slug “apparel”.');
  await again.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/sellers\/manage-subcategory\?categoryId=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `${name}: subcategories`, level: 1 })).toBeVisible();
  await expect(page.getByText(`${name} has no subcategories yet`)).toBeVisible();
  await page.getByRole('button', { name: 'New subcategory' }).click();
  const sub = page.getByRole('dialog', { name: 'New subcategory' });
  await sub.getByLabel('Name').fill('Seeds & Bulbs');
  await expect(sub.getByLabel('Slug')).toHaveValue('seeds-and-bulbs');
  await sub.getByRole('button', { name: 'Create subcategory' }).click();
  await expect(page.getByRole('row', { name: /Seeds & Bulbs/ })).toContainText('seeds-and-bulbs');

  // The breadcrumb leads back to the categories, where the count went up; it cannot be deleted now.
  await crumbs(page).getByRole('link', { name: 'Manage Category' }).click();
  await expect(row.getByRole('cell').nth(2)).toHaveText('1');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByRole('alert')).toContainText('still has 1 subcategory');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
});

test('a seller sees only their own customers', async ({ page, request }) => {
  // A customer of another store, found as an admin.
  const { token: adminToken } = await apiSession(request, 'admin@demo.local');
  const all = await request.get('/api/v1/users/listCustomers?limit=100', {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const rows = (await all.json()).rows as { id: string; email: string; sellerName: string | null }[];
  const foreign = rows.find((row) => row.sellerName && row.sellerName !== 'Demo Seller Store');
  expect(foreign).toBeTruthy();

  await signIn(page, 'seller@demo.local');
  await menu(page).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(page.getByText('People who registered through your store.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Customer pages' })).toContainText('1–10 of 12');
  // No store column for a seller (they are all theirs), and no edit link (admins edit customers).
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('columnheader', { name: 'Store' })).toHaveCount(0);
  await expect(table.getByRole('link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('navigation', { name: 'Customer pages' })).toContainText('11–12 of 12');

  await page.getByLabel('Search customers').fill(foreign?.email ?? '');
  await expect(page.getByText('No customers match')).toBeVisible();

  await page.goto(`/sellers/seller-customers/customer-edit?customerId=${foreign?.id}`);
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
});
