// Tags on staging products (issue 16) in Chromium, as an admin would use them: a product tagged on its
// details page, found in the grid with the Tag filter (a parent tag finds it through its descendant),
// two more products tagged in bulk, a tag taken off in bulk and on the details page. The tags and
// products each run needs are made through the API first, named for the run, so repeats never collide.
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { apiSession, signIn } from './support';

const API = '/api/v1/stagingProducts';
const TAGS = '/api/v1/tags';

async function call(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  data?: unknown,
) {
  const response = await request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return response.json();
}

interface Setup {
  /** What names this run's tags and products (each repeat makes its own). */
  run: string;
  /** Tag names: Apparel › Men › Shirts, and Home. */
  apparel: string;
  men: string;
  shirts: string;
  home: string;
  /** Product ids and titles, by letter. */
  products: Record<'A' | 'B' | 'C', { id: string; title: string }>;
}

let setup: Setup;
test.beforeAll(async ({ request }) => {
  const { token } = await apiSession(request, 'admin@demo.local');
  const run = `${Date.now().toString(36)}${test.info().repeatEachIndex}`;
  const names = {
    apparel: `Apparel ${run}`,
    men: `Men ${run}`,
    shirts: `Shirts ${run}`,
    home: `Home ${run}`,
  };
  const tag = async (name: string, parentId: string | null) =>
    (await call(request, token, 'POST', `${TAGS}/draft/nodes`, { name, parentId })).id as string;
  const apparel = await tag(names.apparel, null);
  const men = await tag(names.men, apparel);
  await tag(names.shirts, men);
  await tag(names.home, null);
  const category = await call(request, token, 'POST', '/api/v1/categories/createCategory', {
    name: `E2E Tagged ${run}`,
  });
  // Not the demo seller: its dashboard's figures are checked by other specs on this server.
  const [seller] = (await call(request, token, 'GET', `${API}/method/options/sellers?q=Aurora%20Textiles`))
    .result;
  const products = {} as Setup['products'];
  for (const letter of ['A', 'B', 'C'] as const) {
    const title = `Tagged ${letter} ${run}`;
    const created = await call(request, token, 'POST', `${API}/`, {
      title,
      sku: `TG-${letter}-${run}`,
      sellerId: seller.value,
      categoryId: category.id,
      price: 100,
      inventory: 3,
    });
    products[letter] = { id: created.id, title };
  }
  setup = { run, ...names, products };
});

const condition = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const path = (...names: string[]) => names.join(' › ');

async function openGrid(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Staging Products' })
    .click();
  await expect(page.getByRole('heading', { name: 'Staging Products', level: 1 })).toBeVisible();
}

const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/** Picks a tag in a tag picker: types its name and chooses the match whose path is `tagPath`. */
async function pickTag(scope: Locator, label: string, name: string, tagPath: string) {
  await scope.getByRole('textbox', { name: label }).fill(name);
  await scope.getByRole('option', { name: new RegExp(`${escaped(tagPath)}$`) }).click();
}

/** Ticks the rows of these products in the grid (the grid shows this run's products only). */
async function tick(page: Page, titles: string[]) {
  // The styled box covers the real input, and clicking it is what a person does: hence `force`.
  for (const title of titles)
    await page.getByRole('checkbox', { name: `Select ${title}` }).check({ force: true });
  await expect(page.getByTestId('selection-label')).toHaveText(`${titles.length} selected`);
}

/** Runs the bulk Tags dialog on the ticked rows. */
async function bulkTags(page: Page, mode: 'add' | 'remove', name: string, tagPath: string) {
  await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Tags' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add or remove tags' });
  if (mode === 'remove') await dialog.getByText('Remove tags from them').click();
  await pickTag(dialog, mode === 'add' ? 'Find a tag to add' : 'Find a tag to remove', name, tagPath);
  await expect(dialog.getByRole('list', { name: 'Chosen tags' })).toContainText(tagPath);
  await dialog.getByRole('button', { name: mode === 'add' ? 'Add 1 tag' : 'Remove 1 tag' }).click();
  await expect(dialog).toBeHidden();
}

test('a product is tagged on its page, found through a parent tag, and products are tagged and untagged in bulk', async ({
  page,
}) => {
  const { products } = setup;
  const shirtsPath = path(setup.apparel, setup.men, setup.shirts);
  const homePath = path(setup.home);
  await signIn(page, 'admin@demo.local');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // The details page: no tags yet; Shirts (under Apparel › Men) is added from the tag tree.
  await page.goto(`/product/staging-products?id=${products.A.id}`);
  const card = page.getByTestId('product-tags');
  await expect(card).toContainText('No tags yet.');
  await card.getByRole('button', { name: 'Add tags' }).click();
  await pickTag(card, 'Find a tag to add', setup.shirts, shirtsPath);
  const chips = card.getByRole('list', { name: 'Product tags' });
  await expect(chips.getByRole('listitem')).toHaveText([shirtsPath]);
  // The picker now says it is on the product; the history names it by its path.
  await expect(card.getByRole('option', { name: new RegExp(setup.shirts) })).toBeDisabled();
  const history = page.locator('[aria-label="Update history"]');
  await expect(history).toContainText('Tags:');
  await expect(history).toContainText(shirtsPath);

  // The grid: "Tag is under Apparel" finds it through Men › Shirts.
  await openGrid(page);
  await page.getByLabel('Search products').fill(setup.run);
  await expect(page.getByTestId('product-row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Add condition to query' }).click();
  const row = condition(page, 'Condition 1');
  const field = row.getByRole('combobox', { name: 'Field' });
  await field.click();
  await field.fill('Tag');
  await page.getByRole('option', { name: 'Tag', exact: true }).click();
  await expect(row.getByRole('combobox', { name: 'Operator' })).toHaveValue('under');
  await pickTag(row, 'Find a tag', setup.apparel, setup.apparel);
  await expect(row.getByRole('list', { name: 'Chosen tags' })).toContainText(setup.apparel);
  await expect(page.getByTestId('product-total')).toHaveText('1 product');
  await expect(page.getByRole('link', { name: products.A.title })).toBeVisible();
  // The condition is in the URL: a reload keeps it, the chip still shows the path.
  expect(new URL(page.url()).searchParams.get('q')).toContain('"field":"tags","op":"under"');
  await page.reload();
  await expect(page.getByTestId('product-total')).toHaveText('1 product');
  await expect(condition(page, 'Condition 1').getByRole('list', { name: 'Chosen tags' })).toContainText(
    setup.apparel,
  );

  // Bulk: B and C get Home.
  await condition(page, 'Condition 1').getByRole('button', { name: 'Remove condition 1' }).click();
  await expect(page.getByTestId('product-row')).toHaveCount(3);
  await tick(page, [products.B.title, products.C.title]);
  await bulkTags(page, 'add', setup.home, homePath);
  await expect(page.getByText('2 products tagged.')).toBeVisible();

  // "Tag is under Home" finds both.
  await page.getByRole('button', { name: 'Add condition to query' }).click();
  const homeRow = condition(page, 'Condition 1');
  await homeRow.getByRole('combobox', { name: 'Field' }).click();
  await homeRow.getByRole('combobox', { name: 'Field' }).fill('Tag');
  await page.getByRole('option', { name: 'Tag', exact: true }).click();
  await pickTag(homeRow, 'Find a tag', setup.home, homePath);
  await expect(page.getByTestId('product-total')).toHaveText('2 products');

  // Bulk: Home comes off B; the filter then finds C alone.
  await tick(page, [products.B.title]);
  await bulkTags(page, 'remove', setup.home, homePath);
  await expect(page.getByText('1 product untagged.')).toBeVisible();
  await expect(page.getByTestId('product-total')).toHaveText('1 product');
  await expect(page.getByRole('link', { name: products.C.title })).toBeVisible();

  // C's page lists Home; its history says who tagged it and how.
  await page.getByRole('link', { name: products.C.title }).click();
  await expect(page.getByRole('heading', { name: products.C.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('product-tags').getByRole('listitem')).toHaveText([homePath]);
  await expect(page.locator('[aria-label="Update history"]')).toContainText(homePath);

  // And a tag is taken off on the details page.
  await page.goto(`/product/staging-products?id=${products.A.id}`);
  await page
    .getByTestId('product-tags')
    .getByRole('button', { name: `Remove ${shirtsPath}` })
    .click();
  await expect(page.getByTestId('product-tags')).toContainText('No tags yet.');
});
