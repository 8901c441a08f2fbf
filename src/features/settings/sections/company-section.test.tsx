// Settings → Company in jsdom against a fake API: the series presets and their next numbers, Rule 46
// under the India preset, the tax id checked as typed, and the marketplace-only tax options hidden
// from a seller.
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
import CompanySection from './CompanySection';

const SELLER = '11111111-1111-4111-8111-111111111111';

function company(scope: 'marketplace' | 'seller'): SectionState {
  const values = settingsDefaults('IN').company as Record<string, unknown>;
  const fields: Record<string, FieldState> = {};
  for (const [field, value] of Object.entries(values)) {
    if (scope === 'seller' && field === 'taxOptions') continue;
    fields[field] =
      scope === 'seller'
        ? { value, source: 'marketplace', inherited: value, editable: true }
        : { value, source: 'default', editable: true };
  }
  return {
    section: 'company',
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
    request.method === 'GET' && request.url === '/api/v1/settings/company'
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
          <CompanySection />
        </Suspense>
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

describe('CompanySection', () => {
  // A seller's section: the same fields without the marketplace's tax options table, a lighter render.
  it('previews the next numbers of each preset and holds the India preset to Rule 46', async () => {
    state = company('seller');
    renderSection();
    expect(await screen.findByTestId('next-invoiceSeries')).toHaveTextContent(/^INV\/\d\d-\d\d\/00001$/);
    expect(screen.getByTestId('next-creditNoteSeries')).toHaveTextContent(/^CN\/\d\d-\d\d\/00001$/);

    fireEvent.change(screen.getByLabelText(/Series preset/), { target: { value: 'eu' } });
    expect(screen.getByTestId('next-invoiceSeries')).toHaveTextContent(/^INV-\d{4}-000001$/);

    fireEvent.change(screen.getByLabelText(/Series preset/), { target: { value: 'india' } });
    const series = screen.getByLabelText(/^Invoice series/);
    fireEvent.change(series, { target: { value: 'INVOICE-{YYYY}-{seq:06}' } });
    expect(screen.getByText(/Indian invoice numbers may have at most 16 characters/)).toBeInTheDocument();
    expect(screen.queryByTestId('next-invoiceSeries')).toBeNull();
    // The same pattern is fine under a custom series.
    fireEvent.change(screen.getByLabelText(/Series preset/), { target: { value: 'custom' } });
    expect(screen.getByTestId('next-invoiceSeries')).toHaveTextContent(/^INVOICE-\d{4}-000001$/);
  });

  it('checks the tax id by the address country as it is typed', async () => {
    state = company('seller');
    renderSection();
    fireEvent.change(await screen.findByRole('combobox', { name: 'Country' }), { target: { value: 'IN' } });
    const taxId = screen.getByLabelText(/^Tax id \(GSTIN\)/);
    fireEvent.change(taxId, { target: { value: '27AAPFU0939F1ZX' } });
    expect(screen.getByText(/This GSTIN has a typing error/)).toBeInTheDocument();
    fireEvent.change(taxId, { target: { value: '27aapfu0939f1zv' } });
    expect(screen.getByText('Well-formed GSTIN: 27AAPFU0939F1ZV')).toBeInTheDocument();
  });

  it("shows the marketplace's tax options to an admin, not to a seller", async () => {
    state = company('marketplace');
    renderSection();
    expect(await screen.findByLabelText('Rate of CA GST 5% in percent')).toHaveValue(5);
    cleanup();
    state = company('seller');
    renderSection();
    expect(await screen.findAllByText('Inherited')).not.toHaveLength(0);
    expect(screen.queryByText('Tax options')).toBeNull();
  });
});
