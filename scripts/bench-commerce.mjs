// Orders at scale (issue 31 "Speed"): 200k orders seeded (`npm run seed -- --orders 200000`), then
// through HTTP one request at a time: the list's first page and deep pages, a status tab, one seller's
// tab counts, a payment-state filter, search (a common name, a rare address, an order number) and an
// order's page. Target p95 ≤ 50 ms for every scenario. On PGlite, and on PostgreSQL in a database of its
// own when BENCH_DATABASE_URL or TEST_DATABASE_URL is set. The invoices' figures join this section when
// the invoices module ships.
import { startServer } from './bench-children.mjs';
import { measureScenarios, seedBulk, withDataDir } from './bench-lists.mjs';
import { signIn, withPostgresDatabase } from './bench-sellers.mjs';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
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

async function benchOne(root, label, env, port) {
  console.info(`\n▶ orders on ${label}: seeding ${ORDERS.toLocaleString('en')} orders…`);
  const seedCommandMs = await seedBulk(root, env, 'orders', ORDERS, 600_000);
  const { stop } = await startServer(root, env, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const seller = await signIn(base, 'seller@demo.local');
    const admin = await signIn(base, 'admin@demo.local');
    const options = { warmup: WARMUP, requests: REQUESTS, targetMs: TARGET_P95_MS };
    const orders = await measureScenarios(base, await orderScenarios(base, admin, seller), options);
    return { seedCommandMs, orders };
  } finally {
    await stop();
  }
}

/** The `commerce` section of bench/results.json. */
export async function benchCommerce(root, port) {
  const commerce = { orders: ORDERS, pageSize: PAGE_SIZE, requestsPerScenario: REQUESTS };
  const pglite = await withDataDir(root, 'bench-commerce', (dataDir) =>
    benchOne(root, 'PGlite', { DATA_DIR: dataDir }, port),
  );
  commerce.seedCommandMs = pglite.seedCommandMs;
  commerce.pglite = { orders: pglite.orders };
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
  commerce.postgres = { orders: postgres.orders };
  return commerce;
}
