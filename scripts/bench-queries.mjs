// The customer queries inbox at scale (issue 30 "Scale"): 100k queries seeded on PGlite, then the
// inbox's first page, a seller's inbox, a status tab, the tab counts' filters, search (a common and a
// rare word), a query's page and its contact timeline, through HTTP one request at a time. Target
// p95 ≤ 50 ms for every scenario. The offers list joins this bench once its seed exists.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startServer } from './bench-children.mjs';
import { measureScenarios, seedBulk } from './bench-lists.mjs';
import { signIn } from './bench-sellers.mjs';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const PAGE_SIZE = 20;
const TARGET_P95_MS = 50;

export async function benchQueries(root, port) {
  const dataDir = path.join(root, '.tmp', `bench-queries-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const env = { DATA_DIR: dataDir };
  try {
    console.info(`\n▶ customer queries: seeding ${QUERIES.toLocaleString('en')} queries…`);
    const seedCommandMs = await seedBulk(root, env, 'queries', QUERIES);
    const { stop } = await startServer(root, env, port);
    try {
      const base = `http://127.0.0.1:${port}`;
      const seller = await signIn(base, 'seller@demo.local');
      const admin = await signIn(base, 'admin@demo.local');
      const api = '/api/v1/helperQuery';
      const headers = { authorization: `Bearer ${admin}` };
      const page = await (await fetch(`${base}${api}?limit=50`, { headers })).json();
      const ids = page.result.map((row) => row.id);
      // The demo's own queries are linked to marketing contacts (the bulk ones are not): one of them
      // gives the contact timeline scenario.
      const demo = await (
        await fetch(`${base}${api}/method/searchQueries?query=buyers.demo.local&limit=1`, { headers })
      ).json();
      const first = await (await fetch(`${base}${api}/${demo.result[0]?.id ?? ids[0]}`, { headers })).json();
      const depth = (i) => Math.floor((((i * 7919) % 1000) / 1000) * 2000);
      const scenarios = {
        'admin.inbox (skip 0)': [admin, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
        'admin.inbox (deep pages)': [admin, (i) => `${api}?skip=${depth(i)}&limit=${PAGE_SIZE}`],
        'admin.tab open': [admin, () => `${api}?status=open&limit=${PAGE_SIZE}`],
        'admin.overdue follow-ups': [admin, () => `${api}?overdue=true&limit=${PAGE_SIZE}`],
        'admin.sla breached': [admin, () => `${api}?slaBreached=true&limit=${PAGE_SIZE}`],
        'seller.inbox (skip 0)': [seller, () => `${api}?skip=0&limit=${PAGE_SIZE}`],
        'seller.tab waiting': [seller, () => `${api}?status=waiting&limit=${PAGE_SIZE}`],
        'admin.search common word': [
          admin,
          () => `${api}/method/searchQueries?query=saris&limit=${PAGE_SIZE}`,
        ],
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
      const results = await measureScenarios(base, scenarios, {
        warmup: WARMUP,
        requests: REQUESTS,
        targetMs: TARGET_P95_MS,
      });
      return {
        queries: QUERIES,
        pageSize: PAGE_SIZE,
        requestsPerScenario: REQUESTS,
        seedCommandMs,
        pglite: results,
      };
    } finally {
      await stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
