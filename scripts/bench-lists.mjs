// What the list benchmarks (chats, calls) share: seeding a bulk data set with the seed CLI and
// measuring named GET scenarios one request at a time against a p95 target.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { measure, run } from './bench-sellers.mjs';

/** Runs `npm run seed -- --{kind} {count}` on `env`'s DATA_DIR; answers how long the command took. */
export async function seedBulk(root, env, kind, count, limitMs = 180_000) {
  const started = Date.now();
  await run(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      path.join(root, 'server/seed/cli.ts'),
      `--${kind}`,
      String(count),
    ],
    env,
    limitMs,
  );
  return Date.now() - started;
}

/**
 * Each scenario `name: [token, urlOf]` after a warm-up: p50/p95/max and whether p95 meets the target
 * with no failures. Printed as it goes.
 */
export async function measureScenarios(base, scenarios, { warmup, requests, targetMs }) {
  const results = {};
  for (const [name, [token, url]] of Object.entries(scenarios)) {
    await measure(base, token, url, warmup, 1);
    const result = await measure(base, token, url, requests, 1);
    results[name] = {
      ...result,
      p95TargetMs: targetMs,
      meetsTarget: result.p95 <= targetMs && !result.failures,
    };
    console.info(
      `  ${name.padEnd(34)} p50 ${String(result.p50).padStart(6)} ms  p95 ${String(result.p95).padStart(6)} ms  max ${String(result.max).padStart(6)} ms${result.failures ? `  ${result.failures} failed` : ''}`,
    );
  }
  return results;
}

/** Runs `measure(dataDir)` with a scratch data dir of its own (the server's files), removed after. */
export async function withDataDir(root, name, measure) {
  const dataDir = path.join(root, '.tmp', `${name}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  try {
    return await measure(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
