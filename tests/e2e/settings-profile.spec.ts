// Settings → Profile (issue 29 §1): a new picture uploads with a visible progress bar, and the header's
// avatar shows the stored square at once, without a reload. The page passes axe (WCAG 2.2 AA).
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './support';

// An 8×4 PNG: the server crops it to a 256×256 square.
const PICTURE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAECAIAAAA8r+mnAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4w2CMFTFQTwIATZ4f4RiJKskAAAAASUVORK5CYII=',
  'base64',
);

test('a new profile picture shows its upload progress, then appears in the header', async ({ page }) => {
  await signIn(page, 'staff@demo.local');
  await expect(page).not.toHaveURL(/\/signin/);
  await page.goto('/settings/manage-settings?tab=profile');
  await expect(page.getByRole('heading', { name: 'Profile', level: 2 })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue(/\S/);

  const headerAvatar = page.getByRole('button', { name: 'Account menu' }).locator('img');
  const before = (await headerAvatar.count()) > 0 ? await headerAvatar.getAttribute('src') : null;

  await page.getByTestId('profile-avatar-input').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: PICTURE,
  });
  // The progress bar stays, complete, once the picture is saved.
  const progress = page.getByRole('progressbar', { name: 'Profile picture upload progress' });
  await expect(progress).toBeVisible();
  await expect(page.getByText('Picture saved')).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuenow', '100');

  const stored = page.getByTestId('profile-avatar');
  await expect(stored).toHaveAttribute('src', /^\/files\/logos\/[0-9a-f-]+\.webp$/);
  const avatar = await stored.getAttribute('src');
  expect(avatar).not.toBe(before);
  await expect(headerAvatar).toHaveAttribute('src', avatar as string);

  const { violations } = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});
