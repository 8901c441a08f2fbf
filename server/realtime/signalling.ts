// Signalling (SPEC §7 "Video calling"): socket.io on the app's own port at path /engine.io, for the
// voice and video features to build their events on. Every socket is authenticated with the user's
// access token and joins the room `user:{userId}`, so `emitToUser` reaches all of a user's tabs.
//
// Scale-out: with REDIS_URL, @socket.io/redis-adapter relays room broadcasts between instances, so
// an instance reaches users connected to any other one.
//
// Transports: polling and websocket. WebTransport needs an HTTP/3 (QUIC) server, which Node 20 does
// not have; the browser lists it anyway (SPEC §7) and uses what the server offers.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import {
  isReservedEventName,
  reservedEventMessage,
  SERVER_TRANSPORTS,
  SIGNALLING_PATH,
  userRoom,
} from '../../contracts/socket-events';
import { atMost } from '../lib/at-most';
import type { TokenService, TokenUser } from '../lib/auth-types';
import { redactedUrl } from '../lib/redacted-url';
import { upgradeRouter } from './upgrades';

// biome-ignore lint/suspicious/noExplicitAny: event payloads are defined by the features that emit them
type AnyEvents = Record<string, (...args: any[]) => void>;
export interface SocketData {
  user: TokenUser;
  /** When the access token the socket connected with expires (epoch ms): the connection ends then. */
  tokenExpiresAt: number;
  /**
   * How many local voice calls this socket has answered and not ended (server/modules/voice): with
   * REDIS_URL, `fetchSockets()` reads it from any instance, so a video call to a user on a voice call
   * answers busy wherever either of them is connected.
   */
  voiceCallsInProgress?: number;
}
export type SignallingServer = Server<AnyEvents, AnyEvents, AnyEvents, SocketData>;

export interface Signalling {
  /** The socket.io server, for the voice and video features to add their events. */
  io: SignallingServer;
  /** Sends an event to every socket of the user, on whichever instance it is connected. */
  emitToUser(userId: string, event: string, ...args: unknown[]): void;
  /**
   * True once this instance has begun to close: its sockets are being ended so that browsers reconnect
   * elsewhere, and a disconnect then says nothing about the user (nor may it ask Redis, soon closed).
   */
  readonly closing: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    signalling: Signalling;
  }
}

export interface SignallingOptions {
  tokens: TokenService;
  /** REDIS_URL: share rooms with other instances through Redis pub/sub. */
  redisUrl?: string;
}

/** Why a handshake is refused; the browser sees it as `connect_error`'s message. */
async function authenticate(
  tokens: TokenService,
  auth: Record<string, unknown>,
): Promise<{ user: TokenUser; expiresAt: number }> {
  const token = auth.token;
  if (typeof token !== 'string' || token.length === 0) throw new Error('Access token is missing');
  try {
    const user = await tokens.verify(token);
    return {
      user: { id: user.id, role: user.role, sellerId: user.sellerId, sessionId: user.sessionId },
      expiresAt: user.expiresAt,
    };
  } catch (error) {
    // "Access token expired" or "Invalid access token", from the token service.
    throw new Error(error instanceof Error ? error.message : 'Invalid access token');
  }
}

/** Connection attempts at start-up before a wrong or unreachable REDIS_URL stops the start. */
const REDIS_START_ATTEMPTS = 10;

async function connectRedisAdapter(app: FastifyInstance, io: SignallingServer, url: string) {
  // Loaded only with REDIS_URL: a single instance does not carry the Redis client in memory.
  const [{ createAdapter }, { createClient }] = await Promise.all([
    import('@socket.io/redis-adapter'),
    import('redis'),
  ]);
  let started = false;
  const pubClient = createClient({
    url,
    socket: {
      // node-redis retries forever by default, so a start with Redis down would hang; once connected,
      // it keeps reconnecting (signalling across instances pauses, local signalling goes on).
      reconnectStrategy: (retries: number, cause: Error) =>
        started ? Math.min(100 * 2 ** retries, 3000) : retries >= REDIS_START_ATTEMPTS ? cause : 200,
    },
  });
  const subClient = pubClient.duplicate();
  // Without 'error' listeners a Redis hiccup would crash the process.
  pubClient.on('error', (error) => app.log.warn({ err: error }, 'signalling: Redis error'));
  subClient.on('error', (error) => app.log.warn({ err: error }, 'signalling: Redis error'));
  try {
    await Promise.all([pubClient.connect(), subClient.connect()]);
  } catch (error) {
    for (const client of [pubClient, subClient]) if (client.isOpen) client.destroy();
    throw new Error(
      `Cannot connect to Redis at ${redactedUrl(url)} (REDIS_URL): ${error instanceof Error ? error.message : error}`,
    );
  }
  started = true;
  io.adapter(createAdapter(pubClient, subClient));
  // The adapter subscribes without waiting. Commands on one connection run in order, so once this
  // subscription is confirmed the adapter's are too: when the app is ready, it hears other instances.
  const barrier = `mp:signalling:ready:${Math.random().toString(36).slice(2)}`;
  await subClient.subscribe(barrier, () => {});
  await subClient.unsubscribe(barrier);
  return async () => {
    const graceful = (async () => {
      await io.of('/').adapter.close();
      // Stop hearing other instances first, and let a request already heard (fetchSockets answers a
      // tick later) publish its answer: a publish on a closed client is an unhandled rejection.
      await subClient.close().catch(() => {});
      await new Promise((resolve) => setImmediate(resolve));
      await pubClient.close().catch(() => {});
    })();
    // Right after a Redis outage the clients may still be reconnecting, and their QUIT waits for a
    // connection: a close once hung for good in CI (the Redis outage test). Cut them after a while.
    await atMost(graceful, 2000);
    for (const client of [subClient, pubClient]) if (client.isOpen) client.destroy();
  };
}

export const signallingPlugin = fp(
  async (app: FastifyInstance, options: SignallingOptions) => {
    const io: SignallingServer = new Server(app.server, {
      path: SIGNALLING_PATH,
      transports: [...SERVER_TRANSPORTS],
      serveClient: false, // the SPA bundles socket.io-client
      // Upgrades on other paths are the upgrade router's (upgrades.ts): it hands /mqtt to the broker
      // and refuses unclaimed ones. By default engine.io would also end any other upgrade still
      // unanswered after a second.
      destroyUpgrade: false,
    });
    // engine.io adds a trailing slash to its path and listens on the http server itself.
    const router = upgradeRouter(app);
    router.claim(`${SIGNALLING_PATH}/`);

    io.use((socket, next) => {
      authenticate(options.tokens, socket.handshake.auth ?? {}).then(
        ({ user, expiresAt }) => {
          socket.data.user = user;
          socket.data.tokenExpiresAt = expiresAt;
          next();
        },
        (error: Error) => next(error),
      );
    });
    io.on('connection', (socket) => {
      void socket.join(userRoom(socket.data.user.id));
      // A connection lives no longer than the access token it was opened with, as on the broker. Its
      // transport is closed (not `disconnect`, which tells the client not to come back): the browser
      // reconnects at once with its current token (signalling-socket.ts asks for it on every attempt),
      // and a call in progress rejoins within its grace.
      const expiry = setTimeout(
        () => socket.conn.close(),
        Math.max(0, socket.data.tokenExpiresAt - Date.now()),
      );
      expiry.unref();
      socket.once('disconnect', () => clearTimeout(expiry));
      // SPEC §5: a client may not send a reserved name either. socket.io's parser drops six of them
      // (connect, disconnect, …); the others ('error', 'connection', 'message', …) would reach any
      // listener a feature (or socket.io itself, for 'error') has under that name. They are refused here,
      // before every feature's listeners, with the reason when the client asked for an acknowledgement.
      socket.use(([event, ...args], next) => {
        if (typeof event !== 'string' || !isReservedEventName(event)) return next();
        const ack = args.at(-1);
        if (typeof ack === 'function') ack({ ok: false, message: reservedEventMessage(event) });
      });
    });

    const closeAdapter = options.redisUrl ? await connectRedisAdapter(app, io, options.redisUrl) : null;

    // A session that ended (sign-out, deactivation, password reset) loses its sockets at once.
    const gate = app.hasDecorator('sessions') ? app.sessions : undefined;
    const stopHearingRevocations = gate?.onRevoked((userId) => {
      const sockets = userId === null ? io.local : io.local.in(userRoom(userId));
      void sockets.fetchSockets().then(async (found) => {
        for (const socket of found) {
          const { user } = socket.data;
          if (!(await gate.isLive(user.sessionId, user.id).catch(() => true))) socket.disconnect(true);
        }
      });
    });

    let closing = false;
    app.decorate('signalling', {
      io,
      emitToUser(userId, event, ...args) {
        if (isReservedEventName(event)) throw new Error(reservedEventMessage(event));
        io.to(userRoom(userId)).emit(event, ...args);
      },
      get closing() {
        return closing;
      },
    } satisfies Signalling);

    // preClose: the http server waits for open connections (a pending long-poll, an upgraded
    // websocket) before it closes.
    app.addHook('preClose', async () => {
      closing = true;
      stopHearingRevocations?.();
      router.release(`${SIGNALLING_PATH}/`);
      // Ending the transports (not `disconnectSockets`, which tells clients not to come back) lets
      // browsers reconnect, to this instance after a restart or to another one.
      io.engine.close();
    });
    app.addHook('onClose', async () => {
      await closeAdapter?.();
    });
  },
  { name: 'signalling', dependencies: ['auth'] },
);
