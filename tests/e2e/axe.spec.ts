// Accessibility: axe-core's WCAG 2.2 AA rules on every page of every demo role (with the detail pages a
// link leads to), on the main dialogs, drawers, menus and popovers, and on the public pages. Any critical
// or serious violation fails the test; each is printed with its rule, the element and where it was.
// Every page also has exactly one <h1> and every dialog opened has a name (the project's guide).
// One test per role, scanning as it goes, keeps the run short: the shell is scanned once per role.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { E2E_MAIL_LINK_SECRET } from '../../playwright.config';
import { createMailLinks } from '../../server/modules/mail-links/links';
import { DEMO_ACCOUNTS, pagesOf } from './role-pages';
import { openInApp, signIn } from './support';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Waits until the page has drawn its data and nothing moves: contrast measured mid-fade is wrong. */
async function settled(page: Page) {
  // Polled as markup, so a page that never settles says what is still loading.
  await expect
    .poll(() =>
      page
        .locator('main [aria-busy="true"], main .chakra-skeleton')
        .evaluateAll((loading) => loading.map((element) => element.outerHTML.slice(0, 160))),
    )
    .toEqual([]);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

/**
 * Scans the page as it is now (or only the parts `scope` selects); its critical and serious WCAG 2.2 AA
 * violations go to `found`, one line per element.
 */
async function scan(page: Page, where: string, found: string[], scope?: string) {
  await settled(page);
  const builder = new AxeBuilder({ page });
  if (scope) builder.include(scope);
  const { violations } = await builder
    .withTags(WCAG_22_AA)
    .options({ resultTypes: ['violations'] })
    .analyze();
  for (const violation of violations) {
    if (violation.impact !== 'critical' && violation.impact !== 'serious') continue;
    for (const node of violation.nodes) {
      const why = node.failureSummary?.split('\n')[1]?.trim() ?? violation.help;
      const line = `${where}: ${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${why}`;
      found.push(line);
    }
  }
}

interface Opener {
  what: string;
  /** What to scan with it open: the dialogs, menus and popovers (portalled outside main) unless given. */
  scope?: string;
  /** Opens it and returns it, or null where this user has no such control. */
  open: (page: Page) => Promise<Locator | null>;
  /** Closed with Escape afterwards (a panel that is part of the page stays). */
  closes?: false;
}

/** Clicks the control if the page offers it, and returns the dialog it opens. */
async function clickFor(control: Locator, opened: Locator): Promise<Locator | null> {
  if ((await control.count()) === 0) return null;
  await control.first().click();
  return opened;
}

/** The main dialogs, drawers and popovers of each page, opened where the page offers them. */
const OPENERS: Record<string, Opener[]> = {
  '/products/staging-products': [
    {
      what: 'Add product, Apparel › Men (multi-value checkboxes)',
      open: async (page) => {
        const form = await clickFor(
          page.getByRole('button', { name: 'Add product' }),
          page.getByRole('dialog', { name: 'Add product' }),
        );
        if (!form) return null;
        await form.getByLabel('Category').selectOption({ label: 'Apparel › Men' });
        await expect(form.getByRole('checkbox', { name: 'Linen' })).toBeVisible();
        return form;
      },
    },
    {
      what: 'Columns popover',
      open: (page) =>
        clickFor(
          page.getByRole('button', { name: 'Columns' }),
          page.getByRole('dialog', { name: 'Columns' }),
        ),
    },
    {
      what: 'query builder with a condition',
      closes: false,
      scope: 'main',
      open: async (page) => {
        const add = page.getByRole('button', { name: 'Add condition to query' });
        if ((await add.count()) === 0) return null;
        await add.click();
        return page.getByRole('group', { name: 'Condition 1' });
      },
    },
  ],
  '/imports/manage-imports': [
    {
      what: 'Upload sheet drawer',
      open: (page) =>
        clickFor(
          page.getByRole('button', { name: 'Upload sheet' }),
          page.getByRole('dialog', { name: 'Upload a catalogue sheet' }),
        ),
    },
  ],
  '/sellers/manage-sellers': [
    {
      what: 'seller drawer',
      open: (page) =>
        clickFor(
          page.getByRole('table', { name: 'Sellers' }).locator('tbody').getByRole('link'),
          page.getByRole('dialog'),
        ),
    },
  ],
  '/marketing/contacts': [
    {
      what: 'contact drawer',
      open: (page) =>
        clickFor(
          // A contact's name in the body (the header's buttons sort).
          page.getByRole('table', { name: 'Contacts' }).locator('tbody').getByRole('button'),
          page.getByRole('dialog'),
        ),
    },
    {
      what: 'Import leads dialog',
      open: (page) =>
        clickFor(
          page.getByRole('button', { name: 'Import leads' }),
          page.getByRole('dialog', { name: 'Import leads' }),
        ),
    },
  ],
  '/marketing/bulk-mails': [
    {
      what: 'campaign detail',
      open: (page) => clickFor(page.getByRole('button', { name: /^Open / }), page.getByRole('dialog')),
    },
  ],
};

/** What the header offers every signed-in user. */
const HEADER: Opener[] = [
  {
    what: 'account menu',
    open: (page) => clickFor(page.getByRole('button', { name: 'Account menu' }), page.getByRole('menu')),
  },
  {
    what: 'notifications drawer',
    open: (page) =>
      clickFor(
        page.getByRole('button', { name: 'Notifications' }),
        page.getByRole('dialog', { name: 'Notifications' }),
      ),
  },
  {
    what: 'video-call picker',
    open: async (page) => {
      const picker = await clickFor(
        page.getByRole('button', { name: 'Video call someone' }),
        page.getByRole('dialog', { name: 'Video call someone' }),
      );
      if (picker) await expect(picker.getByRole('list', { name: 'People you can video call' })).toBeVisible();
      return picker;
    },
  },
];

/** Where an opened dialog, drawer, menu or popover is drawn. */
const OPENED = '[role="dialog"], [role="alertdialog"], [role="menu"]';

/** Opens each in turn, scans the page with it open, and closes it again. */
async function scanOpened(page: Page, where: string, openers: Opener[], found: string[]) {
  for (const opener of openers) {
    const opened = await opener.open(page);
    if (!opened) continue;
    await expect(opened, `${where}: ${opener.what}`).toBeVisible();
    await scan(page, `${where} › ${opener.what}`, found, opener.scope ?? OPENED);
    if (opener.closes === false) continue;
    await page.keyboard.press('Escape');
    await expect(opened).toBeHidden();
  }
}

for (const email of DEMO_ACCOUNTS) {
  test(`${email}: every page and its main dialogs pass axe-core (WCAG 2.2 AA)`, async ({ page, request }) => {
    const { pages } = await pagesOf(request, email);
    // Each page is opened, settled and scanned in turn: the test's time grows with the role's pages.
    test.setTimeout(60_000 + pages.length * 15_000);
    const found: string[] = [];
    await signIn(page, email);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    for (const [index, { route, url }] of pages.entries()) {
      // The first page is loaded and scanned whole with the header's menus; the shell around the next
      // ones is the same, so they are opened in the app and only their main part is scanned.
      if (index === 0) await page.goto(url);
      else await openInApp(page, url);
      await expect(page.locator('main h1').first()).toBeVisible();
      await scan(page, route, found, index === 0 ? undefined : 'main');
      const headings = await page.locator('h1').count();
      if (headings !== 1) found.push(`${route}: ${headings} <h1> elements, not one`);
      if (index === 0) await scanOpened(page, route, HEADER, found);
      await scanOpened(page, route, OPENERS[route] ?? [], found);
    }
    expect(found, `${email}: accessibility violations`).toEqual([]);
  });
}

test('the public pages pass axe-core (WCAG 2.2 AA)', async ({ page }) => {
  const links = createMailLinks(E2E_MAIL_LINK_SECRET, '');
  const found: string[] = [];
  for (const url of [
    '/signin',
    '/forgot-password',
    '/reset-password?token=not-a-real-token',
    links.unsubscribeUrl('reader@example.com'),
    links.responseUrl('fan@example.com', 'spring-sale', 'Interested'),
    '/chat/SEL-0001',
    // A customer's answer page from a query reply; a forged link shows its message, not the form.
    '/query-reply?query=00000000-0000-4000-8000-000000000000&token=not-a-real-token',
  ]) {
    await page.goto(url);
    await expect(page.locator('h1')).toHaveCount(1);
    await scan(page, url, found);
  }
  expect(found, 'accessibility violations').toEqual([]);
});
