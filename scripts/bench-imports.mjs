// Catalog imports at scale, for `npm run bench` (`imports` in bench/results.json): a 100,000-row,
// 30-column apparel sheet uploaded once as CSV and once as XLSX through HTTP to the real server on
// PGlite, as the demo seller (seller@demo.local), then moved to staging. Each format runs on a server
// of its own on a fresh data dir (the demo seed and nothing else), so the two are measured alike and
// the second never starts on the first one's 100k products or memory; the SKU prefixes differ anyway
// (BENCH-CSV-…, BENCH-XLSX-…). The sheets are written into the bench's temp dir before any clock starts
// (CSV with plain fs streams, XLSX with exceljs's streaming writer and shared strings, as Excel
// writes text); the temp dir, sheets and data dirs, is removed at the end.
//
// The sheet: SKU, Title, Category (Apparel > Men / Women), Price (some as "1,299.50"), Currency, Stock,
// Weight, Weight unit, Brand, Colour, Size, Material (a few "Cotton|Linen"), Gender, Pattern, Country of
// origin, Care instructions, Description, Keywords ("a|b|c"), then Extra 1 … Extra 12, free text no
// field matches (the report lists them as not imported). Every row is valid and distinct: the row
// number is in the title, so no two rows share the duplicate key (title + brand, colour, size).
//
// What is measured, per format (targets from the imports issue):
// - upload: the HTTP upload's answer (the file stored, its header read, validation queued);
// - validation: upload answer → batch `ready` (the job's queue pick-up included), as rows/s
//   (≥ 5,000 rows/s); upload start → ready ≤ 30 s;
// - move to staging (every row a new product): moveToStaging → batch `moved` ≤ 60 s (the anchor says
//   ≥ 500 rows/s committed);
// - memory: the server's RSS (/proc/<pid>/status VmRSS) every 250 ms from just before the upload to the
//   end of the move: growth over the baseline ≤ 200 MB;
// - progress: getImport polled every ~200 ms while validating and moving; the longest time rowsRead
//   (validating) or rowsMoved (moving) went without changing, from the step's start to its end, must
//   stay ≤ 2 s; and the slowest poll (the server must keep answering while the job runs).
// A validation that does not end with 100,000 rows and no errors is reported with its commonest errors
// and fails the figure (meetsTarget false). Every step has a time limit, so the bench always ends.
import { once } from 'node:events';
import { createWriteStream, mkdirSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { startServer } from './bench-children.mjs';
import { signIn } from './bench-sellers.mjs';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const POLL_MS = 200;
const RSS_SAMPLE_MS = 250;
/** Each step (upload, validation, move) fails the bench past this. */
const STEP_LIMIT_MS = 300_000;
const POLL_TIMEOUT_MS = 30_000;
/** IMPORT_MAX_BYTES (contracts/imports.ts): a bigger sheet is refused. */
const MAX_BYTES = 50 * 1024 * 1024;
const SELLER = 'seller@demo.local';
const TARGETS = {
  reportReadyMs: 30_000,
  validateRowsPerSecond: 5_000,
  moveMs: 60_000,
  moveRowsPerSecond: 500,
  rssGrowthMb: 200,
  progressGapMs: 2_000,
};
const API = '/api/v1/imports';

// ── The sheet ──────────────────────────────────────────────────────────────────────────────────────

const BRANDS = ['Peacock', 'Aurora', 'Indigo Lane', 'Fabric Story', 'Urban Loom', 'Khadi Kraft'];
const COLOURS = ['Black', 'White', 'Blue', 'Grey', 'Red', 'Green', 'Beige', 'Navy'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const MATERIALS = ['Cotton', 'Linen', 'Silk', 'Polyester'];
const PATTERNS = ['Solid', 'Striped', 'Checked', 'Floral', 'Block print', 'Embroidered', 'Ikat', 'Bandhani'];
const COUNTRIES = ['India', 'India', 'India', 'Bangladesh', 'Sri Lanka', 'Vietnam'];
const STYLES = {
  Men: ['Classic Tee', 'Linen Shirt', 'Chino Trousers', 'Polo', 'Kurta', 'Denim Jacket'],
  Women: ['Kurti', 'Wrap Dress', 'Palazzo', 'Linen Top', 'Cardigan', 'Tunic'],
};
const FITS = ['relaxed', 'regular', 'slim', 'easy'];
const CARE = [
  'Machine wash cold, dry in shade',
  'Hand wash separately',
  'Dry clean only',
  'Gentle wash, do not bleach',
];
const EXTRA_COLUMNS = 12;
const HEADERS = [
  'SKU',
  'Title',
  'Category',
  'Price',
  'Currency',
  'Stock',
  'Weight',
  'Weight unit',
  'Brand',
  'Colour',
  'Size',
  'Material',
  'Gender',
  'Pattern',
  'Country of origin',
  'Care instructions',
  'Description',
  'Keywords',
  ...Array.from({ length: EXTRA_COLUMNS }, (_, i) => `Extra ${i + 1}`),
];
const pick = (list, n) => list[n % list.length];

/** Free text of the Extra columns: short, some blank, as a seller's own notes columns are. */
function extraCell(i, column) {
  if ((i + column) % 4 === 0) return '';
  switch (column % 4) {
    case 0:
      return `Lot ${(i * 7 + column) % 977}`;
    case 1:
      return `SUP-${(i + column * 31) % 313}`;
    case 2:
      return pick(['Reorder monthly', 'Core range', 'Seasonal', 'Clearance'], i + column);
    default:
      return `HSN 61${(i + column) % 10}9`;
  }
}

/**
 * Data row `i` (0-based) with the SKU prefix `prefix`: text cells, and for XLSX the numbers a
 * spreadsheet holds as numbers (stock, weight, plain prices) as numbers.
 */
function sheetRow(i, prefix, typed) {
  const n = i + 1;
  const gender = i % 2 ? 'Women' : 'Men';
  const brand = pick(BRANDS, i);
  const colour = pick(COLOURS, Math.floor(i / 6));
  const size = pick(SIZES, Math.floor(i / 48));
  const style = pick(STYLES[gender], Math.floor(i / 7));
  const material = i % 20 === 0 ? 'Cotton|Linen' : pick(MATERIALS, Math.floor(i / 3));
  const price = 299 + ((i * 37) % 2700) + (i % 2 ? 0.5 : 0);
  const priceCell =
    i % 5 === 0
      ? price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : typed
        ? price
        : String(price);
  const grams = i % 10 === 0;
  const weight = grams ? 200 + (i % 400) : Math.round((0.2 + (i % 30) / 100) * 100) / 100;
  const stock = (i * 13) % 500;
  return [
    `${prefix}-${String(n).padStart(6, '0')}`,
    `${brand} ${style} ${colour} ${size} No. ${n}`,
    `Apparel > ${gender}`,
    priceCell,
    'INR',
    typed ? stock : String(stock),
    typed ? weight : String(weight),
    grams ? 'g' : 'kg',
    brand,
    colour,
    size,
    material,
    i % 10 === 3 ? 'Unisex' : gender,
    pick(PATTERNS, Math.floor(i / 5)),
    pick(COUNTRIES, i),
    pick(CARE, Math.floor(i / 11)),
    `${style} in ${material.split('|')[0].toLowerCase()} by ${brand}, a ${pick(FITS, i)} fit for every day. Style ${n}.`,
    `${style.toLowerCase()}|${colour.toLowerCase()}|${gender.toLowerCase()}`,
    ...Array.from({ length: EXTRA_COLUMNS }, (_, c) => extraCell(i, c)),
  ];
}

const csvCell = (text) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

export async function writeCsv(filePath, prefix) {
  const out = createWriteStream(filePath);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${HEADERS.map(csvCell).join(',')}\r\n`);
  let lines = '';
  for (let i = 0; i < ROWS; i++) {
    lines += `${sheetRow(i, prefix, false).map(csvCell).join(',')}\r\n`;
    if (i % 1000 === 999) {
      await write(lines);
      lines = '';
    }
  }
  if (lines) await write(lines);
  out.end();
  await finished(out);
}

export async function writeXlsx(filePath, prefix) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: filePath, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Catalog');
  sheet.addRow(HEADERS).commit();
  for (let i = 0; i < ROWS; i++) {
    // A blank cell is no cell at all, as a spreadsheet app writes it.
    sheet.addRow(sheetRow(i, prefix, true).map((cell) => (cell === '' ? null : cell))).commit();
  }
  sheet.commit();
  await workbook.commit();
}

// ── Measuring ──────────────────────────────────────────────────────────────────────────────────────

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb) => Math.round(kb / 102.4) / 10;
const rounded = (ms) => Math.round(ms);

/** The server's RSS (kB) every RSS_SAMPLE_MS; `mark()` starts the measured span (samples before are the baseline). */
export function rssSampler(pid) {
  const rssKb = () => {
    try {
      return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1]);
    } catch {
      return Number.NaN;
    }
  };
  const before = [];
  const during = [];
  let measuring = false;
  const take = () => {
    const kb = rssKb();
    if (Number.isFinite(kb)) (measuring ? during : before).push(kb);
  };
  take();
  const timer = setInterval(take, RSS_SAMPLE_MS);
  let summary = null;
  return {
    mark() {
      take();
      measuring = true;
    },
    stop() {
      if (summary) return summary;
      take();
      clearInterval(timer);
      // The baseline: the last second before the upload (4 samples), the server idle and warmed up.
      const quiet = before.slice(-4);
      const baseline = quiet.reduce((sum, kb) => sum + kb, 0) / Math.max(quiet.length, 1);
      const peak = Math.max(...during, ...quiet);
      summary = {
        baselineMb: mb(baseline),
        peakMb: mb(peak),
        growthMb: mb(peak - baseline),
        endMb: mb(during.at(-1) ?? baseline),
        samples: during.length,
      };
      return summary;
    },
  };
}

async function call(base, token, method, url, { body, form, timeoutMs = POLL_TIMEOUT_MS } = {}) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${url}`, {
    method,
    headers,
    body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/**
 * Polls getImport every POLL_MS from `since` until the batch reaches one of `done` (a failed or
 * stopped batch, or STEP_LIMIT_MS, fails the bench). Answers the last batch, when it was seen done,
 * the longest time `field` went unchanged (from `since`, between changes, to the end) and the slowest poll.
 */
async function follow(base, token, importId, { since, field, done, what }) {
  let lastValue;
  let lastChange = since;
  let longestGap = 0;
  let slowestPoll = 0;
  let polls = 0;
  for (;;) {
    const asked = performance.now();
    const { batch } = await call(base, token, 'GET', `${API}/getImport/${importId}`);
    const now = performance.now();
    polls++;
    slowestPoll = Math.max(slowestPoll, now - asked);
    if (batch[field] !== lastValue) {
      if (lastValue !== undefined || batch[field] > 0) {
        longestGap = Math.max(longestGap, now - lastChange);
        lastChange = now;
      }
      lastValue = batch[field];
    }
    if (done.includes(batch.status)) {
      longestGap = Math.max(longestGap, now - lastChange);
      return { batch, at: now, longestGap, slowestPoll, polls };
    }
    if (batch.status === 'failed' || batch.status === 'stopped') {
      throw new Error(`${what}: the batch ${batch.status}: ${batch.error ?? 'no reason given'}`);
    }
    if (now - since > STEP_LIMIT_MS) {
      throw new Error(
        `${what}: not done within ${STEP_LIMIT_MS / 1000} s (status ${batch.status}, ${field} ${batch[field]})`,
      );
    }
    await sleep(Math.max(0, POLL_MS - (performance.now() - asked)));
  }
}

const okCounts = (counts) =>
  counts.total === ROWS && counts.error === 0 && counts.duplicate === 0 && counts.create === ROWS;

/** Upload → ready → move → moved for one sheet, against a running server. */
async function measureImport(base, token, pid, sheetPath, format) {
  // Warm-up: the routes the run uses, so no first-request cost lands in a figure.
  await call(base, token, 'GET', `${API}/listImports?limit=1`);
  await call(base, token, 'GET', `${API}/mappingTargets`);
  const rss = rssSampler(pid);
  await sleep(1_500);
  const outcome = {};
  try {
    rss.mark();
    const form = new FormData();
    form.append('file', await openAsBlob(sheetPath), path.basename(sheetPath));
    const uploadStarted = performance.now();
    const answer = await call(base, token, 'POST', `${API}/uploadCatalogSheet`, {
      form,
      timeoutMs: STEP_LIMIT_MS,
    });
    const uploaded = performance.now();
    const importId = answer.import.id;
    const batchId = answer.import.batch.id;
    outcome.uploadMs = rounded(uploaded - uploadStarted);
    console.info(`  ${format}: uploaded in ${outcome.uploadMs} ms, validating…`);

    const validated = await follow(base, token, importId, {
      since: uploaded,
      field: 'rowsRead',
      done: ['ready'],
      what: `${format} validation`,
    });
    outcome.validateMs = rounded(validated.at - uploaded);
    outcome.validateRowsPerSecond = Math.round(validated.batch.rowsRead / ((validated.at - uploaded) / 1000));
    outcome.reportReadyMs = rounded(validated.at - uploadStarted);
    outcome.counts = validated.batch.counts;
    const valid = okCounts(validated.batch.counts);
    if (!valid) {
      const report = await call(
        base,
        token,
        'GET',
        `${API}/getBatchReport?batch=${batchId}&outcome=error&limit=5`,
      );
      console.error(`  ${format}: validation did not find ${ROWS} new products:`, validated.batch.counts);
      for (const error of report.topErrors)
        console.error(`    ${error.count} × ${error.header ?? 'row'}: ${error.message}`);
      for (const row of report.rows)
        console.error(`    line ${row.line}: ${row.errors.map((e) => `${e.cell} ${e.message}`).join('; ')}`);
    }
    console.info(
      `  ${format}: ready in ${outcome.validateMs} ms (${outcome.validateRowsPerSecond} rows/s), moving…`,
    );

    const moveStarted = performance.now();
    await call(base, token, 'POST', `${API}/moveToStaging?batch=${batchId}`, { body: {} });
    const moved = await follow(base, token, importId, {
      since: moveStarted,
      field: 'rowsMoved',
      done: ['moved'],
      what: `${format} move`,
    });
    outcome.moveMs = rounded(moved.at - moveStarted);
    outcome.moveRowsPerSecond = Math.round(moved.batch.rowsMoved / ((moved.at - moveStarted) / 1000));
    outcome.created = moved.batch.results.created;
    outcome.results = moved.batch.results;
    outcome.server = {
      validateRowsPerSecond: Math.round(validated.batch.rowsPerSecond ?? 0),
      moveRowsPerSecond: Math.round(moved.batch.rowsPerSecond ?? 0),
    };
    outcome.rss = rss.stop();
    outcome.longestProgressGapMs = {
      validate: rounded(validated.longestGap),
      move: rounded(moved.longestGap),
    };
    outcome.slowestPollMs = rounded(Math.max(validated.slowestPoll, moved.slowestPoll));
    outcome.polls = validated.polls + moved.polls;
    // After the clock: the columns the report lists as not imported.
    const report = await call(base, token, 'GET', `${API}/getBatchReport?batch=${batchId}&limit=1`);
    outcome.columnsNotImported = report.unmappedColumns.length;
    const countsAddUp =
      ['create', 'update', 'unchanged', 'duplicate', 'error'].reduce(
        (sum, key) => sum + outcome.counts[key],
        0,
      ) === ROWS && outcome.counts.total === ROWS;
    outcome.meets = {
      reportReady30s: outcome.reportReadyMs <= TARGETS.reportReadyMs,
      validate5kRowsPerSecond: outcome.validateRowsPerSecond >= TARGETS.validateRowsPerSecond,
      move60s: outcome.moveMs <= TARGETS.moveMs,
      rssGrowth200Mb: outcome.rss.growthMb <= TARGETS.rssGrowthMb,
      progressEvery2s:
        outcome.longestProgressGapMs.validate <= TARGETS.progressGapMs &&
        outcome.longestProgressGapMs.move <= TARGETS.progressGapMs,
      allRowsValid: valid && countsAddUp,
      allCreated: outcome.created === ROWS,
    };
    outcome.meetsTarget = Object.values(outcome.meets).every(Boolean);
    return outcome;
  } finally {
    rss.stop();
  }
}

function printSummary(format, r) {
  const mark = (ok) => (ok ? 'meets' : 'MISSES');
  const line = (label, text) => console.info(`  ${`${format} ${label}`.padEnd(28)} ${text}`);
  line('upload', `${r.uploadMs} ms (${r.fileMb} MB)`);
  line(
    'validate',
    `${r.validateMs} ms, ${r.validateRowsPerSecond} rows/s  ${mark(r.meets.validate5kRowsPerSecond)} 5,000 rows/s`,
  );
  line('upload → ready', `${r.reportReadyMs} ms  ${mark(r.meets.reportReady30s)} 30 s`);
  line('move', `${r.moveMs} ms, ${r.moveRowsPerSecond} rows/s  ${mark(r.meets.move60s)} 60 s`);
  line(
    'server RSS',
    `${r.rss.baselineMb} → peak ${r.rss.peakMb} MB (+${r.rss.growthMb} MB)  ${mark(r.meets.rssGrowth200Mb)} 200 MB`,
  );
  line(
    'longest progress gap',
    `validate ${r.longestProgressGapMs.validate} ms, move ${r.longestProgressGapMs.move} ms  ${mark(r.meets.progressEvery2s)} 2 s; slowest poll ${r.slowestPollMs} ms`,
  );
  line(
    'counts',
    `${JSON.stringify(r.counts)}, created ${r.created}  ${mark(r.meets.allRowsValid && r.meets.allCreated)}`,
  );
}

/** One format on a server of its own: the sheet written first, then a fresh data dir and server. */
async function benchFormat(root, port, dir, format) {
  const prefix = `BENCH-${format.toUpperCase()}`;
  const sheetPath = path.join(dir, `catalog-${ROWS}.${format}`);
  console.info(
    `\n▶ imports (${format}): writing ${ROWS.toLocaleString('en')} rows × ${HEADERS.length} columns…`,
  );
  const writeStarted = Date.now();
  await (format === 'csv' ? writeCsv(sheetPath, prefix) : writeXlsx(sheetPath, prefix));
  const bytes = statSync(sheetPath).size;
  console.info(
    `  written in ${((Date.now() - writeStarted) / 1000).toFixed(1)} s, ${(bytes / 1048576).toFixed(1)} MB`,
  );
  if (bytes > MAX_BYTES)
    throw new Error(`the ${format} sheet is ${bytes} bytes, over the 50 MB upload limit`);
  const dataDir = path.join(dir, `data-${format}`);
  mkdirSync(dataDir, { recursive: true });
  const server = await startServer(root, { DATA_DIR: dataDir }, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const token = await signIn(base, SELLER);
    const result = await measureImport(base, token, server.pid, sheetPath, format);
    return { fileMb: Math.round(bytes / 104857.6) / 10, ...result };
  } finally {
    await server.stop();
    rmSync(sheetPath, { force: true });
  }
}

export async function benchImports(root, port) {
  const dir = path.join(root, '.tmp', `bench-imports-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const results = {
    rows: ROWS,
    columns: HEADERS.length,
    database: 'pglite',
    seller: SELLER,
    oneServerPerFormat: true,
  };
  try {
    for (const format of ['csv', 'xlsx']) {
      results[format] = await benchFormat(root, port, dir, format);
      printSummary(format, results[format]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  results.targets = TARGETS;
  return results;
}
