// The customer queries inbox and the offers list at scale (issue 30 "Scale"): 100k queries and 50k
// offers seeded, then through HTTP one request at a time: the inbox's first page, a seller's inbox, a
// status tab, the tab counts' filters, search (a common and a rare word), a query's page and its contact
// timeline; the offers list's first page and deep pages, a status tab, one seller's tab counts, search
// (a common word, a rare phrase, an offer number) and an offer's page with its versions. Target p95 ≤
// 50 ms for every scenario. On PGlite, and on PostgreSQL in a database of its own when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set. The offers' figures go to their own section.
import { startServer } from './bench-children.mjs';
import { measureScenarios, seedBulk, withDataDir } from './bench-lists.mjs';
import { signIn, withPostgresDatabase } from './bench-sellers.mjs';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 100_000);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const PAGE_SIZE = 20;
const TARGET_P95_MS = 50;

const get = async (base, token, url) =>
  (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
/** Pages spread over the first 2,000 rows, the same for every run. */
const depth = (i) => Math.floor((((i * 7919) % 1000) / 1000) * 2000);

async function queryScenarios(base, admin, seller) {
  const api = '/api/v1/helperQuery';
  const page = await get(base, admin, `${api}?limit=50`);
  const ids = page.result.map((row) => row.id);
  // The demo's own queries are linked to marketing contacts (the bulk ones are not): one of them
  // gives the contact timeline scenario.
  const demo = await get(base, admin, `${api}/method/searchQueries?query=buyers.demo.local&limit=1`);
  const first = await get(base, admin, `${api}/${demo.result[0]?.id ?? ids[0]}`);
  const scenarios = {
    'admin.inbox (skip 0)': [admin, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'admin.inbox (deep pages)': [admin, (i) => `${api}?skip=${depth(i)}&limit=${PAGE_SIZE}`],
    'admin.tab open': [admin, () => `${api}?status=open&limit=${PAGE_SIZE}`],
    'admin.overdue follow-ups': [admin, () => `${api}?overdue=true&limit=${PAGE_SIZE}`],
    'admin.sla breached': [admin, () => `${api}?slaBreached=true&limit=${PAGE_SIZE}`],
    'seller.inbox (skip 0)': [seller, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'seller.tab waiting': [seller, () => `${api}?status=waiting&limit=${PAGE_SIZE}`],
    'admin.search common word': [admin, () => `${api}/method/searchQueries?query=saris&limit=${PAGE_SIZE}`],
    'admin.search rare': [
      admin,
      (i) => `${api}/method/searchQueries?query=number%20${4000 + i}%20&limit=${PAGE_SIZE}`,
    ],
    'admin.query page': [admin, (i) => `${api}/${ids[i % ids.length]}`],
    'admin.contact timeline': [
      admin,
      () => `${api}/method/getContactHistory/${first.contactId}?skip=0&limit=${PAGE_SIZE}`,
    ],
  };
  if (!first.contactId) delete scenarios['admin.contact timeline'];
  return scenarios;
}

async function offerScenarios(base, admin, seller) {
  const api = '/api/v1/offers';
  // Sent offers (one to three versions each, accepted ones with the customer's answer) for the page.
  const accepted = await get(base, admin, `${api}?status=accepted&limit=50`);
  const ids = accepted.result.map((row) => row.id);
  // A seller with a share of the bulk offers other than the demo seller: the admin's seller filter.
  const other = (await get(base, admin, `${api}?status=declined&limit=50`)).result.find(
    (row) => row.sellerId !== accepted.result[0]?.sellerId,
  );
  const sellerId = other?.sellerId ?? accepted.result[0].sellerId;
  const numbers = accepted.result.map((row) => row.number);
  return {
    'admin.offers (skip 0)': [admin, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'admin.offers (deep pages)': [admin, (i) => `${api}?skip=${depth(i)}&limit=${PAGE_SIZE}`],
    'admin.tab offered': [admin, () => `${api}?status=offered&limit=${PAGE_SIZE}`],
    'admin.seller filter (tab counts)': [admin, () => `${api}?sellerId=${sellerId}&limit=${PAGE_SIZE}`],
    'admin.seller filter, tab expired': [
      admin,
      () => `${api}?sellerId=${sellerId}&status=expired&limit=${PAGE_SIZE}`,
    ],
    'seller.offers (skip 0)': [seller, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
    'seller.tab accepted': [seller, () => `${api}?status=accepted&limit=${PAGE_SIZE}`],
    'admin.search common word': [admin, () => `${api}?query=sari&limit=${PAGE_SIZE}`],
    'admin.search rare': [admin, (i) => `${api}?query=request%20number%20${4000 + i}%20&limit=${PAGE_SIZE}`],
    'admin.search offer number': [
      admin,
      (i) => `${api}?query=OFR-${numbers[i % numbers.length]}&limit=${PAGE_SIZE}`,
    ],
    'admin.offer page': [admin, (i) => `${api}/${ids[i % ids.length]}`],
  };
}

/** Seeds, starts the server on `env`'s database and measures both lists' scenarios. */
async function benchOne(root, label, env, port) {
  console.info(
    `\n▶ customer queries and offers on ${label}: seeding ${QUERIES.toLocaleString('en')} queries and ${OFFERS.toLocaleString('en')} offers…`,
  );
  const seedCommandMs = await seedBulk(root, env, 'queries', QUERIES);
  const offersSeedCommandMs = await seedBulk(root, env, 'offers', OFFERS);
  const { stop } = await startServer(root, env, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const seller = await signIn(base, 'seller@demo.local');
    const admin = await signIn(base, 'admin@demo.local');
    const options = { warmup: WARMUP, requests: REQUESTS, targetMs: TARGET_P95_MS };
    console.info(`  customer queries (${label})`);
    const queries = await measureScenarios(base, await queryScenarios(base, admin, seller), options);
    console.info(`  offers (${label})`);
    const offers = await measureScenarios(base, await offerScenarios(base, admin, seller), options);
    return { seedCommandMs, offersSeedCommandMs, queries, offers };
  } finally {
    await stop();
  }
}

/** `{ queries, offers }`: the two sections of bench/results.json. */
export async function benchQueries(root, port) {
  const common = { pageSize: PAGE_SIZE, requestsPerScenario: REQUESTS };
  const queries = { queries: QUERIES, ...common };
  const offers = { offers: OFFERS, queries: QUERIES, ...common };
  const pglite = await withDataDir(root, 'bench-queries', (dataDir) =>
    benchOne(root, 'PGlite', { DATA_DIR: dataDir }, port),
  );
  // The PGlite figures keep the keys of the runs before PostgreSQL was measured too.
  queries.seedCommandMs = pglite.seedCommandMs;
  queries.pglite = pglite.queries;
  offers.seedCommandMs = pglite.offersSeedCommandMs;
  offers.pglite = pglite.offers;
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const skipped = { skipped: 'set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL too' };
    return { queries: { ...queries, postgres: skipped }, offers: { ...offers, postgres: skipped } };
  }
  const postgres = await withDataDir(root, 'bench-queries-pg', (dataDir) =>
    withPostgresDatabase(adminUrl, (url) =>
      benchOne(root, 'PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: url }, port),
    ),
  );
  queries.postgresSeedCommandMs = postgres.seedCommandMs;
  queries.postgres = postgres.queries;
  offers.postgresSeedCommandMs = postgres.offersSeedCommandMs;
  offers.postgres = postgres.offers;
  return { queries, offers };
}
