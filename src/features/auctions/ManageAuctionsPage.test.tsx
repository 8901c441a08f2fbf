import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUCTION_PAGE,
  AUCTIONS_API,
  AUCTIONS_ROUTE,
  type AuctionList,
  type AuctionListItem,
  auctionPageLink,
} from '../../../contracts/auctions';
import type { RouteAction } from '../../../contracts/routes';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import { renderPageAt } from '../../services/testing/render-page';
import ManageAuctionsPage from './ManageAuctionsPage';

vi.mock('../../services/choices', () => {
  const found = (data: { value: string; label: string }[]) => () => ({ data, isPending: false });
  return { useProductChoices: found([]), useSellerChoices: found([]), usePeopleChoices: found([]) };
});

const SELLER_ID = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
const tabs = { draft: 2, scheduled: 3, live: 4, ended: 5, cancelled: 1 };

const item = (patch: Partial<AuctionListItem> = {}): AuctionListItem => ({
  id: '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  number: 12,
  title: 'Tea chest <b>',
  sellerId: SELLER_ID,
  sellerName: 'Chai & Co',
  productId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  productName: 'Chest (CH-1)',
  quantity: 2,
  currency: 'EUR',
  status: 'ended',
  outcome: 'sold',
  priceMinor: 12_350,
  bids: 7,
  startsAt: '2026-11-01T09:00:00.000Z',
  effectiveEndAt: '2026-11-08T09:02:00.000Z',
  eventId: null,
  ...patch,
});

const unsold = item({
  id: '4d2e3f5a-6b7c-4d8e-9fa0-1b2c3d4e5f60',
  number: 13,
  title: 'Silver spoon',
  status: 'scheduled',
  outcome: null,
  priceMinor: null,
  bids: 0,
});

let requests: RecordedRequest[];
let uninstall: () => void;
let total = 2;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === AUCTIONS_API && request.method === 'GET') {
    const page: AuctionList = { result: [item(), unsold], total, totalCapped: false, tabs };
    return { status: 200, data: page };
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
  if (request.url.startsWith('/api/v1/')) return { status: 200, data: { result: [] } };
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  total = 2;
  ({ requests, uninstall } = installFakeHttp(reply));
});
afterEach(() => {
  cleanup();
  uninstall();
});

function renderAt(
  path: string,
  options: { actions?: RouteAction[]; seller?: boolean } = {},
): ReturnType<typeof renderPageAt> {
  const { actions = ['view', 'create', 'edit'], seller = false } = options;
  return renderPageAt(path, <ManageAuctionsPage />, {
    seller,
    permissions: { [AUCTIONS_ROUTE]: actions, [AUCTION_PAGE]: ['view'] },
  });
}

const lists = () => requests.filter((request) => request.method === 'GET' && request.url === AUCTIONS_API);

describe('ManageAuctionsPage', () => {
  it('asks for what the URL names and shows the tab counts and the rows, user text as text', async () => {
    renderAt(`${AUCTIONS_ROUTE}?status=ended&currency=EUR`);
    const table = await screen.findByRole('table', { name: 'Auctions' });
    expect(lists().at(-1)?.params).toMatchObject({ status: 'ended', currency: 'EUR', skip: 0, limit: 20 });
    expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual([
      'Manage Auctions',
    ]);
    expect(screen.getByRole('tab', { name: /All 15/ })).toBeTruthy();
    for (const name of [/Draft 2/, /Scheduled 3/, /Live 4/, /Cancelled 1/])
      expect(screen.getByRole('tab', { name })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Ended 5/ }).getAttribute('aria-selected')).toBe('true');

    const [, first, second] = within(table).getAllByRole('row');
    const sold = within(first!);
    expect(sold.getByText('#12')).toBeTruthy();
    expect(sold.getByRole('link', { name: 'Tea chest <b>' }).getAttribute('href')).toBe(
      auctionPageLink(item().id),
    );
    expect(sold.getByText('Chest (CH-1) × 2')).toBeTruthy();
    expect(sold.getByText('Chai & Co')).toBeTruthy();
    expect(sold.getByText('Ended · Sold')).toBeTruthy();
    expect(sold.getByText('€123.50')).toBeTruthy();
    expect(sold.getByText('7')).toBeTruthy();
    // Ends: the effective end (a late bid moved it past the scheduled one).
    expect(first?.querySelectorAll('time')[1]?.getAttribute('dateTime')).toBe('2026-11-08T09:02:00.000Z');
    const upcoming = within(second!);
    expect(upcoming.getByText('Scheduled')).toBeTruthy();
    expect(upcoming.getByText('—')).toBeTruthy();
    expect(screen.getByTestId('auction-total-count').textContent).toBe('2 auctions');
  });

  it('puts a tab, a filter and the search in the URL and the request, back on page 1', async () => {
    const { memory } = renderAt(`${AUCTIONS_ROUTE}?page=2`);
    await screen.findByRole('table', { name: 'Auctions' });
    await userEvent.click(screen.getByRole('tab', { name: /Live/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${AUCTIONS_ROUTE}?status=live`));

    const currency = screen.getByRole('combobox', { name: 'Currency' });
    await waitFor(() => expect(within(currency).getByRole('option', { name: 'USD' })).toBeTruthy());
    await userEvent.selectOptions(currency, 'USD');
    await waitFor(() =>
      expect(lists().at(-1)?.params).toMatchObject({ status: 'live', currency: 'USD', skip: 0 }),
    );

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search auctions' }), '#12{Enter}');
    await waitFor(() =>
      expect(lists().at(-1)?.params).toMatchObject({ query: '#12', status: 'live', currency: 'USD' }),
    );
    expect(memory.history?.at(-1)).toBe(`${AUCTIONS_ROUTE}?status=live&currency=USD&s=%2312`);
    expect(screen.getByRole('combobox', { name: 'Seller' })).toBeTruthy();
  });

  it('pages on the server', async () => {
    total = 45;
    const { memory } = renderAt(AUCTIONS_ROUTE);
    const pages = await screen.findByRole('navigation', { name: 'Auction pages' });
    expect(within(pages).getByText('1–20 of 45')).toBeTruthy();
    await userEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lists().at(-1)?.params).toMatchObject({ skip: 20, limit: 20 }));
    expect(memory.history?.at(-1)).toBe(`${AUCTIONS_ROUTE}?page=2`);
  });

  it('opens "New auction" with the create permission', async () => {
    renderAt(AUCTIONS_ROUTE);
    await screen.findByRole('table', { name: 'Auctions' });
    await userEvent.click(screen.getByRole('button', { name: /New auction/ }));
    const dialog = await screen.findByRole('dialog', { name: 'New auction' });
    expect(within(dialog).getByRole('button', { name: 'Save draft' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeTruthy();
  });

  it('hides "New auction" without the create permission, and the seller filter from a seller', async () => {
    renderAt(AUCTIONS_ROUTE, { seller: true, actions: ['view'] });
    await screen.findByRole('table', { name: 'Auctions' });
    expect(screen.queryByRole('button', { name: /New auction/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Seller' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Seller' })).toBeNull();
  });
});
