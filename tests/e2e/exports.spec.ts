import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test, type WebSocketRoute } from '@playwright/test';
import { parseCsv } from '../csv';
import { apiSession, signIn } from './support';

const CSV_HEADER = 'Code,Name,E-mail,Phone,Status,City,Free,Blocked,Created at';

const bell = (page: Page) => page.getByRole('button', { name: 'Notifications' });
const drawer = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
const items = (page: Page) => drawer(page).getByTestId('notification-item');

async function unreadCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-count');
  return (await badge.count()) === 0 ? 0 : Number(await badge.textContent());
}

/** Live updates are on: the broker client is connected and subscribed. */
async function expectLive(page: Page, timeout = 20_000) {
  await expect(bell(page)).toHaveAttribute('data-live', 'connected', { timeout });
}

async function waitForTask(request: APIRequestContext, token: string, taskId: string) {
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/tasks/${taskId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return (await response.json()).status;
      },
      { timeout: 30_000 },
    )
    .toBe('Completed');
}

test('an admin exports the active sellers to CSV: a toast, the bell, and a download that matches the list', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.local');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manage Sellers' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Sellers', level: 1 })).toBeVisible();
  await expectLive(page);
  await page.waitForLoadState('networkidle');
  const activeCount = Number(await page.getByTestId('count-active').textContent());
  expect(activeCount).toBeGreaterThan(0);
  const unreadBefore = await unreadCount(page);

  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  await expect(
    page.getByText('Sellers export started. You will be notified when it is ready.'),
  ).toBeVisible();
  await expect(page.getByText('Sellers export Completed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('notification-count')).toHaveText(String(unreadBefore + 1));
  await expect(page.getByTestId('notify-dot')).toBeVisible();

  await bell(page).click();
  await expect(drawer(page)).toBeVisible();
  await expect(page.getByTestId('notify-dot')).toHaveCount(0);
  const notification = items(page).filter({ hasText: 'Sellers export is ready' }).first();
  await expect(notification).toContainText(`${activeCount.toLocaleString('en-US')} sellers · CSV`);
  await expect(notification).toHaveAttribute('data-read', 'false');

  const downloading = page.waitForEvent('download');
  await notification.getByText('Download file').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^sellers-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...rows] = parseCsv(text);
  expect(header?.join(',')).toBe(CSV_HEADER);
  expect(rows).toHaveLength(activeCount);
  for (const row of rows) expect(row[4]).toBe('Active');

  // Opening it marked it read.
  await expect(notification).toHaveAttribute('data-read', 'true');
  await expect.poll(() => unreadCount(page)).toBe(unreadBefore);
});

test('a notification published while the browser is offline shows once after it reconnects', async ({
  page,
  request,
}) => {
  // Playwright's offline mode does not cut open WebSockets, so the broker's socket is cut here too:
  // closed when going offline, refused while offline, passed through to the server otherwise.
  let offline = false;
  const open = new Set<{ page: WebSocketRoute; server: WebSocketRoute }>();
  await page.context().routeWebSocket(/\/mqtt$/, (socket) => {
    if (offline) {
      void socket.close();
      return;
    }
    const pair = { page: socket, server: socket.connectToServer() };
    open.add(pair);
    socket.onClose(() => open.delete(pair));
  });
  const goOffline = async () => {
    offline = true;
    await page.context().setOffline(true);
    for (const pair of [...open]) {
      await pair.server.close();
      await pair.page.close();
    }
  };
  const goOnline = async () => {
    offline = false;
    await page.context().setOffline(false);
  };

  await signIn(page, 'admin@demo.local');
  await expectLive(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  // The bell's list has loaded (its refetch on connecting included).
  await page.waitForLoadState('networkidle');
  const unreadBefore = await unreadCount(page);

  await goOffline();
  await expect(bell(page)).not.toHaveAttribute('data-live', 'connected');

  // Someone (here: the same admin, through the API) exports the inactive sellers to Excel meanwhile.
  const { token } = await apiSession(request, 'admin@demo.local');
  const started = await request.post('/api/v1/exports/sellers', {
    headers: { authorization: `Bearer ${token}` },
    data: { isActive: 'false', isEmailVerified: 'true', isKycDone: 'true', format: 'xlsx' },
  });
  expect(started.status()).toBe(202);
  const { taskStatus } = await started.json();
  expect(taskStatus.taskName).toBe('Sellers export');
  await waitForTask(request, token, taskStatus.taskId);
  // Published while this browser could not hear it (it is offline): nothing shows yet.
  expect(await unreadCount(page)).toBe(unreadBefore);

  await goOnline();
  await expectLive(page, 30_000);
  await expect.poll(() => unreadCount(page), { timeout: 15_000 }).toBe(unreadBefore + 1);

  await bell(page).click();
  const excel = items(page).filter({ hasText: '· XLSX' });
  await expect(excel).toHaveCount(1);
  await expect(excel).toContainText('Sellers export is ready');
  // And it stays one: a late redelivery by the broker adds nothing. The broker delivers one topic's
  // messages in order, so once a later notification has arrived, any redelivery of this one would have.
  const csv = items(page).filter({ hasText: '· CSV' });
  const csvBefore = await csv.count();
  const later = await request.post('/api/v1/exports/sellers', {
    headers: { authorization: `Bearer ${token}` },
    data: { isActive: 'true', format: 'csv' },
  });
  expect(later.status()).toBe(202);
  await expect(csv).toHaveCount(csvBefore + 1, { timeout: 30_000 });
  await expect(excel).toHaveCount(1);
});
