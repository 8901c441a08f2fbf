// The History tab in jsdom against a fake API: one line per field with before → after, the entry's
// time, person, section (and shop, for an admin seeing every scope) spanning them, long values cut
// with the whole in the title, filters and page in the URL beside the page's tab, the "Who" list of
// names, and the export started with the same filters.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { SettingsHistoryRow } from '../../../contracts/settings';
import { system } from '../../ui/theme';
import { HISTORY_PAGE_SIZE, HistoryTab } from './HistoryTab';
import { fakeApiForEachTest } from './sections/section-testing';

const ADMIN = '11111111-1111-4111-8111-111111111111';
const SELLER_USER = '22222222-2222-4222-8222-222222222222';
const SHOP = '33333333-3333-4333-8333-333333333333';
const LONG = { zones: Array.from({ length: 12 }, (_, i) => ({ name: `Zone ${i}`, countries: ['IN'] })) };

const rows: SettingsHistoryRow[] = [
  {
    id: 'e1',
    at: '2026-11-20T10:00:00.000Z',
    actor: { id: SELLER_USER, name: 'Sita Seller' },
    section: 'shipping',
    sellerId: SHOP,
    requestId: 'req-2',
    changes: [{ field: 'divisor', before: 5000, after: 6000 }],
  },
  {
    id: 'e2',
    at: '2026-11-19T09:00:00.000Z',
    actor: { id: ADMIN, name: 'Ada Admin' },
    section: 'company',
    sellerId: null,
    requestId: 'req-1',
    changes: [
      { field: 'legalName', before: '', after: '=HYPERLINK("http://evil.test")' },
      { field: 'taxOptions', before: null, after: LONG },
    ],
  },
];

const api = fakeApiForEachTest((request) => {
  if (request.url === '/api/v1/settings')
    return {
      status: 200,
      data: {
        scope: { type: 'marketplace', sellerId: null },
        sections: ['profile', 'localization', 'shipping', 'company'],
        canEdit: true,
      },
    };
  if (request.url === '/api/v1/settings/history/actors')
    return {
      status: 200,
      data: {
        actors: [
          { id: ADMIN, name: 'Ada Admin' },
          { id: SELLER_USER, name: 'Sita Seller' },
        ],
        sellers: [{ id: SHOP, name: 'Saffron Stores' }],
      },
    };
  if (request.url === '/api/v1/settings/history') return { status: 200, data: { result: rows, count: 60 } };
  if (request.method === 'POST' && request.url === '/api/v1/settings/history/export')
    return {
      status: 202,
      data: { taskStatus: { taskId: 't1', taskName: 'Settings history export', status: 'Queued' } },
    };
  if (request.url === '/api/v1/tasks/t1')
    return {
      status: 200,
      data: {
        taskId: 't1',
        taskName: 'Settings history export',
        status: 'Queued',
        progress: 0,
        attempts: 0,
        createdAt: '2026-11-20T10:00:00.000Z',
        finishedAt: null,
        error: null,
      },
    };
  return { status: 404, data: { message: 'not here' } };
});

function renderTab(search: string) {
  const memory = memoryLocation({ path: `/settings/manage-settings${search}`, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <HistoryTab />
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return memory;
}

const lastHistoryRequest = () =>
  api.requests.filter((request) => request.url === '/api/v1/settings/history').at(-1);

describe('the settings History tab', () => {
  it('shows each field before → after, the entry spanning its fields, the shop for an admin', async () => {
    renderTab('?tab=history');
    const table = await screen.findByRole('table', { name: 'Settings history' });
    const lines = within(table).getAllByRole('row').slice(1);
    expect(lines).toHaveLength(3);
    expect(
      within(lines[0] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      expect.any(String),
      'Sita Seller',
      'ShippingSaffron Stores',
      'Volumetric divisor',
      '5000',
      '6000',
      'req-2',
    ]);
    // The company save: one entry, two fields; its time, person, section and request id span both.
    const company = within(lines[1] as HTMLElement).getAllByRole('cell');
    expect(company.map((cell) => cell.textContent)).toEqual([
      expect.any(String),
      'Ada Admin',
      'CompanyMarketplace',
      'Legal name',
      '(none)',
      '=HYPERLINK("http://evil.test")',
      'req-1',
    ]);
    expect(company[0]).toHaveAttribute('rowspan', '2');
    const tax = within(lines[2] as HTMLElement).getAllByRole('cell');
    expect(tax.map((cell) => cell.textContent?.slice(0, 11))).toEqual([
      'Tax options',
      '(none)',
      '{"zones":[{',
    ]);
    // A long value is cut, its title holds it whole.
    const cut = within(tax[2] as HTMLElement).getByTitle(JSON.stringify(LONG));
    expect(cut.textContent?.endsWith('…')).toBe(true);
    expect(cut.textContent?.length).toBeLessThan(JSON.stringify(LONG).length);
    expect(screen.getByText('60 changes')).toBeInTheDocument();
    expect(lastHistoryRequest()?.params).toMatchObject({
      skip: 0,
      limit: HISTORY_PAGE_SIZE,
      section: undefined,
    });
  });

  it('keeps filters and page in the URL beside the tab, and asks the server for them', async () => {
    const user = userEvent.setup();
    const memory = renderTab('?tab=history&hpage=2');
    await screen.findByRole('table', { name: 'Settings history' });
    expect(lastHistoryRequest()?.params).toMatchObject({ skip: HISTORY_PAGE_SIZE });

    await user.selectOptions(screen.getByLabelText('Section'), 'Company');
    await waitFor(() =>
      expect(memory.history?.at(-1)).toBe('/settings/manage-settings?tab=history&hsection=company'),
    );
    await waitFor(() => expect(lastHistoryRequest()?.params).toMatchObject({ section: 'company', skip: 0 }));

    const who = screen.getByLabelText('Who');
    expect(
      within(who)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Everyone', 'Ada Admin', 'Sita Seller']);
    await user.selectOptions(who, 'Sita Seller');
    await waitFor(() =>
      expect(memory.history?.at(-1)).toBe(
        `/settings/manage-settings?tab=history&hsection=company&huser=${SELLER_USER}`,
      ),
    );
    await waitFor(() =>
      expect(lastHistoryRequest()?.params).toMatchObject({ section: 'company', userId: SELLER_USER }),
    );

    const from = screen.getByLabelText('From');
    await user.type(from, '2026-11-01');
    await waitFor(() => expect(lastHistoryRequest()?.params).toMatchObject({ from: '2026-11-01' }));
    expect(memory.history?.at(-1)).toContain('hfrom=2026-11-01');

    await user.click(screen.getByRole('button', { name: /Clear filters/ }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe('/settings/manage-settings?tab=history'));
  });

  it('exports what the filters select', async () => {
    const user = userEvent.setup();
    renderTab(`?tab=history&hsection=shipping&huser=${ADMIN}&hto=2026-11-30`);
    await screen.findByRole('table', { name: 'Settings history' });
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'CSV' }));
    await waitFor(() =>
      expect(api.requests.find((request) => request.method === 'POST')?.body).toEqual({
        section: 'shipping',
        userId: ADMIN,
        to: '2026-11-30',
        format: 'csv',
      }),
    );
  });
});
