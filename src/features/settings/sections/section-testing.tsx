// Test support for the settings sections (never imported by the app): a section's state built from the
// defaults, the fake network plugged into `http`, and a section rendered with the app's providers.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { type ReactElement, Suspense } from 'react';
import { afterEach, beforeEach } from 'vitest';
import {
  type FieldState,
  type SectionState,
  type StoredSection,
  settingsDefaults,
} from '../../../../contracts/settings';
import { configureHttp, http } from '../../../services/http';
import {
  createFakeAdapter,
  type RecordedRequest,
  type Responder,
} from '../../../services/testing/fake-adapter';
import { system } from '../../../ui/theme';

export const TEST_SELLER_ID = '11111111-1111-4111-8111-111111111111';

/**
 * A section as the server answers it, from the defaults: the marketplace's (every field, "default"), or
 * a seller's (the fields `sellerFields` keeps, each inherited).
 */
export function sectionStateOf(
  section: StoredSection,
  scope: 'marketplace' | 'seller',
  options: {
    set?: Record<string, unknown>;
    sellerFields?: (field: string) => boolean;
    field?: (field: string, state: FieldState) => FieldState;
  } = {},
): SectionState {
  const values = { ...settingsDefaults('IN')[section], ...options.set } as Record<string, unknown>;
  const fields: Record<string, FieldState> = {};
  for (const [field, value] of Object.entries(values)) {
    if (scope === 'seller' && !(options.sellerFields?.(field) ?? true)) continue;
    const state: FieldState =
      scope === 'seller'
        ? { value, source: 'marketplace', inherited: value, editable: true }
        : { value, source: 'default', editable: true };
    fields[field] = options.field ? options.field(field, state) : state;
  }
  return {
    section,
    scope: { type: scope, sellerId: scope === 'seller' ? TEST_SELLER_ID : null },
    version: 0,
    updatedAt: null,
    updatedBy: null,
    fields,
  };
}

/** Answers every request of `http` with `responder` for each test; the requests are in `requests`. */
export function fakeApiForEachTest(responder: Responder): { readonly requests: RecordedRequest[] } {
  const recorded: { requests: RecordedRequest[] } = { requests: [] };
  let unconfigure: () => void = () => {};
  const originalAdapter = http.defaults.adapter;
  beforeEach(() => {
    const fake = createFakeAdapter(responder);
    recorded.requests = fake.requests;
    http.defaults.adapter = fake.adapter;
    unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {}, onTask: () => {} });
  });
  afterEach(() => {
    cleanup();
    unconfigure();
    http.defaults.adapter = originalAdapter;
  });
  return recorded;
}

/** Renders a section with Chakra, a fresh query client (no retries) and a Suspense boundary. */
export function renderSection(section: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Suspense fallback={null}>{section}</Suspense>
      </QueryClientProvider>
    </ChakraProvider>,
  );
}
