// Settings → Company in jsdom against a fake API: the series presets and their next numbers, Rule 46
// under the India preset, the tax id checked as typed, and the marketplace-only tax options hidden
// from a seller.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SectionState } from '../../../../contracts/settings';
import CompanySection from './CompanySection';
import { fakeApiForEachTest, renderSection, sectionStateOf } from './section-testing';

const company = (scope: 'marketplace' | 'seller'): SectionState =>
  sectionStateOf('company', scope, { sellerFields: (field) => field !== 'taxOptions' });

let state: SectionState;
fakeApiForEachTest((request) =>
  request.method === 'GET' && request.url === '/api/v1/settings/company'
    ? { status: 200, data: state }
    : { status: 404, data: { message: 'not here' } },
);

describe('CompanySection', () => {
  // A seller's section: the same fields without the marketplace's tax options table, a lighter render.
  it('previews the next numbers of each preset and holds the India preset to Rule 46', async () => {
    state = company('seller');
    renderSection(<CompanySection />);
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
    renderSection(<CompanySection />);
    fireEvent.change(await screen.findByRole('combobox', { name: 'Country' }), { target: { value: 'IN' } });
    const taxId = screen.getByLabelText(/^Tax id \(GSTIN\)/);
    fireEvent.change(taxId, { target: { value: '27AAPFU0939F1ZX' } });
    expect(screen.getByText(/This GSTIN has a typing error/)).toBeInTheDocument();
    fireEvent.change(taxId, { target: { value: '27aapfu0939f1zv' } });
    expect(screen.getByText('Well-formed GSTIN: 27AAPFU0939F1ZV')).toBeInTheDocument();
  });

  it("shows the marketplace's tax options to an admin, not to a seller", async () => {
    state = company('marketplace');
    renderSection(<CompanySection />);
    expect(await screen.findByLabelText('Rate of CA GST 5% in percent')).toHaveValue(5);
    cleanup();
    state = company('seller');
    renderSection(<CompanySection />);
    expect(await screen.findAllByText('Inherited')).not.toHaveLength(0);
    expect(screen.queryByText('Tax options')).toBeNull();
  });

  it("sets an offer's validity and reminder days as whole numbers", async () => {
    state = company('seller');
    renderSection(<CompanySection />);
    const validity = await screen.findByLabelText(/^Offer validity \(days\)/);
    expect(validity).toHaveValue(30);
    fireEvent.change(validity, { target: { value: '14' } });
    expect(validity).toHaveValue(14);
    expect(screen.getByLabelText(/^Remind the customer/)).toHaveValue(3);
  });
});
