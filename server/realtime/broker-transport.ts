// What a broker is, in either mode: the interface `app.broker` offers and what each transport
// (embedded-broker.ts, external-broker.ts) provides. broker.ts, which picks the mode, and both transports
// import it.
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
  /** The embedded broker clustered over Redis (REDIS_URL): whether Redis answers (`/api/health`). */
  clusterState?: () => 'ok' | 'degraded';
  /**
   * How many connections subscribe to exactly this topic, across instances (an auction's watchers).
   * Known to the embedded broker; an external broker does not tell, and it is absent.
   */
  audience?: (topic: string) => number;
  /** Called with the topics whose audience changed (at most about once a second). */
  onAudienceChange?: (listener: (topics: string[]) => void) => void;
}

/** What each mode provides; `publishToUser` is built on top the same way for both. */
export type BrokerTransport = Pick<
  Broker,
  'kind' | 'publish' | 'listen' | 'clusterState' | 'audience' | 'onAudienceChange'
>;

/** The JSON in a message's payload, or undefined when it is not JSON. */
export function parsePayload(payload: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return undefined;
  }
}
