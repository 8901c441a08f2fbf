// Settings → Shipping as a seller (issue 29 §4): the marketplace's zone is inherited; the seller
// overrides its rate, sees "Overridden" and their rate in the calculator, resets to inherited and sees
// the marketplace's rate again.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { saveSection, settingField } from './settings-support';
import { signIn } from './support';

const MARKETPLACE_ZONES = [
  {
    id: 'e2e-india',
    name: 'India',
    countries: ['IN'],
    currency: 'INR',
    bands: [{ fromKg: 0, toKg: null, rateMinor: 25000 }],
  },
];

const saveShipping = (
  request: APIRequestContext,
  email: string,
  body: { set?: Record<string, unknown>; reset?: string[] },
) => saveSection(request, email, 'shipping', body);

test('a seller overrides a shipping rate, then resets it to the inherited one', async ({ page, request }) => {
  // The marketplace ships to India at ₹250.00; the seller starts from what they inherit.
  await saveShipping(request, 'admin@demo.local', { set: { zones: MARKETPLACE_ZONES, divisor: 5000 } });
  await saveShipping(request, 'seller@demo.local', { reset: ['zones', 'divisor', 'lengthUnit'] });

  await signIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
  await page.goto('/settings/manage-settings?tab=shipping');
  await expect(page.getByRole('heading', { name: 'Shipping', level: 2 })).toBeVisible();

  const zones = settingField(page, 'Shipping zones');
  const rate = page.getByLabel('India, band 1: rate in INR');
  const quoteRate = page.getByTestId('quote-rate');
  await expect(zones.getByText('Inherited', { exact: true })).toBeVisible();
  await expect(rate).toHaveValue('250.00');
  await page.getByLabel('Actual weight (kg)').fill('1');
  await expect(quoteRate).toHaveText('₹250.00');

  await rate.fill('199.50');
  // The calculator quotes the draft at once, as the seller's own zone.
  await expect(quoteRate).toHaveText('₹199.50');
  await expect(page.getByTestId('quote-zone')).toHaveText('India (your own)');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(zones.getByText('Overridden', { exact: true })).toBeVisible();
  await expect(zones.getByText('Marketplace: 1 item')).toBeVisible();
  await expect(rate).toHaveValue('199.50');

  await page.getByRole('button', { name: 'Reset to inherited: Shipping zones' }).click();
  await expect(zones.getByText('Inherited', { exact: true })).toBeVisible();
  await expect(rate).toHaveValue('250.00');
  await expect(quoteRate).toHaveText('₹250.00');
  await expect(page.getByTestId('quote-zone')).toHaveText("India (the marketplace's)");
});

/** Critical and serious WCAG 2.2 AA violations in the page's main area, one line per element. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

test('the Shipping and Company tabs meet WCAG 2.2 AA, with one h1', async ({ page, request }) => {
  await saveShipping(request, 'admin@demo.local', { set: { zones: MARKETPLACE_ZONES } });
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  for (const [tab, ready] of [
    ['shipping', 'India, band 1: rate in INR'],
    ['company', 'Rate of CA GST 5% in percent'],
  ] as const) {
    await page.goto(`/settings/manage-settings?tab=${tab}`);
    await expect(page.getByLabel(ready)).toBeVisible();
    await expect(page.locator('h1')).toHaveCount(1);
    expect(await axeViolations(page), tab).toEqual([]);
  }
});
