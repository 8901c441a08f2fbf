// The session store fix (broker-persistence.ts) against the real Aedes and the real MQTT.js client on
// 127.0.0.1: every QoS 2 message reaches a non-clean session exactly once, whether it arrives in a
// burst while connected or is replayed from the queue after a reconnect. The same cases run on the
// Redis store of a clustered broker (broker-cluster.ts), unpatched, when TEST_REDIS_URL is set.
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type BrokerBackend, connectRedisBackend, createLocalBackend } from './broker-cluster';
import { identifyPubrel } from './broker-persistence';
import { dropRedisNamespace, redisTestNamespace, silentLog } from './broker-redis-test-support';

const REDIS_URL = process.env.TEST_REDIS_URL;

const TOPIC = 'mp_u1_message';

/** A topic the broker refuses to forward (as `authorizeForward` does for a topic the user may not read). */
const REFUSED_TOPIC = 'mp_u2_message';

async function startBroker(backend: BrokerBackend) {
  const aedes = await Aedes.createBroker({
    ...(backend.mq ? { mq: backend.mq } : {}),
    persistence: backend.persistence,
    authorizeForward: (_client: unknown, packet: { topic: string }) =>
      packet.topic === REFUSED_TOPIC ? null : packet,
  } as never);
  backend.prepare?.(aedes);
  const errors: string[] = [];
  aedes.on('clientError', (_client, error) => errors.push(error.message));
  const server: Server = createServer((socket) => aedes.handle(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const publish = (n: number, topic = TOPIC, qos: 1 | 2 = 2) =>
    new Promise<void>((resolve, reject) =>
      aedes.publish(
        {
          cmd: 'publish',
          topic,
          payload: Buffer.from(JSON.stringify({ n })),
          qos,
          retain: false,
          dup: false,
        } as never,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  return {
    url: `mqtt://127.0.0.1:${port}`,
    publish,
    errors,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}

type Broker = Awaited<ReturnType<typeof startBroker>>;

function receiver(client: mqtt.MqttClient) {
  const received: number[] = [];
  client.on('message', (_topic, payload) =>
    received.push((JSON.parse(payload.toString()) as { n: number }).n),
  );
  return received;
}

/** Waits for the condition (returning as soon as it holds); a loaded machine may take seconds. */
async function until(condition: () => boolean, timeoutMs = 20_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const namespace = redisTestNamespace();
const stores: { name: string; backend: () => Promise<BrokerBackend>; skip?: boolean }[] = [
  { name: 'memory, patched', backend: async () => createLocalBackend() },
  {
    name: 'Redis, unpatched',
    backend: () => connectRedisBackend(REDIS_URL as string, { namespace, log: silentLog }),
    skip: !REDIS_URL,
  },
];
if (!REDIS_URL) console.warn('TEST_REDIS_URL is not set: the Redis session store cases are skipped');

afterAll(async () => {
  if (REDIS_URL) await dropRedisNamespace(REDIS_URL, namespace);
});

describe.each(stores)(
  'the embedded broker session store, $name (the PUBREL and refused-forward bugs)',
  ({ backend, skip }) => {
    let broker: Broker | null = null;
    const clients: mqtt.MqttClient[] = [];
    if (skip) {
      it.skip('needs TEST_REDIS_URL', () => {});
      return;
    }

    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
      await broker?.close();
      broker = null;
    });

    /** A non-clean session, listening before it connects (a replay may follow the CONNACK at once). */
    const connect = async (clientId: string) => {
      const client = mqtt.connect((broker as Broker).url, { clientId, clean: false, reconnectPeriod: 0 });
      clients.push(client);
      const received = receiver(client);
      const connack = await new Promise<mqtt.IConnackPacket>((resolve, reject) => {
        client.once('connect', resolve);
        client.once('error', reject);
      });
      return { client, received, sessionPresent: connack.sessionPresent };
    };

    it('gives a PUBREL an identity that matches only its own message id', () => {
      const first = { cmd: 'pubrel', messageId: 7 } as { cmd: string; messageId: number; brokerId?: string };
      const second = { cmd: 'pubrel', messageId: 8 } as typeof first;
      identifyPubrel(first);
      identifyPubrel(second);
      expect(first).toMatchObject({ brokerId: 'pubrel', brokerCounter: 7 });
      expect(second).toMatchObject({ brokerId: 'pubrel', brokerCounter: 8 });
      const publish = { cmd: 'publish', messageId: 9, brokerId: 'b', brokerCounter: 3 };
      identifyPubrel(publish);
      expect(publish).toEqual({ cmd: 'publish', messageId: 9, brokerId: 'b', brokerCounter: 3 });
    });

    it('delivers a burst of QoS 2 messages to a connected non-clean session, each once', async () => {
      broker = await startBroker(await backend());
      const { client, received } = await connect('burst');
      await client.subscribeAsync(TOPIC, { qos: 2 });
      const sent = Array.from({ length: 50 }, (_, n) => n);
      await Promise.all(sent.map((n) => (broker as Broker).publish(n)));
      await until(() => received.length >= sent.length);
      expect([...received].sort((a, b) => a - b)).toEqual(sent);
    });

    it('replays every QoS 2 message queued while the session was offline, each once', async () => {
      broker = await startBroker(await backend());
      const { client: first } = await connect('offline');
      await first.subscribeAsync(TOPIC, { qos: 2 });
      await first.endAsync(true);
      const sent = [1, 2, 3, 4, 5];
      for (const n of sent) await broker.publish(n);
      const { received, sessionPresent } = await connect('offline');
      expect(sessionPresent).toBe(true);
      await until(() => received.length >= sent.length);
      // One more message as a barrier: a duplicate of the replayed ones would have come before it.
      await broker.publish(6);
      await until(() => received.includes(6));
      expect(received).toEqual([...sent, 6]);
    });

    it('a message refused to a session does not take another queued message with it', async () => {
      broker = await startBroker(await backend());
      const { client, received } = await connect('refused');
      // '+' matches both topics; the broker forwards one and refuses the other, as the ACL does.
      await client.subscribeAsync('+', { qos: 1 });
      const sent = Array.from({ length: 20 }, (_, n) => n);
      await Promise.all(
        sent.flatMap((n) => [
          (broker as Broker).publish(1000 + n, REFUSED_TOPIC, 1),
          (broker as Broker).publish(n, TOPIC, 1),
        ]),
      );
      await until(() => received.length >= sent.length);
      expect(broker.errors).toEqual([]);
      expect(client.connected).toBe(true);
      expect([...received].sort((a, b) => a - b)).toEqual(sent);
    });
  },
);
