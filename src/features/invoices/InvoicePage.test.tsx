import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvoiceDetail } from '../../../contracts/invoices';
import { INVOICE_PAGE, INVOICES_API, INVOICES_ROUTE } from '../../../contracts/invoices';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import InvoicePage from './InvoicePage';
import { detail, draft, INVOICE_ID, ORDER_ID, renderAt } from './testing';

let requests: RecordedRequest[];
let uninstall: () => void;
let current: InvoiceDetail = draft();
let refusal: string | null = null;

function reply(request: RecordedRequest): FakeReply {
  const method = request.method.toLowerCase();
  if (request.url === `${INVOICES_API}/${INVOICE_ID}`) {
    if (method === 'get') return { status: 200, data: current };
    if (method === 'delete')
      return refusal ? { status: 409, data: { message: refusal } } : { status: 204, data: null };
  }
  if (request.url?.startsWith(`${INVOICES_API}/${INVOICE_ID}/`) && method === 'post') {
    if (refusal) return { status: 409, data: { message: refusal } };
    if (request.url.endsWith('/issue')) current = detail({ number: 'INV-2026-00043' });
    if (request.url.endsWith('/payments'))
      current = detail({
        status: 'paid',
        paidMinor: 11900,
        balanceMinor: 0,
        problems: { ...detail().problems, pay: 'Nothing is left to pay.' },
      });
    return { status: 200, data: current };
  }
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  current = draft();
  refusal = null;
  ({ requests, uninstall } = installFakeHttp(reply));
});
afterEach(() => {
  cleanup();
  uninstall();
});

const posts = (suffix: string) =>
  requests.filter((request) => request.method.toLowerCase() === 'post' && request.url?.endsWith(suffix));
const at = `${INVOICE_PAGE}?id=${INVOICE_ID}`;

describe('InvoicePage', () => {
  it('shows a draft with Issue and Delete, its lines, taxes and totals, user text as text', async () => {
    renderAt(at, <InvoicePage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Draft invoice' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(within(screen.getByRole('table', { name: 'Lines' })).getByText('Consulting <b>')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Taxes per rate' })).getByText(/19\.00/)).toBeTruthy();
    expect(screen.getByTestId('invoice-money-total').textContent).toMatch(/119\.00/);
    expect(screen.getByTestId('invoice-money-balance').textContent).toMatch(/119\.00/);
    expect(screen.getByTestId('invoice-status').textContent).toBe('Draft');
    expect(
      within(screen.getByRole('list', { name: 'Invoice history' })).getByText(/made the draft/),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Issue' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete draft' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'PDF' })).toBeNull();
  });

  it('issues the draft after saying the number is final, then shows its number', async () => {
    renderAt(at, <InvoicePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Issue' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/The number is final/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice INV-2026-00043' })).toBeTruthy();
    expect(posts('/issue')).toHaveLength(1);
    expect(posts('/issue')[0]?.body).toEqual({});
    expect(screen.getByTestId('invoice-status').textContent).toBe('Unpaid');
  });

  it('offers an issued invoice’s PDF and XML, its fingerprint, and no Delete', async () => {
    current = detail({ order: { id: ORDER_ID, reference: 'ORD-42' } });
    renderAt(at, <InvoicePage />);
    // Files behind the token are fetched by the http client, not opened as plain links.
    await userEvent.click(await screen.findByRole('button', { name: 'PDF' }));
    await userEvent.click(screen.getByRole('button', { name: /XML/ }));
    const gets = () => requests.filter((request) => request.method.toLowerCase() === 'get').map((r) => r.url);
    await waitFor(() =>
      expect(gets()).toEqual(
        expect.arrayContaining([`${INVOICES_API}/${INVOICE_ID}/pdf`, `${INVOICES_API}/${INVOICE_ID}/xml`]),
      ),
    );
    expect(screen.queryByRole('button', { name: /GST/ })).toBeNull();
    expect(screen.getByTestId('invoice-fingerprint').textContent).toContain('a'.repeat(64));
    expect(screen.getByRole('link', { name: 'ORD-42' }).getAttribute('href')).toBe(
      `/orders/order?id=${ORDER_ID}`,
    );
    expect(screen.queryByRole('button', { name: 'Delete draft' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Issue' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Record payment' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel with credit note' })).toBeTruthy();
  });

  it('links the GST JSON when it can be exported, and a credit note to the invoice it corrects', async () => {
    current = detail({
      kind: 'credit_note',
      status: 'issued',
      number: 'CN-2026-00001',
      gstExport: true,
      creditedInvoice: { id: 'c0ffee00-0000-4000-8000-000000000000', number: 'INV-2026-00042' },
    });
    renderAt(at, <InvoicePage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Credit note CN-2026-00001' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /GST/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'INV-2026-00042' }).getAttribute('href')).toBe(
      '/invoices/invoice?id=c0ffee00-0000-4000-8000-000000000000',
    );
  });

  it('records a payment in minor units', async () => {
    current = detail();
    renderAt(at, <InvoicePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect((amount as HTMLInputElement).value).toBe('119.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '119');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reference' }), 'BANK-7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(screen.getByTestId('invoice-status').textContent).toBe('Paid'));
    expect(posts('/payments')[0]?.body).toMatchObject({ amountMinor: 11900, reference: 'BANK-7' });
  });

  it('shows the server’s refusal in the dialog', async () => {
    refusal = 'The issuer has no tax id: add it in the settings first.';
    renderAt(at, <InvoicePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Issue' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue' }));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    // The modal hides the page from the accessibility tree while it is open.
    expect(screen.getByRole('heading', { level: 1, hidden: true }).textContent).toBe('Draft invoice');
  });

  it('cancels only with a reason', async () => {
    current = detail();
    refusal = 'Money was paid on it: refund it first.';
    renderAt(at, <InvoicePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel with credit note' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue credit note' }));
    expect(await within(dialog).findByText('Say why.')).toBeTruthy();
    expect(posts('/cancel')).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Wrong buyer');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue credit note' }));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(posts('/cancel')[0]?.body).toEqual({ reason: 'Wrong buyer' });
  });

  it('deletes a draft and goes back to the list', async () => {
    const { memory } = renderAt(at, <InvoicePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete draft' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete draft' }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(INVOICES_ROUTE));
    expect(requests.some((request) => request.method.toLowerCase() === 'delete')).toBe(true);
  });

  it('offers no actions without the edit and delete permissions', async () => {
    renderAt(at, <InvoicePage />, { actions: ['view'] });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: 'Issue' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete draft' })).toBeNull();
  });
});
