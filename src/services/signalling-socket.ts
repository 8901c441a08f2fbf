// The browser's signalling socket (SPEC §7 "Video calling", §9 "Socket"): socket.io-client on the
// app's own origin at /engine.io, with the SPEC's reconnect constants. The voice and video features
// build their events on it; this adapter only connects, authenticates and guards what is sent.
import { io, type Socket } from 'socket.io-client';
import {
  CLIENT_TRANSPORTS,
  isReservedEventName,
  reservedEventMessage,
  SIGNALLING_CLIENT_OPTIONS,
  SIGNALLING_PATH,
} from '../../contracts/socket-events';

export interface SignallingConnectOptions {
  /** Server origin; defaults to the page's own. */
  url?: string;
  /** The current access token; asked again on every (re)connect, so a refreshed token is used. */
  getAccessToken: () => string | null | undefined | Promise<string | null | undefined>;
  /** Connect at once (default) or wait for `socket.connect()`. */
  autoConnect?: boolean;
}

export function connectSignalling(options: SignallingConnectOptions): Socket {
  const settings = {
    ...SIGNALLING_CLIENT_OPTIONS,
    path: SIGNALLING_PATH,
    // WebTransport first where the server offers it; ours (Node 20, no HTTP/3) offers polling and
    // websocket, and the client keeps to those.
    transports: [...CLIENT_TRANSPORTS],
    autoConnect: options.autoConnect ?? true,
    // A callback, not an object: socket.io calls it on every connection attempt.
    auth: (send: (data: { token: string }) => void) => {
      Promise.resolve()
        .then(options.getAccessToken)
        .then(
          (token) => send({ token: token ?? '' }),
          () => send({ token: '' }), // the server then refuses with "Access token is missing"
        );
    },
  };
  return options.url ? io(options.url, settings) : io(settings);
}

/**
 * Emits an application event. SPEC §5: a reserved name (socket.io's own, the EventEmitter's, the
 * connection's) is refused with an Error naming it, before anything is sent.
 */
export function emitSignal(
  socket: { emit(event: string, ...args: unknown[]): unknown },
  event: string,
  ...args: unknown[]
): void {
  if (isReservedEventName(event)) throw new Error(reservedEventMessage(event));
  socket.emit(event, ...args);
}
