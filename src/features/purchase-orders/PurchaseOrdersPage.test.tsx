import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PURCHASE_ORDERS_API,
  PURCHASE_ORDERS_ROUTE,
  SUPPLIERS_API,
} from '../../../contracts/purchase-orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import PurchaseOrdersPage from './PurchaseOrdersPage';
import { listItem, renderAt, SUPPLIER_ID, supplier } from './testing';

const tabs = { draft: 2, sent: 3, partially_received: 1, received: 4, cancelled: 1 };
let requests: RecordedRequest[];
let uninstall: () => void;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === PURCHASE_ORDERS_API)
    return { status: 200, data: { result: [listItem()], total: 1, totalCapped: false, tabs } };
  if (request.url === SUPPLIERS_API) return { status: 200, data: { result: [supplier()], total: 1 } };
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
  requests.filter((request) => request.method.toLowerCase() === 'get' && request.url === PURCHASE_ORDERS_API);

describe('PurchaseOrdersPage', () => {
  it('asks for what the URL names, shows the tab counts and the rows with links, user text as text', async () => {
    renderAt(`${PURCHASE_ORDERS_ROUTE}?status=sent&supplier=${SUPPLIER_ID}&page=2`, <PurchaseOrdersPage />);
    const table = await screen.findByRole('table', { name: 'Purchase orders' });
    expect(within(table).getByText('Tea <Traders>')).toBeTruthy();
    expect(within(table).getByText('Chai & Co')).toBeTruthy();
    expect(within(table).getByText(/1,500\.00/)).toBeTruthy();
    expect(within(table).getByText('Draft')).toBeTruthy();
    expect(lists().at(-1)?.params).toMatchObject({
      status: 'sent',
      supplierId: SUPPLIER_ID,
      skip: 20,
      limit: 20,
    });
    expect(screen.getByRole('tab', { name: /Sent 3/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /Partly received 1/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /All 11/ })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'PO-7' }).getAttribute('href')).toBe(
      `/orders/purchase-order?id=${listItem().id}`,
    );
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Purchase orders');
    expect(screen.getByRole('link', { name: /New purchase order/ }).getAttribute('href')).toBe(
      '/orders/create-new-purchase-order',
    );
    expect(screen.getByRole('button', { name: /Suppliers/ })).toBeTruthy();
  });

  it('puts a tab and a search in the URL, back on page 1', async () => {
    const { memory } = renderAt(`${PURCHASE_ORDERS_ROUTE}?page=3`, <PurchaseOrdersPage />);
    await screen.findByRole('table', { name: 'Purchase orders' });
    await userEvent.click(screen.getByRole('tab', { name: /Received 4/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${PURCHASE_ORDERS_ROUTE}?status=received`));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search purchase orders' }), 'PO-7{Enter}');
    await waitFor(() => expect(lists().at(-1)?.params).toMatchObject({ query: 'PO-7', status: 'received' }));
  });

  it('offers "New purchase order" only with create and "Suppliers" only with edit', async () => {
    renderAt(PURCHASE_ORDERS_ROUTE, <PurchaseOrdersPage />, { actions: ['view'] });
    await screen.findByRole('table', { name: 'Purchase orders' });
    expect(screen.queryByRole('link', { name: /New purchase order/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Suppliers/ })).toBeNull();
  });

  it('opens the suppliers from the list', async () => {
    renderAt(PURCHASE_ORDERS_ROUTE, <PurchaseOrdersPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Suppliers/ }));
    const dialog = await screen.findByRole('dialog');
    const table = await within(dialog).findByRole('table', { name: 'Suppliers' });
    expect(within(table).getByText('Tea <Traders>')).toBeTruthy();
    expect(within(table).getByText('2.5 %')).toBeTruthy();
  });
});
