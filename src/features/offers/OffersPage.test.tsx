import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OFFERS_API, OFFERS_ROUTE } from '../../../contracts/offers';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import OffersPage from './OffersPage';
import { detail, listItem, renderAt } from './testing';

// The catalog and seller searches (src/services/choices.ts).
vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return {
    useProductChoices: found([{ value: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', label: 'Chair (CH-1)' }]),
    useSellerChoices: found([]),
    usePeopleChoices: found([]),
  };
});

const tabs = { requested: 4, offered: 2, accepted: 1, declined: 0, expired: 3 };
let requests: RecordedRequest[];
let uninstall: () => void;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === OFFERS_API) {
    if (request.method.toLowerCase() === 'post')
      return { status: 201, data: detail({ status: 'requested' }) };
    return { status: 200, data: { result: [listItem()], total: 1, totalCapped: false, tabs } };
  }
  if (request.url === '/api/v1/savedViews/') return { status: 200, data: { result: [] } };
  if (request.url?.startsWith('/api/v1/')) return { status: 200, data: { result: [] } };
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  ({ requests, uninstall } = installFakeHttp(reply));
});

afterEach(() => {
  cleanup();
  uninstall();
});

const lists = () =>
  requests.filter((request) => request.method.toLowerCase() === 'get' && request.url === OFFERS_API);

describe('OffersPage', () => {
  it('asks for what the URL names, shows the tab counts and the rows, user text as text', async () => {
    renderAt(`${OFFERS_ROUTE}?status=offered&currency=EUR&page=2`, <OffersPage />);
    const table = await screen.findByRole('table', { name: 'Offer requests' });
    expect(within(table).getByText('Ada <script>')).toBeTruthy();
    expect(within(table).getByText('Chai & Co')).toBeTruthy();
    expect(within(table).getByText(/97\.20/)).toBeTruthy();
    expect(lists().at(-1)?.params).toMatchObject({ status: 'offered', currency: 'EUR', skip: 20, limit: 20 });
    expect(screen.getByRole('tab', { name: /Offered 2/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /All 10/ })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'OFR-7' }).getAttribute('href')).toContain(
      '/customers/offer?id=',
    );
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('puts a tab, a filter and a search in the URL, back on page 1', async () => {
    const { memory } = renderAt(`${OFFERS_ROUTE}?page=3`, <OffersPage />);
    await screen.findByRole('table', { name: 'Offer requests' });
    await userEvent.click(screen.getByRole('tab', { name: /Expired/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${OFFERS_ROUTE}?status=expired`));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search offer requests' }), 'OFR-7{Enter}');
    await waitFor(() => expect(lists().at(-1)?.params).toMatchObject({ query: 'OFR-7', status: 'expired' }));
    expect(memory.history?.at(-1)).toBe(`${OFFERS_ROUTE}?status=expired&s=OFR-7`);
  });

  it('hides the seller filter from a seller and "New offer request" without edit', async () => {
    renderAt(OFFERS_ROUTE, <OffersPage />, { seller: true, actions: ['view'] });
    await screen.findByRole('table', { name: 'Offer requests' });
    expect(screen.queryByLabelText('Seller')).toBeNull();
    expect(screen.queryByRole('button', { name: /New offer request/ })).toBeNull();
  });

  it('records a request on a customer’s behalf with products and quantities, then opens it', async () => {
    const { memory } = renderAt(OFFERS_ROUTE, <OffersPage />, { seller: true });
    await screen.findByRole('table', { name: 'Offer requests' });
    await userEvent.click(screen.getByRole('button', { name: /New offer request/ }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record request' }));
    expect(await within(dialog).findByText('Enter the customer’s name.')).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Customer name/ }), 'Ada Buyer');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /E-mail/ }), 'ada@example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Shipping country/ }), 'de');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Chair (CH-1)' })).toBeTruthy());
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Product' }), 'Chair (CH-1)');
    const quantity = within(dialog).getByRole('spinbutton', { name: 'Quantity' });
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '12');
    await userEvent.click(within(dialog).getByRole('button', { name: /Add product/ }));
    expect(within(dialog).getByText('12 × Chair (CH-1)')).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Quote please');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record request' }));
    await waitFor(() => expect(memory.history?.at(-1)).toContain('/customers/offer?id='));
    const posted = requests.find((r) => r.method.toLowerCase() === 'post' && r.url === OFFERS_API);
    expect(posted?.body).toMatchObject({
      customerName: 'Ada Buyer',
      email: 'ada@example.com',
      items: [{ productId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', quantity: 12 }],
      message: 'Quote please',
      shippingAddress: { country: 'DE' },
    });
  });
});
