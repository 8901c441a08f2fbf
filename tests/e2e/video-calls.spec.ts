// Issue 13: video calls between back-office users, in Chromium with a fake camera and microphone
// (`--use-fake-device-for-media-stream`: a moving test pattern and a beep). Staff and the seller sit at
// two computers (two browser contexts); the seller's two tabs share one.
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { signedIn } from './support';

const STAFF = { email: 'staff@demo.local', name: 'Sam Staff' };
const SELLER = { email: 'seller@demo.local', name: 'Sunil Seller' };
/** The demo seller's business, as the Manage Sellers drawer names it. */
const SELLER_STORE = 'Demo Seller Store';

const ringing = (page: Page) => page.getByRole('alertdialog', { name: 'Incoming video call' });
const callWindow = (page: Page) => page.getByTestId('video-call-window');
const callStatus = (page: Page) => page.getByTestId('video-call-status');

/** Waits until the page's video-call session is up (the header's button is there). */
async function videoReady(page: Page) {
  await expect(page.getByRole('button', { name: 'Video call someone' })).toBeVisible();
}

/** The header's people picker: search, then "Video call {name}". */
async function callFromHeader(page: Page, name: string) {
  await videoReady(page);
  await page.getByRole('button', { name: 'Video call someone' }).click();
  await page.getByLabel('Video call', { exact: true }).fill(name.split(' ')[0] ?? name);
  await page.getByRole('button', { name: `Video call ${name}` }).click();
  // The picker closes: the call window takes over.
  await expect(page.getByRole('list', { name: 'People you can video call' })).toHaveCount(0);
}

/** The remote <video> plays frames of a real track, and two frames apart in time differ. */
async function expectLiveRemoteVideo(page: Page) {
  const video = page.getByTestId('remote-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  const frame = () =>
    video.evaluate((v: HTMLVideoElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 48;
      const context = canvas.getContext('2d');
      context?.drawImage(v, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL();
    });
  const first = await frame();
  await expect.poll(frame).not.toBe(first);
}

/**
 * The remote picture's shape: "4:3" for the fake camera (640x480), "16:9" for the fake screen
 * (1280x720). Not its size: under CPU load WebRTC scales the picture down (640x480 → 320x240) and back
 * up as it pleases, but keeps its aspect ratio.
 */
async function remoteShape(page: Page) {
  const ratio = await page
    .getByTestId('remote-video')
    .evaluate((v: HTMLVideoElement) => (v.videoHeight ? v.videoWidth / v.videoHeight : 0));
  if (Math.abs(ratio - 4 / 3) < 0.05) return '4:3';
  if (Math.abs(ratio - 16 / 9) < 0.05) return '16:9';
  return `other (${ratio})`;
}

/** Reloading ends the call view; the reloaded page says how the call ended. */
async function expectLeftCall(page: Page, peerName: string) {
  await expect(page.getByText(`Video call with ${peerName} ended`)).toBeVisible();
  await expect(callWindow(page)).toHaveCount(0);
}

let contexts: BrowserContext[] = [];

/** Staff and the seller at two computers, the seller's video calls ready to ring (closed after each test). */
async function staffAndSeller(browser: Browser) {
  const staff = await signedIn(browser, STAFF.email);
  const seller = await signedIn(browser, SELLER.email);
  contexts = [staff.context, seller.context];
  await videoReady(seller.page);
  return { staff, seller };
}
test.afterEach(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  contexts = [];
});

test('staff calls the seller: live video both ways, mute, camera off, screen share, hang-up, history', async ({
  browser,
}) => {
  const { staff, seller } = await staffAndSeller(browser);

  await callFromHeader(staff.page, SELLER.name);
  await expect(callStatus(staff.page)).toHaveText(`Calling ${SELLER.name}…`);
  await expect(ringing(seller.page)).toContainText(`${STAFF.name} is video calling you`);

  // Before joining: the seller previews the camera and sees the device lists.
  await ringing(seller.page).getByRole('button', { name: 'Check camera and microphone' }).click();
  await expect
    .poll(() => seller.page.getByTestId('video-preview').evaluate((v: HTMLVideoElement) => v.videoWidth))
    .toBeGreaterThan(0);
  await expect(ringing(seller.page).getByLabel('Camera', { exact: true })).toBeVisible();

  await ringing(seller.page).getByRole('button', { name: 'Accept' }).click();
  await expect(ringing(seller.page)).toHaveCount(0);
  await expect(callStatus(staff.page)).toHaveText(SELLER.name);
  await expect(callStatus(seller.page)).toHaveText(STAFF.name);
  await expectLiveRemoteVideo(staff.page);
  await expectLiveRemoteVideo(seller.page);
  await expect(staff.page.getByTestId('video-call-timer')).toHaveText(/^0:0\d$/);

  // Mute and camera off are seen on the other side.
  await seller.page.getByRole('button', { name: 'Mute microphone' }).click();
  await expect(staff.page.getByTestId('remote-muted')).toHaveText(`${SELLER.name}'s microphone is off`);
  await seller.page.getByRole('button', { name: 'Turn camera off' }).click();
  await expect(staff.page.getByTestId('remote-camera-off')).toHaveText(
    `${SELLER.name} turned their camera off`,
  );
  await seller.page.getByRole('button', { name: 'Turn camera on' }).click();
  await expect(staff.page.getByTestId('remote-camera-off')).toHaveCount(0);
  await seller.page.getByRole('button', { name: 'Unmute microphone' }).click();
  await expect(staff.page.getByTestId('remote-muted')).toHaveCount(0);

  // Screen share replaces the camera's track: the seller now receives the screen's picture.
  await expect.poll(() => remoteShape(seller.page)).toBe('4:3');
  await staff.page.getByRole('button', { name: 'Share the screen' }).click();
  await expect(staff.page.getByRole('button', { name: 'Stop sharing the screen' })).toBeVisible();
  await expect.poll(() => remoteShape(seller.page)).toBe('16:9');
  await staff.page.getByRole('button', { name: 'Stop sharing the screen' }).click();
  await expect.poll(() => remoteShape(seller.page)).toBe('4:3');

  // Hang-up ends the call on both sides, and both pages reload.
  await staff.page.getByRole('button', { name: 'Hang up' }).click();
  await expectLeftCall(staff.page, SELLER.name);
  await expectLeftCall(seller.page, STAFF.name);

  // The call is in both histories, marked as video.
  for (const [side, peer] of [
    [staff.page, SELLER.name],
    [seller.page, STAFF.name],
  ] as const) {
    await side.goto('/calls/call-history');
    const row = side.getByRole('row').filter({ hasText: peer }).first();
    await expect(row.getByTestId('video-call-badge')).toHaveText('Video');
    await expect(row).toContainText('Connected');
  }
});

test('from the seller’s drawer, a declined call: the caller is told, and nothing reloads', async ({
  browser,
}) => {
  const { staff, seller } = await staffAndSeller(browser);

  // Manage Sellers → the demo seller's drawer → "Video call".
  await videoReady(staff.page);
  await staff.page.goto(`/sellers/manage-sellers?q=${encodeURIComponent(SELLER_STORE)}`);
  await staff.page.getByRole('table', { name: 'Sellers' }).getByText(SELLER_STORE).click();
  await staff.page.getByRole('button', { name: `Video call ${SELLER_STORE}` }).click();
  await expect(ringing(seller.page)).toContainText(`${STAFF.name} is video calling you`);
  await ringing(seller.page).getByRole('button', { name: 'Decline' }).click();
  await expect(ringing(seller.page)).toHaveCount(0);
  await expect(callWindow(staff.page)).toContainText(`${SELLER_STORE} declined the call.`);
  await callWindow(staff.page).getByRole('button', { name: 'Close' }).click();
  await expect(callWindow(staff.page)).toHaveCount(0);
});

test('the seller with two tabs: one accepts, the other stops ringing', async ({ browser }) => {
  const { staff, seller } = await staffAndSeller(browser);
  const second = await seller.context.newPage();
  await second.goto('/');
  await videoReady(second);

  await callFromHeader(staff.page, SELLER.name);
  await expect(ringing(seller.page)).toBeVisible();
  await expect(ringing(second)).toBeVisible();
  await ringing(second).getByRole('button', { name: 'Accept' }).click();
  // Within a second, the tab that did not answer stops ringing.
  await expect(ringing(seller.page)).toHaveCount(0, { timeout: 1000 });
  await expect(callWindow(seller.page)).toHaveCount(0);
  await expectLiveRemoteVideo(second);
  await second.getByRole('button', { name: 'Hang up' }).click();
  await expectLeftCall(second, STAFF.name);
  await expectLeftCall(staff.page, SELLER.name);
});

test('a call nobody answers stops ringing after 45 s and the caller sees it', async ({ browser }) => {
  test.setTimeout(120_000);
  const { staff, seller } = await staffAndSeller(browser);

  await callFromHeader(staff.page, SELLER.name);
  await expect(ringing(seller.page)).toBeVisible();
  await expect(callWindow(staff.page)).toContainText(`${SELLER.name} did not answer.`, { timeout: 55_000 });
  await expect(ringing(seller.page)).toHaveCount(0);
  // The seller is told of the missed call.
  await seller.page.getByRole('button', { name: 'Notifications' }).click();
  await expect(seller.page.getByText('Missed video call').first()).toBeVisible();
});
