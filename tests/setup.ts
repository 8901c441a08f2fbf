// Shared test setup: DOM matchers for the jsdom tests; harmless in node tests.
import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy… and waitFor return as soon as what they wait for is on screen; the bound only decides how
// long a broken test takes to fail. The default 1 s is shorter than a render can take on a loaded CI
// machine, which failed tests that were right.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no ResizeObserver; Chakra's menus and popovers position themselves with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
