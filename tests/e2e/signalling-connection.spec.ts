// Issue 28: a signed-in tab holds ONE socket.io (engine.io) connection, shared by the voice phone and
// the video calls (src/services/shared-signalling.ts), where it used to hold one each. Counted in the
// page: every engine.io session starts with a polling handshake without a `sid`, then upgrades to a
// WebSocket on /engine.io/. Sign-out closes it.
import { expect, type Page, test } from '@playwright/test';
import { signedIn, signIn } from './support';

const READY = 'Ready to make or receive calls';

/** Watches the page's engine.io sessions: handshakes made and WebSockets open now. */
function countEngineIo(page: Page) {
  const counts = { handshakes: 0, openSockets: 0 };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (
      url.pathname === '/engine.io/' &&
      url.searchParams.get('transport') === 'polling' &&
      !url.searchParams.has('sid')
    )
      counts.handshakes += 1;
  });
  page.on('websocket', (socket) => {
    if (!new URL(socket.url()).pathname.startsWith('/engine.io/')) return;
    counts.openSockets += 1;
    socket.on('close', () => {
      counts.openSockets -= 1;
    });
  });
  return counts;
}

test('the phone and the video calls share one engine.io connection; sign-out closes it', async ({
  browser,
}) => {
  // The seller, at another computer, has the phone on, to be called.
  const seller = await signedIn(browser, 'seller@demo.local');
  await seller.page.getByRole('button', { name: 'Phone' }).click();
  await expect(seller.page.getByRole('dialog', { name: /phone/i })).toContainText(READY);

  // Staff's tab is the one counted, from before it signs in.
  const context = await browser.newContext();
  const page = await context.newPage();
  const counts = countEngineIo(page);
  await signIn(page, 'staff@demo.local');
  await expect(page).not.toHaveURL(/\/signin/);

  // Both features are up: the phone is registered, the video-call session is listening.
  await page.getByRole('button', { name: 'Phone' }).click();
  const phone = page.getByRole('dialog', { name: /phone/i });
  await expect(phone).toContainText(READY);
  await expect(page.getByRole('button', { name: 'Video call someone' })).toBeVisible();
  await expect.poll(() => counts.openSockets).toBe(1);
  expect(counts.handshakes).toBe(1);

  // A voice call rings the seller over that one connection.
  await phone.getByLabel('Phone number').fill('+91 90000 00003');
  await phone.getByRole('button', { name: 'Call', exact: true }).click();
  const incoming = seller.page.getByRole('alertdialog', { name: 'Incoming Call' });
  await expect(incoming).toBeVisible();
  await incoming.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByTestId('calling-status')).toHaveText('Call Rejected');
  await phone.getByRole('button', { name: 'Dismiss' }).click();
  expect(counts.handshakes).toBe(1);
  expect(counts.openSockets).toBe(1);

  // Sign-out: the connection closes, and no new one opens.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expect.poll(() => counts.openSockets).toBe(0);
  expect(counts.handshakes).toBe(1);

  await seller.context.close();
  await context.close();
});
