// Orders and invoices at scale (issue 31 "Speed"): 200k orders and 200k invoices seeded
// (`npm run seed -- --orders 200000 --invoices 200000`), then through HTTP one request at a time: each
// list's first page and deep pages, a status tab, one seller's tab counts, filters, search (a common
// name, a rare address, a number) and one record's page, target p95 ≤ 50 ms; an invoice's PDF with its
// embedded XML rendered on first read, target p95 ≤ 150 ms; 100 invoices issued back to back (each
// with its PDF stored), target ≤ 10 s. On PGlite, and on PostgreSQL in a database of its own when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set.
import { startServer } from './bench-children.mjs';
import { measureScenarios, seedBulk, withDataDir } from './bench-lists.mjs';
import { signIn, withPostgresDatabase } from './bench-sellers.mjs';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 200_000);
const PDF_RENDERS = 60;
const PDF_TARGET_P95_MS = 150;
const ISSUES = 100;
const ISSUES_TARGET_MS = 10_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const PAGE_SIZE = 20;
const TARGET_P95_MS = 50;

const get = async (base, token, url) =>
  (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
/** Pages spread over the first 2,000 rows, the same for every run. */
const depth = (i) => Math.floor((((i * 7919) % 1000) / 1000) * 2000);

async function orderScenarios(base, admin, seller) {
  const api = '/api/v1/orders';
  const shipped = await get(base, admin, `${api}?status=shipped&limit=50`);
  const ids = shipped.result.map((row) => row.id);
  const numbers = shipped.result.map((row) => row.number);
  const other = (await get(base, admin, `${api}?status=cancelled&limit=50`)).result.find(
    (row) => row.sellerId !== shipped.result[0]?.sellerId,
  );
  const sellerId = other?.sellerId ?? shipped.result[0].sellerId;
  return {
    'admin.orders (skip 0)': [admin, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'admin.orders (deep pages)': [admin, (i) => `${api}?skip=${depth(i)}&limit=${PAGE_SIZE}`],
    'admin.tab paid': [admin, () => `${api}?status=paid&limit=${PAGE_SIZE}`],
    'admin.seller filter (tab counts)': [admin, () => `${api}?sellerId=${sellerId}&limit=${PAGE_SIZE}`],
    'admin.payment state partly refunded': [
      admin,
      () => `${api}?paymentState=partly_refunded&limit=${PAGE_SIZE}`,
    ],
    'seller.orders (skip 0)': [seller, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'seller.tab delivered': [seller, () => `${api}?status=delivered&limit=${PAGE_SIZE}`],
    'admin.search common name': [admin, () => `${api}?query=kavya&limit=${PAGE_SIZE}`],
    'admin.search rare e-mail': [admin, (i) => `${api}?query=buyer${40_000 + i}@&limit=${PAGE_SIZE}`],
    'admin.search order number': [
      admin,
      (i) => `${api}?query=ORD-${numbers[i % numbers.length]}&limit=${PAGE_SIZE}`,
    ],
    'admin.order page': [admin, (i) => `${api}/${ids[i % ids.length]}`],
  };
}

async function invoiceScenarios(base, admin, seller) {
  const api = '/api/v1/invoices';
  const paid = (await get(base, admin, `${api}?status=paid&limit=50`)).result;
  const ids = paid.map((row) => row.id);
  const sellerId = paid.find((row) => row.sellerId !== paid[0]?.sellerId)?.sellerId ?? paid[0].sellerId;
  return {
    'admin.invoices (skip 0)': [admin, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'admin.invoices (deep pages)': [admin, (i) => `${api}?skip=${depth(i)}&limit=${PAGE_SIZE}`],
    'admin.tab overdue': [admin, () => `${api}?status=overdue&limit=${PAGE_SIZE}`],
    'admin.seller filter (tab counts)': [admin, () => `${api}?sellerId=${sellerId}&limit=${PAGE_SIZE}`],
    'seller.invoices (skip 0)': [seller, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'admin.search common name': [admin, () => `${api}?query=kavya&limit=${PAGE_SIZE}`],
    'admin.search rare e-mail': [admin, (i) => `${api}?query=buyer${40_000 + i}@&limit=${PAGE_SIZE}`],
    'admin.search invoice number': [
      admin,
      (i) => `${api}?query=${encodeURIComponent(paid[i % paid.length].number)}&limit=${PAGE_SIZE}`,
    ],
    'admin.invoice page': [admin, (i) => `${api}/${ids[i % ids.length]}`],
  };
}

const post = async (base, token, url, body) => {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
};

/** First reads of issued invoices' PDFs: each renders the PDF/A-3 with its XML and stores it. */
async function pdfRenders(base, admin) {
  const rows = (await get(base, admin, `/api/v1/invoices?status=unpaid&limit=${PDF_RENDERS + 5}`)).result;
  const times = [];
  for (const [i, row] of rows.entries()) {
    const started = performance.now();
    const response = await fetch(`${base}/api/v1/invoices/${row.id}/pdf`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const bytes = await response.arrayBuffer();
    if (!response.ok) throw new Error(`pdf: ${response.status} ${Buffer.from(bytes).toString()}`);
    if (i >= 5) times.push(performance.now() - started); // the first five warm the renderer up
  }
  times.sort((a, b) => a - b);
  const at = (p) =>
    Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] * 10) / 10;
  const p95 = at(95);
  console.info(`  invoice PDF (first read)           p50 ${at(50)} ms  p95 ${p95} ms`);
  return {
    renders: times.length,
    p50: at(50),
    p95,
    p95TargetMs: PDF_TARGET_P95_MS,
    meetsTarget: p95 <= PDF_TARGET_P95_MS,
  };
}

/** 100 drafts made by hand, then issued one after another (number, frozen document, PDF stored). */
async function issuesBackToBack(base, admin) {
  const sellerId = (await get(base, admin, '/api/v1/invoices?limit=1')).result[0].sellerId;
  const drafts = [];
  for (let i = 0; i < ISSUES; i++) {
    const draft = await post(base, admin, '/api/v1/invoices', {
      source: 'manual',
      sellerId,
      buyer: { name: `Bench buyer ${i}`, country: 'IN', email: `bench${i}@example.com` },
      currency: 'INR',
      lines: [
        { name: 'Handloom cotton saree', sku: '5208', quantity: 2, unitPriceMinor: 250_000, taxRate: 5 },
        { name: 'Brass lamp', sku: '7418', quantity: 1, unitPriceMinor: 120_000, taxRate: 18 },
      ],
    });
    drafts.push(draft.id);
  }
  const started = performance.now();
  for (const id of drafts) await post(base, admin, `/api/v1/invoices/${id}/issue`, {});
  const ms = Math.round(performance.now() - started);
  console.info(`  ${ISSUES} invoices issued back to back  ${ms} ms`);
  return { issues: ISSUES, ms, targetMs: ISSUES_TARGET_MS, meetsTarget: ms <= ISSUES_TARGET_MS };
}

async function benchOne(root, label, env, port) {
  console.info(`\n▶ orders on ${label}: seeding ${ORDERS.toLocaleString('en')} orders…`);
  const seedCommandMs = await seedBulk(root, env, 'orders', ORDERS, 600_000);
  console.info(`▶ invoices on ${label}: seeding ${INVOICES.toLocaleString('en')} invoices…`);
  const invoiceSeedCommandMs = await seedBulk(root, env, 'invoices', INVOICES, 600_000);
  const { stop } = await startServer(root, env, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const seller = await signIn(base, 'seller@demo.local');
    const admin = await signIn(base, 'admin@demo.local');
    const options = { warmup: WARMUP, requests: REQUESTS, targetMs: TARGET_P95_MS };
    const orders = await measureScenarios(base, await orderScenarios(base, admin, seller), options);
    const invoices = await measureScenarios(base, await invoiceScenarios(base, admin, seller), options);
    invoices.pdf = await pdfRenders(base, admin);
    invoices.issueBackToBack = await issuesBackToBack(base, admin);
    return { seedCommandMs, invoiceSeedCommandMs, orders, invoices };
  } finally {
    await stop();
  }
}

/** The `commerce` section of bench/results.json. */
export async function benchCommerce(root, port) {
  const commerce = { orders: ORDERS, invoices: INVOICES, pageSize: PAGE_SIZE, requestsPerScenario: REQUESTS };
  const pglite = await withDataDir(root, 'bench-commerce', (dataDir) =>
    benchOne(root, 'PGlite', { DATA_DIR: dataDir }, port),
  );
  commerce.seedCommandMs = pglite.seedCommandMs;
  commerce.invoiceSeedCommandMs = pglite.invoiceSeedCommandMs;
  commerce.pglite = { orders: pglite.orders, invoices: pglite.invoices };
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    commerce.postgres = { skipped: 'set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL too' };
    return commerce;
  }
  const postgres = await withDataDir(root, 'bench-commerce-pg', (dataDir) =>
    withPostgresDatabase(adminUrl, (url) =>
      benchOne(root, 'PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: url }, port),
    ),
  );
  commerce.postgresSeedCommandMs = postgres.seedCommandMs;
  commerce.postgresInvoiceSeedCommandMs = postgres.invoiceSeedCommandMs;
  commerce.postgres = { orders: postgres.orders, invoices: postgres.invoices };
  return commerce;
}
