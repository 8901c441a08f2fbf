// `npm run bench -- --compare`: the figures more than 25 % worse than the committed results, and only those.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { committedResults, compareResults, figureKind } from './bench-compare.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The baseline --compare reads: bench/results.json as committed (a bench run rewrites the file itself).
const committed = committedResults(root);
const copy = () => structuredClone(committed);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('tells figures from counts, targets and the machine', () => {
  expect(figureKind('p95')).toBe('higher');
  expect(figureKind('seedCommandMs')).toBe('higher');
  expect(figureKind('signinJsGzipBytes')).toBe('higher');
  expect(figureKind('rssGrowthMb')).toBe('higher');
  expect(figureKind('mailsPerSecond')).toBe('lower');
  expect(figureKind('lost')).toBe('fault');
  for (const key of ['count', 'products', 'p95TargetMs', 'signinGoalBytes', 'loadAverage1m', 'samples']) {
    expect(figureKind(key)).toBeNull();
  }
});

it('reports the nested query four times slower, a halved rate and a new failure, not a 20 % change', () => {
  const now = copy();
  now.catalog.pglite.scenarios.nestedQuery.p95 = committed.catalog.pglite.scenarios.nestedQuery.p95 * 4;
  now.catalog.pglite.scenarios.titleSearch.p95 = committed.catalog.pglite.scenarios.titleSearch.p95 * 1.2;
  now.catalog.pglite.scenarios.report.failures = 2;
  now.catalog.pglite.scenarios.nestedQuery.count = 1; // a count, not a figure
  now.marketing.campaignSmtp.mailsPerSecond = committed.marketing.campaignSmtp.mailsPerSecond / 2;
  now.catalog.pglite.scenarios.report.p50 = committed.catalog.pglite.scenarios.report.p50 / 2; // better
  const paths = compareResults(committed, now).map((figure) => figure.path);
  expect(paths).toEqual([
    'catalog.pglite.scenarios.nestedQuery.p95',
    'catalog.pglite.scenarios.report.failures',
    'marketing.campaignSmtp.mailsPerSecond',
  ]);
  // A run of the catalogue alone is compared on the catalogue alone.
  expect(compareResults(committed, now, { sections: ['catalog'] }).map((figure) => figure.path)).toEqual([
    'catalog.pglite.scenarios.nestedQuery.p95',
    'catalog.pglite.scenarios.report.failures',
  ]);
  expect(compareResults(committed, copy())).toEqual([]);
});

const run = promisify(execFile);

it('npm run bench -- --compare-file exits 1 and names each worse figure', async () => {
  const worse = copy();
  worse.catalog.pglite.scenarios.nestedQuery.p95 = 310;
  const worseFile = path.join(scratch, 'worse.json');
  writeFileSync(worseFile, JSON.stringify(worse));
  const failed = await run(process.execPath, ['scripts/bench.mjs', `--compare-file=${worseFile}`], {
    cwd: root,
  }).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain(
    `catalog.pglite.scenarios.nestedQuery.p95: ${committed.catalog.pglite.scenarios.nestedQuery.p95} → 310`,
  );
  expect(failed?.stderr).toContain('1 figure(s) of every section more than 25 % worse');
});
