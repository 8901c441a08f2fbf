// Shared test setup: DOM matchers for the jsdom tests; harmless in node tests.
import '@testing-library/jest-dom/vitest';
