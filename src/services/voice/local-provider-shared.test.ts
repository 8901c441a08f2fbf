// The local voice provider on the tab's shared signalling socket (issue 28): it holds a lease beside the
// video calls' one; destroying the device releases its lease and leaves the connection and the video
// calls' listeners alone; the connection closes with the last lease.
import { describe, expect, it, vi } from 'vitest';
import { VOICE_EVENTS } from '../../../contracts/voice-signalling';
import { sharedSignalling } from '../shared-signalling';
import { createLocalProvider } from './local-provider';
import { FAKE_VOICE_TOKEN } from './testing-fakes';

type Listener = (...args: unknown[]) => void;

const made = vi.hoisted(() => ({ sockets: [] as unknown[] }));

class FakeSocket {
  listeners = new Map<string, Listener[]>();
  connected = true;
  active = true;
  id = 'socket-1';
  sent: { event: string; args: unknown[] }[] = [];
  disconnect = vi.fn(() => {
    this.connected = false;
    this.active = false;
  });
  connect = vi.fn();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  off(event: string, listener: Listener) {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    );
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push({ event, args });
    return this;
  }
  receive(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
  heard(event: string) {
    return this.listeners.get(event)?.length ?? 0;
  }
}

vi.mock('../signalling-socket', async (original) => ({
  ...(await original<typeof import('../signalling-socket')>()),
  connectSignalling: () => {
    const socket = new FakeSocket();
    made.sockets.push(socket);
    return socket;
  },
}));

describe('local provider on the shared signalling socket', () => {
  it('shares the video calls’ connection, and destroy releases only its own lease', async () => {
    const video = sharedSignalling.acquire();
    const videoHeard: string[] = [];
    video.socket
      .on('connect', () => videoHeard.push('connect'))
      .on('disconnect', () => videoHeard.push('disconnect'));

    // No token-refresh timer: the fake token's expiry is years away.
    const provider = createLocalProvider(FAKE_VOICE_TOKEN, { setTimer: () => null, clearTimer: () => {} });
    expect(made.sockets).toHaveLength(1);
    expect(sharedSignalling.holders).toBe(2);
    const socket = made.sockets[0] as FakeSocket;

    // Voice registers on the one socket and, after a drop, goes offline, then registers again.
    const offline = vi.fn();
    provider.on('offline', offline);
    const registered = provider.register();
    const register = socket.sent.find((sent) => sent.event === VOICE_EVENTS.register);
    expect(register).toBeDefined();
    (register?.args[1] as (answer: unknown) => void)?.({ ok: true, phoneNumber: '+919000000001' });
    await registered;
    socket.connected = false;
    socket.receive('disconnect', 'transport close');
    expect(offline).toHaveBeenCalledTimes(1);
    socket.connected = true;
    socket.receive('connect');
    expect(socket.sent.filter((sent) => sent.event === VOICE_EVENTS.register)).toHaveLength(2);
    expect(videoHeard).toEqual(['disconnect', 'connect']);

    provider.destroy();
    expect(socket.sent.at(-1)?.event).toBe(VOICE_EVENTS.unregister);
    expect(socket.disconnect).not.toHaveBeenCalled();
    expect(sharedSignalling.holders).toBe(1);
    // Voice's listeners are gone; the video calls' are still there and still hear.
    expect(socket.heard(VOICE_EVENTS.incoming)).toBe(0);
    expect(socket.heard('connect')).toBe(1);
    socket.receive('connect');
    expect(videoHeard).toEqual(['disconnect', 'connect', 'connect']);

    video.release();
    expect(socket.disconnect).toHaveBeenCalledTimes(1);
    expect(sharedSignalling.holders).toBe(0);
  });
});
