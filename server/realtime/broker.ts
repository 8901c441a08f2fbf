// The message broker (SPEC §7 "Message broker"): the doorbell of realtime features. The database is
// the mailbox: whatever is published here was stored first by the feature that publishes it.
//
// Two modes behind one interface, `app.broker`:
// - embedded (default): Aedes over WebSocket at /mqtt on the app's own port, with authentication and
//   per-user topic ACLs (embedded-broker.ts);
// - external (MQTT_URL set): the server publishes to that broker through MQTT.js and browsers connect
//   to MQTT_WS_URL; that broker enforces the ACLs (external-broker.ts, README).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { userMessageTopic } from '../../contracts/broker-topics';
import type { TokenService, TokenUser } from '../modules/auth/tokens';
import { type BrokerLimits, startEmbeddedBroker } from './embedded-broker';

export { BROKER_PATH } from './embedded-broker';

export interface PublishOptions {
  /** SPEC §9: QoS 2 unless a feature says otherwise. */
  qos?: 0 | 1 | 2;
}

export interface Broker {
  kind: 'embedded' | 'external';
  /** Publishes a JSON message on the user's own message topic (QoS 2, not retained; SPEC §9). */
  publishToUser(userId: string, message: unknown): Promise<void>;
  /** Publishes a JSON message on any topic, not retained (e.g. `/chatBot/salesBot/{sellerId}/{sessionId}`). */
  publish(topic: string, message: unknown, options?: PublishOptions): Promise<void>;
  /**
   * The server itself listens on a topic filter, to hear what every instance publishes (with an
   * external broker, messages stored by another instance). Messages that are not JSON are dropped.
   */
  listen(filter: string, onMessage: (topic: string, message: unknown) => void): Promise<void>;
}

/** What each mode provides; `publishToUser` is built on top the same way for both. */
export type BrokerTransport = Pick<Broker, 'kind' | 'publish' | 'listen'>;

/** The JSON in a message's payload, or undefined when it is not JSON. */
export function parsePayload(payload: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return undefined;
  }
}

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
}

export const brokerPlugin = fp(
  async (app: FastifyInstance, options: BrokerPluginOptions) => {
    const transport = options.externalUrl
      ? // Loaded only with MQTT_URL: the embedded broker needs no MQTT client.
        await (await import('./external-broker')).connectExternalBroker(app, { url: options.externalUrl })
      : await startEmbeddedBroker(app, {
          ...options,
          sessions: app.hasDecorator('sessions') ? app.sessions : undefined,
        });
    app.decorate('broker', {
      kind: transport.kind,
      publish: transport.publish,
      listen: transport.listen,
      publishToUser: (userId, message) =>
        transport.publish(userMessageTopic(options.prefix, userId), message, { qos: 2 }),
    } satisfies Broker);
  },
  { name: 'broker', dependencies: ['auth'] },
);
