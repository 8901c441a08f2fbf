// The embedded MQTT broker: Aedes over WebSocket at /mqtt on the app's own port.
//
// Who may do what is decided by contracts/broker-topics.ts, the same rules the browser client knows:
// - connecting needs the user's id as username and a valid access token as password;
// - a user subscribes only to their own topics (a refused subscription is a SUBACK failure and the
//   connection stays up);
// - a browser publishes only on its own topics;
// - a client id belongs to the first user who connects with it: browsers keep sessions (clean false,
//   stable id), and another user taking that id over would inherit the session's queued messages;
// - nothing is ever forwarded to a client whose user may not read the topic (defence in depth for
//   queued and restored session messages);
// - the connection ends when its session ends (sign-out, deactivation, password reset), and at the
//   latest when the access token expires; the browser reconnects with its fresh token;
// - one user holds at most `connectionsPerUser` connections and `sessionsPerUser` kept sessions (the
//   oldest away session is forgotten first), and no packet may be larger than `maxPacketBytes`:
//   one account cannot fill the server's memory.
// With REDIS_URL, several instances share messages, sessions and these caps (broker-cluster.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyInstance } from 'fastify';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { type BrokerUser, mayPublish, mayReceive, maySubscribe } from '../../contracts/broker-topics';
import { atMost } from '../lib/at-most';
import type { SessionGate, TokenService, TokenUser } from '../lib/auth-types';
import { createAudienceStore } from './broker-audience';
import { type BrokerBackend, createLocalBackend } from './broker-cluster';
import { type BrokerRegistry, createMemoryRegistry } from './broker-registry';
import { type BrokerTransport, type PublishOptions, parsePayload } from './broker-transport';
import { createPacketSizeGuard } from './packet-size-guard';
import { createSessionSweeper, type SessionStore } from './session-expiry';
import { upgradeRouter } from './upgrades';
import { decideWatcher, WATCHER_USERNAME } from './watchers';

export const BROKER_PATH = '/mqtt';
/** The topics whose listeners are counted: each auction's (its watchers). */
const AUDIENCE_TOPIC = /^auctions\/[0-9a-f-]{36}$/;

export interface BrokerLimits {
  /** Connections one user may hold at once (a tab each). */
  connectionsPerUser: number;
  /** Kept sessions (clean session false, a client id per tab) one user may leave in the broker. */
  sessionsPerUser: number;
  /** The largest MQTT packet a client may send; larger ones end the connection. */
  maxPacketBytes: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  connectionsPerUser: 30,
  sessionsPerUser: 50,
  // Chat events and notifications are a few KB; this leaves room, and refuses a megabyte flood.
  maxPacketBytes: 128 * 1024,
};

export const TOO_MANY_CONNECTIONS_MESSAGE = 'Too many connections for this user';

interface ClientSession {
  user: BrokerUser;
  /** The signed-in session of the token it connected with: when that session ends, so does this. */
  sessionId: string;
  expiresAt: number;
}

function refused(message: string, returnCode: 2 | 3 | 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

export interface AuthHookOptions {
  tokens: TokenService;
  prefix: string;
  /**
   * Read once per connection: a permission taken away applies from the next connection, which comes
   * within the access token's life (the connection ends when the token expires).
   */
  readsAllChats(user: TokenUser): Promise<boolean>;
  limits?: Partial<BrokerLimits>;
  /**
   * The user is about to keep another session: make room (forget their oldest away sessions) so they
   * keep at most `keep` others. Without it the cap is not enforced (tests of the hooks alone).
   */
  makeRoomForSession?(userId: string, keep: number): Promise<void>;
  /** A client published where it may not: the publish was acknowledged and dropped. */
  onRefusedPublish?(refused: { clientId: string; userId: string | null; topic: string }): void;
  /** Client id owners and open connections: in memory, or cluster-wide (broker-registry.ts). */
  registry?: BrokerRegistry;
  /** The registry could not answer (Redis down): the connection is refused as unavailable. */
  onRegistryError?(error: unknown): void;
  /** The auction a public token is for (auctions' signed links): its page may watch that topic. */
  watchAuction?(token: string): string | null;
}

/** A watcher's connection lasts at most this long; the page reconnects (its token does not expire). */
const WATCHER_CONNECTION_MS = 12 * 3_600_000;

/**
 * Marks a publish that the ACL refused. MQTT 3.1.1 §3.3.5 lets a server acknowledge a publish it will
 * not deliver: Aedes, asked to refuse it, would close the connection instead, and a client with a kept
 * session and QoS 1 resends the same packet on every reconnect (a loop until its session expires). So
 * the refused packet is acknowledged (PUBACK / PUBREC as usual) and the broker's publish drops it.
 */
const REFUSED_PUBLISH = Symbol('refused publish');
type MaybeRefused = { [REFUSED_PUBLISH]?: true };

export function createAuthHooks({
  tokens,
  prefix,
  readsAllChats,
  limits,
  makeRoomForSession,
  onRefusedPublish,
  registry = createMemoryRegistry(),
  onRegistryError,
  watchAuction,
}: AuthHookOptions) {
  const { connectionsPerUser, sessionsPerUser } = { ...DEFAULT_BROKER_LIMITS, ...limits };
  // Aedes passes the client object through every hook; the verified user rides on it.
  const sessions = new WeakMap<object, ClientSession>();

  return {
    sessions,
    /** Client id → the user it belongs to (for as long as the broker may hold a session under that id), and each user's open connections. */
    registry,
    authenticate(
      client: Client,
      username: string | undefined,
      password: Buffer | undefined,
      done: (error: AuthenticateError | null, success: boolean | null) => void,
    ) {
      if (!username || !password) return done(refused('Username and access token are required', 4), false);
      if (username === WATCHER_USERNAME) {
        // An auction's public page: no account, a clean session, its one topic (decideWatcher).
        const watcher = client.clean ? decideWatcher(watchAuction, client.id, password.toString()) : null;
        if (!watcher) return done(refused('Not a valid auction link', 4), false);
        sessions.set(client, { user: watcher, sessionId: '', expiresAt: Date.now() + WATCHER_CONNECTION_MS });
        return done(null, true);
      }
      tokens
        .verify(password.toString())
        .then(
          async (user) => {
            if (user.id !== username) return done(refused('The token belongs to another user', 5), false);
            const allChats = await readsAllChats(user).catch(() => false);
            const owner = await registry.ownerOf(client.id);
            if (owner && owner !== user.id) {
              return done(refused('This client id belongs to another user', 2), false);
            }
            // A tab coming back with its own client id takes its old connection over: not one more.
            // Checking the cap and taking the place are one step in the registry.
            const place = await registry.claimConnection(user.id, client.id, connectionsPerUser);
            if (place === null) return done(refused(TOO_MANY_CONNECTIONS_MESSAGE, 3), false);
            const connection = (client as unknown as { conn: NodeJS.EventEmitter & { destroyed?: boolean } })
              .conn;
            const release = () => void registry.releaseConnection(user.id, place).catch(() => {});
            // Gone while the place was being taken: its 'close' has passed already.
            if (connection.destroyed) release();
            else connection.once('close', release);
            if (!owner && !client.clean) await makeRoomForSession?.(user.id, sessionsPerUser - 1);
            await registry.own(client.id, user.id);
            sessions.set(client, {
              user: { id: user.id, role: user.role, sellerId: user.sellerId, readsAllChats: allChats },
              sessionId: user.sessionId,
              expiresAt: user.expiresAt,
            });
            done(null, true);
          },
          () => done(refused('Invalid or expired access token', 4), false),
        )
        .catch((error: unknown) => {
          onRegistryError?.(error);
          done(refused('The broker is unavailable, try again shortly', 3), false);
        });
    },
    authorizeSubscribe(
      client: Client,
      subscription: { topic: string; qos: number },
      done: (error: Error | null, subscription?: { topic: string; qos: number } | null) => void,
    ) {
      const session = sessions.get(client);
      // `done(null, null)` refuses just this subscription; an error would drop the connection.
      done(null, session && maySubscribe(session.user, subscription.topic, prefix) ? subscription : null);
    },
    authorizePublish(client: Client | null, packet: { topic: string }, done: (error?: Error | null) => void) {
      if (!client) return done(null); // the server itself
      const session = sessions.get(client);
      if (session && mayPublish(session.user, packet.topic, prefix)) return done(null);
      (packet as MaybeRefused)[REFUSED_PUBLISH] = true;
      onRefusedPublish?.({ clientId: client.id, userId: session?.user.id ?? null, topic: packet.topic });
      done(null);
    },
    authorizeForward<P extends { topic: string }>(client: Client, packet: P): P | null {
      const session = sessions.get(client);
      return session && mayReceive(session.user, packet.topic, prefix) ? packet : null;
    },
  };
}

export async function startEmbeddedBroker(
  app: FastifyInstance,
  options: AuthHookOptions & {
    /** Ended sessions: their connections are closed at once (sign-out, deactivation, password reset). */
    sessions?: Pick<SessionGate, 'isLive' | 'onRevoked'>;
    /** Where messages, sessions and caps are kept (broker-cluster.ts); default: this process's memory. */
    backend?: BrokerBackend;
  },
): Promise<BrokerTransport> {
  const limits = { ...DEFAULT_BROKER_LIMITS, ...options.limits };
  const backend = options.backend ?? createLocalBackend();
  // Browsers keep sessions, and those not resumed within a day are forgotten (session-expiry.ts).
  const sessions = createSessionSweeper(backend.persistence as SessionStore, {
    forgotten: (clientId) => hooks.registry.disown(clientId),
    away: backend.away,
  });
  const hooks = createAuthHooks({
    ...options,
    limits,
    registry: backend.registry,
    // A user's kept sessions beyond the cap: the ones away the longest are forgotten first.
    makeRoomForSession: async (userId, keep) => {
      const ids = await hooks.registry.idsOf(userId);
      if (ids.length <= keep) return;
      await sessions.forgetOldestAway(ids, ids.length - keep);
    },
    onRefusedPublish: (refused) =>
      app.log.warn(refused, 'broker: a publish on a topic the client may not use, acknowledged and dropped'),
    onRegistryError: (error) =>
      app.log.warn({ err: error }, 'broker: the connection registry did not answer, connection refused'),
  });
  const aedes = await Aedes.createBroker({
    ...(backend.mq ? { mq: backend.mq } : {}),
    persistence: backend.persistence,
    authenticate: hooks.authenticate,
    authorizeSubscribe: hooks.authorizeSubscribe,
    authorizePublish: hooks.authorizePublish,
    authorizeForward: hooks.authorizeForward,
  } as never);
  backend.prepare?.(aedes);
  // A refused publish (see REFUSED_PUBLISH) was acknowledged by Aedes' publish handler, which then asks
  // the broker to publish it: it goes no further. The server's own publishes are never marked.
  // (Aedes calls it as publish(packet, client, done); its typings name only publish(packet, done).)
  type AnyPublish = (packet: MaybeRefused, ...rest: unknown[]) => void;
  const brokerPublish = aedes.publish.bind(aedes) as unknown as AnyPublish;
  (aedes as unknown as { publish: AnyPublish }).publish = (packet, ...rest) => {
    if (!packet[REFUSED_PUBLISH]) return brokerPublish(packet, ...rest);
    const done = rest.at(-1);
    if (typeof done === 'function') done();
  };

  // A dropped connection says why in the debug log (a refused publish, a protocol error, a store error).
  aedes.on('clientError', (client, error) =>
    app.log.debug({ clientId: client.id, reason: error.message }, 'broker: connection dropped'),
  );
  // Aedes reports a store that failed (Redis down) as an 'error' event, which would throw unheard.
  aedes.on(
    'error' as never,
    ((error: Error) => app.log.warn({ err: error }, 'broker: store error')) as never,
  );
  // One timer per connected client, ending the connection when its access token expires.
  const expiryTimers = new Map<Client, NodeJS.Timeout>();
  aedes.on('client', (client) => {
    const session = hooks.sessions.get(client);
    if (!session) return;
    // Again here: taking over a connection with the same id (same user) unregistered the old one,
    // which may have freed the id just after this client claimed it.
    if (session.user.role !== 'Watcher') {
      void hooks.registry.own(client.id, session.user.id).catch(() => {});
      sessions.connected(client.id);
    }
    const timer = setTimeout(
      () => {
        expiryTimers.delete(client);
        app.log.debug({ clientId: client.id }, 'broker: access token expired, closing the connection');
        client.close();
      },
      Math.max(0, session.expiresAt - Date.now()),
    );
    expiryTimers.set(client, timer.unref());
  });
  // Who listens to each auction (its watchers' count), across instances with Redis.
  const audience = createAudienceStore({
    counted: (topic) => AUDIENCE_TOPIC.test(topic),
    redis: backend.redis,
    instanceId: randomUUID(),
  });
  aedes.on('subscribe', (subscriptions, client) => {
    if (client) for (const { topic } of subscriptions) audience.joined(topic, client.id);
  });
  aedes.on('unsubscribe', (topics, client) => {
    if (client) for (const topic of topics) audience.left(topic, client.id);
  });
  aedes.on('clientDisconnect', (client) => {
    audience.gone(client.id);
    clearTimeout(expiryTimers.get(client));
    expiryTimers.delete(client);
    // A clean session leaves nothing behind under its id, so the id is free again.
    if (client.clean) void hooks.registry.disown(client.id).catch(() => {});
    sessions.disconnected(client.id, client.clean);
  });

  // A session that ended stops listening now, not when its token expires.
  const stopHearingRevocations = options.sessions?.onRevoked((userId) => {
    // Every connected client has an expiry timer: its keys are the live connections.
    for (const client of expiryTimers.keys()) {
      const session = hooks.sessions.get(client);
      if (!session || session.user.role === 'Watcher' || (userId !== null && session.user.id !== userId))
        continue;
      void options.sessions?.isLive(session.sessionId, session.user.id).then(
        (live) => {
          if (live) return;
          app.log.debug({ clientId: client.id }, 'broker: the session ended, closing the connection');
          client.close();
        },
        () => {},
      );
    }
  });

  // noServer: the upgrade router hands over only /mqtt, so socket.io keeps its own upgrades.
  // A WebSocket message larger than a packet may be is refused by ws itself (close 1009) before it is
  // read; a packet spread over several messages is caught from its header by the guard.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: limits.maxPacketBytes + 1024 });
  sockets.on('connection', (socket, request: IncomingMessage) => {
    const stream = createWebSocketStream(socket);
    const guard = createPacketSizeGuard(limits.maxPacketBytes, (declared) => {
      app.log.warn({ declared }, 'broker: a packet over the size limit, closing the connection');
      socket.terminate();
    });
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      for (const part of Array.isArray(data) ? data : [data]) guard(new Uint8Array(part));
    });
    aedes.handle(stream, request);
  });
  const router = upgradeRouter(app);
  router.handle(BROKER_PATH, (request, socket, head) =>
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request)),
  );

  // preClose: the http server waits for open connections before it closes, upgraded ones included.
  sessions.start();
  app.addHook('preClose', async () => {
    stopHearingRevocations?.();
    sessions.stop();
    audience.stop();
    router.release(BROKER_PATH);
    for (const timer of expiryTimers.values()) clearTimeout(timer);
    expiryTimers.clear();
    for (const socket of sockets.clients) socket.terminate();
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => sockets.close(() => resolve()));
    const closed = new Promise<void>((resolve) => aedes.close(() => resolve()));
    // With Redis down, the emitter's goodbye to it never comes: its connections are cut after a while.
    await atMost(closed, 2000);
    await backend.close();
    // Cut connections may fail the store's QUIT without calling Aedes back: never wait for ever.
    await atMost(closed, 2000);
  });

  const publish = (topic: string, message: unknown, publishOptions: PublishOptions = {}) =>
    new Promise<void>((resolve, reject) => {
      // Redis down: fail at once rather than wait for it (what is published was stored first).
      if (backend.clusterState?.() === 'degraded') {
        return reject(new Error('The broker cluster is degraded (Redis unreachable)'));
      }
      aedes.publish(
        {
          cmd: 'publish',
          topic,
          payload: Buffer.from(JSON.stringify(message)),
          qos: publishOptions.qos ?? 2,
          retain: false,
          dup: false,
        } as never,
        (error) => (error ? reject(error) : resolve()),
      );
    });
  const listen: BrokerTransport['listen'] = (filter, onMessage) =>
    new Promise<void>((resolve) =>
      aedes.subscribe(
        filter,
        (packet, done) => {
          const message = parsePayload(packet.payload as Buffer);
          if (message !== undefined) onMessage(packet.topic, message);
          done();
        },
        resolve,
      ),
    );
  return {
    kind: 'embedded',
    publish,
    listen,
    clusterState: backend.clusterState,
    audience: (topic) => audience.count(topic),
    onAudienceChange: (listener) => audience.onChange(listener),
  };
}
