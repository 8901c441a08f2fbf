import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PURCHASE_ORDER_PAGE, PURCHASE_ORDERS_API } from '../../../contracts/purchase-orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import PurchaseOrderPage from './PurchaseOrderPage';
import { detail, LINE_ID, line, OTHER_LINE_ID, PO_ID, renderAt } from './testing';

let requests: RecordedRequest[];
let uninstall: () => void;
let current = detail();
let refusal: string | null = null;
const OVER =
  'More than ordered, beyond the tolerance: Assam <b>: 110 of 100 ordered (tolerance 2.5 %). Confirm with a reason to keep it.';

const sent = () =>
  detail({
    status: 'sent',
    sentAt: '2026-11-02T09:00:00.000Z',
    problems: { send: 'It was sent already.', receive: null, cancel: null },
  });

function reply(request: RecordedRequest): FakeReply {
  const method = request.method.toLowerCase();
  const url = request.url ?? '';
  if (url === `${PURCHASE_ORDERS_API}/${PO_ID}` && method === 'get') return { status: 200, data: current };
  if (url.startsWith(`${PURCHASE_ORDERS_API}/${PO_ID}/`) && method === 'post') {
    if (refusal) return { status: 409, data: { message: refusal } };
    if (url.endsWith('/send')) current = sent();
    if (url.endsWith('/receipts')) {
      const body = request.body as { lines: { quantity: number }[]; confirmOver: boolean };
      if (body.lines.some((item) => item.quantity > 102) && !body.confirmOver)
        return { status: 409, data: { message: OVER } };
      current = { ...sent(), status: 'partially_received' };
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

const open = () => renderAt(`${PURCHASE_ORDER_PAGE}?id=${PO_ID}`, <PurchaseOrderPage />);

async function fill(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(text);
}

describe('PurchaseOrderPage', () => {
  it('shows the lines with what arrived and the accepted range, the supplier and the history, user text as text', async () => {
    current = detail({
      status: 'partially_received',
      lines: [
        line({ received: 99, done: true }),
        line({ id: OTHER_LINE_ID, name: 'Darjeeling', quantity: 50 }),
      ],
      receipts: [
        {
          id: 'r1',
          number: 1,
          lines: [{ lineId: LINE_ID, quantity: 99 }],
          note: 'Two boxes <wet>',
          overReason: null,
          actorName: 'Sam Store',
          createdAt: '2026-11-05T09:00:00.000Z',
        },
      ],
      problems: { send: 'It was sent already.', receive: null, cancel: 'Goods arrived on it.' },
    });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'PO-7: Tea <Traders>' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const lines = screen.getByRole('table', { name: 'Lines of PO-7' });
    const [assam, darjeeling] = within(lines).getAllByTestId('po-line');
    expect(within(assam!).getByText('Assam <b>')).toBeTruthy();
    expect(within(assam!).getByText('98–102')).toBeTruthy();
    expect(within(assam!).getByText('Received')).toBeTruthy();
    expect(within(darjeeling!).queryByText('Received')).toBeNull();
    expect(screen.getByTestId('po-total').textContent).toMatch(/1,500\.00/);
    expect(screen.getByTestId('po-status').textContent).toBe('Partly received');
    expect(within(screen.getByRole('list', { name: 'Receipts' })).getByText('99 × Assam <b>')).toBeTruthy();
    expect(screen.getByText('Two boxes <wet>')).toBeTruthy();
    expect(screen.getByText('orders@tea.example')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Purchase order history' })).getByText(
        /drafted the purchase order/,
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Download the PDF' }));
    await waitFor(() =>
      expect(requests.some((request) => request.url === `${PURCHASE_ORDERS_API}/${PO_ID}/pdf`)).toBe(true),
    );
    // Only what the state allows.
    expect(screen.getByRole('button', { name: 'Receive goods' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send to supplier' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel purchase order' })).toBeNull();
  });

  it('sends it after a confirmation and shows it sent', async () => {
    open();
    expect(screen.queryByRole('button', { name: 'Receive goods' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Send to supplier' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/The supplier is mailed the PDF at orders@tea\.example/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send to supplier' }));
    await waitFor(() => expect(screen.getByTestId('po-status').textContent).toBe('Sent'));
    expect(posts('/send')).toHaveLength(1);
    expect(posts('/send')[0]?.body).toEqual({});
    expect(screen.getByRole('button', { name: 'Receive goods' })).toBeTruthy();
  });

  it('receives the quantities still expected of the lines not done, as changed', async () => {
    current = detail({
      ...sent(),
      lines: [
        line({ received: 40 }),
        line({ id: OTHER_LINE_ID, name: 'Darjeeling', quantity: 50, received: 50, done: true }),
      ],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Receive goods' }));
    const dialog = await screen.findByRole('dialog');
    const assam = within(dialog).getByRole('textbox', { name: 'Quantity of Assam <b> that arrived' });
    expect((assam as HTMLInputElement).value).toBe('60');
    expect(within(dialog).queryByRole('textbox', { name: /Darjeeling/ })).toBeNull();
    await fill(assam, '55');
    await fill(within(dialog).getByRole('textbox', { name: 'Note' }), 'One box short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    await waitFor(() => expect(screen.getByTestId('po-status').textContent).toBe('Partly received'));
    expect(posts('/receipts')[0]?.body).toEqual({
      lines: [{ lineId: LINE_ID, quantity: 55 }],
      note: 'One box short',
      confirmOver: false,
      overReason: '',
    });
  });

  it('asks to confirm a delivery beyond the tolerance, with a reason, and sends it again', async () => {
    current = sent();
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Receive goods' }));
    const dialog = await screen.findByRole('dialog');
    await fill(within(dialog).getByRole('textbox', { name: 'Quantity of Assam <b> that arrived' }), '110');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    expect(await within(dialog).findByText(OVER)).toBeTruthy();
    expect(posts('/receipts')).toHaveLength(1);

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Keep the extra units' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    expect(await within(dialog).findByText('Say why more than ordered is kept.')).toBeTruthy();
    expect(posts('/receipts')).toHaveLength(1);

    await fill(
      within(dialog).getByRole('textbox', { name: /Why the extra units are kept/ }),
      'Bonus from the supplier',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    await waitFor(() => expect(posts('/receipts')).toHaveLength(2));
    expect(posts('/receipts')[1]?.body).toEqual({
      lines: [
        { lineId: LINE_ID, quantity: 110 },
        { lineId: OTHER_LINE_ID, quantity: 50 },
      ],
      note: '',
      confirmOver: true,
      overReason: 'Bonus from the supplier',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('po-status').textContent).toBe('Partly received');
  });

  it('cancels only with a reason and shows a refusal in the dialog', async () => {
    refusal = 'Goods arrived on it: it can no longer be cancelled.';
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel purchase order' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel purchase order' }));
    expect(await within(dialog).findByText('Say why the purchase order is cancelled.')).toBeTruthy();
    expect(posts('/cancel')).toHaveLength(0);
    await fill(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Ordered twice');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel purchase order' }));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(posts('/cancel')[0]?.body).toEqual({ reason: 'Ordered twice' });
  });

  it('offers no actions without edit on the purchase orders, and says when no purchase order is named', async () => {
    renderAt(`${PURCHASE_ORDER_PAGE}?id=${PO_ID}`, <PurchaseOrderPage />, { actions: ['view'] });
    await screen.findByRole('heading', { level: 1, name: 'PO-7: Tea <Traders>' });
    expect(screen.queryByRole('button', { name: 'Send to supplier' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download the PDF' })).toBeTruthy();
    cleanup();
    renderAt(`${PURCHASE_ORDER_PAGE}?id=nope`, <PurchaseOrderPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'No purchase order chosen' })).toBeTruthy();
  });
});
