// The help chats' list at scale (issue 5 "Speed"): 50k chats of the demo seller, paged and searched
// through HTTP by the seller (their own chats) and by the admin (all chats), one request at a time.
// Target p95 ≤ 50 ms for every scenario.
// Then a customer's message → shown in the seller's open chat in Chromium, p95 ≤ 150 ms
// (bench/message-visible.ts, which holds a server of its own with the demo seed; needs the built SPA).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { againstTarget, runVisibleBench, startServer } from './bench-children.mjs';
import { measureScenarios, seedBulk } from './bench-lists.mjs';
import { signIn } from './bench-sellers.mjs';

const CHATS = 50_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 30;
const PAGE_SIZE = 20; // SPEC §9: the chat user list pages 20 at a time
const TARGET_P95_MS = 50;
const MESSAGE_SAMPLES = Number(process.env.BENCH_MESSAGE_SAMPLES ?? 50);
const MESSAGE_TO_VISIBLE_P95_MS = 150;
const fragments = ['sharma', 'kavya', 'blue', 'pune', 'return', 'neha.iyer', 'sizes', 'gupta'];

export async function benchChats(root, port) {
  const lists = await benchChatLists(root, port);
  console.info(`\n▶ customer message → visible in the seller's open chat: ${MESSAGE_SAMPLES} messages…`);
  const visible = await runVisibleBench(
    root,
    'bench/message-visible.ts',
    ['--samples', String(MESSAGE_SAMPLES)],
    {
      needs: ['src/features/help-chats/HelpChatsPage.tsx'],
    },
  );
  console.info(`  ${JSON.stringify(visible)}`);
  return {
    ...lists,
    messageToVisible: againstTarget(visible, MESSAGE_TO_VISIBLE_P95_MS),
  };
}

/** The list and search scenarios at CHATS chats, through HTTP against the real server. */
async function benchChatLists(root, port) {
  const dataDir = path.join(root, '.tmp', `bench-chats-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const env = { DATA_DIR: dataDir };
  try {
    console.info(`\n▶ help chats: seeding ${CHATS.toLocaleString('en')} chats…`);
    const seedCommandMs = await seedBulk(root, env, 'chats', CHATS);
    const { stop } = await startServer(root, env, port);
    try {
      const base = `http://127.0.0.1:${port}`;
      const seller = await signIn(base, 'seller@demo.local');
      const admin = await signIn(base, 'admin@demo.local');
      const depth = (i) => Math.floor((((i * 7919) % 1000) / 1000) * (CHATS - PAGE_SIZE));
      const q = '/api/v1/queryBot';
      const search = (method) => (i) =>
        `${q}/${method}?skip=0&limit=${PAGE_SIZE}&query=${encodeURIComponent(fragments[i % fragments.length])}`;
      const scenarios = {
        'seller.list (skip 0)': [seller, () => `${q}/listSellerQueryBotChats?skip=0&limit=${PAGE_SIZE}`],
        'seller.list (pages all through)': [
          seller,
          (i) => `${q}/listSellerQueryBotChats?skip=${depth(i)}&limit=${PAGE_SIZE}`,
        ],
        'seller.search': [seller, search('searchSellerQueryBotChats')],
        'admin.list (pages all through)': [
          admin,
          (i) => `${q}/listQueryBotChats?skip=${depth(i)}&limit=${PAGE_SIZE}`,
        ],
        'admin.search': [admin, search('searchQueryBotChats')],
      };
      const results = await measureScenarios(base, scenarios, {
        warmup: WARMUP,
        requests: REQUESTS,
        targetMs: TARGET_P95_MS,
      });
      return {
        chats: CHATS,
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
