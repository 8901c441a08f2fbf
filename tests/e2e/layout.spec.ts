// Wide tables and phone layouts (issue 26). At 1440 × 900 with the sidebar open, the staging products,
// the contacts and an import's report show every column; where a table is wider than its box (a
// narrower window), a shadow on the side with more columns says so and follows the scroll. On a
// 390 × 844 phone a tapped tag's details come up over the tree, and the campaign composer's actions
// keep to one short row.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiSession, signIn } from './support';

/** Where a table stands in its scrolling box: the headers cut by the box's sides, and the hints shown. */
async function tableLayout(table: Locator) {
  return table.evaluate((element) => {
    const box = element.parentElement as HTMLElement;
    const frame = box.getBoundingClientRect();
    const hint = (side: string) =>
      box.parentElement?.querySelector(`[data-scroll-hint="${side}"]`)?.hasAttribute('data-shown') ?? false;
    return {
      cut: [...element.querySelectorAll('th')]
        .filter((th) => {
          const cell = th.getBoundingClientRect();
          return cell.left < frame.left - 1 || cell.right > frame.right + 1;
        })
        .map((th) => th.textContent?.trim() ?? ''),
      overflows: box.scrollWidth > box.clientWidth + 1,
      start: hint('start'),
      end: hint('end'),
    };
  });
}

/** The report of the demo seller's sample sheet: rows with errors, duplicates and long messages. */
async function sampleImportUrl(page: Page) {
  const { token } = await apiSession(page.request, 'admin@demo.local');
  const response = await page.request.get('/api/v1/imports/listImports?limit=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  const list = (await response.json()) as { result: { id: string; fileName: string }[] };
  const sample = list.result.find((item) => item.fileName === 'sample-catalog-sheet.csv');
  expect(sample, 'the demo seller’s sample sheet').toBeTruthy();
  return `/imports/manage-imports?import=${sample?.id}`;
}

/** The tables; where `fits`, every column shows at 1440 px, else the hint says where the rest are. */
const wideTables = [
  { name: 'Staging products', url: async () => '/products/staging-products', fits: true },
  { name: 'Contacts', url: async () => '/marketing/contacts', fits: false },
  { name: 'Report rows', url: sampleImportUrl, fits: true },
];

test.describe('at 1440 × 900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  for (const { name, url, fits } of wideTables) {
    test(`${name}: every column shows, or a hint says where the rest are`, async ({ page }) => {
      await signIn(page, 'admin@demo.local');
      await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
      await page.goto(await url(page));
      const table = page.getByRole('table', { name, exact: true });
      await expect(table.locator('tbody tr').nth(1)).toBeVisible();
      await expect(page.locator('main .chakra-skeleton')).toHaveCount(0);
      if (fits) {
        await expect
          .poll(() => tableLayout(table))
          .toEqual({ cut: [], overflows: false, start: false, end: false });
        return;
      }
      // The hint shows exactly when columns are cut; the key columns always show.
      await expect
        .poll(async () => {
          const layout = await tableLayout(table);
          return layout.end === layout.cut.length > 0 && !layout.start;
        })
        .toBe(true);
      const { cut } = await tableLayout(table);
      for (const key of ['Name', 'E-mail', 'Subscription']) expect(cut).not.toContain(key);
    });
  }

  test('a table wider than its box says so on the side that has more, and scrolls by keyboard', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.local');
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await page.goto('/marketing/contacts');
    const table = page.getByRole('table', { name: 'Contacts', exact: true });
    await expect(table.locator('tbody tr').nth(1)).toBeVisible();
    // A narrower window: the same table no longer fits.
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect.poll(async () => (await tableLayout(table)).end).toBe(true);
    expect((await tableLayout(table)).start).toBe(false);

    const region = page.getByRole('region', { name: 'Contacts (scrolls sideways)' });
    await region.focus();
    // The arrow keys scroll the focused box a step at a time, to its end.
    await expect(async () => {
      await page.keyboard.press('ArrowRight');
      expect(await tableLayout(table)).toMatchObject({ start: true, end: false });
    }).toPass();
    expect((await tableLayout(table)).cut).not.toContain('Created');
  });
});

test.describe('at 390 × 844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a tapped tag’s details come up over the tree, and go back to it', async ({ page }) => {
    await signIn(page, 'admin@demo.local');
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await page.goto('/tags/manage-tags');
    const tree = page.getByRole('tree', { name: 'Draft tags' });
    const first = tree.getByRole('treeitem').first();
    await expect(first).toBeVisible();
    const name = (await first.locator('[data-name]').textContent()) ?? '';
    await first.locator('[data-name]').click();

    const sheet = page.getByRole('dialog', { name: 'Tag details' });
    await expect(sheet.getByTestId('tag-name')).toHaveText(name);
    await expect(sheet.getByTestId('tag-details')).toBeInViewport();
    await sheet.getByRole('button', { name: 'Back to the tree' }).click();
    await expect(sheet).toBeHidden();
    await expect(first).toHaveAttribute('aria-selected', 'true');
  });

  test('the composer’s actions take one short row', async ({ page }) => {
    await signIn(page, 'admin@demo.local');
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await page.goto('/marketing/bulk-mails');
    await page.getByRole('button', { name: 'New campaign' }).click();
    const composer = page.getByRole('form', { name: 'Compose a campaign' });
    const footer = composer.locator('.chakra-drawer__footer');
    await expect(footer.getByRole('button', { name: 'Send now…' })).toBeVisible();
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
    );
    const height = (await footer.boundingBox())?.height ?? Number.POSITIVE_INFINITY;
    expect(height / 844).toBeLessThanOrEqual(0.1);

    // The other actions are a menu away.
    await footer.getByRole('button', { name: 'More actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'Send test mail' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Schedule…' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Close' }).click();
    await expect(composer).toBeHidden();
  });
});
