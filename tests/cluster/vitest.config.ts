import { defineConfig } from 'vitest/config';

// The cluster tests (tests/cluster/*.test.ts): two built instances behind HAProxy, run by `npm test`'s
// `cluster` step (scripts/cluster-tests.mjs), one file at a time: they share the cluster's ports.
export default defineConfig({
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
