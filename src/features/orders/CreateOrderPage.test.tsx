import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CREATE_ORDER_ROUTE, ORDERS_API } from '../../../contracts/orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import CreateOrderPage from './CreateOrderPage';
import { detail, PRODUCT_ID, renderAt } from './testing';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return {
    useProductChoices: found([{ value: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', label: 'Chair (CH-1)' }]),
    useSellerChoices: found([]),
    usePeopleChoices: found([]),
  };
});

let requests: RecordedRequest[];
let uninstall: () => void;
let refusal: string | null = null;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === ORDERS_API && request.method.toLowerCase() === 'post')
    return refusal ? { status: 409, data: { message: refusal } } : { status: 201, data: detail() };
  if (request.url === '/api/v1/settings/client')
    return {
      status: 200,
      data: {
        defaultCountry: 'DE',
        defaultLanguage: 'en',
        defaultCurrency: 'EUR',
        currencies: ['EUR', 'USD'],
        languages: ['en'],
        locale: 'en-US',
        timeZone: 'UTC',
        weekStart: 'monday',
      },
    };
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

/** Pastes the text into the field: what typing it would give, without a key event per character. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

async function fillIn() {
  await fill(screen.getByRole('textbox', { name: /Customer name/ }), 'Ada Buyer');
  await fill(screen.getByRole('textbox', { name: /^E-mail/ }), 'ada@example.com');
  await fill(screen.getByRole('textbox', { name: /Address line 1/ }), '1 Main Street');
  await fill(screen.getByRole('textbox', { name: /^City/ }), 'Berlin');
  await fill(screen.getByRole('textbox', { name: /Country/ }), 'de');
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Product' }), 'Chair (CH-1)');
  const quantity = screen.getByRole('spinbutton', { name: 'Quantity' });
  await userEvent.clear(quantity);
  await fill(quantity, '3');
  await userEvent.click(screen.getByRole('button', { name: /Add product/ }));
}

describe('CreateOrderPage', () => {
  it('says what is missing before sending anything', async () => {
    renderAt(CREATE_ORDER_ROUTE, <CreateOrderPage />, { seller: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Place order' }));
    expect(await screen.findByText('Enter the customer’s name.')).toBeTruthy();
    expect(screen.getByText('Add at least one product.')).toBeTruthy();
    expect(requests.filter((request) => request.method.toLowerCase() === 'post')).toHaveLength(0);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('places the order with its lines and address, then opens it', async () => {
    const { memory } = renderAt(CREATE_ORDER_ROUTE, <CreateOrderPage />, { seller: true });
    await screen.findByRole('button', { name: 'Place order' });
    await fillIn();
    const lines = screen.getByRole('table', { name: 'Order lines' });
    await fill(within(lines).getByRole('textbox', { name: /Percent off/ }), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(memory.history?.at(-1)).toContain('/orders/order?id='));
    const posted = requests.find(
      (request) => request.method.toLowerCase() === 'post' && request.url === ORDERS_API,
    );
    expect(posted?.body).toMatchObject({
      customerName: 'Ada Buyer',
      email: 'ada@example.com',
      shippingAddress: {
        fullName: 'Ada Buyer',
        addressLine1: '1 Main Street',
        city: 'Berlin',
        country: 'DE',
      },
      lines: [{ productId: PRODUCT_ID, quantity: 3, discountPercent: 10 }],
    });
    expect(posted?.body).not.toHaveProperty('billingAddress');
  });

  it('shows the server’s refusal, such as stock that is short', async () => {
    refusal = 'Not enough stock of Chair (2 left, 3 wanted).';
    renderAt(CREATE_ORDER_ROUTE, <CreateOrderPage />, { seller: true });
    await screen.findByRole('button', { name: 'Place order' });
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
  });
});
