// Staging products (issue 14) in Chromium, as its users would: a nested query saved for everyone and
// loaded by someone else, the report, a product added with every data type, found, opened, edited and
// its history read, and the images reprocessed with the task toast. The catalogue each run needs is made
// through the API first (its own category and attributes, named for the run, so repeats never collide).
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { apiSession, signIn } from './support';

const run = Date.now().toString(36);
const API = '/api/v1/stagingProducts';

type AttributeKey =
  | 'colour'
  | 'screen'
  | 'ports'
  | 'keywords'
  | 'notes'
  | 'photo'
  | 'clip'
  | 'launch'
  | 'specs'
  | 'fiveg';

interface Setup {
  categoryName: string;
  labels: Record<AttributeKey, string>;
  sellerId: string;
}

async function call(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  data?: unknown,
) {
  const response = await request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return response.json();
}

/** A category of its own with one attribute of each of the ten data types, and four live products. */
async function makeCatalogue(request: APIRequestContext): Promise<Setup> {
  const { token } = await apiSession(request, 'admin@demo.local');
  const categoryName = `E2E Gadgets ${run}`;
  const category = await call(request, token, 'POST', '/api/v1/categories/createCategory', {
    name: categoryName,
  });
  const attribute = async (code: string, label: string, body: Record<string, unknown>) =>
    (await call(request, token, 'POST', '/api/v1/attributes', {
      code: `${code}_${run}`,
      label: `${label} ${run}`,
      groupName: 'E2E',
      categoryIds: [category.id],
      ...body,
    })) as { id: number; options: { valueId: number; value: string }[] };
  const colour = await attribute('colour', 'Colour', {
    dataType: 'ENUMERATED',
    options: ['Red', 'Blue'],
    isRequired: true,
  });
  const screen = await attribute('screen', 'Screen', { dataType: 'FLOAT', unit: 'in', isRequired: true });
  await attribute('ports', 'Ports', { dataType: 'NUMBER' });
  await attribute('keywords', 'Keywords', { dataType: 'STRING', attributeType: 'MULTI' });
  await attribute('notes', 'Notes', { dataType: 'WYSIWYG' });
  await attribute('photo', 'Photo', { dataType: 'IMAGE' });
  await attribute('clip', 'Clip', { dataType: 'VIDEO' });
  await attribute('launch', 'Launch', { dataType: 'DATETIME' });
  await attribute('specs', 'Specs', { dataType: 'OBJECT' });
  await attribute('fiveg', '5G', { dataType: 'BOOLEAN' });
  // Not the demo seller: its dashboard's figures are checked by other specs on this server.
  const [seller] = (await call(request, token, 'GET', `${API}/method/options/sellers?q=Aurora%20Textiles`))
    .result;
  const red = colour.options.find((option) => option.value === 'Red')?.valueId;
  const blue = colour.options.find((option) => option.value === 'Blue')?.valueId;
  // Live: A (red, 5 in) and B (blue, 6.5 in) match the query; C (blue, 5 in) does not; D (red) is a draft.
  const products = [
    { sku: `A-${run}`, colour: red, screen: 5, live: true },
    { sku: `B-${run}`, colour: blue, screen: 6.5, live: true },
    { sku: `C-${run}`, colour: blue, screen: 5, live: true },
    { sku: `D-${run}`, colour: red, screen: 7, live: false },
  ];
  for (const product of products) {
    const created = await call(request, token, 'POST', `${API}/`, {
      title: `Gadget ${product.sku}`,
      sku: product.sku,
      sellerId: seller.value,
      categoryId: category.id,
      price: 100,
      inventory: 3,
      attributeValues: [
        { keyId: colour.id, valueId: product.colour },
        { keyId: screen.id, value: product.screen },
      ],
    });
    if (!product.live) continue;
    for (const status of ['in_review', 'approved', 'live'])
      await call(request, token, 'POST', `${API}/${created.id}/status`, { status });
  }
  return {
    categoryName,
    sellerId: seller.value,
    labels: {
      colour: `Colour ${run}`,
      screen: `Screen ${run}`,
      ports: `Ports ${run}`,
      keywords: `Keywords ${run}`,
      notes: `Notes ${run}`,
      photo: `Photo ${run}`,
      clip: `Clip ${run}`,
      launch: `Launch ${run}`,
      specs: `Specs ${run}`,
      fiveg: `5G ${run}`,
    },
  };
}

let setup: Setup;
test.beforeAll(async ({ request }) => {
  setup = await makeCatalogue(request);
});

const condition = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

async function chooseField(page: Page, row: string, label: string) {
  const input = condition(page, row).getByRole('combobox', { name: 'Field' });
  await input.click();
  await input.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
}

async function chooseValues(page: Page, row: string, labels: string[]) {
  await condition(page, row).getByRole('combobox', { name: 'Values' }).click();
  for (const label of labels) await page.getByRole('option', { name: label, exact: true }).click();
  await page.keyboard.press('Escape');
}

async function openGrid(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Staging Products' })
    .click();
  await expect(page.getByRole('heading', { name: 'Staging Products', level: 1 })).toBeVisible();
}

test('a nested query is built, saved for everyone, loaded by a colleague, and reported on', async ({
  page,
  browser,
}) => {
  await signIn(page, 'admin@demo.local');
  await openGrid(page);
  // The query builder is open when the page opens.
  await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'true');

  // Status is any of Live AND (Colour is any of Red OR Screen ≥ 6).
  await page.getByRole('button', { name: 'Add condition to query' }).click();
  await chooseField(page, 'Condition 1', 'Status');
  await chooseValues(page, 'Condition 1', ['Live']);
  await page.getByRole('button', { name: 'Add group to query' }).click();
  await expect(condition(page, 'Group 2').getByRole('radio', { name: 'any' })).toBeChecked();
  await chooseField(page, 'Condition 2.1', setup.labels.colour);
  await chooseValues(page, 'Condition 2.1', ['Red']);
  await page.getByRole('button', { name: 'Add condition to group 2' }).click();
  await chooseField(page, 'Condition 2.2', setup.labels.screen);
  await condition(page, 'Condition 2.2').getByRole('combobox', { name: 'Operator' }).selectOption('gte');
  await condition(page, 'Condition 2.2').getByRole('textbox', { name: 'Value (in)' }).fill('6');
  await condition(page, 'Condition 2.2').getByRole('textbox', { name: 'Value (in)' }).press('Enter');

  await expect(page.getByTestId('product-total')).toHaveText('2 products');
  await expect(page.getByTestId('product-row')).toHaveCount(2);
  await expect(page.getByRole('link', { name: `Gadget A-${run}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Gadget B-${run}` })).toBeVisible();
  // The whole query is in the URL: a reload keeps it.
  expect(new URL(page.url()).searchParams.get('q')).toContain(`colour_${run}`);
  await page.reload();
  await expect(page.getByTestId('product-total')).toHaveText('2 products');

  // Saved for everyone.
  const viewName = `Live red or big ${run}`;
  await page.getByTestId('saved-views-trigger').click();
  await page.getByRole('menuitem', { name: 'Save as…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view as' });
  await dialog.getByLabel('Name').fill(viewName);
  await dialog.getByLabel('Who sees it').selectOption('everyone');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByTestId('saved-views-trigger')).toContainText(viewName);

  // The report of the query.
  await page.getByRole('button', { name: 'Report' }).click();
  const report = page.getByRole('dialog', { name: 'Report' });
  await expect(report.getByTestId('report-total')).toHaveText('2');
  await expect(report.getByRole('img', { name: /Products by status: .*Live 2/ })).toBeVisible();
  await expect(report.getByRole('list', { name: 'Products by category' })).toContainText(setup.categoryName);
  const downloading = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Download CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^staging-report-\d{4}-\d{2}-\d{2}\.csv$/);
  await page.keyboard.press('Escape');

  // A colleague loads it in their own browser: read-only for them, the same products.
  const staff = await browser.newContext();
  const other = await staff.newPage();
  await signIn(other, 'staff@demo.local');
  await openGrid(other);
  await other.getByTestId('saved-views-trigger').click();
  await other.getByRole('menuitem', { name: viewName }).click();
  await expect(other.getByTestId('product-total')).toHaveText('2 products');
  await expect(condition(other, 'Condition 1').getByRole('button', { name: 'Remove Live' })).toBeVisible();
  await expect(condition(other, 'Condition 2.1')).toContainText('Red');
  await other.getByTestId('saved-views-trigger').click();
  await expect(other.getByRole('menuitem', { name: 'Save as copy…' })).toBeVisible();
  await staff.close();
});

test('a product is added with every data type, found, opened, edited, its history read, its images reprocessed', async ({
  page,
}) => {
  const sku = `NEW-${run}`;
  const picture = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  // The smallest MP4 the server accepts: an ftyp box of a known brand.
  const video = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
    Buffer.alloc(64),
  ]);
  const { labels } = setup;

  await signIn(page, 'admin@demo.local');
  await openGrid(page);
  await page.getByRole('button', { name: 'Add product' }).click();
  const form = page.getByRole('dialog', { name: 'Add product' });
  await form.getByLabel('Find a seller').fill('Aurora');
  await expect(form.locator('#product-seller option', { hasText: 'Aurora Textiles' })).toHaveCount(1);
  await form.locator('#product-seller').selectOption({ label: 'Aurora Textiles' });
  await form.getByLabel('Title').fill(`Every type ${run}`);
  await form.getByLabel('SKU').fill(sku);
  await form.getByLabel('Category').selectOption({ label: setup.categoryName });
  await form.locator('#product-price').fill('499');
  await form.getByLabel('Inventory').fill('12');
  await form
    .getByTestId('upload-images')
    .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: picture });
  await expect(form.getByRole('img', { name: 'front.png' })).toBeVisible();

  // One input per data type.
  await form.getByLabel(labels.colour).selectOption({ label: 'Blue' });
  await form.getByLabel(labels.screen).fill('6.1');
  await form.getByLabel(labels.ports).fill('2');
  await form.getByLabel(`Add to ${labels.keywords}`).fill('android');
  await form.getByLabel(`Add to ${labels.keywords}`).press('Enter');
  await form.getByRole('textbox', { name: labels.notes }).click();
  await page.keyboard.type('A very good gadget');
  await form
    .getByTestId(`upload-photo_${run}`)
    .setInputFiles({ name: 'side.png', mimeType: 'image/png', buffer: picture });
  await expect(form.getByRole('img', { name: 'side.png' })).toBeVisible();
  await form
    .getByTestId(`upload-clip_${run}`)
    .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: video });
  await expect(form.getByText('clip.mp4')).toBeVisible();
  await form.getByLabel(labels.launch).fill('2026-01-31T10:00');
  await form.getByLabel(labels.specs).fill('{"ram": "8 GB"}');
  // The switch is named by the field's label; 'Not set' beside it is plain text, not a label.
  const fiveg = form.getByRole('group').filter({ hasText: labels.fiveg });
  await expect(fiveg.getByText('Not set')).toBeVisible();
  await fiveg.locator('[data-part="control"]').click();
  await expect(form.getByRole('checkbox', { name: labels.fiveg, exact: true })).toBeChecked();
  await expect(fiveg.getByText('Yes', { exact: true })).toBeVisible();
  await form.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Product added as a draft.')).toBeVisible();
  await expect(form).toBeHidden();

  // Found in the grid, opened.
  await page.getByLabel('Search products').fill(sku);
  await expect(page.getByTestId('product-row')).toHaveCount(1);
  await page.getByRole('link', { name: `Every type ${run}` }).click();
  await expect(page.getByRole('heading', { name: `Every type ${run}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('product-status')).toContainText('Draft');
  await expect(page.getByTestId('product-completeness')).toContainText('100%');
  await expect(page.getByText('A very good gadget')).toBeVisible();
  await expect(page.getByText('"ram": "8 GB"')).toBeVisible();
  await expect(page.getByTestId('gallery').getByRole('img')).toHaveCount(1);

  // Edited; the history says who changed what.
  await page.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('form', { name: 'Edit product' });
  await editor.locator('#product-price').fill('599');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Changes saved.')).toBeVisible();
  const history = page.locator('[aria-label="Update history"]');
  await expect(history).toContainText('edited the product');
  await expect(history).toContainText('Price:');
  await expect(history).toContainText('599');
  await expect(history).toContainText('added the product');

  // Send for review from the details page.
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByTestId('product-status')).toContainText('In review');

  // Reprocess the images of what the grid shows: answered at once, finished with the task toast.
  await openGrid(page);
  await page.getByLabel('Search products').fill(sku);
  await expect(page.getByTestId('product-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Reprocess images' }).click();
  await expect(page.getByText('Reprocess images Completed')).toBeVisible({ timeout: 30_000 });
});
