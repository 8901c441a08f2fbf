import { describe, expect, it, vi } from 'vitest';
import { createSharedSignalling, type SharedSocketLike } from './shared-signalling';

type Listener = (...args: unknown[]) => void;

/** A socket.io client socket as far as the registry uses it. */
class FakeSocket {
  listeners = new Map<string, Listener[]>();
  connected = false;
  active = true;
  id: string | undefined = undefined;
  emitted: unknown[][] = [];
  connect = vi.fn(() => {
    this.active = true;
    return this;
  });
  disconnect = vi.fn(() => {
    this.active = false;
    this.connected = false;
    return this;
  });
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  off(event: string, listener: Listener) {
    const list = this.listeners.get(event) ?? [];
    const at = list.indexOf(listener);
    if (at >= 0) list.splice(at, 1);
    return this;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  /** What the server (or socket.io) does: runs every listener of the event. */
  receive(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
  count() {
    let total = 0;
    for (const list of this.listeners.values()) total += list.length;
    return total;
  }
}

function registry() {
  const sockets: FakeSocket[] = [];
  const shared = createSharedSignalling(() => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket as unknown as SharedSocketLike;
  });
  return { shared, sockets };
}

describe('shared signalling', () => {
  it('opens one socket for every lease and closes it with the last release', () => {
    const { shared, sockets } = registry();
    const voice = shared.acquire();
    const video = shared.acquire();
    expect(sockets).toHaveLength(1);
    expect(shared.holders).toBe(2);

    voice.release();
    expect(sockets[0]?.disconnect).not.toHaveBeenCalled();
    voice.release(); // twice: still one release
    expect(shared.holders).toBe(1);

    video.release();
    expect(sockets[0]?.disconnect).toHaveBeenCalledTimes(1);
    expect(shared.holders).toBe(0);

    // A later lease gets a new connection.
    shared.acquire();
    expect(sockets).toHaveLength(2);
  });

  it("keeps each lease's listeners to itself: one feature's teardown leaves the other's", () => {
    const { shared, sockets } = registry();
    const voice = shared.acquire();
    const video = shared.acquire();
    const socket = sockets[0] as FakeSocket;
    const heard: string[] = [];
    const voiceConnect = () => heard.push('voice connect');
    const videoConnect = () => heard.push('video connect');
    voice.socket.on('connect', voiceConnect).on('voice:incoming', () => heard.push('voice incoming'));
    video.socket.on('connect', videoConnect).on('callUser', () => heard.push('video ring'));

    // Removing a listener the lease did not add does nothing to the other lease's.
    voice.socket.off('connect', videoConnect);
    socket.receive('connect');
    expect(heard).toEqual(['voice connect', 'video connect']);

    voice.release();
    heard.length = 0;
    socket.receive('connect');
    socket.receive('voice:incoming', {});
    socket.receive('callUser', {});
    expect(heard).toEqual(['video connect', 'video ring']);
    expect(socket.count()).toBe(2);

    // A released lease neither listens nor sends any more.
    voice.socket.on('connect', voiceConnect).emit('voice:register', {});
    expect(socket.count()).toBe(2);
    expect(socket.emitted).toEqual([]);
    expect(voice.socket.connected).toBe(false);

    video.release();
    expect(socket.count()).toBe(0);
  });

  it('sends through the one socket and reads its state', () => {
    const { shared, sockets } = registry();
    const lease = shared.acquire();
    const socket = sockets[0] as FakeSocket;
    socket.connected = true;
    socket.id = 'abc';
    const ack = () => {};
    lease.socket.emit('voice:dial', { to: '1' }, ack);
    expect(socket.emitted).toEqual([['voice:dial', { to: '1' }, ack]]);
    expect(lease.socket.connected).toBe(true);
    expect(lease.socket.active).toBe(true);
    expect(lease.socket.id).toBe('abc');
  });

  it('asks again when a new lease comes after the server ended the connection', () => {
    const { shared, sockets } = registry();
    shared.acquire();
    const socket = sockets[0] as FakeSocket;
    socket.active = false; // "io server disconnect": socket.io does not come back by itself
    shared.acquire();
    expect(sockets).toHaveLength(1);
    expect(socket.connect).toHaveBeenCalledTimes(1);
  });

  it('sign-out: disconnect closes the socket under every lease; their releases then do nothing', () => {
    const { shared, sockets } = registry();
    const voice = shared.acquire();
    const video = shared.acquire();
    shared.disconnect();
    expect(sockets[0]?.disconnect).toHaveBeenCalledTimes(1);
    expect(shared.holders).toBe(0);

    const next = shared.acquire(); // the next user's lease: a new connection
    expect(sockets).toHaveLength(2);
    voice.release();
    video.release();
    expect(shared.holders).toBe(1);
    expect(sockets[1]?.disconnect).not.toHaveBeenCalled();
    next.release();
    expect(sockets[1]?.disconnect).toHaveBeenCalledTimes(1);
  });
});
