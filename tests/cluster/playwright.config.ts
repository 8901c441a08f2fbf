import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from '../../scripts/chromium-args.mjs';
import { DEFAULT_PORTS } from './cluster.mjs';

// The cluster's browser flows (tests/cluster/*.spec.ts): Chromium talks to HAProxy only, in front of
// two instances of the built server (global-setup.ts starts them). Run by scripts/cluster-tests.mjs.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  // The whole run, bounded: the cluster step must end even when every flow waits to its limit.
  globalTimeout: 600_000,
  expect: { timeout: 15_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${DEFAULT_PORTS.balancer}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
    },
  },
  outputDir: '../../.tmp/cluster-results',
});
