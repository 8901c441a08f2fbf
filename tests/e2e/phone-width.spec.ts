// Every page each demo account can reach, on a 390 × 844 phone screen: nothing may make the page wider
// than the screen, and no two controls may overlap (tab lists, table toolbars, the header, dialogs).
import { expect, type Page, test } from '@playwright/test';
import { DEMO_ACCOUNTS, pagesOf } from './role-pages';
import { openInApp, signIn } from './support';

test.use({ viewport: { width: 390, height: 844 } });

/**
 * What is wrong with the layout inside `scope` (a CSS selector; every match is checked): the page wider
 * than the screen, a control outside it (unless a scrolling box holds it), two controls on top of
 * each other.
 */
async function layoutProblems(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((scopeSelector) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width + 1)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`);

    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${(
        el.getAttribute('aria-label') ||
        el.textContent ||
        ''
      )
        .trim()
        .slice(0, 40)}"`;
    const scrollsSideways = (el: Element) => {
      for (let node = el.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (/(auto|scroll)/.test(style.overflowX) && node.scrollWidth > node.clientWidth) return node;
      }
      return null;
    };
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width >= 4 && box.height >= 4 && style.visibility !== 'hidden' && style.opacity !== '0';
    };
    const controls = [...document.querySelectorAll(scopeSelector)].flatMap((root) => [
      ...root.querySelectorAll(
        'button, a[href], input:not([type=hidden]), select, textarea, [role=tab], [role=switch], h1, h2, h3',
      ),
    ]);
    const shown = controls.filter(visible);
    /** The part of an element its clipping ancestors (scrolling boxes, dialogs' bodies) let show. */
    const shownPart = (el: Element) => {
      const box = el.getBoundingClientRect();
      let { left, right, top, bottom } = box;
      for (let node = el.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = node.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
        top = Math.max(top, clip.top);
        bottom = Math.min(bottom, clip.bottom);
      }
      return { left, right, top, bottom };
    };
    // A breadcrumb squeezed into broken words ("Custom / ers").
    for (const crumb of document.querySelectorAll('nav[aria-label="breadcrumb"] li')) {
      if (!visible(crumb)) continue;
      const fontSize = Number.parseFloat(getComputedStyle(crumb).fontSize);
      if (crumb.getBoundingClientRect().height > fontSize * 2)
        problems.push(`breadcrumb ${name(crumb)} wraps onto several lines`);
    }
    /**
     * How far the control's own text runs past its sides. Text placed on purpose outside the control
     * (a count badge floated on a corner: absolutely positioned) is not its own text.
     */
    const textSpill = (el: Element) => {
      const box = el.getBoundingClientRect();
      let spill = 0;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        let floated = false;
        for (let parent = node.parentElement; parent && parent !== el; parent = parent.parentElement) {
          const position = getComputedStyle(parent).position;
          if (position === 'absolute' || position === 'fixed') floated = true;
        }
        if (floated) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          spill = Math.max(spill, rect.right - box.right, box.left - rect.left);
        }
      }
      return spill;
    };
    for (const el of shown) {
      // Text that does not fit its control and spills over its neighbours (cut off with an ellipsis is fine).
      if (getComputedStyle(el).overflowX !== 'visible' || el.clientWidth === 0) continue;
      const spill = textSpill(el);
      if (spill > 1) problems.push(`${name(el)}: its text spills out (${Math.round(spill)}px past its side)`);
    }
    for (const el of shown) {
      const box = el.getBoundingClientRect();
      const scroller = scrollsSideways(el);
      if (!scroller && (box.left < -1 || box.right > width + 1))
        problems.push(`${name(el)} runs off the screen (${Math.round(box.left)}..${Math.round(box.right)})`);
    }
    for (let i = 0; i < shown.length; i++) {
      for (let j = i + 1; j < shown.length; j++) {
        const a = shown[i] as Element;
        const b = shown[j] as Element;
        if (a.contains(b) || b.contains(a)) continue;
        const p = shownPart(a);
        const q = shownPart(b);
        const dx = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const dy = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (dx > 2 && dy > 2) problems.push(`${name(a)} overlaps ${name(b)}`);
      }
    }
    return problems;
  }, scope);
}

/** Dialogs and drawers slide in: measure them where they come to rest. */
async function settleAnimations(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

async function expectFits(page: Page, where: string, scope = 'header, main') {
  await settleAnimations(page);
  expect(await layoutProblems(page, scope), where).toEqual([]);
}

async function pageSettled(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('main [aria-busy="true"], main .chakra-skeleton')).toHaveCount(0);
}

for (const email of DEMO_ACCOUNTS) {
  test(`${email}: every page fits a 390 px screen`, async ({ page, request }) => {
    const { pages } = await pagesOf(request, email);
    // Each page is opened and settled in turn: the test's time grows with the role's pages.
    test.setTimeout(30_000 + pages.length * 10_000);
    await signIn(page, email);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    for (const [index, { route, url }] of pages.entries()) {
      // The first page is loaded; the next ones are opened in the app as its links do (no reload).
      if (index === 0) await page.goto(url);
      else await openInApp(page, url);
      await pageSettled(page);
      await expectFits(page, `${email} ${route}`);
    }
    // The menu is a drawer on a phone, and fits.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await settleAnimations(page);
    await expectFits(page, `${email}: the menu drawer`, '[role=dialog]');
  });
}

test('dialogs fit a 390 px screen: new seller, invite staff, the phone, a page guide', async ({ page }) => {
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

  await page.goto('/sellers/manage-sellers');
  await pageSettled(page);
  await page.getByRole('button', { name: 'New seller' }).click();
  await expect(page.getByRole('dialog', { name: 'New seller' })).toBeVisible();
  await expectFits(page, 'New seller dialog', '[role=dialog]');
  await page.keyboard.press('Escape');

  await page.goto('/staff/manage-staff');
  await pageSettled(page);
  await page.getByRole('button', { name: 'Invite staff' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite a staff member' })).toBeVisible();
  await expectFits(page, 'Invite staff dialog', '[role=dialog]');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Phone' }).click();
  await expect(page.getByRole('dialog', { name: 'Phone' })).toBeVisible();
  await expectFits(page, 'Phone dialog', '[role=dialog]');
  await page.getByRole('button', { name: 'Close phone' }).click();
  await expect(page.getByRole('dialog', { name: 'Phone' })).toBeHidden();

  await page.getByRole('button', { name: 'Page guide' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectFits(page, 'Page guide', '[role=dialog]');
});
