// Shared test setup: DOM matchers for the jsdom tests; harmless in node tests.
import '@testing-library/jest-dom/vitest';

// jsdom has no ResizeObserver; Chakra's menus and popovers position themselves with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
