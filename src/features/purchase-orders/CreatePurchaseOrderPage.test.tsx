import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CREATE_PURCHASE_ORDER_ROUTE,
  PURCHASE_ORDERS_API,
  SUPPLIERS_API,
} from '../../../contracts/purchase-orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import CreatePurchaseOrderPage from './CreatePurchaseOrderPage';
import {
  CLIENT_SETTINGS,
  detail,
  PO_ID,
  PRODUCT_ID,
  renderAt,
  SELLER_ID,
  SUPPLIER_ID,
  supplier,
} from './testing';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return {
    useProductChoices: found([{ value: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', label: 'Assam (AS-1)' }]),
    useSellerChoices: found([{ value: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', label: 'Chai & Co' }]),
    usePeopleChoices: found([]),
  };
});

let requests: RecordedRequest[];
let uninstall: () => void;
let refusal: string | null = null;

function reply(request: RecordedRequest): FakeReply {
  const method = request.method.toLowerCase();
  if (request.url === PURCHASE_ORDERS_API && method === 'post')
    return refusal ? { status: 409, data: { message: refusal } } : { status: 201, data: detail() };
  if (request.url === SUPPLIERS_API)
    return {
      status: 200,
      data: {
        result: [
          supplier(),
          supplier({ id: '0f1e2d3c-4b5a-4697-8877-665544332211', name: 'Yen Tea', currency: 'JPY' }),
        ],
        total: 2,
      },
    };
  if (request.url === '/api/v1/settings/client') return { status: 200, data: CLIENT_SETTINGS };
  return { status: 200, data: { result: [] } };
}

beforeEach(() => {
  refusal = null;
  ({ requests, uninstall } = installFakeHttp(reply));
});
afterEach(() => {
  cleanup();
  uninstall();
});

const posts = () =>
  requests.filter(
    (request) => request.method.toLowerCase() === 'post' && request.url === PURCHASE_ORDERS_API,
  );

async function fill(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(text);
}

async function choosePartiesAndAddALine() {
  await screen.findByRole('option', { name: 'Tea <Traders>' });
  // selectOptions matches an option's innerHTML, where "<" is "&lt;": choose by value.
  await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Supplier/ }), SUPPLIER_ID);
  await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Shop/ }), SELLER_ID);
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Product' }), 'Assam (AS-1)');
  await fill(screen.getByRole('spinbutton', { name: 'Quantity' }), '100');
  await userEvent.click(screen.getByRole('button', { name: /Add product/ }));
}

describe('CreatePurchaseOrderPage', () => {
  it('says what is missing before sending anything: the contract’s own messages', async () => {
    renderAt(CREATE_PURCHASE_ORDER_ROUTE, <CreatePurchaseOrderPage />);
    await screen.findByRole('option', { name: 'Tea <Traders>' });
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Choose a supplier.')).toBeTruthy();
    expect(screen.getByText('Choose the shop whose stock it is.')).toBeTruthy();
    expect(screen.getByText('Add at least one line.')).toBeTruthy();
    expect(posts()).toHaveLength(0);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);

    // Supplier and shop chosen, still no line.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Supplier/ }), SUPPLIER_ID);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Shop/ }), SELLER_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(screen.queryByText('Choose a supplier.')).toBeNull());
    expect(screen.getByText('Add at least one line.')).toBeTruthy();
    expect(posts()).toHaveLength(0);
  });

  it('names the line whose cost or quantity is wrong', async () => {
    renderAt(CREATE_PURCHASE_ORDER_ROUTE, <CreatePurchaseOrderPage />);
    await choosePartiesAndAddALine();
    const lines = screen.getByRole('table', { name: 'Purchase order lines' });
    await fill(within(lines).getByRole('textbox', { name: 'Unit cost of Assam (AS-1)' }), '12.345');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Assam (AS-1): USD has 2 decimals at most.')).toBeTruthy();
    await fill(within(lines).getByRole('textbox', { name: 'Unit cost of Assam (AS-1)' }), '12.50');
    await fill(within(lines).getByRole('textbox', { name: 'Quantity of Assam (AS-1)' }), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Assam (AS-1): A quantity is at least 1.')).toBeTruthy();
    expect(posts()).toHaveLength(0);
  });

  it('posts the supplier, shop, the supplier’s currency and the lines in minor units, then opens it', async () => {
    const { memory } = renderAt(CREATE_PURCHASE_ORDER_ROUTE, <CreatePurchaseOrderPage />);
    await choosePartiesAndAddALine();
    expect((screen.getByRole('combobox', { name: /^Currency/ }) as HTMLSelectElement).value).toBe('USD');
    const lines = screen.getByRole('table', { name: 'Purchase order lines' });
    await fill(within(lines).getByRole('textbox', { name: 'Unit cost of Assam (AS-1)' }), '12.5');
    expect(within(lines).getByText(/1,250\.00/)).toBeTruthy();
    fireDate(screen.getByLabelText('Expected on'), '2026-12-01');
    await fill(screen.getByRole('textbox', { name: /Notes/ }), 'Back door <please>');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`/orders/purchase-order?id=${PO_ID}`));
    expect(posts()[0]?.body).toEqual({
      supplierId: SUPPLIER_ID,
      sellerId: SELLER_ID,
      currency: 'USD',
      expectedOn: '2026-12-01',
      notes: 'Back door <please>',
      lines: [{ productId: PRODUCT_ID, quantity: 100, unitCostMinor: 1250 }],
    });
  });

  it('shows the server’s refusal', async () => {
    refusal = 'Assam is not a product of Chai & Co.';
    renderAt(CREATE_PURCHASE_ORDER_ROUTE, <CreatePurchaseOrderPage />);
    await choosePartiesAndAddALine();
    await fill(screen.getByRole('textbox', { name: 'Unit cost of Assam (AS-1)' }), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
  });
});

/** A date input takes its value as one change (typing into it is browser-specific). */
function fireDate(input: HTMLElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
