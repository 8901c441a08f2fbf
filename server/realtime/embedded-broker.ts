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
// - the connection ends when the access token expires, so a deactivated user stops listening within
//   the token's life; the browser reconnects with its fresh token.
import type { IncomingMessage } from 'node:http';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyInstance } from 'fastify';
import { createWebSocketStream, WebSocketServer } from 'ws';
import {
  allowedSubscriptions,
  type BrokerUser,
  mayPublish,
  maySubscribe,
  topicMatches,
} from '../../contracts/broker-topics';
import type { TokenService, TokenUser } from '../modules/auth/tokens';
import { type BrokerTransport, type PublishOptions, parsePayload } from './broker';
import { createBrokerPersistence } from './broker-persistence';
import { createSessionSweeper, type SessionStore } from './session-expiry';
import { upgradeRouter } from './upgrades';

export const BROKER_PATH = '/mqtt';

interface ClientSession {
  user: BrokerUser;
  expiresAt: number;
}

function refused(message: string, returnCode: 2 | 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** Whether `user` may receive a message published on `topic` (matched by one of their own filters). */
export function mayReceive(user: BrokerUser, topic: string, prefix: string): boolean {
  return allowedSubscriptions(user, prefix).some((filter) => topicMatches(filter, topic));
}

export interface AuthHookOptions {
  tokens: TokenService;
  prefix: string;
  /**
   * Read once per connection: a permission taken away applies from the next connection, which comes
   * within the access token's life (the connection ends when the token expires).
   */
  readsAllChats(user: TokenUser): Promise<boolean>;
}

export function createAuthHooks({ tokens, prefix, readsAllChats }: AuthHookOptions) {
  // Aedes passes the client object through every hook; the verified user rides on it.
  const sessions = new WeakMap<object, ClientSession>();
  // Client id → the user it belongs to, for as long as the broker may hold a session under that id.
  const clientIdOwners = new Map<string, string>();

  return {
    sessions,
    clientIdOwners,
    authenticate(
      client: Client,
      username: string | undefined,
      password: Buffer | undefined,
      done: (error: AuthenticateError | null, success: boolean | null) => void,
    ) {
      if (!username || !password) return done(refused('Username and access token are required', 4), false);
      tokens.verify(password.toString()).then(
        async (user) => {
          if (user.id !== username) return done(refused('The token belongs to another user', 5), false);
          const allChats = await readsAllChats(user).catch(() => false);
          const owner = clientIdOwners.get(client.id);
          if (owner && owner !== user.id) {
            return done(refused('This client id belongs to another user', 2), false);
          }
          clientIdOwners.set(client.id, user.id);
          sessions.set(client, {
            user: { id: user.id, role: user.role, sellerId: user.sellerId, readsAllChats: allChats },
            expiresAt: user.expiresAt,
          });
          done(null, true);
        },
        () => done(refused('Invalid or expired access token', 4), false),
      );
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
      done(new Error('Publishing on this topic is not allowed'));
    },
    authorizeForward<P extends { topic: string }>(client: Client, packet: P): P | null {
      const session = sessions.get(client);
      return session && mayReceive(session.user, packet.topic, prefix) ? packet : null;
    },
  };
}

export async function startEmbeddedBroker(
  app: FastifyInstance,
  options: AuthHookOptions,
): Promise<BrokerTransport> {
  const hooks = createAuthHooks(options);
  // The in-memory session store with the PUBREL fix (broker-persistence.ts): browsers keep sessions,
  // and those not resumed within a day are forgotten (session-expiry.ts).
  const persistence = createBrokerPersistence();
  const sessions = createSessionSweeper(persistence as unknown as SessionStore, {
    forgotten: (clientId) => hooks.clientIdOwners.delete(clientId),
  });
  const aedes = await Aedes.createBroker({
    persistence,
    authenticate: hooks.authenticate,
    authorizeSubscribe: hooks.authorizeSubscribe,
    authorizePublish: hooks.authorizePublish,
    authorizeForward: hooks.authorizeForward,
  } as never);

  // One timer per connected client, ending the connection when its access token expires.
  const expiryTimers = new Map<Client, NodeJS.Timeout>();
  aedes.on('client', (client) => {
    const session = hooks.sessions.get(client);
    if (!session) return;
    // Again here: taking over a connection with the same id (same user) unregistered the old one,
    // which may have freed the id just after this client claimed it.
    hooks.clientIdOwners.set(client.id, session.user.id);
    sessions.connected(client.id);
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
  aedes.on('clientDisconnect', (client) => {
    clearTimeout(expiryTimers.get(client));
    expiryTimers.delete(client);
    // A clean session leaves nothing behind under its id, so the id is free again.
    if (client.clean) hooks.clientIdOwners.delete(client.id);
    sessions.disconnected(client.id, client.clean);
  });

  // noServer: the upgrade router hands over only /mqtt, so socket.io keeps its own upgrades.
  const sockets = new WebSocketServer({ noServer: true });
  sockets.on('connection', (socket, request: IncomingMessage) => {
    aedes.handle(createWebSocketStream(socket), request);
  });
  const router = upgradeRouter(app);
  router.handle(BROKER_PATH, (request, socket, head) =>
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request)),
  );

  // preClose: the http server waits for open connections before it closes, upgraded ones included.
  sessions.start();
  app.addHook('preClose', async () => {
    sessions.stop();
    router.release(BROKER_PATH);
    for (const timer of expiryTimers.values()) clearTimeout(timer);
    expiryTimers.clear();
    for (const socket of sockets.clients) socket.terminate();
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => sockets.close(() => resolve()));
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
  });

  const publish = (topic: string, message: unknown, publishOptions: PublishOptions = {}) =>
    new Promise<void>((resolve, reject) =>
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
      ),
    );
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
  return { kind: 'embedded', publish, listen };
}
