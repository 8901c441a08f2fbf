import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORDERS_API, ORDERS_ROUTE } from '../../../contracts/orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import OrdersPage from './OrdersPage';
import { listItem, renderAt } from './testing';

const tabs = { pending: 4, paid: 2, shipped: 1, delivered: 0, cancelled: 3, refunded: 1 };
let requests: RecordedRequest[];
let uninstall: () => void;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === ORDERS_API)
    return { status: 200, data: { result: [listItem()], total: 1, totalCapped: false, tabs } };
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
  requests.filter((request) => request.method.toLowerCase() === 'get' && request.url === ORDERS_API);

describe('OrdersPage', () => {
  it('asks for what the URL names, shows the tab counts and the rows, user text as text', async () => {
    renderAt(`${ORDERS_ROUTE}?status=pending&payment=unpaid&page=2`, <OrdersPage />);
    const table = await screen.findByRole('table', { name: 'Orders' });
    expect(within(table).getByText('Ada <script>')).toBeTruthy();
    expect(within(table).getByText(/64\.22/)).toBeTruthy();
    expect(within(table).getByText('Unpaid')).toBeTruthy();
    expect(lists().at(-1)?.params).toMatchObject({
      status: 'pending',
      paymentState: 'unpaid',
      skip: 20,
      limit: 20,
    });
    expect(screen.getByRole('tab', { name: /Pending 4/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /All 11/ })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'ORD-42' }).getAttribute('href')).toContain(
      '/orders/order?id=',
    );
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('link', { name: /New order/ }).getAttribute('href')).toBe(
      '/orders/create-new-order',
    );
  });

  it('puts a tab and a search in the URL, back on page 1', async () => {
    const { memory } = renderAt(`${ORDERS_ROUTE}?page=3`, <OrdersPage />);
    await screen.findByRole('table', { name: 'Orders' });
    await userEvent.click(screen.getByRole('tab', { name: /Shipped/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${ORDERS_ROUTE}?status=shipped`));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search orders' }), 'ORD-42{Enter}');
    await waitFor(() => expect(lists().at(-1)?.params).toMatchObject({ query: 'ORD-42', status: 'shipped' }));
  });

  it('hides the seller filter from a seller and "New order" without create', async () => {
    renderAt(ORDERS_ROUTE, <OrdersPage />, { seller: true, actions: ['view'] });
    await screen.findByRole('table', { name: 'Orders' });
    expect(screen.queryByLabelText('Seller')).toBeNull();
    expect(screen.queryByRole('link', { name: /New order/ })).toBeNull();
  });
});
