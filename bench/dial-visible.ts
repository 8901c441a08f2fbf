// Dial → the callee's "Incoming Call" card visible (issue 6 "Speed", p95 ≤ 300 ms on loopback), for
// `npm run bench` (scripts/bench-calls.mjs runs this with tsx). The server runs in this process with the
// demo seed; two Chromiums with fake microphones are signed in, the demo staff member (caller) and the
// demo seller (callee), each with its voice device registered over the local provider. Each sample is a
// real dial through the staff member's phone dialog: getUserMedia, the WebRTC offer, `voice:dial`
// through the server, `voice:incoming` to the seller's device, the call statechart, the card.
//
// t0: Date.now() in the caller's page when the Call button is pressed (a capture listener); t1: Date.now()
// in the callee's page in the frame after the card entered the DOM (a MutationObserver, then
// requestAnimationFrame). Both pages read the same machine clock. Then the caller hangs up (the callee's
// card goes: "Call Cancelled") and dismisses. The server allows 10 dials per 10 s per user, so samples
// are paced at one per DIAL_INTERVAL_MS.
//
// Usage: tsx bench/dial-visible.ts --chromium /usr/bin/chromium [--samples 30] [--static-dir dist]
// Prints one line `RESULT {json}` at the end.
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  argument,
  FAKE_MEDIA_ARGS,
  pageFailure,
  root,
  runMain,
  type SignedInPage,
  signedInPage,
  startBenchServer,
  summary,
} from './visible-in-chromium';

const SELLER_NUMBER = '+91 90000 00003'; // the demo seller (server/seed/users.ts)
const READY = 'Ready to make or receive calls';
const SAMPLE_TIMEOUT_MS = 5_000;
const DIAL_INTERVAL_MS = 1_100;

type DialWindow = { __dialAt: number | null; __cardAt: [number, number | null] | null };

async function openPhone(page: Page) {
  await page.getByRole('button', { name: 'Phone' }).click();
  await page.getByRole('dialog', { name: /phone/i }).getByText(READY).waitFor({ timeout: 30_000 });
}

async function main() {
  const samples = Number(argument('--samples', '30'));
  const chromiumPath = argument('--chromium');
  const staticDir = path.resolve(root, argument('--static-dir', 'dist'));
  const server = await startBenchServer('bench-dial-visible', staticDir);
  const people: SignedInPage[] = [];
  try {
    const seller = await signedInPage(chromiumPath, server.base, 'seller@demo.local', FAKE_MEDIA_ARGS);
    people.push(seller);
    const staff = await signedInPage(chromiumPath, server.base, 'staff@demo.local', FAKE_MEDIA_ARGS);
    people.push(staff);
    await openPhone(seller.page).catch(async () => {
      throw await pageFailure(seller, "the seller's voice device did not become ready");
    });
    await openPhone(staff.page).catch(async () => {
      throw await pageFailure(staff, "the staff member's voice device did not become ready");
    });
    const dialog = staff.page.getByRole('dialog', { name: /phone/i });
    const status = staff.page.getByTestId('calling-status');

    // The caller's press of Call, and the callee's card entering the DOM (then the next frame).
    await staff.page.evaluate(`(() => {
  window.__dialAt = null;
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.textContent.trim() === 'Call') window.__dialAt = Date.now();
  }, true);
})()`);
    await seller.page.evaluate(`(() => {
  window.__cardAt = null;
  new MutationObserver(() => {
    if (window.__cardAt || !document.querySelector('[role="alertdialog"]')) return;
    const entry = [Date.now(), null];
    window.__cardAt = entry;
    requestAnimationFrame(() => setTimeout(() => { entry[1] = Date.now(); }, 0));
  }).observe(document.body, { childList: true, subtree: true });
})()`);

    const latencies: number[] = [];
    const domLatencies: number[] = [];
    const missed: number[] = [];
    await dialog.getByLabel('Phone number').fill(SELLER_NUMBER);
    for (let i = 0; i < samples; i++) {
      const started = Date.now();
      await seller.page.evaluate('window.__cardAt = null');
      await dialog.getByRole('button', { name: 'Call', exact: true }).click();
      const seen = await seller.page
        .waitForFunction(
          () => {
            const entry = (window as unknown as DialWindow).__cardAt;
            return entry && entry[1] !== null ? entry : null;
          },
          undefined,
          { timeout: SAMPLE_TIMEOUT_MS, polling: 'raf' },
        )
        .then((handle) => handle.jsonValue() as Promise<[number, number]>)
        .catch(() => null);
      const dialAt = (await staff.page.evaluate('window.__dialAt')) as number | null;
      if (seen && dialAt) {
        domLatencies.push(seen[0] - dialAt);
        latencies.push(seen[1] - dialAt);
      } else missed.push(i);
      // Hang up while it rings; the callee's card goes. Then the next dial from a clean line.
      await dialog.getByRole('button', { name: 'Hang up' }).click();
      await status.filter({ hasText: 'Call Cancelled' }).waitFor({ timeout: SAMPLE_TIMEOUT_MS });
      await dialog.getByRole('button', { name: 'Dismiss' }).click();
      await seller.page
        .locator('[role="alertdialog"]')
        .waitFor({ state: 'detached', timeout: SAMPLE_TIMEOUT_MS });
      const wait = DIAL_INTERVAL_MS - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const result = {
      samples,
      missed: missed.length,
      measuredTo:
        "the frame after the callee's Incoming Call card entered the DOM, from the caller's press of Call",
      ...summary(latencies),
      cardInDomMs: summary(domLatencies),
    };
    console.info(`RESULT ${JSON.stringify(result)}`);
  } finally {
    for (const person of people) await person.browser.close();
    await server.close();
  }
}

runMain(main);
