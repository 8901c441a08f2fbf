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
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { DEMO_PASSWORD, seedDemo } from '../server/db/seed';
import { syncRolePermissions } from '../server/modules/permissions/service';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ADMIN_EMAIL = 'admin@demo.local';
const SAMPLE_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 60_000;
/** The toaster shows at most 5 toasts (src/ui/toaster.tsx); more would wait in its queue. */
const MAX_TOASTS_ON_SCREEN = 3;
// The flags the end-to-end tests launch Chromium with (playwright.config.ts).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function argument(name: string, fallback?: string): string {
  const index = process.argv.indexOf(name);
  const value = index === -1 ? fallback : process.argv[index + 1];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;

/** What the observer keeps in the page: title → [Date.now() in the DOM, Date.now() after the next frame]. */
type BenchWindow = { __benchSeen: Record<string, [number, number | null]> };

/**
 * Watches the whole page for `bench-{n}` texts; records when each first appears. A string, not a
 * function: tsx keeps function names with a helper (`__name`) that does not exist in the page.
 */
const OBSERVER_SCRIPT = `(() => {
  window.__benchSeen = {};
  const found = (text) => {
    if (!text || !text.includes('bench-')) return;
    for (const match of text.matchAll(/bench-(\\d+|probe-\\d+)/g)) {
      const title = match[0];
      if (window.__benchSeen[title]) continue;
      const entry = [Date.now(), null];
      window.__benchSeen[title] = entry;
      // requestAnimationFrame runs before the frame's paint; the task after it runs once it is painted.
      requestAnimationFrame(() => setTimeout(() => { entry[1] = Date.now(); }, 0));
    }
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') found(record.target.textContent);
      else for (const node of record.addedNodes) found(node.textContent);
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
})()`;

async function seenAt(page: Page, title: string, timeoutMs: number): Promise<[number, number] | null> {
  try {
    const handle = await page.waitForFunction(
      (wanted) => {
        const entry = (window as unknown as BenchWindow).__benchSeen[wanted];
        return entry && entry[1] !== null ? entry : null;
      },
      title,
      { timeout: timeoutMs, polling: 'raf' },
    );
    return (await handle.jsonValue()) as [number, number];
  } catch {
    return null;
  }
}

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
  const dataDir = path.join(root, '.tmp', `bench-visible-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });

  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ dataDir });
  let browser: Browser | null = null;
  const app = await (async () => {
    await database.migrate();
    await syncRolePermissions(database.db);
    await seedDemo(database.db);
    return buildApp({ config, database });
  })();
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const signin = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: ADMIN_EMAIL, password: DEMO_PASSWORD },
    });
    const adminId = (signin.json() as { user: { id: string } }).user.id;

    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    // What the page said, for the error when it never shows a notification.
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
    await page.goto(`${base}/signin`);
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
    await page.evaluate(OBSERVER_SCRIPT);

    // The broker client connects after the shell loads: probe until a notification comes through (one
    // published before the connection is only stored, so keep publishing new ones).
    const connectStarted = Date.now();
    for (let probe = 1; ; probe++) {
      if (Date.now() - connectStarted > CONNECT_TIMEOUT_MS) {
        const screenshot = path.join(root, '.tmp', 'bench-visible-failure.png');
        await page.screenshot({ path: screenshot });
        throw new Error(
          `no probe notification showed within ${CONNECT_TIMEOUT_MS / 1000} s (screenshot ${screenshot}); ` +
            `the page's console:\n${consoleLines.slice(-20).join('\n')}`,
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
    latencies.sort((a, b) => a - b);
    domLatencies.sort((a, b) => a - b);
    const result = {
      samples,
      missed,
      measuredTo: 'the frame after the title entered the DOM (MutationObserver, then requestAnimationFrame)',
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: latencies.at(-1) ?? null,
      textInDomMs: {
        p50: percentile(domLatencies, 50),
        p95: percentile(domLatencies, 95),
        max: domLatencies.at(-1) ?? null,
      },
      brokerConnectedAfterMs: brokerConnectedMs,
    };
    console.info(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await browser?.close();
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
