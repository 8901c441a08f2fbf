// Catalog imports (issue 15) in Chromium, as their users would: an admin uploads a sheet for a seller
// with good rows, bad rows and a duplicate, fixes the mapping, reads the report, downloads the error
// sheet, reads the dry run, moves the sheet to staging and finds the products in the staging grid,
// then updates only their prices from a second sheet; a seller asks for an import and staff handle it.
// SKUs carry the run's id, so repeats never collide.
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { parseCsv } from '../csv';
import { signedIn, signIn } from './support';

const SELLER = 'Harbor Home';
const CATEGORY = 'Home & Kitchen > Decor';

const csv = (rows: string[][]) => Buffer.from(`${rows.map((row) => row.join(',')).join('\r\n')}\r\n`);

/** A test's own ids: SKUs, file names and headers never collide with another run's (or repeat's). */
function sheetsOf(run: string) {
  const sku = (n: number) => `E2E-${run}-${n}`;
  // The title column's header matches no field and is the run's own (a seller's mapping is remembered):
  // it must be mapped by hand.
  const titleHeader = `Designation ${run}`;
  const first = csv([
    ['SKU', titleHeader, 'Category', 'Price', 'Stock', 'Colour', 'Brand', 'Note'],
    [sku(1), `Harbor mug ${run} one`, CATEGORY, '499', '10', 'Blue', 'Harbor Home', 'good'],
    [sku(2), `Harbor mug ${run} two`, CATEGORY, '599', '5', 'White', 'Harbor Home', 'good'],
    [sku(3), `Harbor mug ${run} three`, CATEGORY, 'cheap', '5', 'White', 'Harbor Home', 'bad price'],
    [sku(4), `Harbor mug ${run} four`, CATEGORY, '99', '5', 'Purpleish', 'Harbor Home', 'bad colour'],
    [sku(1), `Harbor mug ${run} one again`, CATEGORY, '459', '3', 'Blue', 'Harbor Home', 'same SKU'],
  ]);
  const pricing = csv([
    ['SKU', 'Price', 'Stock'],
    [sku(1), '549', '12'],
    [sku(2), '649', '6'],
  ]);
  return { sku, titleHeader, first, pricing };
}

const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

async function openImports(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Imports' }).click();
  await expect(page.getByRole('heading', { name: 'Imports', level: 1 })).toBeVisible();
}

async function uploadFor(page: Page, seller: string, name: string, content: Buffer) {
  await page.getByRole('button', { name: 'Upload sheet' }).click();
  const drawer = page.getByRole('dialog', { name: 'Upload a catalogue sheet' });
  await drawer.getByLabel('Find a seller').fill(seller);
  await expect(drawer.locator('#import-seller option', { hasText: seller })).toHaveCount(1);
  await drawer.locator('#import-seller').selectOption({ label: seller });
  await drawer.getByTestId('sheet-file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: content });
  await expect(drawer.getByTestId('chosen-sheet')).toContainText(name);
  await drawer.getByRole('button', { name: 'Upload and validate' }).click();
  await expect(page.getByTestId('import-view')).toBeVisible();
  await expect(page.getByTestId('import-file-name')).toHaveText(name);
}

const status = (page: Page) => page.getByTestId('batch-status');
const chip = (page: Page, outcome: string) => page.getByTestId(`outcome-chip-${outcome}`);

test('a sheet is uploaded, mapped, reported on, previewed, moved to staging, then repriced', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = runId();
  const { sku, titleHeader, first, pricing } = sheetsOf(run);
  await signIn(page, 'admin@demo.local');
  await openImports(page);
  await uploadFor(page, SELLER, `harbor-${run}.csv`, first);
  await expect(status(page)).toHaveText('Ready to move', { timeout: 30_000 });
  await expect(page.getByTestId('import-seller')).toHaveText(SELLER);
  // Without a title column every new product is refused, and the report says which columns it skipped.
  await expect(chip(page, 'error')).toContainText('5');
  await expect(page.getByTestId('unmapped-columns')).toContainText(titleHeader);
  await expect(page.getByTestId('unmapped-columns')).toContainText('Note');

  // Fix the mapping: Designation is the title.
  await page.getByRole('tab', { name: 'Mapping' }).click();
  await page.getByLabel(`Target for ${titleHeader}`).selectOption('title');
  await page.getByRole('button', { name: 'Apply and revalidate' }).click();
  await expect(page.getByTestId('batch-number')).toHaveText('Batch 2');
  await expect(status(page)).toHaveText('Ready to move', { timeout: 30_000 });

  // The report: exact counts, each bad cell named.
  await page.getByRole('tab', { name: 'Report' }).click();
  await expect(chip(page, 'all')).toContainText('5');
  await expect(chip(page, 'create')).toContainText('2');
  await expect(chip(page, 'error')).toContainText('2');
  await expect(chip(page, 'duplicate')).toContainText('1');
  await chip(page, 'error').click();
  const rows = page.getByRole('table', { name: 'Report rows' }).getByTestId('report-row');
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('cell-error').filter({ hasText: 'D4' })).toContainText('price');
  await expect(page.getByTestId('cell-error').filter({ hasText: 'F5' })).toContainText('Purpleish');

  // The error sheet: the two rows as they were, plus what is wrong with them. The page downloads it
  // once its job is done (issue 26), and the bell keeps it too.
  // The menu floats by its button: if the report re-lays out as it opens, a click can land beside the
  // item and leave the menu open; a person would click again, and so does the test.
  const downloadedHere = page.waitForEvent('download');
  const menu = page.getByRole('menu', { name: 'Download error sheet' });
  await expect(async () => {
    if (!(await menu.isVisible())) await page.getByRole('button', { name: 'Download error sheet' }).click();
    await menu.getByRole('menuitem', { name: 'CSV' }).click({ timeout: 2_000 });
    await expect(menu).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText('Error sheet Completed').first()).toBeVisible({ timeout: 30_000 });
  const sheetHere = (await readFile(await (await downloadedHere).path(), 'utf8')).replace(/^\uFEFF/, '');
  expect(parseCsv(sheetHere).map((row) => row[0])).toEqual(['SKU', sku(3), sku(4)]);
  await page.getByRole('button', { name: 'Notifications' }).click();
  const notification = page
    .getByRole('dialog', { name: 'Notifications' })
    .getByTestId('notification-item')
    .filter({ hasText: 'Error sheet is ready' })
    .first();
  const downloading = page.waitForEvent('download');
  await notification.getByText('Download file').click();
  const text = (await readFile(await (await downloading).path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...errorRows] = parseCsv(text);
  expect(header).toEqual([
    'SKU',
    titleHeader,
    'Category',
    'Price',
    'Stock',
    'Colour',
    'Brand',
    'Note',
    'Errors',
  ]);
  expect(errorRows.map((row) => row[0])).toEqual([sku(3), sku(4)]);
  expect(errorRows[0]?.[8]).toMatch(/^D4: /);
  await page.keyboard.press('Escape');
  // Closing, the drawer's items (e.g. "Move to staging is done", from earlier runs) are still on screen.
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeHidden();

  // The dry run: two new products, then the move.
  await page.getByRole('tab', { name: 'Preview' }).click();
  const preview = page.getByRole('table', { name: 'Move preview' });
  await expect(preview).toContainText(sku(1));
  await expect(preview).toContainText(sku(2));
  await page.getByTestId('import-view').getByRole('button', { name: 'Move to staging' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Create 2 products and update 0?' });
  await confirm.getByRole('button', { name: 'Move products' }).click();
  await expect(status(page)).toHaveText('Moved', { timeout: 30_000 });
  await expect(page.getByTestId('move-results')).toContainText('2');

  // The products are in the staging grid.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Staging Products' })
    .click();
  await page.getByRole('searchbox', { name: 'Search products' }).fill(`E2E-${run}`);
  await expect(page).toHaveURL(new RegExp(`[?&]s=E2E-${run}(&|$)`));
  const grid = page.getByRole('table').filter({ hasText: sku(1) });
  await expect(grid).toContainText(sku(2));
  await expect(grid).toContainText('499');

  // A second sheet with only SKU, price and stock updates the prices and nothing else.
  await openImports(page);
  await uploadFor(page, SELLER, `harbor-prices-${run}.csv`, pricing);
  await expect(status(page)).toHaveText('Ready to move', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.getByRole('table', { name: 'Move preview' })).toContainText('499.00');
  await expect(page.getByRole('table', { name: 'Move preview' })).toContainText('549.00');
  await page
    .getByTestId('import-view')
    .getByRole('button', { name: 'Update pricing and inventory only' })
    .click();
  await page
    .getByRole('alertdialog', { name: 'Update the price and inventory of 2 products?' })
    .getByRole('button', { name: 'Update prices and inventory' })
    .click();
  await expect(status(page)).toHaveText('Moved', { timeout: 30_000 });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Staging Products' })
    .click();
  await page.getByRole('searchbox', { name: 'Search products' }).fill(`E2E-${run}-1`);
  await expect(page).toHaveURL(new RegExp(`[?&]s=E2E-${run}-1(&|$)`));
  const repriced = page.getByRole('table').filter({ hasText: sku(1) });
  await expect(repriced).toContainText('549');
  await expect(repriced).toContainText(`Harbor mug ${run} one`);
});

test('a seller asks for an import and staff import the file for them', async ({ browser }) => {
  test.setTimeout(90_000);
  const run = runId();
  const seller = await signedIn(browser, 'seller@demo.local');
  await openImports(seller.page);
  await seller.page.getByRole('tab', { name: 'Import requests' }).click();
  await seller.page.getByRole('button', { name: 'Request an import' }).click();
  const form = seller.page.getByRole('dialog');
  await form.getByRole('radio', { name: 'A sheet I cannot map' }).check({ force: true });
  await form.getByTestId('request-file-input').setInputFiles({
    name: `our-products-${run}.csv`,
    mimeType: 'text/csv',
    buffer: csv([
      ['Code', 'Name'],
      [`REQ-${run}`, 'Please import me'],
    ]),
  });
  await form.getByLabel('Note').fill(`Please map this, run ${run}`);
  await form.getByRole('button', { name: 'Send request' }).click();
  const mine = seller.page.getByTestId('request-row').filter({ hasText: `our-products-${run}.csv` });
  await expect(mine).toContainText('Open');

  const staff = await signedIn(browser, 'staff@demo.local');
  await openImports(staff.page);
  await staff.page.getByRole('tab', { name: 'Import requests' }).click();
  await staff.page
    .getByTestId('request-row')
    .filter({ hasText: `our-products-${run}.csv` })
    .click();
  const request = staff.page.getByRole('dialog', { name: /^Import request of/ });
  await expect(request.getByTestId('request-note')).toHaveText(`Please map this, run ${run}`);
  await request.getByRole('button', { name: 'Take', exact: true }).click();
  await expect(request.getByTestId('request-status')).toHaveText('In progress');
  await request.getByRole('button', { name: 'Import this file' }).click();
  await expect(staff.page.getByTestId('import-view')).toBeVisible();
  await expect(staff.page.getByTestId('import-seller')).toHaveText('Demo Seller Store');
  await expect(status(staff.page)).toHaveText('Ready to move', { timeout: 30_000 });

  // The seller sees the request taken, by whom, in its history.
  await seller.page.reload();
  await expect(mine).toContainText('In progress');
  await seller.context.close();
  await staff.context.close();
});
