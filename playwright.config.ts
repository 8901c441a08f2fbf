import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from './scripts/chromium-args.mjs';
import { SERVER_NODE_ARGS } from './scripts/server-node-args.mjs';

// Run through `npm run test:e2e` (scripts/e2e.mjs), which finds Chromium, builds the SPA and makes the
// temporary data dir. The server is the real one, started exactly as `npm start` starts it.
const port = Number(process.env.E2E_PORT ?? 3199);
export const E2E_MAIL_LINK_SECRET = 'e2e-mail-link-secret-0123456789abcdef';
const dataDir = process.env.E2E_DATA_DIR ?? path.resolve('.tmp/e2e-manual');

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
    },
  },
  outputDir: '.tmp/test-results',
  webServer: {
    command: ['node', ...SERVER_NODE_ARGS, 'scripts/start.mjs'].join(' '),
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SKIP_BUILD: 'true',
      LOG_LEVEL: 'warn',
      // Known to the tests, so they can make the signed links a mail would carry (mail-links.spec.ts).
      MAIL_LINK_SECRET: E2E_MAIL_LINK_SECRET,
      // The queries e2e moves the follow-up clock through POST /api/v1/test-hooks/run-follow-ups.
      E2E_TEST_HOOKS: 'true',
    },
  },
});
