// The hierarchy on a phone (issue 26): a tag tapped in the tree opens its details in a sheet over the
// tree (they used to sit a screen and more below it), "Back to the tree" closes it, and walking the
// tree with the arrow keys opens nothing. On a wide screen the details stay beside the tree.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TagNodeWithPath } from '../../../contracts/tags';
import { configureHttp, http } from '../../services/http';
import { createFakeAdapter, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { NARROW_SCREEN } from '../../ui/use-media-query';
import { HierarchyTab } from './HierarchyTab';

const node = (id: string, name: string): TagNodeWithPath => ({
  id,
  parentId: null,
  name,
  code: name.toLowerCase(),
  level: 1,
  childrenCount: 0,
  productCount: 0,
  productTotal: 3,
  status: 'published',
  version: 1,
  updatedBy: 'Sam',
  updatedAt: '2026-01-01T10:00:00.000Z',
  pathNames: [name],
  ancestorIds: [],
});
const tags = [node('a', 'Apparel'), node('h', 'Home')];

function reply({ url }: RecordedRequest) {
  if (url === '/api/v1/tags/trees/draft/children') return { status: 200, data: { result: tags, count: 2 } };
  const found = tags.find((tag) => url === `/api/v1/tags/trees/draft/nodes/${tag.id}`);
  if (found) return { status: 200, data: found };
  if (url.endsWith('/history')) return { status: 200, data: { result: [], count: 0 } };
  return { status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } };
}

let narrow = true;
const originalAdapter = http.defaults.adapter;
let unconfigure: () => void;

// jsdom lays nothing out: give every box a size, so the virtual list draws its rows.
beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ x: 0, y: 0, width: 800, height: 560 }),
  );
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(560);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
});
afterAll(() => vi.restoreAllMocks());

beforeEach(() => {
  http.defaults.adapter = createFakeAdapter(reply).adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {}, onTask: () => {} });
  // The screen's width, as the page's media query sees it.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === NARROW_SCREEN ? narrow : false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
});
afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  vi.unstubAllGlobals();
});

function Harness() {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <HierarchyTab
      source="draft"
      permissions={{ create: true, edit: true, delete: true }}
      selectedId={selected}
      onSelect={setSelected}
      treeLabel="Draft tags"
    />
  );
}

function renderTab() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Harness />
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

const row = (name: string) => screen.findByRole('treeitem', { name: new RegExp(`^${name} `) });

describe('HierarchyTab on a phone', () => {
  it('opens a tapped tag’s details in a sheet over the tree, and goes back to the tree', async () => {
    narrow = true;
    renderTab();
    const user = userEvent.setup();
    // Nothing below the tree waits for a choice.
    expect(screen.queryByText('No tag chosen')).not.toBeInTheDocument();
    await user.click(await row('Apparel'));
    const sheet = await screen.findByRole('dialog', { name: 'Tag details' });
    expect(await within(sheet).findByTestId('tag-name')).toHaveTextContent('Apparel');

    await user.click(within(sheet).getByRole('button', { name: 'Back to the tree' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await row('Apparel')).toHaveAttribute('aria-selected', 'true');
  });

  it('opens nothing while the arrow keys walk the tree', async () => {
    narrow = true;
    renderTab();
    const user = userEvent.setup();
    (await row('Apparel')).focus();
    await user.keyboard('{ArrowDown}');
    expect(await row('Home')).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('HierarchyTab on a wide screen', () => {
  it('shows the chosen tag beside the tree, with no sheet', async () => {
    narrow = false;
    renderTab();
    expect(screen.getByText('No tag chosen')).toBeInTheDocument();
    await userEvent.click(await row('Apparel'));
    expect(await screen.findByTestId('tag-name')).toHaveTextContent('Apparel');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
