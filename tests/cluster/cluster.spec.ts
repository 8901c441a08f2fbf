// Issue 28, part 7: Chromium through HAProxy in front of two instances (global-setup.ts). HTTP goes
// round-robin, so over a few requests both instances answer; a browser's realtime connections
// (/engine.io, /mqtt) stick to the instance its MP_NODE cookie names — a context given that cookie
// before it opens a page is pinned to that instance (what a real browser gets from its first
// connection). Two people pinned to different instances exercise the paths between instances: the
// broker's messages and the socket.io rooms over Redis, files in shared storage, jobs in PostgreSQL.
import { readFile } from 'node:fs/promises';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test';
import pg from 'pg';
import sharp from 'sharp';
import WebSocket from 'ws';
import { parseCsv } from '../csv';
import { apiSession, fillSignIn, liveUpdatesOn } from '../e2e/support';

type Node = 'a' | 'b';
const NODES: Node[] = ['a', 'b'];
const run = Date.now().toString(36);
const balancer = `http://127.0.0.1:3370`;
const direct = (node: Node) => process.env[`CLUSTER_${node.toUpperCase()}`] as string;

test.skip(Boolean(process.env.CLUSTER_SKIP), process.env.CLUSTER_SKIP ?? '');

const bell = (page: Page) => page.getByRole('button', { name: 'Notifications' });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

async function unreadCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-count');
  return (await badge.count()) === 0 ? 0 : Number(await badge.textContent());
}

/** A browser context whose realtime connections go to `node`; its /engine.io answers are checked. */
async function pinnedContext(browser: Browser, node: Node) {
  const context = await browser.newContext({ baseURL: balancer });
  await context.addCookies([{ name: 'MP_NODE', value: node, url: balancer }]);
  const servedBy: string[] = [];
  context.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/engine.io'))
      servedBy.push(response.headers()['x-served-by'] ?? '?');
  });
  return { context, servedBy };
}

/**
 * Sends the context's API requests to `node` directly instead of round-robin: what it writes is then
 * published by that instance, and reaches a browser on the other one only across instances. Event
 * streams still go through the balancer (to either instance).
 */
async function pinApi(context: BrowserContext, node: Node) {
  await context.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      // A stream (the chat widget's server-sent events) cannot be relayed whole: it goes its own way.
      if (route.request().headers().accept?.includes('text/event-stream')) return route.continue();
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${direct(node)}${url.pathname}${url.search}` });
      await route.fulfill({ response });
    },
  );
}

async function pinnedSignIn(browser: Browser, node: Node, email: string) {
  const { context, servedBy } = await pinnedContext(browser, node);
  const page = await context.newPage();
  await page.goto('/signin');
  await fillSignIn(page, email);
  await expect(page).not.toHaveURL(/\/signin/);
  return { context, page, servedBy };
}

/** Which instance answered a WebSocket upgrade at `path` with the cookie MP_NODE=`node`. */
function upgradeServedBy(path: string, node: Node): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:3370${path}`, ['mqtt'], {
      headers: { cookie: `MP_NODE=${node}` },
    });
    socket.on('upgrade', (response) => {
      resolve(String(response.headers['x-served-by']));
      socket.terminate();
    });
    socket.on('unexpected-response', (_request, response) =>
      resolve(String(response.headers['x-served-by'])),
    );
    socket.on('error', reject);
  });
}

async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.CLUSTER_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

test('the balancer spreads HTTP over both instances and pins realtime connections by cookie', async () => {
  const served = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const answer = await fetch(`${balancer}/api/health`);
    expect(answer.status).toBe(200);
    served.add(answer.headers.get('x-served-by') ?? '?');
  }
  expect([...served].sort()).toEqual(NODES);
  for (const node of NODES) {
    for (let i = 0; i < 4; i++) {
      const polling = await fetch(`${balancer}/engine.io/?EIO=4&transport=polling`, {
        headers: { cookie: `MP_NODE=${node}` },
      });
      expect(polling.headers.get('x-served-by')).toBe(node);
      expect(await upgradeServedBy('/mqtt', node)).toBe(node);
    }
  }
  // Without the cookie, the first answer sets it: the next polls go to the same instance.
  const first = await fetch(`${balancer}/engine.io/?EIO=4&transport=polling`);
  const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
  expect(cookie).toMatch(/^MP_NODE=[ab]$/);
  const next = await fetch(`${balancer}/engine.io/?EIO=4&transport=polling`, { headers: { cookie } });
  expect(next.headers.get('x-served-by')).toBe(first.headers.get('x-served-by'));
});

test('a product image and its thumbnail load on ten reloads, served by both instances', async ({
  page,
  request,
}) => {
  const { token } = await apiSession(request, 'admin@demo.local');
  const categoryName = `Cluster ${run}`;
  const created = await request.post('/api/v1/categories/createCategory', {
    data: { name: categoryName },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const picture = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#cc6633' } })
    .png()
    .toBuffer();
  const sku = `CLUSTER-${run}`;

  const media: { path: string; status: number; by: string; type: string }[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (/\/api\/v1\/stagingProducts\/media\//.test(url.pathname))
      media.push({
        path: `${url.pathname}?size=${url.searchParams.get('size') ?? 'original'}`,
        status: response.status(),
        by: response.headers()['x-served-by'] ?? '?',
        type: response.headers()['content-type'] ?? '',
      });
  });

  await page.goto('/signin');
  await fillSignIn(page, 'admin@demo.local');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Staging Products' })
    .click();
  await page.getByRole('button', { name: 'Add product' }).click();
  const form = page.getByRole('dialog', { name: 'Add product' });
  await form.getByLabel('Find a seller').fill('Aurora');
  await expect(form.locator('#product-seller option', { hasText: 'Aurora Textiles' })).toHaveCount(1);
  await form.locator('#product-seller').selectOption({ label: 'Aurora Textiles' });
  await form.getByLabel('Title').fill(`Cluster image ${run}`);
  await form.getByLabel('SKU').fill(sku);
  await form.getByLabel('Category').selectOption({ label: categoryName });
  await form.locator('#product-price').fill('25');
  await form.getByLabel('Inventory').fill('3');
  await form
    .getByTestId('upload-images')
    .setInputFiles({ name: 'cluster.png', mimeType: 'image/png', buffer: picture });
  await expect(form.getByRole('img', { name: 'cluster.png' })).toBeVisible();
  await form.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Product added as a draft.')).toBeVisible();

  await page.getByLabel('Search products').fill(sku);
  await page.getByRole('link', { name: `Cluster image ${run}` }).click();
  const thumbnail = page.getByTestId('gallery').getByRole('img', { name: 'cluster.png' });
  for (let reload = 0; reload < 10; reload++) {
    if (reload > 0) await page.reload();
    await expect(thumbnail).toBeVisible();
    // Loaded, not a broken-image icon: the thumb derivative (160 px wide at most).
    await expect
      .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBeGreaterThan(0);
    // The picture itself: the gallery links to its web size; fetched as the browser opens it.
    const href = await page.getByTestId('gallery').getByRole('link').first().getAttribute('href');
    const opened = await page.evaluate(async (url) => {
      const answer = await fetch(url as string);
      return {
        status: answer.status,
        by: answer.headers.get('x-served-by') ?? '?',
        type: answer.headers.get('content-type') ?? '',
      };
    }, href);
    media.push({ path: 'web', ...opened });
  }
  const failed = media.filter((answer) => answer.status !== 200);
  expect(failed, JSON.stringify(failed.slice(0, 6))).toEqual([]);
  for (const answer of media) expect(answer.type).toMatch(/^image\//);
  expect([...new Set(media.map((answer) => answer.by))].sort()).toEqual(NODES);
});

test('sellers exported from the UI: toast, bell, and the file downloads from either instance', async ({
  page,
  request,
}) => {
  await page.goto('/signin');
  await fillSignIn(page, 'admin@demo.local');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manage Sellers' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Sellers', level: 1 })).toBeVisible();
  await liveUpdatesOn(page);
  await page.waitForLoadState('networkidle');
  const activeCount = Number(await page.getByTestId('count-active').textContent());
  const unreadBefore = await unreadCount(page);

  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  await expect(page.getByText('Sellers export Completed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('notification-count')).toHaveText(String(unreadBefore + 1));
  await bell(page).click();
  const notification = page
    .getByRole('dialog', { name: 'Notifications' })
    .getByTestId('notification-item')
    .filter({ hasText: 'Sellers export is ready' })
    .first();
  const downloading = page.waitForEvent('download', { timeout: 20_000 });
  await notification.getByText('Download file').click();
  const download = await downloading;
  const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  expect(parseCsv(text).slice(1)).toHaveLength(activeCount);

  // The same file from each instance directly: it is in shared storage, not on the one that wrote it.
  const { token } = await apiSession(request, 'admin@demo.local');
  const [task] = await withDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM jobs WHERE kind LIKE 'export%' AND status = 'Completed' ORDER BY finished_at DESC LIMIT 1`,
    );
    return rows;
  });
  for (const node of NODES) {
    const answer = await request.get(`${direct(node)}/api/v1/exports/${task?.id}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status(), `instance ${node}: ${await answer.text()}`).toBe(200);
    expect((await answer.text()).replace(/^\uFEFF/, '')).toBe(text);
  }
});

/** Starts a sellers export on `node` directly (its worker is woken at once; the other polls each second). */
async function exportOn(request: APIRequestContext, node: Node, token: string) {
  const answer = await request.post(`${direct(node)}/api/v1/exports/sellers`, {
    headers: { authorization: `Bearer ${token}` },
    data: { format: 'csv', isActive: 'true' },
  });
  expect(answer.status(), await answer.text()).toBe(202);
  return ((await answer.json()) as { taskStatus: { taskId: string } }).taskStatus.taskId;
}

/** Which worker holds the job while it runs (host:pid:…), sampled until it ends: for the message. */
async function workerOf(taskId: string): Promise<string> {
  return withDatabase(async (client) => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const { rows } = await client.query<{ locked_by: string | null; status: string }>(
        'SELECT locked_by, status FROM jobs WHERE id = $1',
        [taskId],
      );
      if (rows[0]?.locked_by) seen.add(rows[0].locked_by);
      if (rows[0] && !['Queued', 'Running'].includes(rows[0].status)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // A worker id is host:pid:…; the pid says which instance it is.
    const instanceOf = (worker: string) =>
      NODES.find((node) => process.env[`CLUSTER_${node.toUpperCase()}_PID`] === worker.split(':')[1]) ??
      worker;
    return [...seen].map(instanceOf).join(', ') || 'not seen';
  });
}

for (const node of NODES) {
  test(`a job run by the other instance notifies a browser connected to ${node}: the bell`, async ({
    browser,
    request,
  }) => {
    const other: Node = node === 'a' ? 'b' : 'a';
    const admin = await pinnedSignIn(browser, node, 'admin@demo.local');
    await liveUpdatesOn(admin.page);
    await admin.page.waitForLoadState('networkidle');
    const unreadBefore = await unreadCount(admin.page);
    const { token } = await apiSession(request, 'admin@demo.local');
    // A task started elsewhere (not in this tab) rings the bell, live; its toast is for the tab that
    // started it (realtime-handlers.ts), which the UI export test checks.
    const taskId = await exportOn(request, other, token);
    const ranOn = await workerOf(taskId);
    await expect(
      admin.page.getByTestId('notification-count'),
      `the bell (the job ran on instance ${ranOn})`,
    ).toHaveText(String(unreadBefore + 1), { timeout: 30_000 });
    expect(admin.servedBy.every((by) => by === node)).toBe(true);
    await admin.context.close();
  });
}

test('a help-chat customer on instance a and the seller on instance b talk live', async ({ browser }) => {
  // Each side's requests and live connection on its own instance: every message crosses between them.
  const seller = await pinnedSignIn(browser, 'b', 'seller@demo.local');
  await pinApi(seller.context, 'b');
  await liveUpdatesOn(seller.page);

  const customer = await pinnedContext(browser, 'a');
  await pinApi(customer.context, 'a');
  const shopper = await customer.context.newPage();
  const name = `Ines ${run}`;
  await shopper.goto('/chat/SEL-0001');
  await shopper.getByLabel('Your name').fill(name);
  await shopper.getByLabel('Your e-mail').fill(`ines.${run}@shoppers.test`);
  await shopper.getByRole('button', { name: 'Start chat' }).click();
  await expect(messages(shopper)).toContainText(`Hi ${name}! Welcome to`);
  await shopper.getByPlaceholder('Write a message…').fill('Is the blue one in stock?');
  await shopper.getByRole('button', { name: 'Send' }).click();
  const notUnderstood = shopper.getByTestId('chat-message').filter({ hasText: 'Sorry, I did not get that.' });
  await expect(notUnderstood).toHaveCount(1);
  await notUnderstood.getByRole('button', { name: 'Talk to a person' }).click();

  const toast = seller.page.getByRole('status').filter({ hasText: `Connect Request Received From ${name}.` });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'See Details' }).click();
  const conversation = seller.page
    .getByRole('log', { name: 'Messages' })
    .or(seller.page.locator('[aria-label="Messages"]'));
  await expect(conversation.first()).toContainText('Is the blue one in stock?');
  await seller.page.getByLabel('Your answer').fill(`Yes ${name}, two left.`);
  await seller.page.getByLabel('Your answer').press('Enter');
  await expect(messages(shopper)).toContainText(`Yes ${name}, two left.`);
  expect(seller.servedBy.every((by) => by === 'b')).toBe(true);
  expect(customer.servedBy.every((by) => by === 'a')).toBe(true);
  await customer.context.close();
  await seller.context.close();
});

test('a video call between staff on instance a and the seller on instance b connects', async ({
  browser,
}) => {
  const staff = await pinnedSignIn(browser, 'a', 'staff@demo.local');
  const seller = await pinnedSignIn(browser, 'b', 'seller@demo.local');
  for (const side of [staff.page, seller.page])
    await expect(side.getByRole('button', { name: 'Video call someone' })).toBeVisible();

  await staff.page.getByRole('button', { name: 'Video call someone' }).click();
  await staff.page.getByLabel('Video call', { exact: true }).fill('Sunil');
  await staff.page.getByRole('button', { name: 'Video call Sunil Seller' }).click();
  const ringing = seller.page.getByRole('alertdialog', { name: 'Incoming video call' });
  await expect(ringing).toContainText('Sam Staff is video calling you');
  await ringing.getByRole('button', { name: 'Accept' }).click();
  await expect(staff.page.getByTestId('video-call-status')).toHaveText('Sunil Seller');
  await expect(seller.page.getByTestId('video-call-status')).toHaveText('Sam Staff');
  for (const side of [staff.page, seller.page])
    await expect
      .poll(() => side.getByTestId('remote-video').evaluate((video: HTMLVideoElement) => video.videoWidth))
      .toBeGreaterThan(0);
  await staff.page.getByRole('button', { name: 'Hang up' }).click();
  await expect(seller.page.getByText('Video call with Sam Staff ended')).toBeVisible();
  // Each side's signalling stayed on its own instance (socket.io's polling answers say who served them).
  expect(staff.servedBy.every((by) => by === 'a')).toBe(true);
  expect(seller.servedBy.every((by) => by === 'b')).toBe(true);
  await staff.context.close();
  await seller.context.close();
});
