// Settings for customer queries and offers (issue 30): an admin sets an SLA target in hours on the
// Communication tab and it is kept (as office-hour minutes) across a reload; the Company tab shows the
// offer validity and reminder days. Both tabs pass axe (WCAG 2.2 AA). The target is put back at the end,
// so the shared e2e data keeps its defaults.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { saveSection } from './settings-support';
import { liveUpdatesOn, signedIn } from './support';

async function noSeriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    violations
      .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([]);
}

test('an admin sets an SLA target in hours and sees the offer days', async ({ browser, request }) => {
  const { context, page } = await signedIn(browser, 'admin@demo.local');
  try {
    await liveUpdatesOn(page);
    await page.goto('/settings/manage-settings?tab=communication');
    const urgent = page.getByLabel('First response target for Urgent queries, in hours');
    await expect(urgent).toHaveValue('1');
    await noSeriousViolations(page);
    await urgent.fill('0.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel('First response target for Urgent queries, in hours')).toHaveValue('0.5');

    await page.goto('/settings/manage-settings?tab=company');
    await expect(page.getByLabel(/^Offer validity \(days\)/)).toHaveValue('30');
    await expect(page.getByLabel(/^Remind the customer/)).toHaveValue('3');
    await noSeriousViolations(page);
  } finally {
    await saveSection(request, 'admin@demo.local', 'communication', { reset: ['slaTargets'] });
    await context.close();
  }
});
