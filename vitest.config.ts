import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

// Three projects: the layering check and the server and contract tests run in node; SPA and model-based
// tests run in jsdom.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      testTimeout: 20_000,
      hookTimeout: 60_000,
      // Two test files at a time even on two cores (Vitest's default is one less than the cores): the
      // server tests spend much of their time waiting on PostgreSQL, Redis, child servers and timers.
      maxWorkers: 2,
      projects: [
        {
          // The layering check (tests/layering): the import graph of the sources, no app, no database.
          extends: true,
          test: { name: 'layering', environment: 'node', include: ['tests/layering/**/*.test.ts'] },
        },
        {
          extends: true,
          test: {
            name: 'server',
            environment: 'node',
            include: ['contracts/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
            // Seeds the demo data once per run; test apps start from copies of it.
            globalSetup: ['./server/test-snapshots.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'web',
            environment: 'jsdom',
            include: ['src/**/*.test.{ts,tsx}', 'tests/model/**/*.test.{ts,tsx}'],
            setupFiles: ['./tests/setup.ts'],
          },
        },
      ],
    },
  }),
);
