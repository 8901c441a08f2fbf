// Calls (issue 6 "Speed"): dial → the callee's Incoming Call card in Chromium (bench/dial-visible.ts,
// p95 ≤ 300 ms), and the call history at scale: 100k call logs spread over the demo accounts, paged and
// searched through HTTP by the admin (everyone's calls) and by the seller (their own), one request at
// a time: the first page, pages all through, and searches by part of a number, by status, and by
// direction within a date range. Target p95 ≤ 50 ms for every scenario.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { againstTarget, runVisibleBench, startServer } from './bench-children.mjs';
import { measureScenarios, seedBulk } from './bench-lists.mjs';
import { signIn } from './bench-sellers.mjs';

const CALLS = 100_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 30;
const PAGE_SIZE = 20; // contracts/calls.ts CALL_PAGE_SIZE
const TARGET_P95_MS = 50;
const DIAL_SAMPLES = 50;
const DIAL_TO_VISIBLE_P95_MS = 300;
// Digits people type: parts of customers' mobile numbers (a handful of calls each) and a demo
// account's number (thousands of calls: the count stops at 1,000).
const numbers = ['98450', '73311', '600725', '8812', '45678', '919000000003', '7090', '66123'];
const statuses = [
  'Connected',
  'Not Picked',
  'Rejected',
  'Call Ignored',
  'Call Cancelled',
  'Call Disconnected',
];
const DAY_MS = 86_400_000;

/** Dial → the callee's card in Chromium, and the call history at CALLS calls. */
export async function benchCalls(root, port) {
  const lists = await benchCallLists(root, port);
  console.info(`\n▶ dial → the callee's Incoming Call card visible: ${DIAL_SAMPLES} calls…`);
  const visible = await runVisibleBench(root, 'bench/dial-visible.ts', ['--samples', String(DIAL_SAMPLES)], {
    needs: ['src/ui/call/IncomingCallToast.tsx'],
  });
  console.info(`  ${JSON.stringify(visible)}`);
  return {
    ...lists,
    dialToVisible: againstTarget(visible, DIAL_TO_VISIBLE_P95_MS),
  };
}

/** The list and search scenarios at CALLS calls, through HTTP against the real server. */
async function benchCallLists(root, port) {
  const dataDir = path.join(root, '.tmp', `bench-calls-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const env = { DATA_DIR: dataDir };
  try {
    console.info(`\n▶ call history: seeding ${CALLS.toLocaleString('en')} calls…`);
    const seedCommandMs = await seedBulk(root, env, 'calls', CALLS);
    const { stop } = await startServer(root, env, port);
    try {
      const base = `http://127.0.0.1:${port}`;
      const seller = await signIn(base, 'seller@demo.local');
      const admin = await signIn(base, 'admin@demo.local');
      const q = '/api/v1/callHistory/method';
      // Pages anywhere in the first 10,000 calls (past the count's cap of 1,000, pages are still served).
      const depth = (i, total) => Math.floor((((i * 7919) % 1000) / 1000) * (total - PAGE_SIZE));
      const page = `skip=0&limit=${PAGE_SIZE}`;
      const byNumber = (i) => `${q}/searchCallHistory?${page}&number=${numbers[i % numbers.length]}`;
      const byStatus = (i) =>
        `${q}/searchCallHistory?${page}&status=${encodeURIComponent(statuses[i % statuses.length])}`;
      // A month-long window somewhere in the last half year, one direction.
      const byDirectionAndRange = (i) => {
        const to = Date.now() - (i % 150) * DAY_MS;
        const range = `from=${encodeURIComponent(new Date(to - 30 * DAY_MS).toISOString())}&to=${encodeURIComponent(new Date(to).toISOString())}`;
        return `${q}/searchCallHistory?${page}&direction=${i % 2 ? 'INCOMING' : 'OUTGOING'}&${range}`;
      };
      const scenarios = {
        'admin.list (skip 0)': [admin, () => `${q}/listCallHistory?${page}`],
        'admin.list (pages all through)': [
          admin,
          (i) => `${q}/listCallHistory?skip=${depth(i, 10_000)}&limit=${PAGE_SIZE}`,
        ],
        'admin.search number': [admin, byNumber],
        'admin.search status': [admin, byStatus],
        'admin.search direction + dates': [admin, byDirectionAndRange],
        'seller.list (skip 0)': [seller, () => `${q}/listCallHistory?${page}`],
        'seller.list (pages all through)': [
          seller,
          (i) => `${q}/listCallHistory?skip=${depth(i, 10_000)}&limit=${PAGE_SIZE}`,
        ],
        'seller.search number': [seller, byNumber],
        'seller.search status': [seller, byStatus],
        'seller.search direction + dates': [seller, byDirectionAndRange],
      };
      const results = await measureScenarios(base, scenarios, {
        warmup: WARMUP,
        requests: REQUESTS,
        targetMs: TARGET_P95_MS,
      });
      return {
        calls: CALLS,
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
