// Settings → Content as a seller (issue 29 §7): they write the chat bot's welcome in the rich-text
// editor and save; a customer who opens the shop's public chat page and starts a chat is greeted with it.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { SectionState } from '../../contracts/settings';
import { apiSession, signIn } from './support';

// The demo seller's shop (seller@demo.local).
const SHOP = '/chat/SEL-0001';

test("a seller's new bot welcome greets the next chat on their public widget", async ({
  page,
  context,
  request,
}) => {
  // Start from the inherited welcome, whatever an earlier run saved.
  const { token } = await apiSession(request, 'seller@demo.local');
  const headers = { authorization: `Bearer ${token}` };
  const state = (await (await request.get('/api/v1/settings/content', { headers })).json()) as SectionState;
  const reset = await request.put('/api/v1/settings/content', {
    headers,
    data: { version: state.version, set: {}, reset: ['botWelcome'] },
  });
  expect(reset.ok(), await reset.text()).toBe(true);

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

  const customer = await context.browser()?.newContext();
  if (!customer) throw new Error('no browser');
  const widget = await customer.newPage();
  await widget.goto(SHOP);
  await widget.getByLabel('Your name').fill('Asha');
  await widget.getByLabel('Your e-mail').fill('asha@example.com');
  await widget.getByRole('button', { name: 'Start chat' }).click();
  await expect(widget.getByRole('log', { name: 'Messages' }).getByText(greeting)).toBeVisible();
  await customer.close();
});
