// `npm test`: every check in order — types, lint, unit + API + model-based tests, end-to-end in
// Chromium — then one summary line `N passed, N failed`. Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const node = process.execPath;
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`

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

// Type-check and lint count as one check each.
for (const [name, args] of [
  ['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['lint', [bin('@biomejs/biome', 'bin/biome'), 'check', '.']],
]) {
  const ok = run(name, args);
  if (ok === true) passed++;
  if (ok === false) failed++;
}

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

const e2eJson = path.join(tmp, 'playwright-results.json');
rmSync(e2eJson, { force: true });
const e2eOk = run('e2e', [path.join(root, 'scripts', 'e2e.mjs')], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson });
if (e2eOk !== null) {
  const stats = readJson(e2eJson)?.stats;
  if (stats) {
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    if (!e2eOk && stats.unexpected === 0) failed++;
  } else if (!e2eOk) failed++;
}

console.info(`\n${report.join('\n')}`);
console.info(`Summary: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || report.some((line) => line.startsWith('✘')) ? 1 : 0);
