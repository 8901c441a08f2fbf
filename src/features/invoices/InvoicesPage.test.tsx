import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVOICES_API, INVOICES_ROUTE, MARKETING_INVOICES_ROUTE } from '../../../contracts/invoices';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import InvoicesPage from './InvoicesPage';
import MarketingInvoicesPage from './MarketingInvoicesPage';
import { INVOICE_ID, listItem, renderAt } from './testing';

const tabs = { draft: 2, unpaid: 4, pending: 1, overdue: 3, paid: 5, failed: 0, cancelled: 1, issued: 1 };
let requests: RecordedRequest[];
let uninstall: () => void;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === INVOICES_API || request.url === `${INVOICES_API}/marketing`)
    return {
      status: 200,
      data: {
        result: [
          listItem(),
          listItem({ id: 'd1', number: null, status: 'draft', issueDate: null, dueDate: null }),
        ],
        total: 2,
        totalCapped: false,
        tabs,
      },
    };
  if (request.url === `${INVOICES_API}/register`)
    return {
      status: 202,
      data: { taskStatus: { taskId: 't1', taskName: 'Invoice register', status: 'Queued' } },
    };
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

const lists = (url = INVOICES_API) =>
  requests.filter((request) => request.method.toLowerCase() === 'get' && request.url === url);

describe('InvoicesPage', () => {
  it('asks for what the URL names, shows the tab counts and the rows, user text as text', async () => {
    renderAt(`${INVOICES_ROUTE}?status=unpaid&kind=invoice&page=2`, <InvoicesPage />);
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(within(table).getAllByText('Ada <script>')).toHaveLength(2);
    expect(within(table).getAllByText(/119\.00/)).toHaveLength(2);
    expect(lists().at(-1)?.params).toMatchObject({ status: 'unpaid', kind: 'invoice', skip: 20, limit: 20 });
    expect(screen.getByRole('tab', { name: /Unpaid 4/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /All 17/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Credit note 1/ })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'INV-2026-00042' }).getAttribute('href')).toBe(
      `/invoices/invoice?id=${INVOICE_ID}`,
    );
    expect(within(table).getByRole('link', { name: 'Draft' }).getAttribute('href')).toBe(
      '/invoices/invoice?id=d1',
    );
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Invoices');
    expect(screen.getByRole('link', { name: /New invoice/ }).getAttribute('href')).toBe(
      '/invoices/create-invoice',
    );
    expect(screen.getByRole('searchbox', { name: 'Search invoices' }).getAttribute('placeholder')).toBe(
      'Search by number, buyer or e-mail',
    );
  });

  it('puts a tab and a search in the URL, back on page 1', async () => {
    const { memory } = renderAt(`${INVOICES_ROUTE}?page=3`, <InvoicesPage />);
    await screen.findByRole('table', { name: 'Invoices' });
    await userEvent.click(screen.getByRole('tab', { name: /Overdue/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${INVOICES_ROUTE}?status=overdue`));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search invoices' }), 'INV-42{Enter}');
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${INVOICES_ROUTE}?status=overdue&s=INV-42`));
    await waitFor(() => expect(lists().at(-1)?.params).toMatchObject({ query: 'INV-42', status: 'overdue' }));
  });

  it('hides the seller filter from a seller, "New invoice" without create and "Register" without export', async () => {
    renderAt(INVOICES_ROUTE, <InvoicesPage />, { seller: true, actions: ['view'] });
    await screen.findByRole('table', { name: 'Invoices' });
    expect(screen.queryByLabelText('Seller')).toBeNull();
    expect(screen.queryByRole('link', { name: /New invoice/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Register/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Seller' })).toBeNull();
  });

  it('starts the register export of a period', async () => {
    renderAt(INVOICES_ROUTE, <InvoicesPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Register/ }));
    const dialog = await screen.findByRole('dialog');
    const from = within(dialog).getByLabelText(/From/);
    const to = within(dialog).getByLabelText(/^To/);
    await userEvent.clear(from);
    await userEvent.type(from, '2026-12-01');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export register' }));
    expect(await within(dialog).findByText('The period ends before it starts.')).toBeTruthy();
    await userEvent.clear(from);
    await userEvent.type(from, '2026-10-01');
    await userEvent.click(within(dialog).getByText('Excel (XLSX)'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export register' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posted = requests.find((request) => request.url === `${INVOICES_API}/register`);
    expect(posted?.body).toEqual({ from: '2026-10-01', to: '2026-11-01', format: 'xlsx' });
  });
});

describe('MarketingInvoicesPage', () => {
  it('reads the marketing list and offers no New invoice or Register', async () => {
    renderAt(MARKETING_INVOICES_ROUTE, <MarketingInvoicesPage />);
    await screen.findByRole('table', { name: 'Invoices' });
    expect(lists(`${INVOICES_API}/marketing`)).not.toHaveLength(0);
    expect(lists()).toHaveLength(0);
    expect(screen.queryByRole('link', { name: /New invoice/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Register/ })).toBeNull();
  });
});
