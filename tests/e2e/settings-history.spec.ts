// Settings → History (issue 29, Rules: Audit): an admin changes the first day of the week; the
// section's History panel and the overall History tab both show the change, before → after, and the
// History tab meets WCAG 2.2 AA with one h1; its export downloads the change as CSV.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { SectionState } from '../../contracts/settings';
import { parseCsv } from '../csv';
import { apiSession, signIn } from './support';

/** Sets the marketplace's first day of the week through the API, on top of the current version. */
async function setWeekStart(request: APIRequestContext, weekStart: string) {
  const { token } = await apiSession(request, 'admin@demo.local');
  const headers = { authorization: `Bearer ${token}` };
  const state = (await (
    await request.get('/api/v1/settings/localization', { headers })
  ).json()) as SectionState;
  const response = await request.put('/api/v1/settings/localization', {
    headers,
    data: { version: state.version, set: { weekStart }, reset: [] },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Critical and serious WCAG 2.2 AA violations in the page's main area, one line per element. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

test.afterEach(async ({ request }) => {
  await setWeekStart(request, 'monday');
});

test('a change shows before → after in the section History panel and the History tab', async ({
  page,
  request,
}) => {
  await setWeekStart(request, 'monday');
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.goto('/settings/manage-settings?tab=localization');
  await expect(page.getByRole('heading', { name: 'Localization', level: 2 })).toBeVisible();

  await page.getByLabel('First day of the week', { exact: true }).selectOption('saturday');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();

  // The section's own History panel: the newest entry names the field, before → after.
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Localization history' });
  const newest = drawer
    .getByRole('listitem')
    .filter({ hasText: /^First day of the week:/ })
    .first();
  await expect(newest).toHaveText('First day of the week: monday → saturday');
  await drawer.getByRole('button', { name: 'Close Localization history' }).click();
  await expect(drawer).toBeHidden();

  // The overall history, filtered to the section: the newest line is this change.
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'History', level: 2 })).toBeVisible();
  await page.getByLabel('Section').selectOption('localization');
  await expect(page).toHaveURL(/[?&]tab=history&hsection=localization$/);
  const table = page.getByRole('table', { name: 'Settings history' });
  const first = table.getByRole('row').nth(1);
  await expect(first.getByRole('cell')).toHaveText([
    /\S/,
    /\S/,
    /^Localization/,
    'First day of the week',
    'monday',
    'saturday',
    /\S/,
  ]);
  // The shared link opens the same view.
  await page.reload();
  await expect(page.getByLabel('Section')).toHaveValue('localization');
  await expect(table.getByRole('row').nth(1).getByRole('cell').nth(5)).toHaveText('saturday');
  await expect(page.locator('h1')).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);

  // The export writes what the filters select, one line per field, and downloads it when ready.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^settings-history-\d{4}-\d\d-\d\d\.csv$/);
  const [header, newestLine] = parseCsv((await readFile(await file.path())).toString('utf8').slice(1));
  expect(header).toEqual([
    'When',
    'Who',
    'Scope',
    'Section',
    'Field',
    'Field key',
    'Before',
    'After',
    'Request id',
  ]);
  // The field as the page labels it, then its key.
  expect(newestLine?.slice(2, 8)).toEqual([
    'Marketplace',
    'Localization',
    'First day of the week',
    'weekStart',
    'monday',
    'saturday',
  ]);
});
