// Test support for tab-ownership: a Web Locks manager and a BroadcastChannel shared by several fake
// "tabs" of one test. Never imported by the app.
//
// The lock manager follows the Web Locks rules this module relies on: exclusive, granted in request
// order, released when the callback's promise settles, a queued request withdrawn by its AbortSignal
// (its promise rejects with AbortError), `steal: true` granted at once (the holder's promise rejects
// with AbortError). Closing a tab (`closeTab`) drops its lock and its queued requests, as the browser
// does, without the tab's code running. The channel delivers asynchronously to every other open
// channel of the same name, never back to the sender, like BroadcastChannel.
import type { ChannelLike, LockManagerLike, TabOwnershipMessage } from './tab-ownership';

const abortError = () => Object.assign(new Error('The lock request was aborted.'), { name: 'AbortError' });

interface LockRequest {
  tab: string;
  callback: (lock: unknown) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface LockEntry {
  holder: LockRequest | null;
  queue: LockRequest[];
}

export class FakeLocks {
  private readonly entries = new Map<string, LockEntry>();

  private entry(name: string): LockEntry {
    let entry = this.entries.get(name);
    if (!entry) {
      entry = { holder: null, queue: [] };
      this.entries.set(name, entry);
    }
    return entry;
  }

  /** The tab holding `name`, if any. */
  holder(name: string): string | null {
    return this.entries.get(name)?.holder?.tab ?? null;
  }

  private grant(name: string, request: LockRequest) {
    const entry = this.entry(name);
    entry.holder = request;
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(request.callback({ name }));
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (value) => {
        if (entry.holder !== request) return; // stolen or closed: already settled
        request.resolve(value);
        this.release(name);
      },
      (error: unknown) => {
        if (entry.holder !== request) return;
        request.reject(error);
        this.release(name);
      },
    );
  }

  private release(name: string) {
    const entry = this.entry(name);
    entry.holder = null;
    const next = entry.queue.shift();
    if (next) this.grant(name, next);
  }

  /** The navigator.locks of one tab. */
  forTab(tab: string): LockManagerLike {
    return {
      request: (name, options, callback) =>
        new Promise((resolve, reject) => {
          const entry = this.entry(name);
          const request: LockRequest = { tab, callback, resolve, reject };
          if (options.signal?.aborted) {
            reject(abortError());
            return;
          }
          if (options.steal) {
            const stolen = entry.holder;
            entry.holder = null;
            stolen?.reject(abortError());
            this.grant(name, request);
            return;
          }
          options.signal?.addEventListener('abort', () => {
            const index = entry.queue.indexOf(request);
            if (index === -1) return;
            entry.queue.splice(index, 1);
            reject(abortError());
          });
          if (entry.holder === null) this.grant(name, request);
          else entry.queue.push(request);
        }),
    };
  }

  /** The browser closes the tab: its locks are released and its queued requests dropped. */
  closeTab(tab: string) {
    for (const [name, entry] of this.entries) {
      entry.queue = entry.queue.filter((request) => request.tab !== tab);
      if (entry.holder?.tab === tab) this.release(name);
    }
  }
}

export class FakeChannelHub {
  private readonly open = new Set<FakeChannel>();
  /** Every message posted, in order (for assertions). */
  readonly posted: TabOwnershipMessage[] = [];

  /** The `openChannel` of one tab. */
  forTab(tab: string): (name: string) => ChannelLike {
    return (name) => {
      const channel = new FakeChannel(this, tab, name);
      this.open.add(channel);
      return channel;
    };
  }

  deliver(from: FakeChannel, message: TabOwnershipMessage) {
    this.posted.push(message);
    // A structured clone, delivered later: no shared objects, no re-entrancy.
    const data = structuredClone(message);
    for (const channel of this.open) {
      if (channel !== from && channel.name === from.name) setTimeout(() => channel.receive(data), 0);
    }
  }

  remove(channel: FakeChannel) {
    this.open.delete(channel);
  }

  /** The browser closes the tab: its channels receive nothing more. */
  closeTab(tab: string) {
    for (const channel of this.open) if (channel.tab === tab) channel.close();
  }
}

class FakeChannel implements ChannelLike {
  private readonly listeners = new Set<(event: { data: unknown }) => void>();
  private closed = false;

  constructor(
    private readonly hub: FakeChannelHub,
    readonly tab: string,
    readonly name: string,
  ) {}

  postMessage(message: TabOwnershipMessage) {
    if (this.closed) throw new Error('The channel is closed.');
    this.hub.deliver(this, message);
  }

  receive(data: unknown) {
    if (this.closed) return;
    for (const listener of this.listeners) listener({ data });
  }

  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.delete(listener);
  }

  close() {
    this.closed = true;
    this.hub.remove(this);
  }
}
