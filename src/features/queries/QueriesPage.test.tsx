import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUERIES_API, QUERIES_ROUTE } from '../../../contracts/queries';
import { notificationKeys } from '../../services/notification-keys';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import QueriesPage from './QueriesPage';
import { detail, listItem, renderAt } from './testing';

const tabs = { new: 3, open: 5, waiting: 1, resolved: 0, closed: 7 };
let requests: RecordedRequest[];
let uninstall: () => void;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === QUERIES_API || request.url === `${QUERIES_API}/method/searchQueries`) {
    if (request.method.toLowerCase() === 'post')
      return { status: 201, data: detail({ id: '1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b' }) };
    return { status: 200, data: { result: [listItem()], total: 1, totalCapped: false, tabs } };
  }
  if (request.url === '/api/v1/savedViews/') return { status: 200, data: { result: [] } };
  if (request.url === '/api/v1/stagingProducts/method/search')
    return { status: 200, data: { result: [], count: 0, countExact: true } };
  if (request.url?.startsWith('/api/v1/'))
    return { status: 200, data: { result: [], data: { result: [], count: 0 } } };
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  ({ requests, uninstall } = installFakeHttp(reply));
});

afterEach(() => {
  cleanup();
  uninstall();
});

const lists = () =>
  requests.filter(
    (request) => request.method.toLowerCase() === 'get' && request.url?.startsWith(QUERIES_API),
  );

describe('QueriesPage', () => {
  it('asks for what the URL names, shows the tab counts and the rows, user text as text', async () => {
    renderAt(`${QUERIES_ROUTE}?status=open&priority=high&overdue=1&page=2`, <QueriesPage />);
    const table = await screen.findByRole('table', { name: 'Queries' });
    expect(within(table).getByText('<b>Where is my order?</b>')).toBeTruthy();
    expect(within(table).getByText('Meera <script>')).toBeTruthy();
    expect(within(table).getByText('Chai & Co')).toBeTruthy();
    expect(lists().at(-1)?.params).toMatchObject({
      status: 'open',
      priority: 'high',
      overdue: true,
      skip: 20,
      limit: 20,
    });
    expect(screen.getByRole('tab', { name: /Open 5/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /All 16/ })).toBeTruthy();
    // An overdue follow-up says so in words, not only in colour.
    expect(within(table).getByText(/Overdue since/)).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'Q-12' }).getAttribute('href')).toContain(
      '/queries/query?id=',
    );
  });

  it('puts a tab, a filter and a search in the URL, back on page 1, using the search route', async () => {
    const { memory } = renderAt(`${QUERIES_ROUTE}?page=3`, <QueriesPage />);
    await screen.findByRole('table', { name: 'Queries' });
    await userEvent.click(screen.getByRole('tab', { name: /Closed/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${QUERIES_ROUTE}?status=closed`));
    await userEvent.click(screen.getByRole('checkbox', { name: 'SLA breached' }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${QUERIES_ROUTE}?status=closed&breached=1`));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search queries' }), 'late{Enter}');
    await waitFor(() => expect(lists().at(-1)?.url).toBe(`${QUERIES_API}/method/searchQueries`));
    expect(lists().at(-1)?.params).toMatchObject({ query: 'late', status: 'closed', slaBreached: true });
  });

  it('hides the seller column and filter from a seller', async () => {
    renderAt(QUERIES_ROUTE, <QueriesPage />, { seller: true });
    const table = await screen.findByRole('table', { name: 'Queries' });
    expect(within(table).queryByRole('columnheader', { name: 'Seller' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Seller' })).toBeNull();
  });

  it('offers "New query" only with edit, and checks the form before sending', async () => {
    renderAt(QUERIES_ROUTE, <QueriesPage />, { actions: ['view'] });
    await screen.findByRole('table', { name: 'Queries' });
    expect(screen.queryByRole('button', { name: /New query/ })).toBeNull();
    cleanup();
    const { memory } = renderAt(QUERIES_ROUTE, <QueriesPage />);
    await userEvent.click(await screen.findByRole('button', { name: /New query/ }));
    const dialog = await screen.findByRole('dialog', { name: 'New query' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add query' }));
    expect(await within(dialog).findByText('Enter the customer’s name.')).toBeTruthy();
    expect(
      requests.some((request) => request.method.toLowerCase() === 'post' && request.url === QUERIES_API),
    ).toBe(false);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Customer name/ }), 'Ravi');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /E-mail/ }), 'ravi@example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Subject/ }), 'Bulk price');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Message/ }), 'For 200 units?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add query' }));
    await waitFor(() => expect(memory.history?.at(-1)).toContain('/queries/query?id=1e2d3c4b'));
    expect(
      requests.find((request) => request.method.toLowerCase() === 'post' && request.url === QUERIES_API)
        ?.body,
    ).toMatchObject({
      customerName: 'Ravi',
      email: 'ravi@example.com',
      subject: 'Bulk price',
      message: 'For 200 units?',
      sellerId: null,
      channel: 'manual',
      priority: 'normal',
    });
  });

  it('reads the list again when a notification about a query arrives (live inbox)', async () => {
    const { client } = renderAt(QUERIES_ROUTE, <QueriesPage />);
    await screen.findByRole('table', { name: 'Queries' });
    const before = lists().length;
    const page = (items: { id: string; link: string | null }[]) => ({
      pages: [
        {
          data: {
            result: items.map((item) => ({
              ...item,
              title: 'x',
              body: '',
              taskId: null,
              taskName: null,
              status: null,
              read: false,
              createdAt: '2026-01-01T10:00:00.000Z',
            })),
            count: items.length,
            unreadCount: items.length,
          },
        },
      ],
      pageParams: [0],
    });
    await client.prefetchInfiniteQuery({
      queryKey: notificationKeys.lists(),
      queryFn: async () => page([{ id: 'n-1', link: '/sellers/other' }]).pages[0],
      initialPageParam: 0,
    });
    expect(lists().length).toBe(before);
    client.setQueryData(notificationKeys.lists(), page([{ id: 'n-2', link: `${QUERIES_ROUTE}/abc` }]));
    await client.refetchQueries({ queryKey: notificationKeys.lists() }).catch(() => {});
    await waitFor(() => expect(lists().length).toBeGreaterThan(before));
  });
});
