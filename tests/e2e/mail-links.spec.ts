import { expect, test } from '@playwright/test';
import { E2E_MAIL_LINK_SECRET } from '../../playwright.config';
import { createMailLinks } from '../../server/modules/mail-links/links';
import { apiSession } from './support';

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
  request,
}) => {
  // A demo campaign and its answers: a response link names a real campaign, and only its answers count.
  const { token } = await apiSession(request, 'admin@demo.local');
  const listed = await request.get('/api/v1/campaigns?query=Wholesale&limit=5', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(listed.ok()).toBe(true);
  const campaign = ((await listed.json()).result as { id: string; name: string }[]).find((each) =>
    each.name.startsWith('Wholesale onboarding'),
  );
  expect(campaign).toBeDefined();
  const campaignId = campaign?.id as string;

  await page.goto(links.responseUrl('fan@example.com', campaignId, 'Interested'));
  await expect(page).toHaveURL(/\/responseCollection\?/);
  const answers = page.getByRole('radiogroup', { name: 'Your answer' });
  // The campaign's answers as choices, the clicked one chosen.
  await expect(answers.getByRole('radio', { name: 'Interested', exact: true })).toBeChecked();
  await expect(answers.getByRole('radio')).toHaveCount(3);
  await answers.getByText('Call me', { exact: true }).click();
  await expect(answers.getByRole('radio', { name: 'Call me', exact: true })).toBeChecked();
  await page.getByLabel('Comment (optional)').fill('<b>Call me</b> after 5');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you, your response has been recorded.');

  // A made-up answer in a link chooses nothing: the recipient picks one of the campaign's.
  await page.goto(links.responseUrl('fan2@example.com', campaignId, 'Anything at all'));
  await expect(answers.getByRole('radio')).toHaveCount(3);
  for (const radio of await answers.getByRole('radio').all()) await expect(radio).not.toBeChecked();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Choose an answer')).toBeVisible();

  await page.goto('/responseCollection?email=fan%40example.com');
  await expect(page.getByRole('alert')).toHaveText(/This link is incomplete/);
});
