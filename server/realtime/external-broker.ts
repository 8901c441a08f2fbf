// External broker mode (MQTT_URL): the server publishes to Mosquitto, EMQX or any MQTT broker instead
// of running Aedes, and browsers connect to that broker (MQTT_WS_URL). Authentication and per-user
// topic ACLs are then the external broker's job: see the README.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { topicMatches } from '../../contracts/broker-topics';
import { redactedUrl } from '../lib/redacted-url';
import { type BrokerTransport, type PublishOptions, parsePayload } from './broker-transport';

/** How long a publish may wait for the broker's acknowledgement (it waits out a reconnect, not an outage). */
const PUBLISH_TIMEOUT_MS = 10_000;

export async function connectExternalBroker(
  app: FastifyInstance,
  options: { url: string; publishTimeoutMs?: number },
): Promise<BrokerTransport> {
  const where = redactedUrl(options.url);
  let client: mqtt.MqttClient;
  try {
    // allowRetries false: a wrong or unreachable MQTT_URL stops the start with a clear message
    // instead of hanging; once connected, the client reconnects on its own.
    client = await mqtt.connectAsync(
      options.url,
      {
        clientId: `mp-server-${randomBytes(6).toString('hex')}`,
        clean: true,
        reconnectPeriod: 1000,
        connectTimeout: 5000,
        keepalive: 60,
      },
      false,
    );
  } catch (error) {
    throw new Error(
      `Cannot connect to the MQTT broker at ${where} (MQTT_URL): ${error instanceof Error ? error.message : error}`,
    );
  }
  // An EventEmitter without an 'error' listener would crash the process on the first broker hiccup.
  client.on('error', (error) => app.log.warn({ err: error, broker: where }, 'external MQTT broker error'));
  client.on('offline', () => app.log.warn({ broker: where }, 'external MQTT broker unreachable, retrying'));
  client.on('reconnect', () => app.log.debug({ broker: where }, 'reconnecting to the external MQTT broker'));

  const publishTimeoutMs = options.publishTimeoutMs ?? PUBLISH_TIMEOUT_MS;
  const publish = async (topic: string, message: unknown, publishOptions: PublishOptions = {}) => {
    // MQTT.js keeps a publish made while reconnecting and sends it once connected; a caller still must
    // not wait forever on a broker that is down (the database is the mailbox, this is the doorbell).
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`No connection to broker (${where}): publish not acknowledged`)),
        publishTimeoutMs,
      );
    });
    try {
      await Promise.race([
        client.publishAsync(topic, JSON.stringify(message), { qos: publishOptions.qos ?? 2, retain: false }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };

  // The server's own subscriptions. A clean session: after a reconnect MQTT.js subscribes them again
  // (resubscribe), and what was missed meanwhile is in the database.
  const listeners: { filter: string; onMessage: (topic: string, message: unknown) => void }[] = [];
  client.on('message', (topic, payload) => {
    const matching = listeners.filter((listener) => topicMatches(listener.filter, topic));
    if (matching.length === 0) return;
    const message = parsePayload(payload);
    if (message === undefined) return;
    for (const listener of matching) listener.onMessage(topic, message);
  });
  const listen: BrokerTransport['listen'] = async (filter, onMessage) => {
    listeners.push({ filter, onMessage });
    await client.subscribeAsync(filter, { qos: 1 });
  };

  app.addHook('onClose', async () => {
    // Let acknowledged-in-flight publishes finish, but never hang shutdown on a dead broker.
    const graceful = client.endAsync(false);
    const gaveUp = await Promise.race([
      graceful.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 2000).unref()),
    ]);
    if (gaveUp) await client.endAsync(true);
  });

  return { kind: 'external', publish, listen };
}
