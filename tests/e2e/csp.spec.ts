// No page of the product may trip its own Content-Security-Policy: every violation is a feature that
// silently does not work (MQTT.js's keepalive worker was one: idle pages lost their live connection
// every three minutes). Each demo role signs in and opens every page its sidebar offers, waits for the
// live connection, and any violation (reported in the console or as a securitypolicyviolation event)
// fails the test. The API documentation is checked the same way.
import { expect, type Page, test } from '@playwright/test';
import { fillSignIn, liveUpdatesOn, sidebarPages } from './support';

const ROLES = [
  'admin@demo.local',
  'staff@demo.local',
  'seller@demo.local',
  'blocked@demo.local',
  'kyc@demo.local',
];

/** Collects every CSP violation the page reports, from the console and from the DOM event. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return async () => {
    const fromEvents = await page
      .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
      .catch(() => [] as string[]);
    return [...fromConsole, ...fromEvents];
  };
}

for (const email of ROLES) {
  test(`${email}: no page trips the Content-Security-Policy`, async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto('/signin');
    await fillSignIn(page, email);
    await expect(page).not.toHaveURL(/\/signin/);
    const pages = await sidebarPages(page);
    expect(pages.length).toBeGreaterThan(0);
    // Every page waits for its live connection: the test's time grows with the role's pages.
    test.setTimeout(30_000 + pages.length * 8_000);
    for (const href of pages) {
      await page.goto(href);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // The broker client (and its keepalive worker) runs once the connection is up.
      await liveUpdatesOn(page);
      expect(await violations(), `${email} on ${href}`).toEqual([]);
    }
  });
}

test('the API documentation renders under the same policy without tripping it', async ({ page }) => {
  const violations = await watchViolations(page);
  const response = await page.goto('/api/docs');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByText('Marketplace Back-office API').first()).toBeVisible();
  await expect(page.getByText('/api/v1/auth/signin').first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
