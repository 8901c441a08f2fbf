import { describe, expect, it, vi } from 'vitest';
import { connectSignalling, emitSignal } from './signalling-socket';

describe('connectSignalling', () => {
  it('uses the SPEC §9 constants, the /engine.io path and all three transports', () => {
    const socket = connectSignalling({
      url: 'http://127.0.0.1:1',
      getAccessToken: () => 't',
      autoConnect: false,
    });
    expect(socket.io.opts).toMatchObject({
      path: '/engine.io',
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20_000,
      transports: ['polling', 'websocket', 'webtransport'],
    });
    expect(socket.connected).toBe(false);
    socket.close();
  });

  it('asks for the current token on every connection attempt', async () => {
    let token: string | null = 'first';
    const socket = connectSignalling({
      url: 'http://127.0.0.1:1',
      getAccessToken: () => token,
      autoConnect: false,
    });
    const auth = socket.auth as (send: (data: object) => void) => void;
    const read = () => new Promise((resolve) => auth(resolve));
    expect(await read()).toEqual({ token: 'first' });
    token = 'refreshed';
    expect(await read()).toEqual({ token: 'refreshed' });
    token = null;
    expect(await read()).toEqual({ token: '' });
    socket.close();
  });

  it('sends an empty token when getting one fails, so the server answers why', async () => {
    const socket = connectSignalling({
      url: 'http://127.0.0.1:1',
      getAccessToken: () => Promise.reject(new Error('signed out')),
      autoConnect: false,
    });
    const auth = socket.auth as (send: (data: object) => void) => void;
    expect(await new Promise((resolve) => auth(resolve))).toEqual({ token: '' });
    socket.close();
  });
});

describe('emitSignal', () => {
  it('refuses a reserved event name with an Error naming it, and sends nothing', () => {
    const socket = { emit: vi.fn() };
    for (const event of ['connect', 'disconnect', 'connect_error', 'newListener', 'reconnect', 'error']) {
      expect(() => emitSignal(socket as never, event, 1)).toThrow(`"${event}" is a reserved event name`);
    }
    expect(socket.emit).not.toHaveBeenCalled();
  });

  it('sends any other event with its arguments', () => {
    const socket = { emit: vi.fn() };
    emitSignal(socket as never, 'callUser', { userToCall: 'u2' }, 'Ann');
    expect(socket.emit).toHaveBeenCalledWith('callUser', { userToCall: 'u2' }, 'Ann');
  });
});
