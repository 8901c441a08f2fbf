// The tag tree (issue 16) in Chromium, as its users work with it: an admin builds a small tree in the
// draft, moves a tag by drag and drop and another with the keyboard-friendly "Move to…" picker,
// calculates node levels (the task toast), publishes after reading the diff, changes a name, publishes
// again, compares versions in the history, rolls back to the earlier one and exports the draft to CSV;
// a seller reads the published tree. Names carry the run's id, so repeats never collide.
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { parseCsv } from '../csv';
import { signIn } from './support';

const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

async function openTags(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manage Tags' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Tags', level: 1 })).toBeVisible();
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Draft tags' });
/** A tree's row by the tag's name (the row's accessible name goes on with its code and counts). */
const rowIn = (tags: Locator, name: string) =>
  tags.getByRole('treeitem').filter({ has: tags.page().getByText(name, { exact: true }) });
const row = (page: Page, name: string) => rowIn(tree(page), name);
const details = (page: Page) => page.getByTestId('tag-details');

async function addTag(page: Page, how: 'top' | 'child', name: string) {
  if (how === 'top') await page.getByRole('button', { name: 'Add top-level tag' }).click();
  else await details(page).getByRole('button', { name: 'Add child' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add tag' }).click();
  await expect(dialog).toBeHidden();
  await expect(details(page).getByTestId('tag-name')).toHaveText(name);
}

/** Opens the publish dialog, answers any removed tag's products, publishes; answers the version. */
async function publish(page: Page, note: string, expectInDiff: string) {
  await page
    .getByRole('button', { name: /^Publish/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
  await expect(dialog.getByTestId('tag-diff')).toContainText(expectInDiff);
  for (const need of await dialog.getByTestId('remap-need').all()) {
    await need.getByText('Remove the tag from them').click();
  }
  await dialog.getByLabel('Note').fill(note);
  const button = dialog.getByRole('button', { name: /^Publish (version \d+|the first version)$/ });
  const label = (await button.textContent()) ?? '';
  await button.click();
  await expect(dialog).toBeHidden();
  const version = Number(/version (\d+)/.exec(label)?.[1] ?? 1);
  await expect(page.getByText(`Version ${version} is published`).first()).toBeVisible();
  return version;
}

test('an admin builds, moves, publishes, rolls back and exports the tag tree', async ({ page }) => {
  test.setTimeout(120_000);
  const run = runId();
  const root = `Root ${run}`;
  const alpha = `Alpha ${run}`;
  const beta = `Beta ${run}`;
  const gamma = `Gamma ${run}`;
  await signIn(page, 'admin@demo.local');
  await openTags(page);

  // A small tree: Root > Alpha > Gamma, Root > Beta.
  await addTag(page, 'top', root);
  await addTag(page, 'child', alpha);
  await addTag(page, 'child', gamma);
  await row(page, root).click();
  await addTag(page, 'child', beta);
  await expect(details(page).getByTestId('tag-path')).toHaveText(`${root} › ${beta}`);

  // Drag Gamma onto Beta.
  await row(page, gamma).dragTo(row(page, beta));
  await expect(page.getByText(`“${gamma}” moved`).first()).toBeVisible();
  await expect(details(page).getByTestId('tag-path')).toHaveText(`${root} › ${beta} › ${gamma}`);

  // Move Beta under Alpha with the picker: type, choose.
  await row(page, beta).click();
  await details(page).getByRole('button', { name: 'Move to…' }).click();
  const move = page.getByRole('dialog', { name: `Move “${beta}”` });
  await move.getByLabel('New parent').fill(alpha);
  await move.getByTestId('tag-option').filter({ hasText: alpha }).first().click();
  await expect(move).toBeHidden();
  await expect(details(page).getByTestId('tag-path')).toHaveText(`${root} › ${alpha} › ${beta}`);
  await expect(row(page, gamma)).toHaveAttribute('aria-level', '4');

  // Levels and product counts, as a task with its toast.
  await page.getByRole('button', { name: 'Calculate node levels' }).click();
  await expect(page.getByText('Calculate node levels Completed').first()).toBeVisible({ timeout: 30_000 });

  // Publish: the diff names the new tags with their paths.
  const first = await publish(page, `First ${run}`, `${root} > ${alpha} > ${beta} > ${gamma}`);

  // Another change, published as the next version.
  await row(page, gamma).click();
  await details(page).getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: `Rename “${gamma}”` });
  await rename.getByLabel('Name').fill(`${gamma} renamed`);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(details(page).getByTestId('tag-name')).toHaveText(`${gamma} renamed`);
  const second = await publish(page, `Second ${run}`, `“${gamma}” → “${gamma} renamed”`);
  expect(second).toBe(first + 1);

  // The history: compare the two versions, then roll back to the first.
  await page.getByRole('tab', { name: 'Publish history' }).click();
  const versions = page.getByRole('table', { name: 'Published versions' }).getByTestId('version-row');
  await expect(versions.first()).toContainText(`Version ${second}`);
  await expect(versions.first()).toContainText(`Second ${run}`);
  await versions.first().getByRole('button', { name: 'Compare' }).click();
  const compare = page.getByRole('dialog', { name: `What version ${second} changed` });
  await expect(compare.getByTestId('diff-renamed')).toContainText(`“${gamma}” → “${gamma} renamed”`);
  await compare.getByRole('button', { name: 'Close' }).click();
  await versions
    .filter({ hasText: `Version ${first}` })
    .getByRole('button', { name: `Roll back to version ${first}` })
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Roll back' }).click();
  await expect(page.getByTestId('rolled-back')).toContainText(`version ${first} brought back`);
  await page.getByRole('tab', { name: 'Hierarchy' }).click();
  await page.getByRole('searchbox', { name: 'Search tags' }).fill(gamma);
  await page
    .getByTestId('tag-search-results')
    .getByRole('button', { name: new RegExp(gamma) })
    .first()
    .click();
  await expect(details(page).getByTestId('tag-name')).toHaveText(gamma);

  // Export the draft to CSV: one row per tag with its full path.
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  await expect(page.getByText('Tags export Completed').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Notifications' }).click();
  const notification = page
    .getByRole('dialog', { name: 'Notifications' })
    .getByTestId('notification-item')
    .filter({ hasText: 'Tags export is ready' })
    .first();
  const downloading = page.waitForEvent('download');
  await notification.getByText('Download file').click();
  const text = (await readFile(await (await downloading).path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...rows] = parseCsv(text);
  expect(header?.slice(0, 4)).toEqual(['Path', 'Name', 'Code', 'Level']);
  const mine = rows.filter((cells) => cells[0]?.startsWith(root)).map((cells) => [cells[0], cells[3]]);
  expect(mine).toEqual([
    [root, '1'],
    [`${root} > ${alpha}`, '2'],
    [`${root} > ${alpha} > ${beta}`, '3'],
    [`${root} > ${alpha} > ${beta} > ${gamma}`, '4'],
  ]);
});

test('a seller reads the published tree and its history, and cannot change it', async ({ page }) => {
  await signIn(page, 'seller@demo.local');
  await openTags(page);
  const published = page.getByRole('tree', { name: 'Published tags' });
  await expect(rowIn(published, 'Apparel')).toBeVisible();
  await published.getByRole('button', { name: 'Expand Apparel', exact: true }).click();
  await rowIn(published, 'Men').click();
  await expect(page.getByTestId('tag-path')).toHaveText('Apparel › Men');
  await expect(page.getByRole('button', { name: 'Add top-level tag' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rename' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Status overview' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Publish history' }).click();
  await expect(
    page.getByRole('table', { name: 'Published versions' }).getByTestId('version-row').first(),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Roll back/ })).toHaveCount(0);
});
