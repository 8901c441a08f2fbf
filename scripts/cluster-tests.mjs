// `npm test`'s `cluster` step (issue 28): two instances of the built server behind HAProxy
// (tests/cluster/). First the job fail-over test (vitest), then the browser flows (Playwright, Chromium
// through the balancer). Skipped, with the reason, when PostgreSQL or Redis does not answer
// (TEST_DATABASE_URL, TEST_REDIS_URL). Writes { passed, failed, skipped, reason } to CLUSTER_RESULTS
// (for scripts/test.mjs) and exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clusterSkipReason, ensureHaproxy } from '../tests/cluster/cluster.mjs';
import { buildSpa, root } from './build-spa.mjs';
import { ensureChromium } from './chromium.mjs';

const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const resultsFile = process.env.CLUSTER_RESULTS ?? path.join(tmp, 'cluster-results.json');
const only = process.argv.slice(2); // `vitest` or `browser`, or both (default)
const wanted = (part) => !only.length || only.includes(part);

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};
const finish = (summary) => {
  writeFileSync(resultsFile, JSON.stringify(summary));
  console.info(
    summary.reason ??
      `cluster: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`,
  );
  process.exit(summary.failed > 0 ? 1 : 0);
};

const reason = await clusterSkipReason();
if (reason) finish({ passed: 0, failed: 0, skipped: 0, reason });

let passed = 0;
let failed = 0;
let skipped = 0;
const env = { ...process.env, TMPDIR: tmp };
try {
  ensureHaproxy();
} catch (error) {
  console.error(error.message);
  finish({ passed, failed: 1, skipped });
}

if (wanted('vitest')) {
  const json = path.join(tmp, 'cluster-vitest.json');
  rmSync(json, { force: true });
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'tests/cluster/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
    ],
    { cwd: root, stdio: 'inherit', env, timeout: 300_000 },
  );
  const results = readJson(json);
  passed += results?.numPassedTests ?? 0;
  failed += results?.numFailedTests ?? 0;
  skipped += (results?.numPendingTests ?? 0) + (results?.numTodoTests ?? 0);
  if (result.status !== 0 && !results?.numFailedTests) failed++; // did not load, or timed out
}

if (wanted('browser')) {
  let chromium;
  try {
    chromium = ensureChromium();
  } catch (error) {
    console.error(error.message);
    finish({ passed, failed: failed + 1, skipped });
  }
  // `npm test` built the SPA for the end-to-end step already and says so.
  if (process.env.SPA_BUILT !== 'true' || !existsSync(path.join(root, 'dist/index.html'))) buildSpa();
  const json = path.join(tmp, 'cluster-playwright.json');
  rmSync(json, { force: true });
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/@playwright/test/cli.js'),
      'test',
      '--config',
      'tests/cluster/playwright.config.ts',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...env, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: json },
      timeout: 600_000,
    },
  );
  const stats = readJson(json)?.stats;
  passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  failed += stats?.unexpected ?? 0;
  skipped += stats?.skipped ?? 0;
  if (result.status !== 0 && !stats?.unexpected) failed++;
}

finish({ passed, failed, skipped });
