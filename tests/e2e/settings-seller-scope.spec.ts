// An admin opens a seller's settings (issue 29): "Settings of" finds the demo seller's shop, the address
// names it (`?seller=`) and survives a reload, the inherited divisor is overridden for the shop and shows
// "Overridden"; the seller, signed in at another computer, sees the same value overridden.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { saveSection, settingField } from './settings-support';
import { signedIn, signIn } from './support';

const SHOP = 'Demo Seller Store';

const saveShipping = (
  request: APIRequestContext,
  email: string,
  body: { set?: Record<string, unknown>; reset?: string[] },
) => saveSection(request, email, 'shipping', body);

test("an admin overrides a seller's shipping divisor, and the seller sees it overridden", async ({
  page,
  request,
  browser,
}) => {
  // The marketplace's divisor is 5000, and the shop follows it.
  await saveShipping(request, 'admin@demo.local', { set: { divisor: 5000 } });
  await saveShipping(request, 'seller@demo.local', { reset: ['divisor'] });

  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.goto('/settings/manage-settings?tab=shipping');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Find a seller by name or code' }).fill('Demo Seller');
  await page.getByLabel('Settings of').selectOption({ label: SHOP });
  await expect(page).toHaveURL(/[?&]seller=[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: `Settings of ${SHOP}`, level: 1 })).toBeVisible();
  // A shop's page: only the sections a seller has.
  await expect(page.getByRole('tab', { name: 'Shipping' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Communication' })).toHaveCount(0);

  const divisor = settingField(page, 'Volumetric divisor');
  await expect(divisor.getByText('Inherited', { exact: true })).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Volumetric divisor' })).toHaveValue('5000');
  await page.getByRole('spinbutton', { name: 'Volumetric divisor' }).fill('6000');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(divisor.getByText('Overridden', { exact: true })).toBeVisible();
  await expect(divisor.getByText('Marketplace: 5000')).toBeVisible();

  // The view is linkable: a reload opens the same shop's settings.
  await page.reload();
  await expect(page.getByRole('heading', { name: `Settings of ${SHOP}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Volumetric divisor' })).toHaveValue('6000');
  await expect(
    settingField(page, 'Volumetric divisor').getByText('Overridden', { exact: true }),
  ).toBeVisible();

  const seller = await signedIn(browser, 'seller@demo.local');
  try {
    await expect(seller.page).toHaveURL(/\/sellers\/general-dashboard$/);
    await seller.page.goto('/settings/manage-settings?tab=shipping');
    await expect(seller.page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(seller.page.getByRole('spinbutton', { name: 'Volumetric divisor' })).toHaveValue('6000');
    const own = settingField(seller.page, 'Volumetric divisor');
    await expect(own.getByText('Overridden', { exact: true })).toBeVisible();
    await expect(own.getByText('Marketplace: 5000')).toBeVisible();
    // A seller's own page has no switch.
    await expect(seller.page.getByLabel('Settings of')).toHaveCount(0);
  } finally {
    await seller.context.close();
  }
});
