// Publish → notification visible in Chromium (issue 4 "Speed", p95 ≤ 100 ms), for `npm run bench`
// (scripts/bench-broker.mjs runs this with tsx). The server runs in this process, so the bench calls
// `app.notifications.notify` itself, the real path (stored, then published on the embedded broker), and
// the browser shows the toast through its real broker client. Both sides read the same machine clock.
//
// For each sample: t0 = Date.now(); notify the admin with the title `bench-{i}`; a MutationObserver in
// the page records Date.now() when that text enters the DOM, and again after the next frame (the first
// moment it can have been painted). The figures are the second one, minus t0.
//
// Usage: tsx bench/publish-visible.ts --chromium /usr/bin/chromium [--samples 100] [--static-dir dist]
// Prints one line `RESULT {json}` at the end.
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  argument,
  DEMO_PASSWORD,
  observeBenchTexts,
  pageFailure,
  root,
  runMain,
  type SignedInPage,
  seenAt,
  signedInPage,
  startBenchServer,
  summary,
} from './visible-in-chromium';

const ADMIN_EMAIL = 'admin@demo.local';
const SAMPLE_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 60_000;
/** The toaster shows at most 5 toasts (src/ui/toaster.tsx); more would wait in its queue. */
const MAX_TOASTS_ON_SCREEN = 3;

/** Closes the bench's toasts so the next one never waits in the toaster's queue. */
async function clearToasts(page: Page) {
  await page.evaluate(() => {
    for (const root of document.querySelectorAll('[data-scope="toast"][data-part="root"]')) {
      if (!root.textContent?.includes('bench-')) continue;
      root.querySelector<HTMLElement>('[data-part="close-trigger"]')?.click();
    }
  });
  await page.waitForFunction(
    (max) => document.querySelectorAll('[data-scope="toast"][data-part="root"]').length < max,
    MAX_TOASTS_ON_SCREEN,
    { timeout: SAMPLE_TIMEOUT_MS },
  );
}

async function main() {
  const samples = Number(argument('--samples', '100'));
  const chromiumPath = argument('--chromium');
  const staticDir = path.resolve(root, argument('--static-dir', 'dist'));
  const server = await startBenchServer('bench-visible', staticDir);
  let signedIn: SignedInPage | null = null;
  try {
    const { app, base } = server;
    const signin = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: ADMIN_EMAIL, password: DEMO_PASSWORD },
    });
    const adminId = (signin.json() as { user: { id: string } }).user.id;

    signedIn = await signedInPage(chromiumPath, base, ADMIN_EMAIL);
    const { page } = signedIn;
    await observeBenchTexts(page);

    // The broker client connects after the shell loads: probe until a notification comes through (one
    // published before the connection is only stored, so keep publishing new ones).
    const connectStarted = Date.now();
    for (let probe = 1; ; probe++) {
      if (Date.now() - connectStarted > CONNECT_TIMEOUT_MS) {
        throw await pageFailure(
          signedIn,
          `no probe notification showed within ${CONNECT_TIMEOUT_MS / 1000} s`,
        );
      }
      await app.notifications.notify(adminId, { title: `bench-probe-${probe}` });
      if (await seenAt(page, `bench-probe-${probe}`, 1000)) break;
    }
    const brokerConnectedMs = Date.now() - connectStarted;
    await clearToasts(page);

    const latencies: number[] = [];
    const domLatencies: number[] = [];
    let missed = 0;
    for (let i = 0; i < samples; i++) {
      const title = `bench-${i}`;
      const t0 = Date.now();
      await app.notifications.notify(adminId, { title });
      const seen = await seenAt(page, title, SAMPLE_TIMEOUT_MS);
      if (!seen) {
        missed++;
        continue;
      }
      domLatencies.push(seen[0] - t0);
      latencies.push(seen[1] - t0);
      await clearToasts(page);
    }
    const result = {
      samples,
      missed,
      measuredTo: 'the frame after the title entered the DOM (MutationObserver, then requestAnimationFrame)',
      ...summary(latencies),
      textInDomMs: summary(domLatencies),
      brokerConnectedAfterMs: brokerConnectedMs,
    };
    console.info(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await signedIn?.browser.close();
    await server.close();
  }
}

runMain(main);
