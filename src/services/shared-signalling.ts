// One signalling connection per tab (issue 28): voice's local provider and the video-call session both
// speak on the server's one socket.io namespace, so they share one socket (one engine.io connection)
// instead of opening one each. Each feature holds a lease: a view of the socket that adds and removes
// only its own listeners and cannot close the socket; the last lease released closes it.
//
// A token refresh needs nothing here: the server ends a connection when the token it was opened with
// expires, and the one socket reconnects once, asking for the current token (signalling-socket.ts),
// which every lease sees as one `disconnect` then one `connect`.
import type { Socket } from 'socket.io-client';
import { httpHandlers } from './http-handlers';
import { connectSignalling } from './signalling-socket';

// biome-ignore lint/suspicious/noExplicitAny: listeners take the payloads their events carry
type Listener = (...args: any[]) => void;

/** What a feature may do with the shared socket: listen, send, read its state; never close it. */
export interface LeasedSocket {
  on(event: string, listener: Listener): LeasedSocket;
  off(event: string, listener: Listener): LeasedSocket;
  emit(event: string, ...args: unknown[]): LeasedSocket;
  readonly connected: boolean;
  /** False once socket.io gave up (the server refused the connection or ended it). */
  readonly active: boolean;
  readonly id: string | undefined;
}

export interface SignallingLease {
  readonly socket: LeasedSocket;
  /** Removes this lease's listeners that are still on; the last lease closes the connection. */
  release(): void;
}

/** The part of a socket.io client socket the registry uses (a fake in tests). */
export type SharedSocketLike = Pick<
  Socket,
  'on' | 'off' | 'emit' | 'connected' | 'active' | 'id' | 'connect'
> & {
  disconnect(): unknown;
};

export interface SharedSignalling {
  acquire(): SignallingLease;
  /** Closes the connection now whoever holds it (sign-out); the next acquire opens a new one. */
  disconnect(): void;
  /** Leases held now (tests, diagnostics). */
  readonly holders: number;
}

export function createSharedSignalling(connect: () => SharedSocketLike): SharedSignalling {
  let socket: SharedSocketLike | null = null;
  let holders = 0;

  function close() {
    const closing = socket;
    socket = null;
    holders = 0;
    closing?.disconnect();
  }

  return {
    acquire() {
      if (!socket) socket = connect();
      // The server ended the connection (socket.io does not come back by itself then): a new holder
      // asks again, as a socket of its own would have.
      else if (!socket.active) socket.connect();
      holders += 1;
      const shared = socket;
      const own: [string, Listener][] = [];
      let released = false;

      const view: LeasedSocket = {
        on(event, listener) {
          if (!released) {
            own.push([event, listener]);
            shared.on(event, listener);
          }
          return view;
        },
        off(event, listener) {
          const at = own.findIndex(([e, l]) => e === event && l === listener);
          if (at >= 0) {
            own.splice(at, 1);
            shared.off(event, listener);
          }
          return view;
        },
        emit(event, ...args) {
          if (!released) shared.emit(event, ...args);
          return view;
        },
        get connected() {
          return !released && shared.connected;
        },
        get active() {
          return !released && shared.active;
        },
        get id() {
          return shared.id;
        },
      };

      return {
        socket: view,
        release() {
          if (released) return;
          released = true;
          for (const [event, listener] of own.splice(0)) shared.off(event, listener);
          // Closed meanwhile by disconnect(): that lease no longer counts.
          if (shared !== socket) return;
          holders -= 1;
          if (holders === 0) close();
        },
      };
    },
    disconnect: close,
    get holders() {
      return holders;
    },
  };
}

/** This tab's signalling connection, on the page's origin with the signed-in user's token. */
export const sharedSignalling = createSharedSignalling(() =>
  connectSignalling({ getAccessToken: () => httpHandlers().getAccessToken() }),
);
