import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUCTION_EVENTS_API, AUCTIONS_ROUTE, type AuctionEvent } from '../../../contracts/auctions';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import { renderPageAt } from '../../services/testing/render-page';
import { AuctionEventDialog } from './AuctionEventDialog';

const SELLER_ID = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
const LAMP = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const CHEST = '8a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6e';
const EVENT_ID = '4c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return {
    useProductChoices: found([
      { value: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', label: 'Brass lamp (BL-1)' },
      { value: '8a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6e', label: 'Tea chest (TC-1)' },
    ]),
    useSellerChoices: found([{ value: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', label: 'Chai & Co' }]),
    usePeopleChoices: found([]),
  };
});

const made: AuctionEvent = {
  id: EVENT_ID,
  title: 'Winter sale',
  sellerId: SELLER_ID,
  sellerName: 'Chai & Co',
  gapSeconds: 90,
  createdAt: '2030-01-01T09:00:00.000Z',
  lots: [],
};

let requests: RecordedRequest[];
let uninstall: () => void;
let refusal: { status: number; data: unknown } | null = null;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === AUCTION_EVENTS_API && request.method === 'POST')
    return refusal ?? { status: 201, data: made };
  if (request.url === '/api/v1/settings/client')
    return {
      status: 200,
      data: {
        defaultCountry: 'DE',
        defaultLanguage: 'en',
        defaultCurrency: 'EUR',
        currencies: ['EUR', 'JPY'],
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

function renderDialog() {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderPageAt(AUCTIONS_ROUTE, <AuctionEventDialog open onClose={onClose} onSaved={onSaved} />, {
    seller: false,
    permissions: { [AUCTIONS_ROUTE]: ['view', 'create', 'edit'] },
  });
  return { onSaved, onClose };
}

async function fill(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(text);
}

const posts = () => requests.filter((request) => request.method === 'POST');

async function fillIn(dialog: HTMLElement) {
  await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Seller' }), SELLER_ID);
  await fill(within(dialog).getByRole('textbox', { name: /^Event title/ }), 'Winter sale');
  fireEvent.change(within(dialog).getByLabelText(/^Lots start/), { target: { value: '2030-01-01T10:00' } });
  fireEvent.change(within(dialog).getByLabelText(/^First lot ends/), {
    target: { value: '2030-01-01T12:00' },
  });
  await fill(within(dialog).getByRole('textbox', { name: /^Minutes between/ }), '1.5');
  await userEvent.selectOptions(
    within(dialog).getByRole('combobox', { name: 'Product of lot 1' }),
    'Brass lamp (BL-1)',
  );
  await userEvent.selectOptions(
    within(dialog).getByRole('combobox', { name: 'Product of lot 2' }),
    'Tea chest (TC-1)',
  );
  await fill(within(dialog).getByRole('textbox', { name: /^Starting price of lot 1/ }), '10');
  await fill(within(dialog).getByRole('textbox', { name: /^Starting price of lot 2/ }), '25.50');
}

describe('AuctionEventDialog', () => {
  it('publishes the lots in minor units with their staggered ends shown, titled from the products', async () => {
    const { onSaved } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'New auction event' });
    await fillIn(dialog);
    // Each lot's end as it will be: the first end plus the gap per lot before it.
    expect(within(dialog).getByText(/ends Jan 1, 2030.*12:00/)).toBeTruthy();
    expect(within(dialog).getByText(/ends Jan 1, 2030.*12:01/)).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /^Title of lot 2/ })).toHaveProperty(
      'value',
      'Tea chest',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: EVENT_ID })));
    expect(posts()[0]?.body).toMatchObject({
      sellerId: SELLER_ID,
      title: 'Winter sale',
      currency: 'EUR',
      gapSeconds: 90,
      publish: true,
      lots: [
        { productId: LAMP, quantity: 1, title: 'Brass lamp', startingPriceMinor: 1000 },
        { productId: CHEST, quantity: 1, title: 'Tea chest', startingPriceMinor: 2550 },
      ],
    });
    const sent = posts()[0]!.body as { startsAt: string; firstEndsAt: string };
    expect(Date.parse(sent.startsAt)).toBeLessThan(Date.parse(sent.firstEndsAt));
  });

  it('says what is missing beside each lot, adds and removes lots, and shows the server’s refusal', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'New auction event' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add lot' }));
    expect(within(dialog).getByRole('textbox', { name: /^Title of lot 3/ })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove lot 3' }));
    expect(within(dialog).queryByRole('textbox', { name: /^Title of lot 3/ })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save drafts' }));
    expect(within(dialog).getAllByText('Choose a product from the list.')).toHaveLength(2);
    expect(within(dialog).getByText('Give the event a title.')).toBeTruthy();
    expect(posts()).toHaveLength(0);

    await fillIn(dialog);
    refusal = {
      status: 422,
      data: {
        message: 'Lot 2: Choose one of this seller’s products.',
        fields: { 'lots.1.productId': 'Choose one of this seller’s products.' },
      },
    };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save drafts' }));
    expect(await within(dialog).findByText('Lot 2: Choose one of this seller’s products.')).toBeTruthy();
    expect(within(dialog).getByText('Choose one of this seller’s products.')).toBeTruthy();
    expect((posts()[0]!.body as { publish: boolean }).publish).toBe(false);
  });
});
