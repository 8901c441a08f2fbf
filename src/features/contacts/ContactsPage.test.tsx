import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CONTACT_VIEW_COLUMNS, CONTACTS_ROUTE, type Contact } from '../../../contracts/contacts';
import { encodeQuery } from '../../../contracts/query-tree';
import type { RouteAction } from '../../../contracts/routes';
import { configureHttp, http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';
import { makeCurrentUser } from '../../services/testing/current-user';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import ContactsPage from './ContactsPage';

const API = '/api/v1/contacts';
const ADA = '0b6f8c1e-8a8e-4d3b-9a0e-2f1f5b6f7a10';

const contact = (patch: Partial<Contact> = {}): Contact => ({
  id: ADA,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '',
  company: '<b>Engines</b>',
  companyTypeId: null,
  companyTypeName: 'Retail',
  country: 'GB',
  language: 'EN',
  tags: ['vip'],
  source: 'manual',
  consent: true,
  consentAt: '2026-01-01T10:00:00.000Z',
  subscription: 'unsubscribed',
  unsubscribedAt: '2026-01-02T10:00:00.000Z',
  unsubscribeMethod: 'link',
  bouncedAt: null,
  bounceReason: null,
  version: 2,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  lastContactedAt: null,
  ...patch,
});

const VIEW = '5d9c7a40-1f2e-4c3b-8a7d-6e5f4a3b2c10';
const britain = {
  combinator: 'and' as const,
  children: [{ field: 'country', op: 'anyOf' as const, value: ['GB'] }],
};
/** The saved views the server holds for the contacts list (an audience saved from a campaign). */
let savedViews: unknown[] = [];

let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

function reply(request: RecordedRequest): FakeReply {
  if (request.url === API) return { status: 200, data: { result: [contact()], count: 1, countExact: true } };
  if (request.url === `${API}/${ADA}`) return { status: 200, data: contact() };
  if (request.url === `${API}/${ADA}/history`)
    return {
      status: 200,
      data: {
        result: [
          {
            id: 'h-1',
            at: '2026-01-02T10:00:00.000Z',
            actor: { id: null, name: '' },
            action: 'unsubscribed',
            changes: [{ field: 'subscription', before: 'subscribed', after: 'unsubscribed' }],
            note: 'Through the unsubscribe link in a mail',
            campaignId: null,
            link: null,
          },
        ],
        count: 1,
      },
    };
  if (request.url === `${API}/companyTypes`) return { status: 200, data: { result: [] } };
  if (request.url === '/api/v1/savedViews/') return { status: 200, data: { result: savedViews } };
  if (request.url === `${API}/export`)
    return {
      status: 202,
      data: { taskStatus: { taskId: 't-1', taskName: 'Contacts export', status: 'Queued' } },
    };
  if (request.url === `${API}/queryFields`)
    return {
      status: 200,
      data: {
        result: [
          {
            key: 'country',
            label: 'Country',
            kind: 'enum',
            options: [{ value: 'GB', label: 'United Kingdom' }],
          },
        ],
      },
    };
  return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
}

beforeEach(() => {
  savedViews = [];
  const fake = createFakeAdapter(reply);
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {}, onTask: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderPage(search: string, actions: RouteAction[] = ['view', 'create', 'edit', 'import']) {
  const memory = memoryLocation({ path: `${CONTACTS_ROUTE}${search}`, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of [sessionKeys.currentUser(), sessionKeys.sidebar()])
    client.setQueryDefaults(key, { staleTime: Number.POSITIVE_INFINITY });
  client.setQueryData(sessionKeys.currentUser(), makeCurrentUser());
  client.setQueryData(sessionKeys.sidebar(), {
    menu: [],
    permissions: { [CONTACTS_ROUTE]: actions },
    usingDefaultPermissions: false,
  });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <ContactsPage />
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return memory;
}

describe('ContactsPage', () => {
  it('asks the server for the page the URL names and shows the rows, user text as text', async () => {
    renderPage('?s=ada&sort=email&order=asc&page=2&size=50');
    const table = await screen.findByRole('table', { name: 'Contacts' });
    expect(within(table).getByText('<b>Engines</b>')).toBeTruthy();
    expect(within(table).getByText('Unsubscribed')).toBeTruthy();
    const list = requests.find((request) => request.url === API);
    expect(list?.params).toMatchObject({ search: 'ada', sort: 'email', order: 'asc', skip: 50, limit: 50 });
    expect(screen.getByTestId('contact-total').textContent).toBe('1 contact');
  });

  it('opens the contact page with its timeline; the unsubscribed contact offers no unsubscribe', async () => {
    const memory = renderPage('');
    await userEvent.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await waitFor(() => expect(memory.history?.at(-1)).toContain(`contact=${ADA}`));
    const drawer = await screen.findByRole('dialog', { name: 'Ada Lovelace' });
    expect(await within(drawer).findByText('Unsubscribed', { selector: 'span' })).toBeTruthy();
    expect(await within(drawer).findByText(/Through the unsubscribe link/)).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: /Unsubscribe/ })).toBeNull();
    expect(within(drawer).getByRole('button', { name: /Edit/ })).toBeTruthy();
  });

  it('shows only what the permissions allow', async () => {
    renderPage('', ['view']);
    await screen.findByRole('table', { name: 'Contacts' });
    expect(screen.queryByRole('button', { name: /Add contact/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Import leads/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Company types/ })).toBeNull();
  });

  it('exports what the list selects, in its order, when the user may export', async () => {
    renderPage(`?q=${encodeURIComponent(encodeQuery(britain) ?? '')}&s=ada&sort=email&order=asc&page=3`, [
      'view',
      'export',
    ]);
    await screen.findByRole('table', { name: 'Contacts' });
    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /XLSX/ }));
    await waitFor(() =>
      expect(requests.find((request) => request.url === `${API}/export`)?.body).toEqual({
        query: encodeQuery(britain),
        search: 'ada',
        sort: 'email',
        order: 'asc',
        format: 'xlsx',
      }),
    );
  });

  it('offers no export without the permission', async () => {
    renderPage('', ['view']);
    await screen.findByRole('table', { name: 'Contacts' });
    expect(screen.queryByRole('button', { name: /Export/ })).toBeNull();
  });

  it('opens the default saved view (an audience) from a bare URL, and names it in the views menu', async () => {
    savedViews = [
      {
        id: VIEW,
        list: 'contacts',
        name: 'British retailers',
        scope: 'shared',
        state: {
          query: britain,
          search: '',
          columns: CONTACT_VIEW_COLUMNS,
          sort: 'name',
          order: 'asc',
          pageSize: 50,
        },
        owner: { id: 'u-1', name: 'Asha' },
        editable: false,
        isDefault: true,
        updatedAt: '2026-01-01T10:00:00.000Z',
      },
    ];
    const memory = renderPage('');
    await waitFor(() => expect(memory.history?.at(-1)).toContain(`view=${VIEW}`));
    await waitFor(() =>
      expect(requests.filter((request) => request.url === API).at(-1)?.params).toMatchObject({
        query: encodeQuery(britain),
        sort: 'name',
        order: 'asc',
        limit: 50,
      }),
    );
    expect(await screen.findByRole('button', { name: /British retailers/ })).toBeTruthy();
  });

  it('checks the new contact in the browser first, with the messages beside the fields', async () => {
    renderPage('');
    await userEvent.click(await screen.findByRole('button', { name: /Add contact/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a contact' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /E-mail/ }), 'not-an-address');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(
      await within(dialog).findByText('Enter a valid e-mail address, like name@example.com.'),
    ).toBeTruthy();
    expect(requests.some((request) => request.method === 'post' && request.url === API)).toBe(false);
  });
});
