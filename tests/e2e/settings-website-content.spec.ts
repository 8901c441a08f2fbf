// Settings → Content and Website as a seller (issue 29 §5, §7): they write the chat bot's welcome in the
// rich-text editor, pick a widget colour whose text colour does not read on it, and save; a customer who
// opens the shop's public chat page sees its header in that colour with black text, and is greeted with
// the welcome.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { SectionState } from '../../contracts/settings';
import { apiSession, signIn } from './support';

// The demo seller's shop (seller@demo.local).
const SHOP = '/chat/SEL-0001';

test("a seller's new bot welcome and widget colour reach the next chat on their public widget", async ({
  page,
  context,
  request,
}) => {
  // Start from the inherited welcome and look, whatever an earlier run saved.
  const { token } = await apiSession(request, 'seller@demo.local');
  const headers = { authorization: `Bearer ${token}` };
  const resetFields = async (section: string, fields: string[]) => {
    const url = `/api/v1/settings/${section}`;
    const state = (await (await request.get(url, { headers })).json()) as SectionState;
    const reset = await request.put(url, {
      headers,
      data: { version: state.version, set: {}, reset: fields },
    });
    expect(reset.ok(), await reset.text()).toBe(true);
  };
  await resetFields('content', ['botWelcome']);
  await resetFields('website', ['widgetColour', 'widgetTextColour']);

  await signIn(page, 'seller@demo.local');
  await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
  await page.goto('/settings/manage-settings?tab=content');
  await expect(page.getByRole('heading', { name: 'Content', level: 2 })).toBeVisible();

  const stamp = `${Date.now()}`;
  const greeting = `Welcome to our shop, order ${stamp} ships today!`;
  const editor = page.getByRole('textbox', { name: 'Chat bot welcome (EN)' });
  await editor.click();
  await editor.pressSequentially(greeting);
  await expect(page.locator('.content-preview').first()).toHaveText(greeting);
  const accessibility = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag22aa']).analyze();
  expect(accessibility.violations).toEqual([]);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Overridden', { exact: true }).first()).toBeVisible();

  // White text on #ffd400 reads at 1.43:1: the preview warns, and the chat will use black text.
  await page.goto('/settings/manage-settings?tab=website');
  await expect(page.getByRole('heading', { name: 'Website', level: 2 })).toBeVisible();
  await page.getByLabel(/^Widget colour/).fill('#ffd400');
  await page.getByLabel(/^Widget text colour/).fill('#ffffff');
  await expect(page.getByText(/^Low contrast/)).toHaveText(/uses black text instead\.$/);
  const saved = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/v1/settings/website' &&
      response.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await saved).ok()).toBe(true);

  const customer = await context.browser()?.newContext();
  if (!customer) throw new Error('no browser');
  const widget = await customer.newPage();
  await widget.goto(SHOP);
  const header = widget.getByRole('banner');
  await expect(header).toHaveCSS('background-color', 'rgb(255, 212, 0)');
  await expect(header).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(widget.getByRole('button', { name: 'Start chat' })).toHaveCSS(
    'background-color',
    'rgb(255, 212, 0)',
  );
  await widget.getByLabel('Your name').fill('Asha');
  await widget.getByLabel('Your e-mail').fill('asha@example.com');
  await widget.getByRole('button', { name: 'Start chat' }).click();
  await expect(widget.getByRole('log', { name: 'Messages' }).getByText(greeting)).toBeVisible();
  // The header's texts read at AA on the seller's colour (the bubbles: ChatWidgetPage.test.tsx).
  const onTheLook = await new AxeBuilder({ page: widget }).withTags(['wcag2aa']).analyze();
  expect(onTheLook.violations).toEqual([]);
  await customer.close();
});
