import { expect, test } from '@playwright/test';
import { E2E_MAIL_LINK_SECRET } from '../../playwright.config';
import { createMailLinks } from '../../server/modules/mail-links/links';

// The links a campaign mail would carry, signed with the e2e server's secret. Relative, so they open
// on the test server.
const links = createMailLinks(E2E_MAIL_LINK_SECRET, '');

test('a mail recipient unsubscribes without signing in; a link for another address is refused', async ({
  page,
}) => {
  const forged = links.unsubscribeUrl('someone-else@example.com').replace('someone-else', 'victim');
  await page.goto(forged);
  await expect(page).toHaveURL(/\/unsubscribe\?/);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('alert')).toHaveText(/This link is not valid/);

  await page.goto(links.unsubscribeUrl('reader@example.com'));
  await expect(page.getByText('reader@example.com')).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('status')).toHaveText(/You have been unsubscribed/);
});

test('a mail recipient sends the answer they clicked, with a comment, without signing in', async ({
  page,
}) => {
  await page.goto(links.responseUrl('fan@example.com', 'spring-sale', 'Interested'));
  await expect(page).toHaveURL(/\/responseCollection\?/);
  await expect(page.getByLabel('Your answer')).toHaveValue('Interested');
  await page.getByLabel('Your answer').fill('');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Choose or write an answer')).toBeVisible();
  await page.getByLabel('Your answer').fill('Interested');
  await page.getByLabel('Comment (optional)').fill('<b>Call me</b> after 5');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you, your response has been recorded.');

  await page.goto('/responseCollection?email=fan%40example.com');
  await expect(page.getByRole('alert')).toHaveText(/This link is incomplete/);
});
