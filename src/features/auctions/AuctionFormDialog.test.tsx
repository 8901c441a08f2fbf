import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUCTION_PAGE, AUCTIONS_API, AUCTIONS_ROUTE, type AuctionDetail } from '../../../contracts/auctions';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import { renderPageAt } from '../../services/testing/render-page';
import { AuctionFormDialog } from './AuctionFormDialog';

const SELLER_ID = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
const PRODUCT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AUCTION_ID = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return {
    useProductChoices: found([{ value: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', label: 'Tea chest (TC-1)' }]),
    useSellerChoices: found([{ value: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', label: 'Chai & Co' }]),
    usePeopleChoices: found([]),
  };
});

const detail = (patch: Partial<AuctionDetail> = {}): AuctionDetail => {
  const base = {
    id: AUCTION_ID,
    number: 12,
    title: 'Tea chest',
    sellerId: SELLER_ID,
    sellerName: 'Chai & Co',
    productId: PRODUCT_ID,
    productName: 'Tea chest (TC-1)',
    quantity: 1,
    currency: 'EUR',
    status: 'draft' as const,
    outcome: null,
    priceMinor: null,
    bids: 0,
    startsAt: '2030-01-01T10:00:00.000Z',
    effectiveEndAt: '2030-01-08T10:00:00.000Z',
    eventId: null,
    description: 'Old oak',
    startingPriceMinor: 1050,
    reserveMinor: 2000,
    buyNowMinor: null,
    increments: [
      { fromMinor: 0, stepMinor: 50 },
      { fromMinor: 2000, stepMinor: 100 },
    ],
    endsAt: '2030-01-08T10:00:00.000Z',
    hardEndAt: '2030-01-08T11:00:00.000Z',
    softCloseSeconds: 120,
    extensionSeconds: 180,
    paymentHours: 48,
    cancelReason: null,
    publicUrl: null,
    settlement: null,
    winnerDeadline: null,
    orderId: null,
    event: null,
    ledger: [],
    bidders: [],
    history: [],
  };
  const state = {
    auctionId: AUCTION_ID,
    version: 1,
    status: base.status,
    outcome: null,
    currency: 'EUR',
    startingPriceMinor: 1050,
    priceMinor: null,
    minimumBidMinor: 1050,
    leaderId: null,
    leaderName: null,
    reserveMet: null,
    buyNowMinor: null,
    bids: 0,
    startsAt: base.startsAt,
    effectiveEndAt: base.effectiveEndAt,
    hardEndAt: base.hardEndAt,
    extended: false,
    watchers: 0,
    cancelReason: null,
  };
  return {
    ...base,
    snapshot: { state, recentBids: [], serverTime: '2029-12-01T10:00:00.000Z' },
    ...patch,
  };
};

let requests: RecordedRequest[];
let uninstall: () => void;
let refusal: { status: number; data: unknown } | null = null;

function reply(request: RecordedRequest): FakeReply {
  if (request.url.startsWith(AUCTIONS_API) && (request.method === 'POST' || request.method === 'PUT')) {
    if (refusal) return refusal;
    const body = request.body as { publish: boolean };
    return {
      status: request.method === 'POST' ? 201 : 200,
      data: detail({ status: body.publish ? 'scheduled' : 'draft' }),
    };
  }
  if (request.url === '/api/v1/settings/client')
    return {
      status: 200,
      data: {
        defaultCountry: 'DE',
        defaultLanguage: 'en',
        defaultCurrency: 'EUR',
        currencies: ['EUR', 'USD', 'JPY'],
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

function renderDialog(options: { auction?: AuctionDetail; seller?: boolean } = {}) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderPageAt(
    AUCTIONS_ROUTE,
    <AuctionFormDialog open auction={options.auction} onClose={onClose} onSaved={onSaved} />,
    {
      seller: options.seller ?? false,
      permissions: { [AUCTIONS_ROUTE]: ['view', 'create', 'edit'], [AUCTION_PAGE]: ['view'] },
    },
  );
  return { onSaved, onClose };
}

const writes = () => requests.filter((request) => request.method === 'POST' || request.method === 'PUT');

/** Pastes the text into the field: what typing it would give, without a key event per character. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(text);
}

const box = (dialog: HTMLElement, name: string | RegExp) => within(dialog).getByRole('textbox', { name });

/** datetime-local inputs have no role: found by their label. */
function setTime(dialog: HTMLElement, label: RegExp, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

async function fillIn(dialog: HTMLElement) {
  await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Seller' }), SELLER_ID);
  await userEvent.selectOptions(
    within(dialog).getByRole('combobox', { name: 'Product' }),
    'Tea chest (TC-1)',
  );
  await fill(box(dialog, /^Title/), 'Oak tea chest');
  await fill(box(dialog, /^Starting price/), '10.50');
  await fill(box(dialog, /^Reserve/), '20');
  setTime(dialog, /^Starts/, '2030-01-01T10:00');
  setTime(dialog, /^Scheduled end/, '2030-01-08T10:00');
}

describe('AuctionFormDialog', () => {
  it('publishes a new auction in minor units, with the increments and the default soft close', async () => {
    const { onSaved } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'New auction' });
    await waitFor(() => expect(box(dialog, 'Increment 2: from')).toHaveProperty('value', '20.00'));
    expect(box(dialog, 'Increment 1: step')).toHaveProperty('value', '0.50');
    expect(within(dialog).getByRole('combobox', { name: 'Currency' })).toHaveProperty('value', 'EUR');
    expect(within(dialog).getByText(/Hidden from bidders/)).toBeTruthy();
    expect(within(dialog).getByText(/No extension passes it/)).toBeTruthy();
    expect(within(dialog).queryAllByRole('heading', { level: 1 })).toHaveLength(0);
    await fillIn(dialog);
    await fill(box(dialog, 'Increment 1: step'), '0.25');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: AUCTION_ID })));
    const [posted] = writes();
    expect(posted?.method).toBe('POST');
    expect(posted?.url).toBe(AUCTIONS_API);
    expect(posted?.body).toEqual({
      sellerId: SELLER_ID,
      productId: PRODUCT_ID,
      quantity: 1,
      title: 'Oak tea chest',
      description: '',
      currency: 'EUR',
      startingPriceMinor: 1050,
      reserveMinor: 2000,
      buyNowMinor: null,
      increments: [
        { fromMinor: 0, stepMinor: 25 },
        { fromMinor: 2000, stepMinor: 100 },
        { fromMinor: 20_000, stepMinor: 500 },
        { fromMinor: 100_000, stepMinor: 1000 },
        { fromMinor: 500_000, stepMinor: 5000 },
        { fromMinor: 2_500_000, stepMinor: 10_000 },
      ],
      startsAt: new Date('2030-01-01T10:00').toISOString(),
      endsAt: new Date('2030-01-08T10:00').toISOString(),
      softCloseSeconds: 120,
      extensionSeconds: 120,
      paymentHours: 48,
      publish: true,
    });
  });

  it('saves a draft with a hard end and minutes as seconds', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'New auction' });
    await fillIn(dialog);
    setTime(dialog, /^Hard end/, '2030-01-08T12:00');
    await fill(box(dialog, /^Soft-close window/), '5');
    await fill(box(dialog, /^Extension/), '1.5');
    await fill(box(dialog, /^Winner's payment time/), '72');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toMatchObject({
      hardEndAt: new Date('2030-01-08T12:00').toISOString(),
      softCloseSeconds: 300,
      extensionSeconds: 90,
      paymentHours: 72,
      publish: false,
    });
  });

  it('says what is missing before sending anything', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'New auction' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await within(dialog).findByText('Choose a seller from the list.')).toBeTruthy();
    expect(within(dialog).getByText('Give the auction a title.')).toBeTruthy();
    expect(within(dialog).getByText('Enter a price.')).toBeTruthy();
    expect(within(dialog).getByText('Choose when it starts.')).toBeTruthy();
    expect(writes()).toHaveLength(0);
  });

  it('shows the server’s field errors beside their fields, and its message otherwise', async () => {
    const message = 'The reserve is at least the starting price.';
    refusal = { status: 422, data: { message, code: 'AUCTION_INVALID', fields: { reserveMinor: message } } };
    const { onSaved } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'New auction' });
    await fillIn(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    // Beside its field: the reserve's own error message (aria-errormessage), not an alert over the form.
    await waitFor(() => expect(box(dialog, /^Reserve/)).toHaveAccessibleErrorMessage(message));
    expect(box(dialog, /^Starting price/)).not.toHaveAccessibleErrorMessage();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(onSaved).not.toHaveBeenCalled();

    refusal = {
      status: 409,
      data: { message: 'A live or ended auction’s terms cannot change.', code: 'AUCTION_FROZEN' },
    };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('terms cannot change'),
    );
    expect(box(dialog, /^Reserve/)).not.toHaveAccessibleErrorMessage();
  });

  it('takes whole yen in JPY: the increments and the amounts have no decimals', async () => {
    renderDialog({ seller: true });
    const dialog = await screen.findByRole('dialog', { name: 'New auction' });
    const currency = within(dialog).getByRole('combobox', { name: 'Currency' });
    await waitFor(() => expect(currency).toHaveProperty('value', 'EUR'));
    await userEvent.selectOptions(currency, 'JPY');
    expect(box(dialog, 'Increment 1: step')).toHaveProperty('value', '1');
    expect(box(dialog, 'Increment 2: from')).toHaveProperty('value', '20');
    expect(within(dialog).queryByRole('combobox', { name: 'Seller' })).toBeNull();
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Product' }),
      'Tea chest (TC-1)',
    );
    await fill(box(dialog, /^Title/), 'Tea chest');
    await fill(box(dialog, /^Starting price \(JPY\)/), '1000.50');
    setTime(dialog, /^Starts/, '2030-01-01T10:00');
    setTime(dialog, /^Scheduled end/, '2030-01-08T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(await within(dialog).findByText('JPY has no minor unit: enter whole amounts.')).toBeTruthy();
    expect(writes()).toHaveLength(0);

    await fill(box(dialog, /^Starting price/), '1000');
    await fill(box(dialog, 'Increment 1: step'), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    const body = writes()[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ currency: 'JPY', startingPriceMinor: 1000, reserveMinor: null });
    expect(body).not.toHaveProperty('sellerId');
    expect((body.increments as unknown[]).slice(0, 2)).toEqual([
      { fromMinor: 0, stepMinor: 10 },
      { fromMinor: 20, stepMinor: 1 },
    ]);
  });

  it('edits an auction’s terms from what it has, and puts them', async () => {
    const { onSaved, onClose } = renderDialog({ auction: detail() });
    const dialog = await screen.findByRole('dialog', { name: 'Edit auction #12' });
    expect(box(dialog, /^Title/)).toHaveProperty('value', 'Tea chest');
    expect(box(dialog, /^Starting price/)).toHaveProperty('value', '10.50');
    expect(box(dialog, /^Reserve/)).toHaveProperty('value', '20.00');
    expect(box(dialog, /^Extension/)).toHaveProperty('value', '3');
    expect(within(dialog).getAllByRole('row')).toHaveLength(3);
    await fill(box(dialog, /^Buy Now/), '99.90');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(onClose).toHaveBeenCalled();
    const [put] = writes();
    expect(put?.method).toBe('PUT');
    expect(put?.url).toBe(`${AUCTIONS_API}/${AUCTION_ID}`);
    expect(put?.body).toMatchObject({
      sellerId: SELLER_ID,
      productId: PRODUCT_ID,
      startingPriceMinor: 1050,
      reserveMinor: 2000,
      buyNowMinor: 9990,
      increments: [
        { fromMinor: 0, stepMinor: 50 },
        { fromMinor: 2000, stepMinor: 100 },
      ],
      startsAt: '2030-01-01T10:00:00.000Z',
      hardEndAt: '2030-01-08T11:00:00.000Z',
      extensionSeconds: 180,
      publish: true,
    });
  });

  it('keeps a scheduled auction published: one "Save changes" button', async () => {
    renderDialog({ auction: detail({ status: 'scheduled' }) });
    const dialog = await screen.findByRole('dialog', { name: 'Edit auction #12' });
    expect(within(dialog).queryByRole('button', { name: 'Save draft' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toMatchObject({ publish: true });
  });
});
