// The embedded MQTT broker (SPEC §7 "Message broker"): Aedes over WebSocket at /mqtt on the app's own
// port. The database is the mailbox, the broker only the doorbell: whatever is published here was
// stored first by the feature that publishes it.
//
// Who may do what is decided by contracts/broker-topics.ts, the same rules the browser client knows:
// - connecting needs the user's id as username and a valid access token as password;
// - a user subscribes only to their own topics (a refused subscription is a SUBACK failure and the
//   connection stays up);
// - a browser publishes only on its own topics.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError } from 'aedes';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { type BrokerUser, maySubscribe, userMessageTopic } from '../../contracts/broker-topics';
import type { TokenService } from '../modules/auth/tokens';

export const BROKER_PATH = '/mqtt';

export interface Broker {
  /** Publishes a JSON message on the user's own message topic (QoS 2, not retained; SPEC §9). */
  publishToUser(userId: string, message: unknown): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    broker: Broker;
  }
}

// Aedes passes the client object through every hook; the verified user rides on it.
const usersByClient = new WeakMap<object, BrokerUser>();

function refused(message: string, returnCode: 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

export function createAuthHooks(tokens: TokenService, prefix: string) {
  return {
    authenticate(
      client: object,
      username: string | undefined,
      password: Buffer | undefined,
      done: (error: AuthenticateError | null, success: boolean | null) => void,
    ) {
      if (!username || !password) return done(refused('Username and access token are required', 4), false);
      tokens.verify(password.toString()).then(
        (user) => {
          if (user.id !== username) return done(refused('The token belongs to another user', 5), false);
          usersByClient.set(client, { id: user.id, role: user.role, sellerId: user.sellerId });
          done(null, true);
        },
        () => done(refused('Invalid or expired access token', 4), false),
      );
    },
    authorizeSubscribe(
      client: object,
      subscription: { topic: string; qos: number },
      done: (error: Error | null, subscription?: { topic: string; qos: number } | null) => void,
    ) {
      const user = usersByClient.get(client);
      // `done(null, null)` refuses just this subscription; an error would drop the connection.
      done(null, user && maySubscribe(user, subscription.topic, prefix) ? subscription : null);
    },
    authorizePublish(client: object | null, packet: { topic: string }, done: (error?: Error | null) => void) {
      if (!client) return done(null); // the server itself
      const user = usersByClient.get(client);
      if (user && maySubscribe(user, packet.topic, prefix)) return done(null);
      done(new Error('Publishing on this topic is not allowed'));
    },
  };
}

export const brokerPlugin = fp(
  async (app: FastifyInstance, options: { tokens: TokenService; prefix: string }) => {
    const aedes = await Aedes.createBroker(createAuthHooks(options.tokens, options.prefix) as never);
    // noServer: the upgrade is routed by path here, so other upgrade handlers (socket.io) keep theirs.
    const sockets = new WebSocketServer({ noServer: true });
    sockets.on('connection', (socket, request: IncomingMessage) => {
      aedes.handle(createWebSocketStream(socket), request);
    });
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path === BROKER_PATH) {
        sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
      } else if (app.server.listenerCount('upgrade') === 1) {
        socket.destroy(); // nobody else answers upgrades on this path
      }
    };
    app.server.on('upgrade', onUpgrade);

    app.decorate('broker', {
      publishToUser: (userId, message) =>
        new Promise<void>((resolve, reject) =>
          aedes.publish(
            {
              cmd: 'publish',
              topic: userMessageTopic(options.prefix, userId),
              payload: Buffer.from(JSON.stringify(message)),
              qos: 2,
              retain: false,
              dup: false,
            } as never,
            (error) => (error ? reject(error) : resolve()),
          ),
        ),
    } satisfies Broker);

    app.addHook('onClose', async () => {
      app.server.off('upgrade', onUpgrade);
      for (const socket of sockets.clients) socket.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    });
  },
  { name: 'broker', dependencies: ['auth'] },
);
