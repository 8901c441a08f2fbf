// Settings → Localization live in every open browser (issue 29 §2): an admin changes the marketplace's
// default currency in one browser; in another, a staff member's next requests carry the new
// `defaultCurrency` and the price shown in the default currency follows — without a reload.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Request, test } from '@playwright/test';
import type { SectionState } from '../../contracts/settings';
import { apiSession, liveUpdatesOn, signedIn } from './support';

/** Resets the Localization fields this test changes, through the API, on top of the current version. */
async function resetLocalization(request: APIRequestContext) {
  const { token } = await apiSession(request, 'admin@demo.local');
  const headers = { authorization: `Bearer ${token}` };
  const state = (await (
    await request.get('/api/v1/settings/localization', { headers })
  ).json()) as SectionState;
  const response = await request.put('/api/v1/settings/localization', {
    headers,
    data: { version: state.version, set: {}, reset: ['defaultCurrency', 'currencies', 'locale'] },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

const carriesCurrency = (currency: string) => (request: Request) =>
  request.url().includes('/api/v1/') &&
  new URL(request.url()).searchParams.get('defaultCurrency') === currency;

test.afterEach(async ({ request }) => {
  await resetLocalization(request);
});

test('a marketplace currency change reaches another open browser without a reload', async ({
  browser,
  request,
}) => {
  await resetLocalization(request);
  const admin = await signedIn(browser, 'admin@demo.local');
  const staff = await signedIn(browser, 'staff@demo.local');
  try {
    for (const { page } of [admin, staff]) {
      await expect(page).not.toHaveURL(/\/signin/);
      await liveUpdatesOn(page);
      await page.goto('/settings/manage-settings?tab=localization');
      await expect(page.getByRole('heading', { name: 'Localization', level: 2 })).toBeVisible();
      await expect(page.getByTestId('price-example')).toHaveText('₹1,234.50');
      await liveUpdatesOn(page);
    }
    // Staff may look, not change.
    await expect(staff.page.getByLabel('Default currency', { exact: true })).toBeDisabled();
    // A mark on the staff page's window: a reload would lose it.
    await staff.page.evaluate(() => {
      (window as unknown as { notReloaded?: boolean }).notReloaded = true;
    });
    const staffRequest = staff.page.waitForRequest(carriesCurrency('USD'));

    await admin.page.getByLabel('Default currency', { exact: true }).selectOption('USD');
    await expect(admin.page.getByTestId('price-example')).toHaveText('$1,234.50');
    await admin.page.getByRole('button', { name: 'Save changes' }).click();
    await expect(admin.page.getByText('Settings saved')).toBeVisible();

    // The other browser: the broker's SETTINGS_CHANGED makes it refetch; requests carry USD now.
    await staffRequest;
    await expect(staff.page.getByTestId('price-example')).toHaveText('$1,234.50');
    await expect(staff.page.getByLabel('Default currency', { exact: true })).toHaveValue('USD');
    expect(
      await staff.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);

    // And a request the staff member starts themselves carries the new default too.
    const next = staff.page.waitForRequest((req) => req.url().includes('/api/v1/settings/history'));
    await staff.page.getByRole('button', { name: 'History' }).click();
    expect(new URL((await next).url()).searchParams.get('defaultCurrency')).toBe('USD');
  } finally {
    await admin.context.close();
    await staff.context.close();
  }
});

test('the section passes axe (WCAG 2.2 AA) for an admin, and a seller sees only the time zone', async ({
  browser,
}) => {
  const check = async (email: string) => {
    const { context, page } = await signedIn(browser, email);
    await expect(page).not.toHaveURL(/\/signin/);
    // The signed-in shell is up (its session stored) before the page is opened by address.
    await liveUpdatesOn(page);
    await page.goto('/settings/manage-settings?tab=localization');
    await expect(page.getByRole('heading', { name: 'Localization', level: 2 })).toBeVisible();
    await expect(page.getByLabel('Time zone', { exact: true })).toBeVisible();
    return { context, page };
  };

  const admin = await check('admin@demo.local');
  try {
    await expect(admin.page.getByTestId('locale-example')).toHaveText('27 Nov 2026 · 1,234.50');
    await admin.page.getByLabel('Date and number format', { exact: true }).selectOption('de-DE');
    await expect(admin.page.getByTestId('locale-example')).toHaveText('27. Nov. 2026 · 1.234,50');
    await expect(admin.page.getByRole('button', { name: 'Remove JPY' })).toBeVisible();
    const { violations } = await new AxeBuilder({ page: admin.page })
      .include('main')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(
      violations
        .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
    ).toEqual([]);
  } finally {
    await admin.context.close();
  }

  const seller = await check('seller@demo.local');
  try {
    await expect(seller.page.getByText('Inherited', { exact: true })).toBeVisible();
    await expect(seller.page.getByLabel('Default currency', { exact: true })).toHaveCount(0);
    await expect(seller.page.getByLabel('Date and number format', { exact: true })).toHaveCount(0);
  } finally {
    await seller.context.close();
  }
});
