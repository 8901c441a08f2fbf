// 100,000 rows × 30 columns, CSV and XLSX, read end to end with flat memory. Logs the speed and the
// heap growth (nothing asserts timings: machines differ); the benchmark can reuse make-fixture.ts.
import { stat } from 'node:fs/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSheet, type SheetFormat } from './index';
import { fixtureCell, writeCsvFixture, writeXlsxFixture } from './make-fixture';
import { temporaryFolder } from './test-files';

const ROWS = 100_000;
const COLUMNS = 30;
const MB = 1024 * 1024;

/** A full garbage collection, to measure what is retained rather than what awaits collection. */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

let tmp: Awaited<ReturnType<typeof temporaryFolder>>;
beforeAll(async () => {
  tmp = await temporaryFolder();
});
afterAll(() => tmp.remove());

async function readAndMeasure(filePath: string, format: SheetFormat) {
  // Let the writer's streams close, so that what it held is not counted against the reader.
  await new Promise((resolve) => setTimeout(resolve, 100));
  collectGarbage();
  collectGarbage();
  const baseline = process.memoryUsage().heapUsed;
  let peak = 0;
  let retained = 0;
  const started = performance.now();
  const sheet = await openSheet(filePath);
  expect(sheet.format).toBe(format);
  expect(sheet.headers).toHaveLength(COLUMNS);
  expect(sheet.headers[29]).toBe('Column 30');
  let count = 0;
  let lastLine = 0;
  const wrong: unknown[] = [];
  for await (const row of sheet.rows()) {
    // Spot checks (plain comparisons: an expect() per row would weigh on the speed measured): the
    // first rows, every 9,973rd, and the order of the lines.
    if (count < 3 || count % 9973 === 0) {
      const expected = Array.from({ length: COLUMNS }, (_, c) => fixtureCell(count, c));
      if (row.cells.join('\u0000') !== expected.join('\u0000')) wrong.push({ row, expected });
    }
    if (row.line <= lastLine) wrong.push({ line: row.line, after: lastLine });
    lastLine = row.line;
    count++;
    if (count % 25_000 === 0) {
      peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      collectGarbage();
      retained = Math.max(retained, process.memoryUsage().heapUsed - baseline);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  expect(wrong).toEqual([]);
  const { size } = await stat(filePath);
  console.info(
    `${format}: ${count.toLocaleString('en-US')} rows × ${COLUMNS} columns (${(size / MB).toFixed(1)} MB) in ` +
      `${seconds.toFixed(2)} s = ${Math.round(count / seconds).toLocaleString('en-US')} rows/s (4 full GCs included); ` +
      `heap growth: ${(peak / MB).toFixed(1)} MB at most before a GC, ${(retained / MB).toFixed(1)} MB retained`,
  );
  return { count, lastLine };
}

describe(`${ROWS.toLocaleString('en-US')} rows × ${COLUMNS} columns`, () => {
  it('CSV, read end to end', { timeout: 60_000 }, async () => {
    const file = tmp.path('large.csv');
    await writeCsvFixture(file, ROWS, COLUMNS);
    const { count, lastLine } = await readAndMeasure(file, 'csv');
    expect(count).toBe(ROWS);
    expect(lastLine).toBe(ROWS + 1); // multi-line cells are still one row each
  });

  it('XLSX, read end to end', { timeout: 60_000 }, async () => {
    const file = tmp.path('large.xlsx');
    const started = performance.now();
    await writeXlsxFixture(file, ROWS, COLUMNS);
    console.info(`xlsx fixture written in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    const { count, lastLine } = await readAndMeasure(file, 'xlsx');
    expect(count).toBe(ROWS);
    expect(lastLine).toBe(ROWS + 1);
  });
});
