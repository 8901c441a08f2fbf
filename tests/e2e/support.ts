// What every end-to-end spec needs to act as a demo user.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';

/** The password of every demo account (server/seed/users.ts). */
export const PASSWORD = 'Demo@12345';

/** Fills and sends the sign-in form the page is showing (keeps a returnTo the page already has). */
export async function fillSignIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens /signin and signs in. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/signin');
  await fillSignIn(page, email, password);
}

/** A signed-in page in a browser context of its own: two people at two computers. */
export async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return { context, page };
}

/** Signs in through the API: the access token and the user id, for calls a test makes itself. */
export async function apiSession(request: APIRequestContext, email: string) {
  const response = await request.post('/api/v1/auth/signin', { data: { email, password: PASSWORD } });
  expect(response.ok()).toBe(true);
  const body = await response.json();
  return { token: body.accessToken as string, userId: body.user.id as string };
}

/** The pages the sidebar offers the signed-in user (their addresses, in menu order). */
export async function sidebarPages(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  const hrefs = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  return [...new Set(hrefs.filter((href): href is string => Boolean(href)))];
}

/** Waits until the page's live connection (the broker client behind the bell) is up. */
export async function liveUpdatesOn(page: Page) {
  await expect(page.getByRole('button', { name: 'Notifications' })).toHaveAttribute('data-live', 'connected');
}

/** A signed-in page's own content (axe.spec.ts scans the shell around it), or a public page whole. */
export async function axeClean(page: Page, within = 'main') {
  const { violations } = await new AxeBuilder({ page })
    .include(within)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map(
        (v) =>
          `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(' | ')}`,
      ),
  ).toEqual([]);
}

/** The newest outbox mail holding every needle, decoded from quoted-printable. */
export async function mailContaining(...needles: string[]): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? path.resolve('.tmp/e2e-manual'), 'outbox');
  let found = '';
  await expect(async () => {
    for (const name of (await readdir(outbox)).sort().reverse()) {
      const text = (await readFile(path.join(outbox, name), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (needles.every((needle) => text.includes(needle))) {
        found = text;
        return;
      }
    }
    throw new Error(`no mail with ${needles.join(', ')} yet`);
  }).toPass();
  return found;
}

/** The text of a PDF, as poppler's pdftotext reads it (installed with the e2e tools: scripts/debian-tools.mjs). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-pdf-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, bytes);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Opens a page of the signed-in app the way its links do (the client router, no reload): the shell stays
 * and only the page is drawn anew, as when a user follows the menu. Resolves once the new page's <h1> is
 * on screen: the one it replaces was marked before leaving.
 */
export async function openInApp(page: Page, url: string) {
  await page.evaluate((to) => {
    for (const heading of document.querySelectorAll('main h1')) heading.setAttribute('data-left', '');
    window.history.pushState(null, '', to);
  }, url);
  await expect(page.locator('main h1:not([data-left])').first()).toBeVisible();
}
