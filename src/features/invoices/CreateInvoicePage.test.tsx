import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CREATE_INVOICE_ROUTE, INVOICES_API } from '../../../contracts/invoices';
import { ORDERS_API } from '../../../contracts/orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import CreateInvoicePage from './CreateInvoicePage';
import { draft, INVOICE_ID, ORDER_ID, renderAt, SELLER_ID } from './testing';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return {
    useProductChoices: found([]),
    useSellerChoices: found([{ value: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', label: 'Chai & Co' }]),
    usePeopleChoices: found([]),
  };
});

const PERIOD_ID = '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b';
let requests: RecordedRequest[];
let uninstall: () => void;
let refusal: string | null = null;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === INVOICES_API && request.method.toLowerCase() === 'post')
    return refusal ? { status: 409, data: { message: refusal } } : { status: 201, data: draft() };
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
  if (request.url === ORDERS_API)
    return {
      status: 200,
      data: {
        result: [
          {
            id: ORDER_ID,
            number: 42,
            reference: 'ORD-42',
            sellerId: SELLER_ID,
            sellerName: 'Chai & Co',
            customerName: 'Ada Buyer',
            email: 'ada@example.com',
            status: 'paid',
            paymentState: 'paid',
            currency: 'EUR',
            totalMinor: 6422,
            paidMinor: 6422,
            refundedMinor: 0,
            createdAt: '2026-11-01T09:00:00.000Z',
          },
        ],
        total: 1,
        totalCapped: false,
        tabs: { pending: 0, paid: 1, shipped: 0, delivered: 0, cancelled: 0, refunded: 0 },
      },
    };
  if (request.url === '/api/v1/subscriptionManager/getSellerSubscriptions') {
    const plan = {
      id: 'p1',
      name: 'Gold',
      priceMinor: 4900,
      currency: 'EUR',
      periodDays: 30,
      isActive: true,
    };
    return {
      status: 200,
      data: {
        seller: {
          id: SELLER_ID,
          sellerCode: 'S1',
          sellerName: 'Chai & Co',
          blocked: false,
          isNewSeller: false,
          isFree: false,
        },
        current: {
          state: 'Active',
          plan,
          startsAt: '2026-11-01T00:00:00.000Z',
          endsAt: '2026-12-01T00:00:00.000Z',
          daysLeft: 10,
        },
        periods: [
          { id: PERIOD_ID, plan, startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' },
        ],
        periodCount: 1,
        pendingRequest: null,
        recentRequests: [],
      },
    };
  }
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

const created = () =>
  requests.filter((request) => request.method.toLowerCase() === 'post' && request.url === INVOICES_API);

/** Pastes the text into the field: what typing it would give, without a key event per character. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

async function byHand() {
  await userEvent.click(await screen.findByText('By hand'));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: /Issuing seller/ }), SELLER_ID);
  await fill(screen.getByRole('textbox', { name: /Buyer name/ }), 'Bea Buyer');
  await fill(screen.getByRole('textbox', { name: /Buyer e-mail/ }), 'bea@example.com');
  await fill(screen.getByRole('textbox', { name: /Country/ }), 'de');
}

describe('CreateInvoicePage', () => {
  it('by hand: says a line is missing before sending anything', async () => {
    renderAt(CREATE_INVOICE_ROUTE, <CreateInvoicePage />);
    await byHand();
    await userEvent.click(screen.getByRole('button', { name: 'Make draft' }));
    expect(await screen.findByText('Add at least one line.')).toBeTruthy();
    expect(created()).toHaveLength(0);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('by hand: says what is wrong on a line', async () => {
    renderAt(CREATE_INVOICE_ROUTE, <CreateInvoicePage />);
    await byHand();
    await userEvent.click(screen.getByRole('button', { name: /Add line/ }));
    await fill(screen.getByRole('textbox', { name: 'Line 1: Unit price' }), '12.5x');
    await userEvent.click(screen.getByRole('button', { name: 'Make draft' }));
    expect(await screen.findByText('Describe the line.')).toBeTruthy();
    expect(screen.getByText(/Write a price as a number/)).toBeTruthy();
    expect(screen.getByText('A tax rate is 0–100 %.')).toBeTruthy();
    expect(created()).toHaveLength(0);
  });

  it('by hand: posts the draft in minor units, then opens it', async () => {
    const { memory } = renderAt(CREATE_INVOICE_ROUTE, <CreateInvoicePage />);
    await byHand();
    await userEvent.click(screen.getByRole('button', { name: /Add line/ }));
    await fill(screen.getByRole('textbox', { name: 'Line 1: Description' }), 'Consulting');
    const quantity = screen.getByRole('textbox', { name: 'Line 1: Quantity' });
    await userEvent.clear(quantity);
    await fill(quantity, '2');
    await fill(screen.getByRole('textbox', { name: 'Line 1: Unit price' }), '1,250.50');
    await fill(screen.getByRole('textbox', { name: 'Line 1: Tax rate %' }), '19');
    await fill(screen.getByRole('textbox', { name: 'Line 1: Discount' }), '10');
    await fill(screen.getByRole('textbox', { name: /Shipping/ }), '4.90');
    await userEvent.click(screen.getByRole('button', { name: 'Make draft' }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`/invoices/invoice?id=${INVOICE_ID}`));
    expect(created()[0]?.body).toEqual({
      source: 'manual',
      sellerId: SELLER_ID,
      buyer: {
        name: 'Bea Buyer',
        email: 'bea@example.com',
        taxId: '',
        addressLine1: '',
        addressLine2: '',
        city: '',
        state: '',
        zipcode: '',
        country: 'DE',
      },
      currency: 'EUR',
      lines: [
        {
          name: 'Consulting',
          sku: '',
          quantity: 2,
          unitPriceMinor: 125050,
          discountMinor: 1000,
          taxRate: 19,
        },
      ],
      shippingMinor: 490,
      reference: '',
      notes: '',
    });
  });

  it('from an order: finds it, chooses it and posts its id; the server’s refusal shows', async () => {
    refusal = 'ORD-42 has an invoice already.';
    renderAt(CREATE_INVOICE_ROUTE, <CreateInvoicePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Make draft' }));
    expect(await screen.findByText('Choose an order.')).toBeTruthy();
    await fill(screen.getByRole('searchbox', { name: 'Find an order' }), 'ORD-42');
    const found = await screen.findByRole('table', { name: 'Orders found' });
    await userEvent.click(within(found).getByRole('button', { name: 'Choose ORD-42' }));
    await userEvent.click(screen.getByRole('button', { name: 'Make draft' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(created()[0]?.body).toEqual({ source: 'order', orderId: ORDER_ID });
    await waitFor(() =>
      expect(
        requests.some((request) => request.url === ORDERS_API && request.params?.query === 'ORD-42'),
      ).toBe(true),
    );
  });

  it('from a subscription period: the seller’s periods to choose from', async () => {
    renderAt(CREATE_INVOICE_ROUTE, <CreateInvoicePage />);
    await userEvent.click(await screen.findByText('Subscription period'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Seller/ }), SELLER_ID);
    const period = screen.getByRole('combobox', { name: /Subscription period/ });
    await waitFor(() => expect(within(period).getByRole('option', { name: /Gold/ })).toBeTruthy());
    await userEvent.selectOptions(period, PERIOD_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Make draft' }));
    await waitFor(() => expect(created()).toHaveLength(1));
    expect(created()[0]?.body).toEqual({ source: 'subscription', subscriptionId: PERIOD_ID });
  });

  it('a seller invoices an order only', async () => {
    renderAt(CREATE_INVOICE_ROUTE, <CreateInvoicePage />, { seller: true });
    expect(await screen.findByRole('searchbox', { name: 'Find an order' })).toBeTruthy();
    expect(screen.queryByText('By hand')).toBeNull();
  });
});
