// Page guides in Chromium, for every demo account on every page it can reach: a guide is offered exactly
// where the page exists and the user may open it, each step pointing at a control that is on screen.
import { expect, type Page, test } from '@playwright/test';
import { routes } from '../../contracts/routes';
import { tourFor } from '../../src/ui/tour/tour-texts';
import { DEMO_ACCOUNTS, pagesOf } from './role-pages';
import { openInApp, signIn } from './support';

const guideButton = (page: Page) => page.getByRole('button', { name: 'Page guide' });

/** The page has drawn its data (no spinner or skeleton left in the main area). */
async function pageSettled(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('main [aria-busy="true"], main .chakra-skeleton')).toHaveCount(0);
}

for (const email of DEMO_ACCOUNTS) {
  test(`${email}: every page it can open has its guide, pointing at what is on screen`, async ({
    page,
    request,
  }) => {
    const { permissions, isSeller, pages } = await pagesOf(request, email);
    // Each page is opened and settled in turn: the test's time grows with the role's pages.
    test.setTimeout(30_000 + pages.length * 12_000);
    await signIn(page, email);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    for (const [index, { route, url }] of pages.entries()) {
      const steps = tourFor(route, { permissions, isSeller });
      // The first page is loaded; the next ones are opened in the app as its links do (no reload).
      if (index === 0) await page.goto(url);
      else await openInApp(page, url);
      await pageSettled(page);
      if (steps.length === 0) {
        await expect(guideButton(page), `${email} ${route}: no guide`).toHaveCount(0);
        continue;
      }
      await guideButton(page).click();
      const dialog = page.getByRole('dialog');
      for (const [index, step] of steps.entries()) {
        await expect(
          dialog.getByRole('heading', { name: step.title }),
          `${route} step ${index + 1}`,
        ).toBeVisible();
        await expect(dialog).toContainText(`Step ${index + 1} of ${steps.length}`);
        if (step.target) {
          // The control is on the page and the step is drawn next to it, spotlit.
          await expect(page.locator(step.target).first(), `${email} ${route}: ${step.target}`).toBeVisible();
          await expect(page.locator('[data-tour-spotlight]')).toBeVisible();
        }
        await dialog.getByRole('button', { name: index === steps.length - 1 ? 'Done' : 'Next' }).click();
      }
      await expect(dialog).toBeHidden();
    }
  });
}

test('no guide on "Page not found" (pages not built yet) nor on "No access"', async ({ page }) => {
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(guideButton(page)).toBeVisible();
  // Every page not built yet, and one that will never exist.
  const unbuilt = routes.filter((route) => route.available === false).map((route) => route.path);
  for (const url of [...unbuilt, '/no-such-page']) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(guideButton(page)).toHaveCount(0);
  }

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/general-dashboard$/);
  await page.goto('/sellers/manage-sellers');
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  await expect(guideButton(page)).toHaveCount(0);
});
