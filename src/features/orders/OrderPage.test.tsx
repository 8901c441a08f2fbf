import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORDER_PAGE, ORDERS_API } from '../../../contracts/orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import OrderPage from './OrderPage';
import { detail, ORDER_ID, renderAt } from './testing';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return { useProductChoices: found([]), useSellerChoices: found([]), usePeopleChoices: found([]) };
});

let requests: RecordedRequest[];
let uninstall: () => void;
let current = detail();
let refusal: string | null = null;

function reply(request: RecordedRequest): FakeReply {
  const method = request.method.toLowerCase();
  if (request.url === `${ORDERS_API}/${ORDER_ID}` && method === 'get') return { status: 200, data: current };
  if (request.url?.startsWith(`${ORDERS_API}/${ORDER_ID}/`) && method === 'post') {
    if (refusal) return { status: 409, data: { message: refusal } };
    if (request.url.endsWith('/payments')) {
      current = detail({
        status: 'paid',
        paymentState: 'paid',
        paidMinor: 6422,
        balanceDueMinor: 0,
        refundableMinor: 6422,
        payments: [
          {
            id: 'p1',
            amountMinor: 6422,
            method: 'card',
            paidOn: '2026-11-02',
            reference: 'R-1',
            actorName: 'Ann',
            createdAt: '2026-11-02T09:00:00.000Z',
          },
        ],
        problems: {
          ...current.problems,
          pay: 'This order is paid in full.',
          refund: null,
          cancel: 'Refund what was paid before cancelling.',
        },
      });
      return { status: 200, data: current };
    }
    return { status: 200, data: current };
  }
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  current = detail();
  refusal = null;
  ({ requests, uninstall } = installFakeHttp(reply));
});
afterEach(() => {
  cleanup();
  uninstall();
});

const posts = (suffix: string) =>
  requests.filter((request) => request.method.toLowerCase() === 'post' && request.url?.endsWith(suffix));

describe('OrderPage', () => {
  it('shows the lines as the server priced them, the money, the customer and the history, user text as text', async () => {
    renderAt(`${ORDER_PAGE}?id=${ORDER_ID}`, <OrderPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'ORD-42: Ada <script>' })).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: 'Lines of ORD-42' })).getByText('Chair <b>'),
    ).toBeTruthy();
    expect(screen.getByTestId('order-total').textContent).toMatch(/64\.22/);
    expect(screen.getByTestId('order-money-due').textContent).toMatch(/64\.22/);
    expect(screen.getByTestId('order-status').textContent).toBe('Pending');
    expect(
      within(screen.getByRole('list', { name: 'Order history' })).getByText(/placed the order/),
    ).toBeTruthy();
    // Only what the state allows: no refund (nothing paid), no delivery (not shipped).
    expect(screen.getByRole('button', { name: 'Record payment' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark delivered' })).toBeNull();
  });

  it('records a payment in minor units and shows the order as the server answers it', async () => {
    renderAt(`${ORDER_PAGE}?id=${ORDER_ID}`, <OrderPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect((amount as HTMLInputElement).value).toBe('64.22');
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.5x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findByText(/Write a price as a number/)).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '64.22');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reference' }), 'R-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Paid'));
    expect(posts('/payments')[0]?.body).toMatchObject({
      amountMinor: 6422,
      method: 'bank_transfer',
      reference: 'R-1',
    });
    expect(screen.getByRole('button', { name: 'Refund' })).toBeTruthy();
  });

  it('says in the dialog why the server refused, and cancels only with a reason', async () => {
    refusal = 'Not enough stock of Chair (0 left, 1 wanted).';
    renderAt(`${ORDER_PAGE}?id=${ORDER_ID}`, <OrderPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await within(dialog).findByText('Say why the order is cancelled.')).toBeTruthy();
    expect(posts('/cancel')).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Duplicate');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(posts('/cancel')[0]?.body).toEqual({ reason: 'Duplicate' });
  });

  it('offers no actions without the edit permission', async () => {
    renderAt(`${ORDER_PAGE}?id=${ORDER_ID}`, <OrderPage />, { actions: ['view'] });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
  });
});
