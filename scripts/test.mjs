// `npm test`: every check in order — types, lint (Biome, with noImportCycles), unit + API + model-based
// tests with the layering check (tests/layering: which layer may import which), end-to-end in Chromium,
// two instances behind a load balancer (`cluster`, with PostgreSQL and Redis) — then one summary line
// `N passed, N failed`. Exits non-zero if anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDocumentTools } from './debian-tools.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const node = process.execPath;
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`

// Before the unit tests: the document tests read their PDFs and XML with poppler and xmllint.
if (!only.length || only.includes('unit')) ensureDocumentTools();

let passed = 0;
let failed = 0;
const report = [];

function run(name, args, env = {}) {
  if (only.length && !only.includes(name)) return null;
  console.info(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(node, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TMPDIR: tmp, ...env },
  });
  const ok = result.status === 0;
  report.push(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Starts a check beside the running ones, its output kept in a file and printed when it is awaited:
 * the type-check and the SPA build for the end-to-end tests are CPU work that fits in the unit tests'
 * waits on databases, brokers and child servers (about two minutes less on two cores).
 */
function runBeside(name, args) {
  const started = Date.now();
  const logFile = path.join(tmp, `${name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(node, args, {
    cwd: root,
    stdio: ['ignore', log, log],
    env: { ...process.env, TMPDIR: tmp },
  });
  const done = new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
  return async () => {
    const ok = await done;
    closeSync(log);
    console.info(`\n▶ ${name}`);
    process.stdout.write(readFileSync(logFile, 'utf8'));
    report.push(
      `${ok ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s, beside the unit tests)`,
    );
    return ok;
  };
}

const wanted = (name) => !only.length || only.includes(name);
const typecheck = wanted('typecheck')
  ? runBeside('typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'])
  : null;
// The build the end-to-end run needs (scripts/e2e.mjs skips its own when told it is done; when this one
// failed, it builds again and shows why).
const spaBuild = wanted('e2e')
  ? runBeside('build', [bin('vite', 'bin/vite.js'), 'build', '--logLevel', 'warn'])
  : null;

// Lint counts as one check; so does the type-check, awaited after the unit tests.
const lintOk = run('lint', [bin('@biomejs/biome', 'bin/biome'), 'check', '.']);
if (lintOk === true) passed++;
if (lintOk === false) failed++;

const vitestJson = path.join(tmp, 'vitest-results.json');
rmSync(vitestJson, { force: true });
const unitOk = run('unit', [
  bin('vitest', 'vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
if (unitOk !== null) {
  const results = readJson(vitestJson);
  if (results) {
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    if (!unitOk && results.numFailedTests === 0) failed++; // a suite that failed to load
  } else if (!unitOk) failed++;
}

if (typecheck) {
  const ok = await typecheck();
  if (ok) passed++;
  else failed++;
}
const built = spaBuild ? await spaBuild() : false;

const e2eJson = path.join(tmp, 'playwright-results.json');
rmSync(e2eJson, { force: true });
const e2eOk = run('e2e', [path.join(root, 'scripts', 'e2e.mjs')], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
  ...(built ? { SPA_BUILT: 'true' } : {}),
});
if (e2eOk !== null) {
  const stats = readJson(e2eJson)?.stats;
  if (stats) {
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    if (!e2eOk && stats.unexpected === 0) failed++;
  } else if (!e2eOk) failed++;
}

// Two instances of the built server behind HAProxy (tests/cluster/, scripts/cluster-tests.mjs): they
// need PostgreSQL and Redis, so without TEST_DATABASE_URL and TEST_REDIS_URL the step is skipped.
if (wanted('cluster') && !(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)) {
  report.push('– cluster (skipped: TEST_DATABASE_URL and TEST_REDIS_URL are not set)');
} else {
  const clusterJson = path.join(tmp, 'cluster-results.json');
  rmSync(clusterJson, { force: true });
  const clusterOk = run('cluster', [path.join(root, 'scripts', 'cluster-tests.mjs')], {
    CLUSTER_RESULTS: clusterJson,
    ...(built ? { SPA_BUILT: 'true' } : {}),
  });
  if (clusterOk !== null) {
    const results = readJson(clusterJson);
    if (results) {
      passed += results.passed;
      failed += results.failed;
      if (!clusterOk && results.failed === 0) failed++;
      if (results.reason) report.push(`  (${results.reason})`);
    } else if (!clusterOk) failed++;
  }
}

console.info(`\n${report.join('\n')}`);
console.info(`Summary: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || report.some((line) => line.startsWith('✘')) ? 1 : 0);
