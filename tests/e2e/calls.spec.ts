// Issue 6, end to end with two people at two computers and Chromium's fake microphone: staff dials
// the seller's number over the local provider (WebRTC through the project's signalling); the seller
// gets the "Incoming Call" card and accepts, or rejects, or ignores; a number no one owns rings no one.
// After a hang-up both give feedback, and the staff member's feedback shows in their call history.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { signedIn } from './support';

const SELLER_NUMBER = '+91 90000 00003';
const STAFF_NUMBER = /From: \+?91 ?90000 ?00002/;
const READY = 'Ready to make or receive calls';

/** Signed in, with the phone dialog open and the voice device registered. */
async function withPhone(browser: Browser, email: string) {
  const person = await signedIn(browser, email);
  await expect(person.page).not.toHaveURL(/\/signin/);
  await person.page.getByRole('button', { name: 'Phone' }).click();
  await expect(phone(person.page)).toContainText(READY);
  return person;
}

const phone = (page: Page) => page.getByRole('dialog', { name: /phone/i });
const status = (page: Page) => page.getByTestId('calling-status');
const incoming = (page: Page) => page.getByRole('alertdialog', { name: 'Incoming Call' });

async function dial(page: Page, number: string) {
  await phone(page).getByLabel('Phone number').fill(number);
  await phone(page).getByRole('button', { name: 'Call', exact: true }).click();
}

test('staff calls the seller, both talk, staff hangs up, both give feedback, history shows it', async ({
  browser,
}) => {
  const seller = await withPhone(browser, 'seller@demo.local');
  const staff = await withPhone(browser, 'staff@demo.local');

  await dial(staff.page, SELLER_NUMBER);
  await expect(status(staff.page)).toHaveText('Call Connecting');
  const card = incoming(seller.page);
  await expect(card).toBeVisible();
  await expect(card).toContainText(STAFF_NUMBER);
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(card).toBeHidden();

  await expect(status(seller.page)).toHaveText('On Call');
  await expect(status(staff.page)).toHaveText('Call Connected');
  // Real audio: each side plays the other's live microphone track (Chromium's fake device) ...
  for (const person of [staff, seller]) {
    await expect
      .poll(() =>
        person.page.evaluate(() => {
          const audio = document.querySelector<HTMLAudioElement>('audio[data-voice-call]');
          const track = (audio?.srcObject as MediaStream | null)?.getAudioTracks()[0];
          return track ? `${track.readyState} ${track.muted ? 'muted' : 'unmuted'}` : 'none';
        }),
      )
      .toBe('live unmuted');
  }
  // ... and the talk lasts a couple of seconds on the timer.
  await expect(staff.page.getByTestId('call-timer')).toHaveText(/0:0[2-9]/, { timeout: 10_000 });
  await phone(staff.page).getByRole('button', { name: 'Hang up' }).click();

  for (const person of [staff, seller]) {
    await expect(person.page.getByRole('dialog', { name: /feedback|how was/i })).toBeVisible();
  }
  // The radios are visually hidden behind their stars: click the radio itself, wherever the modal sits.
  await staff.page.getByRole('radio', { name: '4 stars' }).dispatchEvent('click');
  await expect(staff.page.getByRole('radio', { name: '4 stars' })).toBeChecked();
  await staff.page.getByRole('textbox').last().fill('Clear line, <b>friendly</b> seller');
  await staff.page.getByRole('button', { name: 'Submit' }).click();
  await expect(staff.page.getByRole('dialog', { name: /feedback|how was/i })).toBeHidden();
  await seller.page.getByRole('button', { name: 'Skip' }).click();

  // The staff member's history: the call on top, answered, with its duration and the feedback.
  await staff.page.goto('/calls/call-history');
  const table = staff.page.getByRole('table', { name: 'Call history' });
  const top = table.getByRole('row').nth(1);
  await expect(top).toContainText('Outgoing');
  await expect(top).toContainText('Connected');
  await expect(top).toContainText(/0:0[2-9]/);
  await top.getByRole('link').first().click();
  // The feedback, as text (the markup is not rendered), and in the timeline with its rating.
  await expect(staff.page.getByTestId('feedback-text')).toHaveText('Clear line, <b>friendly</b> seller');
  await expect(staff.page.getByText('Rated 4/5: Clear line, <b>friendly</b> seller')).toBeVisible();

  for (const person of [staff, seller]) await person.context.close();
});

test('the seller rejects, then ignores; a number no one owns rings no one', async ({ browser }) => {
  const seller = await withPhone(browser, 'seller@demo.local');
  const staff = await withPhone(browser, 'staff@demo.local');

  await dial(staff.page, SELLER_NUMBER);
  await incoming(seller.page).getByRole('button', { name: 'Reject' }).click();
  await expect(status(staff.page)).toHaveText('Call Rejected');
  await expect(seller.page.getByRole('dialog', { name: /feedback|how was/i })).toBeVisible();
  await seller.page.getByRole('button', { name: 'Skip' }).click();
  await phone(staff.page).getByRole('button', { name: 'Dismiss' }).click();

  await dial(staff.page, SELLER_NUMBER);
  await incoming(seller.page).getByRole('button', { name: 'Ignore' }).click();
  await expect(incoming(seller.page)).toBeHidden();
  await expect(status(staff.page)).toHaveText('Call Disconnected');
  await phone(staff.page).getByRole('button', { name: 'Dismiss' }).click();

  await dial(staff.page, '+91 11111 22222');
  await expect(status(staff.page)).toHaveText('Call Disconnected');
  await expect(incoming(seller.page)).toBeHidden();

  for (const person of [staff, seller]) await person.context.close();
});
