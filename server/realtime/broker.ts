// The message broker (SPEC §7 "Message broker"): the doorbell of realtime features. The database is
// the mailbox: whatever is published here was stored first by the feature that publishes it.
//
// Two modes behind one interface, `app.broker`:
// - embedded (default): Aedes over WebSocket at /mqtt on the app's own port, with authentication and
//   per-user topic ACLs (embedded-broker.ts); with REDIS_URL every instance's broker shares messages,
//   sessions and caps through Redis (broker-cluster.ts);
// - external (MQTT_URL set): the server publishes to that broker through MQTT.js and browsers connect
//   to MQTT_WS_URL; that broker enforces the ACLs (external-broker.ts, README).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { userMessageTopic } from '../../contracts/broker-topics';
import type { TokenService, TokenUser } from '../lib/auth-types';
import { type BrokerBackend, connectRedisBackend } from './broker-cluster';
import type { Broker } from './broker-transport';
import { type BrokerLimits, startEmbeddedBroker } from './embedded-broker';

export type { Broker } from './broker-transport';
export { BROKER_PATH } from './embedded-broker';

declare module 'fastify' {
  interface FastifyInstance {
    broker: Broker;
  }
}

export interface BrokerPluginOptions {
  tokens: TokenService;
  prefix: string;
  /** MQTT_URL: publish to this broker instead of running the embedded one. */
  externalUrl?: string;
  /** Whether the user may view every seller's help chats (their inbox then listens to all of them). */
  readsAllChats(user: TokenUser): Promise<boolean>;
  /** The embedded broker's caps per user and per packet (embedded-broker.ts). */
  limits?: Partial<BrokerLimits>;
  /** REDIS_URL: the embedded broker shares messages, sessions and caps with the other instances. */
  redisUrl?: string;
  /** Prefix of the broker's Redis keys and channels (default `mp:broker:`); tests use one per run. */
  redisNamespace?: string;
  /** The auction a public token is for: its public page may watch that auction's topic. */
  watchAuction?(token: string): string | null;
}

export const brokerPlugin = fp(
  async (app: FastifyInstance, options: BrokerPluginOptions) => {
    const backend: BrokerBackend | undefined =
      !options.externalUrl && options.redisUrl
        ? await connectRedisBackend(options.redisUrl, {
            namespace: options.redisNamespace ?? 'mp:broker:',
            log: app.log,
          })
        : undefined;
    const transport = options.externalUrl
      ? // Loaded only with MQTT_URL: the embedded broker needs no MQTT client.
        await (await import('./external-broker')).connectExternalBroker(app, { url: options.externalUrl })
      : await startEmbeddedBroker(app, {
          ...options,
          sessions: app.hasDecorator('sessions') ? app.sessions : undefined,
          backend,
        });
    app.decorate('broker', {
      kind: transport.kind,
      publish: transport.publish,
      listen: transport.listen,
      clusterState: transport.clusterState,
      audience: transport.audience,
      onAudienceChange: transport.onAudienceChange,
      publishToUser: (userId, message) =>
        transport.publish(userMessageTopic(options.prefix, userId), message, { qos: 2 }),
    } satisfies Broker);
  },
  { name: 'broker', dependencies: ['auth'] },
);
