// The tree view in jsdom: it draws the store's rows as an ARIA tree, the keyboard moves, opens and
// closes, and a drag never offers to drop a tag inside itself.
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TagNode } from '../../../contracts/tags';
import { system } from '../../ui/theme';
import { TagTree } from './TagTree';
import { TagTreeStore } from './tree-store';

const nodes: [string, string | null, string][] = [
  ['a', null, 'Apparel'],
  ['m', 'a', 'Men'],
  ['s', 'm', 'Shirts'],
  ['w', 'a', 'Women'],
  ['h', null, 'Home'],
];

/** The row of the tag called `name` (its accessible name starts with it, then its code). */
const tag = (name: string) =>
  screen.getByRole('treeitem', { name: new RegExp(`^${name} ${name.toLowerCase()} `) });

function storeOf() {
  const node = ([id, parentId, name]: [string, string | null, string]): TagNode => ({
    id,
    parentId,
    name,
    code: name.toLowerCase(),
    level: 1,
    childrenCount: nodes.filter((n) => n[1] === id).length,
    productCount: 0,
    productTotal: 3,
    status: id === 'w' ? 'new' : 'published',
    version: 1,
    updatedBy: 'Sam',
    updatedAt: new Date(0).toISOString(),
  });
  return new TagTreeStore({
    children: async (parent) => {
      const list = nodes.filter((n) => n[1] === parent).map(node);
      return { result: list, count: list.length };
    },
    allPage: async () => ({ result: [], next: null, count: 0 }),
  });
}

function Harness({
  store,
  onMove,
}: {
  store: TagTreeStore;
  onMove: (id: string, parent: string | null) => void;
}) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <ChakraProvider value={system}>
      <TagTree
        store={store}
        selectedId={selected}
        onSelect={setSelected}
        canMove
        onMove={onMove}
        showStatus
        label="Draft tags"
      />
    </ChakraProvider>
  );
}

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
afterEach(cleanup);

describe('TagTree', () => {
  it('is an ARIA tree the keyboard walks, opens and closes', async () => {
    const store = storeOf();
    await store.load(null);
    render(<Harness store={store} onMove={() => {}} />);
    const tree = screen.getByRole('tree', { name: 'Draft tags' });
    // Each row is named by all it shows (label in name): name, code, draft status, product count.
    expect(
      screen.getAllByRole('treeitem').map((item) => item.querySelector('[data-name]')?.textContent),
    ).toEqual(['Apparel', 'Home']);
    const apparel = screen.getByRole('treeitem', { name: 'Apparel apparel 3' });
    expect(apparel).toHaveAttribute('aria-expanded', 'false');
    expect(apparel).toHaveAttribute('tabindex', '0');
    const user = userEvent.setup();
    await user.click(apparel);
    expect(apparel).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(tag('Men')).toHaveAttribute('aria-level', '2'));
    // The draft's status shows on a tag that is not published as it is.
    expect(screen.getByRole('treeitem', { name: 'Women women New 3' })).toHaveTextContent('New');
    await user.keyboard('{ArrowDown}');
    expect(tag('Men')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowLeft}');
    expect(tag('Apparel')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getAllByRole('treeitem')).toHaveLength(2);
    await user.keyboard('{End}');
    expect(tag('Home')).toHaveAttribute('aria-selected', 'true');
    expect(tree).toBeInTheDocument();
  });

  it('offers a drop on another branch, never inside the dragged tag', async () => {
    const store = storeOf();
    await store.load(null);
    await act(() => store.expand('a'));
    await act(() => store.expand('m'));
    const onMove = vi.fn();
    render(<Harness store={store} onMove={onMove} />);
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: 'all',
      dropEffect: 'none',
    };
    const row = tag;
    fireEvent.dragStart(row('Men'), { dataTransfer });
    // Onto its own child: refused (the event is not cancelled).
    expect(fireEvent.dragOver(row('Shirts'), { dataTransfer })).toBe(true);
    fireEvent.drop(row('Shirts'), { dataTransfer });
    expect(onMove).not.toHaveBeenCalled();
    fireEvent.dragStart(row('Men'), { dataTransfer });
    expect(fireEvent.dragOver(row('Home'), { dataTransfer })).toBe(false);
    fireEvent.drop(row('Home'), { dataTransfer });
    expect(onMove).toHaveBeenCalledWith('m', 'h');
    fireEvent.dragStart(row('Men'), { dataTransfer });
    fireEvent.drop(screen.getByTestId('drop-top-level'), { dataTransfer });
    expect(onMove).toHaveBeenLastCalledWith('m', null);
  });
});
