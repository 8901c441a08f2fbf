// What the tree view knows of one tag tree (the draft or a version): the children lists it has loaded,
// which nodes are expanded, which lists are loading or failed. A plain store outside React (read with
// useSyncExternalStore): a 50,000-node tree expanded whole is one Map of lists, and a change bumps one
// number instead of copying it. Children load when a node is first expanded; "expand all" loads every
// node a page at a time. After a write the page reloads just the lists the write touched.
import type { CompactTag, TagAllPage, TagNodeList, TagStatus } from '../../../contracts/tags';

export interface TagItem {
  id: string;
  parentId: string | null;
  name: string;
  code: string;
  level: number;
  childrenCount: number;
  productTotal: number;
  status: TagStatus;
}

export interface VisibleRow {
  item: TagItem;
  /** 0 for a top-level tag. */
  depth: number;
  expanded: boolean;
  /** Its children are being loaded. */
  loading: boolean;
}

export interface TreeFetchers {
  children(parent: string | null, skip: number, limit: number): Promise<TagNodeList>;
  allPage(after: number): Promise<TagAllPage>;
}

const PAGE = 1000;

/** Lets the browser draw and handle input before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const byName = (a: TagItem, b: TagItem) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id);

const fromCompact = ([
  id,
  parentId,
  name,
  code,
  level,
  childrenCount,
  productTotal,
  status,
]: CompactTag): TagItem => ({
  id,
  parentId,
  name,
  code,
  level,
  childrenCount,
  productTotal,
  status,
});

export class TagTreeStore {
  private readonly lists = new Map<string | null, TagItem[]>();
  private readonly items = new Map<string, TagItem>();
  private readonly open = new Set<string>();
  private readonly loadingLists = new Set<string | null>();
  private readonly failures = new Map<string | null, string>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private cachedRows: { version: number; rows: VisibleRow[] } | null = null;
  /** Set while "expand all" loads: how many nodes of how many. */
  allProgress: { loaded: number; total: number } | null = null;

  constructor(private readonly fetchers: TreeFetchers) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  private changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  item(id: string): TagItem | undefined {
    return this.items.get(id);
  }

  childrenOf(parent: string | null): TagItem[] | undefined {
    return this.lists.get(parent);
  }

  failure(parent: string | null): string | undefined {
    return this.failures.get(parent);
  }

  isLoading(parent: string | null): boolean {
    return this.loadingLists.has(parent);
  }

  isExpanded(id: string): boolean {
    return this.open.has(id);
  }

  /** The ids from the top-level ancestor down to the node's parent, as far as they are loaded. */
  ancestorsOf(id: string): string[] {
    const chain: string[] = [];
    for (let at = this.items.get(id)?.parentId ?? null; at; at = this.items.get(at)?.parentId ?? null) {
      if (chain.includes(at)) break;
      chain.unshift(at);
    }
    return chain;
  }

  /** Whether `id` is `ancestor` or below it (as far as loaded): a drop there would make a cycle. */
  isWithin(id: string, ancestor: string): boolean {
    return id === ancestor || this.ancestorsOf(id).includes(ancestor);
  }

  private setList(parent: string | null, list: TagItem[]) {
    const previous = this.lists.get(parent) ?? [];
    for (const item of previous) if (this.items.get(item.id)?.parentId === parent) this.items.delete(item.id);
    for (const item of list) this.items.set(item.id, item);
    this.lists.set(parent, list);
  }

  /** Loads (or reloads) a node's children, every page of them. */
  async load(parent: string | null): Promise<void> {
    this.loadingLists.add(parent);
    this.failures.delete(parent);
    this.changed();
    try {
      const list: TagItem[] = [];
      for (let skip = 0; ; skip += PAGE) {
        const page = await this.fetchers.children(parent, skip, PAGE);
        list.push(...page.result);
        if (list.length >= page.count || page.result.length === 0) break;
      }
      this.setList(parent, list);
    } catch (error) {
      this.failures.set(parent, error instanceof Error ? error.message : 'The tags could not be loaded.');
    } finally {
      this.loadingLists.delete(parent);
      this.changed();
    }
  }

  /** Reloads the lists a write changed (only those already loaded, and the top level). */
  async reload(parents: readonly (string | null)[]): Promise<void> {
    const wanted = [...new Set(parents)].filter((parent) => parent === null || this.lists.has(parent));
    await Promise.all(wanted.map((parent) => this.load(parent)));
  }

  /** Forgets what was loaded below a node (its subtree moved or went). */
  forgetBelow(id: string) {
    const stack = [id];
    while (stack.length) {
      const at = stack.pop() as string;
      for (const child of this.lists.get(at) ?? []) stack.push(child.id);
      this.lists.delete(at);
      this.open.delete(at);
    }
    this.changed();
  }

  async expand(id: string): Promise<void> {
    this.open.add(id);
    this.changed();
    if (!this.lists.has(id) && !this.loadingLists.has(id)) await this.load(id);
  }

  collapse(id: string) {
    this.open.delete(id);
    this.changed();
  }

  async toggle(id: string): Promise<void> {
    if (this.open.has(id)) this.collapse(id);
    else await this.expand(id);
  }

  /** Expands the chain down to a node (search results, a deep link), loading what is needed. */
  async reveal(ancestors: readonly string[]): Promise<void> {
    if (!this.lists.has(null)) await this.load(null);
    for (const id of ancestors) await this.expand(id);
  }

  /**
   * Loads every node (a page of 5,000 at a time) and expands every node that has children. Each page is
   * sorted into its parent's list as it arrives, and the browser gets a turn between the steps after
   * the last one, so no single task holds a frame for long (bench `tags`: frames in Chromium).
   */
  async expandAll(): Promise<void> {
    const lists = new Map<string | null, TagItem[]>();
    const items = new Map<string, TagItem>();
    let after = 0;
    this.allProgress = { loaded: 0, total: 0 };
    this.changed();
    try {
      for (;;) {
        const page = await this.fetchers.allPage(after);
        for (const compact of page.result) {
          const item = fromCompact(compact);
          items.set(item.id, item);
          const list = lists.get(item.parentId);
          if (list) list.push(item);
          else lists.set(item.parentId, [item]);
        }
        this.allProgress = { loaded: items.size, total: page.count };
        this.changed();
        if (page.next === null) break;
        after = page.next;
      }
      await nextTask();
      for (const list of lists.values()) list.sort(byName);
      await nextTask();
    } finally {
      this.allProgress = null;
    }
    this.lists.clear();
    this.items.clear();
    this.open.clear();
    for (const [parent, list] of lists) {
      this.lists.set(parent, list);
      if (parent) this.open.add(parent);
    }
    for (const [id, item] of items) {
      this.items.set(id, item);
      // A node without loaded children has none: its list is loaded, and empty.
      if (!lists.has(id)) this.lists.set(id, []);
    }
    this.changed();
  }

  collapseAll() {
    this.open.clear();
    this.changed();
  }

  /** The rows on screen, top to bottom: the top level and the children of every expanded node. */
  rows(): VisibleRow[] {
    if (this.cachedRows?.version === this.version) return this.cachedRows.rows;
    const rows: VisibleRow[] = [];
    const walk = (parent: string | null, depth: number) => {
      for (const item of this.lists.get(parent) ?? []) {
        const expanded = this.open.has(item.id);
        rows.push({ item, depth, expanded, loading: this.loadingLists.has(item.id) });
        if (expanded) walk(item.id, depth + 1);
      }
    };
    walk(null, 0);
    this.cachedRows = { version: this.version, rows };
    return rows;
  }
}
