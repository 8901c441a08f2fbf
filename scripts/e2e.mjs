// End-to-end tests: Playwright drives Debian's Chromium against a real server (the built SPA, the
// real API) on a temporary DATA_DIR that is removed afterwards.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildSpa, root } from './build-spa.mjs';
import { ensureChromium } from './chromium.mjs';
import { ensureDocumentTools } from './debian-tools.mjs';

let chromium;
try {
  chromium = ensureChromium();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// The orders spec reads its invoice PDF with pdftotext.
ensureDocumentTools();

// `npm test` builds the SPA beside the unit tests and says so.
if (process.env.SPA_BUILT !== 'true') buildSpa();

const dataDir = path.join(root, '.tmp', `e2e-${Date.now()}`);
mkdirSync(dataDir, { recursive: true });
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHROMIUM_PATH: chromium, E2E_DATA_DIR: dataDir, TMPDIR: path.join(root, '.tmp') },
  },
);
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
