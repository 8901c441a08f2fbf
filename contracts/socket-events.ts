// Signalling over socket.io (SPEC §5, §7 "Video calling", §9 "Socket"): the path, the client's
// constants and the event names nobody may send. Shared by the server (server/realtime/signalling.ts)
// and the browser adapter (src/services/signalling-socket.ts). No imports: the browser loads it as is.

/** engine.io path on the app's own port (SPEC §7). */
export const SIGNALLING_PATH = '/engine.io';

/** SPEC §7: polling, websocket and webtransport; the client falls back to what the server offers. */
export const CLIENT_TRANSPORTS = ['polling', 'websocket', 'webtransport'] as const;

/**
 * What the server offers. WebTransport needs an HTTP/3 (QUIC) server, which Node 20 does not have;
 * a client that lists it keeps polling/websocket.
 */
export const SERVER_TRANSPORTS = ['polling', 'websocket'] as const;

/** SPEC §9: reconnect delay 1 s growing to 5 s, jitter 0.5, connection timeout 20 s. */
export const SIGNALLING_CLIENT_OPTIONS = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20_000,
} as const;

/** The room every socket of a user joins, so any server instance can address that user. */
export function userRoom(userId: string): string {
  return `user:${userId}`;
}

/**
 * Event names an application must never send (SPEC §5): socket.io's own socket events, the
 * EventEmitter's, and the connection-level events of the Manager and the engine.io socket. Sending
 * one would either throw inside socket.io or be confused with the library's own signals.
 */
export const RESERVED_EVENT_NAMES: readonly string[] = Object.freeze([
  // socket.io Socket (client and server)
  'connect',
  'connect_error',
  'disconnect',
  'disconnecting',
  // Node's EventEmitter
  'newListener',
  'removeListener',
  // the server's namespace event
  'connection',
  // socket.io-client Manager
  'open',
  'error',
  'close',
  'ping',
  'packet',
  'reconnect',
  'reconnect_attempt',
  'reconnect_error',
  'reconnect_failed',
  // engine.io socket
  'handshake',
  'message',
  'upgrade',
  'upgradeError',
  'upgrading',
  'drain',
  'flush',
  'heartbeat',
  'packetCreate',
  'pong',
]);

const reserved = new Set(RESERVED_EVENT_NAMES);

export function isReservedEventName(event: string): boolean {
  return reserved.has(event);
}

/** The error text for a refused reserved event. */
export function reservedEventMessage(event: string): string {
  return `"${event}" is a reserved event name and cannot be emitted`;
}
