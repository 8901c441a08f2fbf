import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createViewBodySchema, type SavedView, type ViewState } from '../../../contracts/saved-views';
import { configureHttp, http } from '../../services/http';
import { useDefaultView } from '../../services/saved-views';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../theme';
import { toaster } from '../toaster';
import { SavedViewsMenu, type SavedViewsMenuProps } from './SavedViewsMenu';

const state: ViewState = {
  query: { combinator: 'and', children: [{ field: 'status', op: 'anyOf', value: ['draft'] }] },
  search: '',
  columns: ['title', 'sku'],
  sort: 'updatedAt',
  order: 'desc',
  pageSize: 25,
};

const view = (id: string, name: string, extra: Partial<SavedView> = {}): SavedView => ({
  id,
  list: 'staging-products',
  name,
  scope: 'private',
  state,
  owner: { id: 'me', name: 'Sunil Seller' },
  editable: true,
  isDefault: false,
  updatedAt: '2026-01-31T10:00:00.000Z',
  ...extra,
});

const mine = view('11111111-1111-4111-8111-111111111111', 'My drafts', { isDefault: true });
const shared = view('22222222-2222-4222-8222-222222222222', 'Review queue', {
  scope: 'team',
  editable: false,
  owner: { id: 'other', name: 'Mira Mate' },
  state: { ...state, pageSize: 50 },
});

let requests: RecordedRequest[];
let reply: (request: RecordedRequest) => FakeReply;
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  reply = (request) => {
    if (request.method === 'GET') return { status: 200, data: { result: [mine, shared] } };
    if (request.method === 'POST') {
      const body = request.body as { name: string; scope: SavedView['scope']; state: ViewState };
      return {
        status: 201,
        data: view('33333333-3333-4333-8333-333333333333', body.name, {
          scope: body.scope,
          state: body.state,
        }),
      };
    }
    if (request.method === 'PATCH') return { status: 200, data: { ...mine, ...(request.body as object) } };
    return { status: 204 };
  };
  const fake = createFakeAdapter((request) => reply(request));
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  toaster.remove();
});

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </ChakraProvider>
  );
}

function renderMenu(props: Partial<SavedViewsMenuProps> = {}) {
  const onLoad = vi.fn();
  const all: SavedViewsMenuProps = {
    list: 'staging-products',
    current: state,
    viewId: mine.id,
    onLoad,
    canPublish: false,
    neutralLabel: 'All products',
    ...props,
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const ui = (p: SavedViewsMenuProps) => (
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <SavedViewsMenu {...p} />
      </QueryClientProvider>
    </ChakraProvider>
  );
  const result = render(ui(all));
  return {
    onLoad,
    rerender: (next: Partial<SavedViewsMenuProps>) => result.rerender(ui({ ...all, ...next })),
  };
}

const trigger = () => screen.getByTestId('saved-views-trigger');
const openMenu = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(trigger());
  return screen.findByRole('menu');
};
const itemNames = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('<SavedViewsMenu />', () => {
  it('marks the list modified when it differs from the loaded view, and not once it matches again', async () => {
    const { rerender } = renderMenu();
    await waitFor(() => expect(trigger()).toHaveTextContent('My drafts'));
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();

    // Another column: modified.
    rerender({ current: { ...state, columns: ['title', 'sku', 'price'] } });
    expect(await screen.findByText('Modified')).toBeInTheDocument();
    // The same state as saved, written differently (padded search, keys in another order): not modified.
    rerender({
      current: {
        pageSize: 25,
        order: 'desc',
        sort: 'updatedAt',
        columns: ['title', 'sku'],
        search: '  ',
        query: { children: [{ value: ['draft'], op: 'anyOf', field: 'status' }], combinator: 'and' },
      } as ViewState,
    });
    await waitFor(() => expect(screen.queryByText('Modified')).not.toBeInTheDocument());
  });

  it('saves the loaded view with what the list shows, only when it has changed', async () => {
    const user = userEvent.setup();
    const changed = { ...state, sort: 'price', order: 'asc' as const };
    const { rerender } = renderMenu();
    await waitFor(() => expect(trigger()).toHaveTextContent('My drafts'));
    let menu = await openMenu(user);
    const unchanged = within(menu).getByRole('menuitem', { name: 'Save' });
    expect(unchanged).toHaveAttribute('aria-disabled', 'true');
    // Nothing to save: clicking it sends nothing.
    await user.click(unchanged);
    await user.keyboard('{Escape}');
    expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);

    rerender({ current: changed });
    menu = await openMenu(user);
    const save = within(menu).getByRole('menuitem', { name: 'Save' });
    expect(save).not.toHaveAttribute('aria-disabled');
    await user.click(save);
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/v1/savedViews/${mine.id}`);
    expect(patch?.body).toEqual({ state: changed });
  });

  it('groups the views into mine and shared, and loads the one picked', async () => {
    const user = userEvent.setup();
    const { onLoad } = renderMenu({ viewId: null });
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.params).toMatchObject({ list: 'staging-products' });
    expect(trigger()).toHaveTextContent('All products');
    const menu = await openMenu(user);
    const groups = within(menu).getAllByRole('group');
    expect(within(groups[0]!).getByText('My views')).toBeInTheDocument();
    expect(within(groups[0]!).getByRole('menuitem', { name: /My drafts/ })).toBeInTheDocument();
    expect(within(groups[1]!).getByText('Shared with me')).toBeInTheDocument();
    expect(within(groups[1]!).getByRole('menuitem', { name: /Review queue/ })).toHaveTextContent(
      'Read-only · by Mira Mate',
    );
    // With no view loaded, the only action is to save what the list shows.
    expect(itemNames(menu).slice(2)).toEqual(['Save as…']);
    await user.click(within(menu).getByRole('menuitem', { name: /Review queue/ }));
    expect(onLoad).toHaveBeenCalledWith(shared);
  });

  it('"Save as" sends the name, scope, state and default choice, then loads the new view', async () => {
    const user = userEvent.setup();
    const current = { ...state, search: 'usb', pageSize: 100 };
    const { onLoad } = renderMenu({ current });
    await waitFor(() => expect(trigger()).toHaveTextContent('My drafts'));
    const menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitem', { name: 'Save as…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view as' });
    const scope = within(dialog).getByRole('combobox', { name: 'Who sees it' });
    // Without publish, "Everyone" is not offered.
    expect(
      within(scope)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Only me', 'My team']);
    // The name is required before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText('Give the view a name.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), '  USB sticks ');
    await user.selectOptions(scope, 'team');
    await user.click(within(dialog).getByRole('checkbox', { name: /default view/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));

    await waitFor(() => expect(onLoad).toHaveBeenCalledTimes(1));
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.url).toBe('/api/v1/savedViews/');
    expect(post?.body).toEqual({
      list: 'staging-products',
      name: 'USB sticks',
      scope: 'team',
      state: current,
      makeDefault: true,
    });
    // What the client sends is what the server accepts.
    expect(createViewBodySchema.safeParse(post?.body).success).toBe(true);
    expect(onLoad.mock.calls[0]?.[0]).toMatchObject({ name: 'USB sticks', scope: 'team', state: current });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers "Everyone" to those who may publish, and shows a taken name beside the name', async () => {
    const user = userEvent.setup();
    const message = 'You already have a view called "My drafts".';
    reply = (request) =>
      request.method === 'GET'
        ? { status: 200, data: { result: [mine, shared] } }
        : { status: 409, data: { message, code: 'DUPLICATE_VIEW_NAME', fields: { name: message } } };
    renderMenu({ canPublish: true });
    await waitFor(() => expect(trigger()).toHaveTextContent('My drafts'));
    const menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitem', { name: 'Save as…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view as' });
    const scope = within(dialog).getByRole('combobox', { name: 'Who sees it' });
    expect(
      within(scope)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Only me', 'My team', 'Everyone']);
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'My drafts');
    await user.selectOptions(scope, 'everyone');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({ scope: 'everyone' });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers only "Save as copy" for a view shared with the user, and says it is read-only', async () => {
    const user = userEvent.setup();
    renderMenu({ viewId: shared.id, current: { ...shared.state, search: 'changed' } });
    await waitFor(() => expect(trigger()).toHaveTextContent('Review queue'));
    expect(screen.getByText('Modified')).toBeInTheDocument();
    expect(screen.getByText(/Shared by Mira Mate: read-only/)).toBeInTheDocument();
    const menu = await openMenu(user);
    const actions = itemNames(menu).slice(2);
    expect(actions).toEqual(['Save as copy…', 'Set as default']);
    for (const name of ['Save', 'Rename…', 'Delete…']) {
      expect(within(menu).queryByRole('menuitem', { name })).not.toBeInTheDocument();
    }
    await user.click(within(menu).getByRole('menuitem', { name: 'Save as copy…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view as' });
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveValue('Review queue (copy)');
  });

  it('renames an own view and changes who sees it, leaving its state alone', async () => {
    const user = userEvent.setup();
    renderMenu({ current: { ...state, search: 'unsaved' } });
    await waitFor(() => expect(trigger()).toHaveTextContent('My drafts'));
    const menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitem', { name: 'Rename…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename My drafts' });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    expect(name).toHaveValue('My drafts');
    await user.clear(name);
    await user.type(name, 'Drafts to check');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Who sees it' }), 'team');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/v1/savedViews/${mine.id}`);
    expect(patch?.body).toEqual({ name: 'Drafts to check', scope: 'team' });
  });

  it('offers rename, default and delete for an own view; delete asks first and unloads it', async () => {
    const user = userEvent.setup();
    const onUnload = vi.fn();
    renderMenu({ onUnload });
    await waitFor(() => expect(trigger()).toHaveTextContent('My drafts'));
    let menu = await openMenu(user);
    expect(itemNames(menu).slice(2)).toEqual(['Save', 'Save as…', 'Rename…', 'Clear default', 'Delete…']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Clear default' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
        list: 'staging-products',
        viewId: null,
      }),
    );

    menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete…' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete My drafts?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onUnload).toHaveBeenCalledTimes(1));
    expect(requests.find((r) => r.method === 'DELETE')?.url).toBe(`/api/v1/savedViews/${mine.id}`);
  });
});

describe('useDefaultView', () => {
  function Probe() {
    const found = useDefaultView('staging-products');
    return <p>{found === undefined ? 'loading' : (found?.name ?? 'none')}</p>;
  }

  it('is undefined while the views load, then the default view', async () => {
    render(<Probe />, { wrapper });
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('My drafts')).toBeInTheDocument();
  });

  it('is null when there is no default, or the views cannot be read', async () => {
    reply = () => ({ status: 200, data: { result: [{ ...mine, isDefault: false }, shared] } });
    render(<Probe />, { wrapper });
    expect(await screen.findByText('none')).toBeInTheDocument();
    cleanup();
    reply = () => ({ status: 403, data: { message: 'No', code: 'FORBIDDEN' } });
    render(<Probe />, { wrapper });
    expect(await screen.findByText('none')).toBeInTheDocument();
  });
});
