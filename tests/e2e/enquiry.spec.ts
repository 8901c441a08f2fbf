// The public enquiry form as a customer meets it: /enquiry/{sellerCode} with no account, a question
// filled and sent, the confirmation with its reference. (The seller's side is the queries spec's.)
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

const FORM = '/enquiry/SEL-0001';

test('a customer sends a question from the enquiry form and sees the confirmation', async ({ page }) => {
  await page.goto(FORM);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Ask /);
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => v.id),
  ).toEqual([]);

  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  await page.getByLabel('Your name').fill('Erin Example');
  await page.getByLabel('Your e-mail').fill(`erin-${tag}@example.com`);
  await page.getByRole('textbox', { name: /^Subject/ }).fill('Delivery to Berlin');
  await page.getByRole('textbox', { name: /^Message/ }).fill(`How soon can you deliver to Berlin? (${tag})`);
  await page.getByRole('button', { name: 'Send question' }).click();
  await expect(page.getByRole('status')).toContainText(/has your question \(Q-\d+\)/);
});
