import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import {
  isReservedEventName,
  RESERVED_EVENT_NAMES,
  reservedEventMessage,
  SIGNALLING_CLIENT_OPTIONS,
  SIGNALLING_PATH,
  userRoom,
} from './socket-events';

describe('socket events contract', () => {
  it('follows SPEC §7 and §9', () => {
    expect(SIGNALLING_PATH).toBe('/engine.io');
    expect(SIGNALLING_CLIENT_OPTIONS).toEqual({
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20_000,
    });
    expect(userRoom('u1')).toBe('user:u1');
  });

  it.each([
    'connect',
    'connect_error',
    'disconnect',
    'disconnecting',
    'newListener',
    'removeListener',
    'reconnect_attempt',
    'error',
  ])('refuses %s', (event) => {
    expect(isReservedEventName(event)).toBe(true);
    expect(reservedEventMessage(event)).toBe(`"${event}" is a reserved event name and cannot be emitted`);
  });

  it.each(['callUser', 'callAccepted', 'answerCall', 'Connect', 'connect ', ''])(
    'lets %j through',
    (event) => {
      expect(isReservedEventName(event)).toBe(false);
    },
  );

  it('covers every name socket.io-client itself refuses to emit', () => {
    const socket = io('http://127.0.0.1:1', { autoConnect: false });
    const candidates = [...RESERVED_EVENT_NAMES, 'callUser', 'answerCall', 'message', 'ping', 'data'];
    const refusedByLibrary = candidates.filter((event) => {
      try {
        socket.emit(event);
        return false;
      } catch {
        return true;
      }
    });
    // The library's own six are all in the list; and the list is not just those.
    expect(refusedByLibrary.sort()).toEqual(
      ['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener'].sort(),
    );
    for (const event of refusedByLibrary) expect(isReservedEventName(event)).toBe(true);
    socket.close();
  });
});
