// Settings → Localization in jsdom against a fake API: the live example follows the chosen locale and
// the default currency, the currencies offered are edited as tags, the default currency is chosen among
// them, and a seller's section shows the time zone only.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldState, SectionState } from '../../../../contracts/settings';
import { settingsDefaults } from '../../../../contracts/settings';
import { configureHttp, http } from '../../../services/http';
import { createFakeAdapter } from '../../../services/testing/fake-adapter';
import { system } from '../../../ui/theme';
import LocalizationSection, { localeExample } from './LocalizationSection';

const SELLER = '11111111-1111-4111-8111-111111111111';

function localization(scope: 'marketplace' | 'seller'): SectionState {
  const values = settingsDefaults('IN').localization as Record<string, unknown>;
  const fields: Record<string, FieldState> = {};
  for (const [field, value] of Object.entries(values)) {
    if (scope === 'seller' && field !== 'timeZone') continue;
    fields[field] =
      scope === 'seller'
        ? { value, source: 'marketplace', inherited: value, editable: true }
        : { value, source: 'default', editable: true };
  }
  return {
    section: 'localization',
    scope: { type: scope, sellerId: scope === 'seller' ? SELLER : null },
    version: 0,
    updatedAt: null,
    updatedBy: null,
    fields,
  };
}

let state: SectionState;
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  const fake = createFakeAdapter((request) =>
    request.method === 'GET' && request.url === '/api/v1/settings/localization'
      ? { status: 200, data: state }
      : { status: 404, data: { message: 'not here' } },
  );
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {}, onTask: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Suspense fallback={null}>
          <LocalizationSection />
        </Suspense>
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

describe('LocalizationSection', () => {
  it('shows a live example of the chosen locale and a price in the default currency', async () => {
    state = localization('marketplace');
    renderSection();
    expect(await screen.findByTestId('locale-example')).toHaveTextContent('27 Nov 2026 · 1,234.50');
    expect(screen.getByTestId('price-example')).toHaveTextContent('₹1,234.50');

    fireEvent.change(screen.getByLabelText('Date and number format'), { target: { value: 'de-DE' } });
    expect(screen.getByTestId('locale-example')).toHaveTextContent('27. Nov. 2026 · 1.234,50');

    fireEvent.change(screen.getByLabelText('Default currency'), { target: { value: 'JPY' } });
    expect(screen.getByTestId('price-example')).toHaveTextContent('¥1.235');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  });

  it('edits the currencies offered as tags, and offers only those as the default', async () => {
    state = localization('marketplace');
    renderSection();
    await screen.findByTestId('locale-example');
    fireEvent.change(screen.getByLabelText('Add a currency'), { target: { value: 'KWD' } });
    expect(screen.getByRole('button', { name: 'Remove KWD' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove USD' }));
    expect(screen.queryByRole('button', { name: 'Remove USD' })).toBeNull();
    const defaults = screen.getByLabelText('Default currency') as HTMLSelectElement;
    const offered = [...defaults.options].map((option) => option.value);
    expect(offered).toContain('KWD');
    expect(offered).not.toContain('USD');
  });

  it('shows a seller only the time zone, as inherited', async () => {
    state = localization('seller');
    renderSection();
    expect(await screen.findByLabelText('Time zone')).toHaveValue('Asia/Kolkata');
    expect(screen.getByText('Inherited')).toBeInTheDocument();
    expect(screen.queryByLabelText('Default currency')).toBeNull();
    expect(screen.queryByTestId('locale-example')).toBeNull();
  });
});

describe('localeExample', () => {
  it('writes the example date and number in a locale', () => {
    expect(localeExample('en-GB')).toBe('27 Nov 2026 · 1,234.50');
    expect(localeExample('en-IN')).toBe('27 Nov 2026 · 1,234.50');
    expect(localeExample('not a locale')).toBe('—');
  });
});
