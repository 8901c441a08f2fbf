// What the "… → visible in Chromium" benches share (bench/publish-visible.ts, bench/message-visible.ts):
// the real server in the bench's own process on a fresh data dir with the demo seed, Chromium launched as
// the end-to-end tests launch it and signed in through the sign-in form, and an observer in the page
// that records when a `bench-{n}` text enters the DOM and when the frame after it has been painted. The
// server and the browser read the same machine clock, so t0 (Date.now() in Node) and the page's
// Date.now() compare directly.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scripts/chromium-args.mjs';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { syncRolePermissions } from '../server/modules/permissions/service';
import { DEMO_PASSWORD, seedDemo } from '../server/seed';

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export { DEMO_PASSWORD };

export function argument(name: string, fallback?: string): string {
  const index = process.argv.indexOf(name);
  const value = index === -1 ? fallback : process.argv[index + 1];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;

/** p50, p95 and max of the samples (ms), or nulls when there are none. */
export function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null };
}

export interface BenchServer {
  app: FastifyInstance;
  base: string;
  close: () => Promise<void>;
}

/** The real server (demo seed, the built SPA from `staticDir`) on 127.0.0.1 and a free port. */
export async function startBenchServer(name: string, staticDir: string): Promise<BenchServer> {
  const dataDir = path.join(root, '.tmp', `${name}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ dataDir });
  const close = async (app?: FastifyInstance) => {
    await app?.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await database.migrate();
    await syncRolePermissions(database.db);
    await seedDemo(database.db);
    const app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return { app, base, close: () => close(app) };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface SignedInPage {
  browser: Browser;
  page: Page;
  /** What the page said, for the error when it never shows what the bench waits for. */
  consoleLines: string[];
}

/** Chromium's fake microphone and camera, granted without asking (the calls benches). */
export const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

/** Chromium signed in as `email` (demo password) through the sign-in form. */
export async function signedInPage(
  chromiumPath: string,
  base: string,
  email: string,
  extraArgs: string[] = [],
): Promise<SignedInPage> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
  try {
    const page = await browser.newPage();
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
    await page.goto(`${base}/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
    return { browser, page, consoleLines };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Why the page never showed what was expected: a screenshot and the page's last console lines. */
export async function pageFailure(signedIn: SignedInPage, what: string): Promise<Error> {
  const screenshot = path.join(root, '.tmp', 'bench-visible-failure.png');
  await signedIn.page.screenshot({ path: screenshot }).catch(() => undefined);
  return new Error(
    `${what} (screenshot ${screenshot}); the page's console:\n${signedIn.consoleLines.slice(-20).join('\n')}`,
  );
}

/** What the observer keeps in the page: text → [Date.now() in the DOM, Date.now() after the next frame]. */
type BenchWindow = { __benchSeen: Record<string, [number, number | null]> };

/**
 * Installs an observer that records when each `bench-{n}` / `bench-probe-{n}` text first enters the DOM,
 * counting only text inside `scope` (a CSS selector) when one is given: the whole page otherwise. A
 * string, not a function: tsx keeps function names with a helper (`__name`) that does not exist in the
 * page.
 */
export async function observeBenchTexts(page: Page, scope?: string) {
  await page.evaluate(`(() => {
  window.__benchSeen = {};
  const scope = ${JSON.stringify(scope ?? null)};
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
  // The text of a node that counts: all of it inside the scope, or that of the scopes it contains.
  const scoped = (node) => {
    if (!scope) return node.textContent;
    const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    if (!element) return '';
    if (element.closest(scope)) return node.textContent;
    return [...element.querySelectorAll(scope)].map((inner) => inner.textContent).join(' ');
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') found(scoped(record.target));
      else for (const node of record.addedNodes) found(scoped(node));
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
})()`);
}

/** When `title` entered the DOM and when the frame after it was painted, or null after `timeoutMs`. */
export async function seenAt(page: Page, title: string, timeoutMs: number): Promise<[number, number] | null> {
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

/** Runs a bench's main: prints its error and exits 1 on failure, exits 0 otherwise. */
export function runMain(main: () => Promise<void>) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}
