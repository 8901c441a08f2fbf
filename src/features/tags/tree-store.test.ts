import { describe, expect, it } from 'vitest';
import type { CompactTag, TagNode } from '../../../contracts/tags';
import { TagTreeStore, type TreeFetchers } from './tree-store';

/** A tree of the given shape: [id, parent, name]. */
function fakeTree(nodes: [string, string | null, string][]): TreeFetchers & { calls: string[] } {
  const calls: string[] = [];
  const nodeOf = ([id, parent, name]: [string, string | null, string]): TagNode => ({
    id,
    parentId: parent,
    name,
    code: name.toLowerCase(),
    level: 1,
    childrenCount: nodes.filter((n) => n[1] === id).length,
    productCount: 0,
    productTotal: 0,
    status: 'published',
    version: 1,
    updatedBy: 'x',
    updatedAt: new Date(0).toISOString(),
  });
  return {
    calls,
    async children(parent, skip, limit) {
      calls.push(`children ${parent} ${skip}`);
      const all = nodes.filter((n) => n[1] === parent).sort((a, b) => a[2].localeCompare(b[2]));
      return { result: all.slice(skip, skip + limit).map(nodeOf), count: all.length };
    },
    async allPage(after) {
      calls.push(`all ${after}`);
      const page = nodes.slice(after, after + 2);
      return {
        result: page.map((n): CompactTag => {
          const node = nodeOf(n);
          return [node.id, node.parentId, node.name, node.code, 1, node.childrenCount, 0, 'published'];
        }),
        next: after + 2 < nodes.length ? after + 2 : null,
        count: nodes.length,
      };
    },
  };
}

const tree: [string, string | null, string][] = [
  ['a', null, 'Apparel'],
  ['m', 'a', 'Men'],
  ['w', 'a', 'Women'],
  ['s', 'm', 'Shirts'],
  ['h', null, 'Home'],
];

describe('TagTreeStore', () => {
  it('shows the top level, loads children on first expand only, and indents them', async () => {
    const fetchers = fakeTree(tree);
    const store = new TagTreeStore(fetchers);
    await store.load(null);
    expect(store.rows().map((row) => row.item.name)).toEqual(['Apparel', 'Home']);
    await store.expand('a');
    await store.expand('m');
    expect(store.rows().map((row) => `${row.depth}:${row.item.name}`)).toEqual([
      '0:Apparel',
      '1:Men',
      '2:Shirts',
      '1:Women',
      '0:Home',
    ]);
    store.collapse('a');
    expect(store.rows().map((row) => row.item.name)).toEqual(['Apparel', 'Home']);
    await store.expand('a');
    expect(fetchers.calls.filter((call) => call.startsWith('children a'))).toHaveLength(1);
    expect(store.ancestorsOf('s')).toEqual(['a', 'm']);
    expect(store.isWithin('s', 'a')).toBe(true);
    expect(store.isWithin('h', 'a')).toBe(false);
  });

  it('expands everything from paged compact reads, children by name', async () => {
    const store = new TagTreeStore(fakeTree(tree));
    await store.expandAll();
    expect(store.rows().map((row) => `${row.depth}:${row.item.name}`)).toEqual([
      '0:Apparel',
      '1:Men',
      '2:Shirts',
      '1:Women',
      '0:Home',
    ]);
    store.collapseAll();
    expect(store.rows()).toHaveLength(2);
  });

  it('keeps rows stable between changes (the virtual list reads them every frame)', async () => {
    const store = new TagTreeStore(fakeTree(tree));
    await store.load(null);
    expect(store.rows()).toBe(store.rows());
  });

  it('remembers a failed load for the list, and clears it when the load works', async () => {
    let fail = true;
    const base = fakeTree(tree);
    const store = new TagTreeStore({
      ...base,
      children: async (...args) => {
        if (fail) throw new Error('Network Error');
        return base.children(...args);
      },
    });
    await store.load(null);
    expect(store.failure(null)).toBe('Network Error');
    fail = false;
    await store.load(null);
    expect(store.failure(null)).toBeUndefined();
    expect(store.rows()).toHaveLength(2);
  });
});
