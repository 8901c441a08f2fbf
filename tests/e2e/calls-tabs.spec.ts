// Issue 6, "one tab owns the call": the seller has two tabs open in ONE browser (one context, the same
// signed-in user). Exactly one tab holds the voice device and rings; the other mirrors it read-only and
// can take the device over while the line is free (refused during a call). Closing a mirror tab leaves
// the call alone; closing the owner tab hands the device to the other tab.
import { expect, type Page, test } from '@playwright/test';
import { signedIn } from './support';

const SELLER_NUMBER = '+91 90000 00003';
const STAFF_NUMBER = /From: \+?91 ?90000 ?00002/;
const READY = 'Ready to make or receive calls';
const MIRROR_NOTE = 'This call is on another tab.';

const phone = (page: Page) => page.getByRole('dialog', { name: /phone/i });
const status = (page: Page) => page.getByTestId('calling-status');
const ringing = (page: Page) => page.getByRole('alertdialog', { name: 'Incoming Call' });
const mirroredRing = (page: Page) => page.getByRole('status', { name: 'Incoming Call' });
const takeOver = (page: Page) => phone(page).getByRole('button', { name: 'Use this tab for calls' });

async function openPhone(page: Page) {
  await expect(page).not.toHaveURL(/\/signin/);
  await page.getByRole('button', { name: 'Phone' }).click();
  await expect(phone(page)).toBeVisible();
}

async function dial(page: Page, number: string) {
  await phone(page).getByLabel('Phone number').fill(number);
  await phone(page).getByRole('button', { name: 'Call', exact: true }).click();
}

test('two tabs of the seller: one rings, the other mirrors, take-over, closing tabs', async ({ browser }) => {
  const staff = await signedIn(browser, 'staff@demo.local');
  await openPhone(staff.page);
  await expect(phone(staff.page)).toContainText(READY);

  const seller = await signedIn(browser, 'seller@demo.local');
  const first = seller.page;
  await openPhone(first);
  await expect(phone(first)).toContainText(READY);
  // The second tab of the same browser: signed in already (shared storage), it mirrors the first.
  const second = await seller.context.newPage();
  await second.goto('/');
  await openPhone(second);
  await expect(phone(second)).toContainText(MIRROR_NOTE);
  await expect(phone(second).getByTestId('device-status')).toHaveText(READY);
  await expect(phone(second).getByRole('group', { name: 'Dial pad' })).toHaveCount(0);

  // Exactly one tab rings; the other shows who calls, without answer buttons.
  await dial(staff.page, SELLER_NUMBER);
  await expect(ringing(first)).toContainText(STAFF_NUMBER);
  await expect(mirroredRing(second)).toContainText(STAFF_NUMBER);
  await expect(ringing(second)).toHaveCount(0);
  await expect(status(second)).toHaveText('Incoming Call');

  // During the call the owner refuses to hand the device over.
  await ringing(first).getByRole('button', { name: 'Accept' }).click();
  await expect(status(first)).toHaveText('On Call');
  await expect(status(second)).toHaveText('On Call');
  await takeOver(second).click();
  await expect(phone(second).getByRole('alert')).toContainText('A call is in progress on the other tab');

  // A third tab opens and closes during the call: the call goes on.
  const third = await seller.context.newPage();
  await third.goto('/');
  await expect(third.getByRole('button', { name: 'Phone' })).toBeVisible();
  await third.close();
  await expect(status(first)).toHaveText('On Call');
  await expect(status(staff.page)).toHaveText('Call Connected');

  await phone(staff.page).getByRole('button', { name: 'Hang up' }).click();
  await first.getByRole('button', { name: 'Skip' }).click();
  await staff.page.getByRole('button', { name: 'Skip' }).click();

  // The line is free: the second tab takes the device over and is the one that rings now.
  await takeOver(second).click();
  await expect(phone(second).getByRole('group', { name: 'Dial pad' })).toBeVisible();
  await expect(phone(second)).toContainText(READY);
  await expect(phone(first)).toContainText(MIRROR_NOTE);
  await dial(staff.page, SELLER_NUMBER);
  await expect(ringing(second)).toContainText(STAFF_NUMBER);
  await expect(mirroredRing(first)).toContainText(STAFF_NUMBER);
  await expect(ringing(first)).toHaveCount(0);
  await ringing(second).getByRole('button', { name: 'Ignore' }).click();
  await expect(status(staff.page)).toHaveText('Call Disconnected');
  await phone(staff.page).getByRole('button', { name: 'Dismiss' }).click();

  // Closing the owner tab: the first tab gets the device and rings.
  await second.close();
  await expect(phone(first).getByRole('group', { name: 'Dial pad' })).toBeVisible();
  await expect(phone(first)).toContainText(READY);
  await dial(staff.page, SELLER_NUMBER);
  await expect(ringing(first)).toContainText(STAFF_NUMBER);
  await ringing(first).getByRole('button', { name: 'Ignore' }).click();

  for (const context of [staff.context, seller.context]) await context.close();
});
