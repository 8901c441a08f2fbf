// The broker adapter's own logic: validations and texts (SPEC §5/§8), options (SPEC §9), the jittered
// schedule, and how MQTT.js events become statechart events. MQTT.js is replaced by a scripted fake
// here; tests/model/broker.model.test.ts runs the adapter against the real MQTT.js and broker.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BROKER_ERROR_MESSAGES,
  CLIENT_DISCONNECTING_MESSAGE,
  CONNECTION_CLOSED_MESSAGE,
  connectionRefusedMessage,
  EXCEEDING_PACKET_SIZE_MESSAGE,
  INVALID_TOPIC_MESSAGE,
  isFatalBrokerError,
  MISSING_CLIENT_ID_MESSAGE,
  NO_AUTHENTICATION_METHOD_MESSAGE,
  NO_CONNECTION_MESSAGE,
  NOT_CONNECTED_MESSAGE,
  PUBLISH_NOT_ALLOWED_MESSAGE,
  TOPIC_ALIAS_MAXIMUM_MESSAGE,
  TOPIC_NOT_FOUND_MESSAGE,
} from '../lib/broker-errors';
import {
  attemptDelay,
  BROKER_TIMING,
  type BrokerTimers,
  brokerClientId,
  brokerUrlFor,
  buildClientOptions,
  jitteredDelay,
  type StartBrokerOptions,
  selectBrokerNotify,
  selectBrokerStatus,
  startBroker,
  TAB_ID_KEY,
  tabIdFrom,
  validateClientOptions,
} from './broker-adapter';

// ---------------------------------------------------------------------------------------------------
// A scripted MQTT.js

type Callback = (error: Error | null, ...rest: unknown[]) => void;

class FakeMqttClient extends EventEmitter {
  stream: { destroy: () => void } | undefined;
  readonly incomingStore = { name: 'incoming' };
  readonly outgoingStore = { name: 'outgoing' };
  readonly passwords: unknown[] = [];
  readonly reconnects: unknown[] = [];
  readonly subscribes: { topics: Record<string, { qos: number }>; callback: Callback }[] = [];
  readonly unsubscribes: { topic: string; callback: Callback }[] = [];
  readonly publishes: { topic: string; payload: string; options: unknown; callback: Callback }[] = [];
  ended: boolean | null = null;

  constructor(
    readonly url: string,
    readonly options: Record<string, unknown>,
  ) {
    super();
    this.on('error', () => {}); // as mqtt.connect does
  }
  connect() {
    this.passwords.push(this.options.password);
    this.stream = { destroy: () => this.emit('close') };
    return this;
  }
  reconnect(options: unknown) {
    this.reconnects.push(options);
    this.emit('reconnect');
    return this.connect();
  }
  end(force: boolean) {
    this.ended = force;
    return this;
  }
  subscribe(topics: Record<string, { qos: number }>, callback: Callback) {
    this.subscribes.push({ topics, callback });
    return this;
  }
  unsubscribe(topic: string, callback: Callback) {
    this.unsubscribes.push({ topic, callback });
    return this;
  }
  publish(topic: string, payload: string, options: unknown, callback: Callback) {
    this.publishes.push({ topic, payload, options, callback });
    return this;
  }
  /** The broker answers the last subscribe with these codes (0x80: refused). */
  suback(codes: number[]) {
    const last = this.subscribes.at(-1);
    if (!last) throw new Error('no subscribe');
    const topics = Object.keys(last.topics);
    const refused = codes.some((code) => code >= 0x80);
    const packet = { cmd: 'suback', granted: codes };
    if (refused)
      last.callback(Object.assign(new Error('Subscribe error: Unspecified error'), { packet }), [], packet);
    else
      last.callback(
        null,
        topics.map((topic, i) => ({ topic, qos: codes[i] })),
        packet,
      );
  }
}

const mqttMock = vi.hoisted(() => ({ clients: [] as unknown[] }));

vi.mock('mqtt', () => ({
  connect: (url: string, options: Record<string, unknown>) => {
    const client = new FakeMqttClient(url, options);
    mqttMock.clients.push(client);
    return client;
  },
}));

const clients = mqttMock.clients as FakeMqttClient[];
const lastClient = () => {
  const client = clients.at(-1);
  if (!client) throw new Error('no MQTT client was created');
  return client;
};

class FakeTimers implements BrokerTimers {
  private nextId = 1;
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  readonly scheduled: number[] = [];
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.pending.set(id, { callback, ms });
    this.scheduled.push(ms);
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  fire() {
    const [id, timer] = [...this.pending][0] ?? [];
    if (id === undefined || !timer) throw new Error('no timer pending');
    this.pending.delete(id);
    timer.callback();
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

const SELLER = { userId: 'u-1', role: 'Seller' as const, sellerId: 's-1' };
const OWN_CHAT = '/chatBot/salesBot/s-1/chat-1';
/** The seller's own message topic (prefix mp): the only kind a browser may publish on. */
const OWN_TOPIC = 'mp_u-1_message';

function harness(overrides: Partial<StartBrokerOptions> = {}) {
  const timers = new FakeTimers();
  const messages: [string, string][] = [];
  const errors: string[] = [];
  let reconnected = 0;
  let token: string | null = 'token-1';
  const storage = new Map<string, string>();
  const handle = startBroker({
    url: 'wss://app.example/mqtt',
    prefix: 'mp',
    session: SELLER,
    getAccessToken: () => token,
    onMessage: (topic, payload) => messages.push([topic, new TextDecoder().decode(payload)]),
    onReconnected: () => {
      reconnected += 1;
    },
    onError: (message) => errors.push(message),
    timers,
    random: () => 0.5,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
    },
    ...overrides,
  });
  const status = () => selectBrokerStatus(handle.actor.getSnapshot());
  /** Fires the scheduled attempt and lets MQTT.js load. */
  const attempt = async () => {
    timers.fire();
    await flush();
    return lastClient();
  };
  const connectNow = async () => {
    const client = await attempt();
    client.emit('connect', { cmd: 'connack', sessionPresent: false });
    client.suback([2, 2, 2]);
    return client;
  };
  return {
    handle,
    timers,
    messages,
    errors,
    storage,
    status,
    attempt,
    connectNow,
    reconnected: () => reconnected,
    setToken: (value: string | null) => {
      token = value;
    },
  };
}

beforeEach(() => {
  clients.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------------

describe('broker texts (SPEC §5, §8)', () => {
  it('are exactly the SPEC catalogue', () => {
    expect([...BROKER_ERROR_MESSAGES]).toEqual([
      'MQTT client not connected',
      'Topic not found.',
      'Connection closed',
      'client disconnecting',
      'No connection to broker',
      'Invalid topic',
      'Packet has no Authentication Method',
      'exceeding packets size',
      'Missing clientId for unclean clients',
    ]);
    expect(connectionRefusedMessage('Bad username or password')).toBe(
      'Connection refused: Bad username or password',
    );
  });

  it('tell fatal errors (the client ends) from a failed or lost connection (it retries)', () => {
    for (const fatal of [
      connectionRefusedMessage('Not authorized'),
      'Protocol error: duplicate CONNACK on the same network connection',
      NO_AUTHENTICATION_METHOD_MESSAGE,
      `${EXCEEDING_PACKET_SIZE_MESSAGE} publish: 300 bytes, maximumPacketSize is 200`,
    ]) {
      expect(isFatalBrokerError(fatal), fatal).toBe(true);
    }
    for (const transient of [
      'connack timeout',
      'Keepalive timeout',
      'socket hang up',
      CONNECTION_CLOSED_MESSAGE,
    ]) {
      expect(isFatalBrokerError(transient), transient).toBe(false);
    }
  });
});

describe('client options (SPEC §9)', () => {
  it('keepalive 120 s, clean session false with a client id, connect timeout 4 s, no MQTT.js reconnect timer', () => {
    const options = buildClientOptions({ clientId: 'bo_u_t', username: 'u', timing: BROKER_TIMING });
    expect(options).toMatchObject({
      clientId: 'bo_u_t',
      username: 'u',
      clean: false,
      keepalive: 120,
      connectTimeout: 4000,
      reconnectPeriod: 0,
      manualConnect: true,
      resubscribe: false,
      protocolVersion: 4,
    });
    expect(BROKER_TIMING).toEqual({
      keepaliveSeconds: 120,
      connectTimeoutMs: 4000,
      reconnectPeriodMs: 4000,
      initialDelayMs: 1000,
      retryDelayMs: 2000,
      retryAttempts: 3,
      jitter: 0.5,
    });
  });

  it('refuses a non-clean session without a client id', () => {
    expect(() => validateClientOptions({ clean: false, clientId: '' })).toThrow(MISSING_CLIENT_ID_MESSAGE);
    expect(() => validateClientOptions({ clean: true, clientId: '' })).not.toThrow();
    expect(() => startBroker({ ...harnessOptions(), session: { ...SELLER, userId: '' } })).toThrow(
      MISSING_CLIENT_ID_MESSAGE,
    );
  });

  it('refuses a topic alias maximum above 65535', () => {
    expect(() =>
      buildClientOptions({
        clientId: 'c',
        username: 'u',
        timing: BROKER_TIMING,
        protocolVersion: 5,
        topicAliasMaximum: 65536,
      }),
    ).toThrow(TOPIC_ALIAS_MAXIMUM_MESSAGE);
    expect(
      buildClientOptions({
        clientId: 'c',
        username: 'u',
        timing: BROKER_TIMING,
        protocolVersion: 5,
        topicAliasMaximum: 65535,
      }).properties,
    ).toEqual({ topicAliasMaximum: 65535 });
    expect(() => startBroker({ ...harnessOptions(), protocolVersion: 5, topicAliasMaximum: 70000 })).toThrow(
      TOPIC_ALIAS_MAXIMUM_MESSAGE,
    );
  });

  it('gives each tab its own client id, kept across reloads of the tab', () => {
    const tab1 = new Map<string, string>();
    const storage = (map: Map<string, string>) => ({
      getItem: (key: string) => map.get(key) ?? null,
      setItem: (key: string, value: string) => void map.set(key, value),
    });
    const first = tabIdFrom(storage(tab1));
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(tab1.get(TAB_ID_KEY)).toBe(first);
    expect(tabIdFrom(storage(tab1))).toBe(first); // the same tab, reloaded
    expect(tabIdFrom(storage(new Map()))).not.toBe(first); // another tab
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {},
    };
    expect(tabIdFrom(broken)).toMatch(/^[0-9a-f]{16}$/);
    expect(brokerClientId('u-1', first)).toBe(`bo_u-1_${first}`);
    expect(brokerClientId('', first)).toBe('');
  });
});

function harnessOptions(): StartBrokerOptions {
  return {
    url: 'ws://x/mqtt',
    prefix: 'mp',
    session: SELLER,
    getAccessToken: () => 't',
    onMessage: () => {},
    timers: new FakeTimers(),
    storage: null,
    autoConnect: false,
  };
}

describe('brokerUrlFor', () => {
  it('is /mqtt on the page origin unless one is configured', () => {
    expect(brokerUrlFor({ protocol: 'https:', host: 'bo.example' }, null)).toBe('wss://bo.example/mqtt');
    expect(brokerUrlFor({ protocol: 'http:', host: '127.0.0.1:3000' }, null)).toBe(
      'ws://127.0.0.1:3000/mqtt',
    );
    expect(brokerUrlFor({ protocol: 'http:', host: 'h' }, '  ')).toBe('ws://h/mqtt');
    expect(brokerUrlFor({ protocol: 'https:', host: 'h' }, 'wss://mq.example:8084/mqtt')).toBe(
      'wss://mq.example:8084/mqtt',
    );
    expect(brokerUrlFor({ protocol: 'https:', host: 'h' }, 'https://mq.example/mqtt')).toBe(
      'wss://mq.example/mqtt',
    );
    expect(brokerUrlFor({ protocol: 'https:', host: 'h' }, '/broker')).toBe('wss://h/broker');
  });
});

describe('the schedule (jitter)', () => {
  it('jitters ± the fraction around the base', () => {
    expect(jitteredDelay(4000, 0.5, () => 0)).toBe(2000);
    expect(jitteredDelay(4000, 0.5, () => 0.5)).toBe(4000);
    expect(jitteredDelay(4000, 0.5, () => 0.999_999)).toBe(6000);
    expect(jitteredDelay(4000, 0, () => 0.9)).toBe(4000);
  });

  it('first attempt within 1 s, retries 2 s ± 50 %, reconnects 4 s ± 50 %', () => {
    for (const r of [0, 0.25, 0.5, 0.75, 0.999]) {
      const random = () => r;
      expect(attemptDelay('initial', BROKER_TIMING, random)).toBeGreaterThanOrEqual(0);
      expect(attemptDelay('initial', BROKER_TIMING, random)).toBeLessThanOrEqual(1000);
      expect(attemptDelay('retry', BROKER_TIMING, random)).toBeGreaterThanOrEqual(1000);
      expect(attemptDelay('retry', BROKER_TIMING, random)).toBeLessThanOrEqual(3000);
      expect(attemptDelay('reconnect', BROKER_TIMING, random)).toBeGreaterThanOrEqual(2000);
      expect(attemptDelay('reconnect', BROKER_TIMING, random)).toBeLessThanOrEqual(6000);
      expect(attemptDelay('renew', BROKER_TIMING, random)).toBeLessThanOrEqual(1000);
    }
  });

  it('spreads the reconnects of many browsers after a broker restart', async () => {
    // 200 tabs lose the broker at the same instant; each picks its own moment to come back.
    const delays: number[] = [];
    for (let tab = 0; tab < 200; tab++) {
      const h = harness({ random: Math.random });
      const client = await h.connectNow();
      client.emit('close');
      delays.push(h.timers.scheduled.at(-1) as number);
      h.handle.stop();
    }
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...delays)).toBeLessThanOrEqual(6000);
    // Not a herd: many different moments, spread over most of the window.
    expect(new Set(delays).size).toBeGreaterThan(150);
    expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThan(3000);
    const perSecond = [2, 3, 4, 5].map(
      (s) => delays.filter((d) => d >= s * 1000 && d < (s + 1) * 1000).length,
    );
    for (const count of perSecond) expect(count).toBeLessThan(100);
  });
});

describe('startBroker with a scripted MQTT.js', () => {
  it('connects after the initial delay with the user id and the current token', async () => {
    const h = harness();
    expect(h.status()).toBe('notConnected');
    expect(h.timers.scheduled).toEqual([500]); // random 0.5 × 1 s
    h.setToken('token-2');
    const client = await h.connectNow();
    expect(client.url).toBe('wss://app.example/mqtt');
    expect(client.options).toMatchObject({
      clientId: `bo_u-1_${h.storage.get(TAB_ID_KEY)}`,
      username: 'u-1',
      clean: false,
      keepalive: 120,
      connectTimeout: 4000,
      reconnectPeriod: 0,
    });
    expect(client.passwords).toEqual(['token-2']);
    expect(h.status()).toBe('connected');
    expect(selectBrokerNotify(h.handle.actor.getSnapshot())).toBe(true);
    // The user topics at QoS 2 (a seller: own message topic, the settings topic and own sales-bot chats).
    expect(client.subscribes[0]?.topics).toEqual({
      'mp_u-1_message': { qos: 2 },
      mp_settings: { qos: 2 },
      '/chatBot/salesBot/s-1/+': { qos: 2 },
    });
  });

  it('does not connect without a token ("No connection to broker"), and does once a token comes', async () => {
    let token: string | null = null;
    const h = harness({ getAccessToken: () => token });
    expect(h.status()).toBe('notConnected');
    expect(h.timers.pending.size).toBe(0);
    expect(h.errors).toEqual([NO_CONNECTION_MESSAGE]);
    expect(h.handle.actor.getSnapshot().context.error).toBe(NO_CONNECTION_MESSAGE);
    h.handle.tokenChanged(); // still none
    expect(h.timers.pending.size).toBe(0);
    token = 'late-token';
    h.handle.tokenChanged();
    const client = await h.connectNow();
    expect(client.passwords).toEqual(['late-token']);
    expect(h.status()).toBe('connected');
  });

  it('does not come back by itself after stop(), whatever the token does', () => {
    const h = harness();
    h.handle.stop();
    h.setToken('another');
    h.handle.tokenChanged();
    expect(h.status()).toBe('closed');
    expect(h.timers.pending.size).toBe(0);
  });

  it('creates one client only: connect() while one exists does nothing', async () => {
    const h = harness();
    h.handle.connect();
    h.handle.connect();
    expect(h.timers.pending.size).toBe(1);
    await h.connectNow();
    h.handle.connect();
    await flush();
    expect(clients).toHaveLength(1);
    expect(h.timers.pending.size).toBe(0);
  });

  it('retries a failed first connection 3 times, 2 s ± 50 % apart, each with the token of the moment', async () => {
    const h = harness();
    const client = await h.attempt();
    for (let retry = 1; retry <= 3; retry++) {
      client.emit('error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      client.emit('close');
      expect(h.status()).toBe('closed');
      expect(h.timers.scheduled.at(-1)).toBe(2000);
      h.setToken(`token-retry-${retry}`);
      await h.attempt();
      expect(h.status()).toBe('reconnecting');
    }
    client.emit('close');
    expect(h.status()).toBe('error');
    expect(client.ended).toBe(true);
    expect(client.passwords).toEqual(['token-1', 'token-retry-1', 'token-retry-2', 'token-retry-3']);
    // The same stores on every reconnect: QoS 2 exchanges resume on the session.
    for (const stores of client.reconnects) {
      expect(stores).toEqual({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
    }
    expect(h.errors).toEqual([...Array(3).fill('connect ECONNREFUSED'), NO_CONNECTION_MESSAGE]);
  });

  it('ends the client on a refused connection ("Connection refused: …"), and a fresh token starts a new one', async () => {
    const h = harness();
    const client = await h.attempt();
    const refused = connectionRefusedMessage('Bad username or password');
    client.emit('error', Object.assign(new Error(refused), { code: 4 }));
    expect(h.status()).toBe('error');
    expect(client.ended).toBe(true);
    expect(h.errors).toEqual([refused]);
    client.emit('close'); // the ended client's last words are ignored
    expect(h.status()).toBe('error');
    h.setToken('fresh');
    h.handle.tokenChanged();
    expect(h.status()).toBe('notConnected');
    const second = await h.connectNow();
    expect(second).not.toBe(client);
    expect(second.passwords).toEqual(['fresh']);
    expect(h.status()).toBe('connected');
  });

  it('reconnects a lost connection with jitter and the current token, and says so only after a reconnect', async () => {
    const h = harness();
    const client = await h.connectNow();
    expect(h.reconnected()).toBe(0);
    client.emit('close');
    expect(h.status()).toBe('closed');
    expect(selectBrokerNotify(h.handle.actor.getSnapshot())).toBe(false);
    expect(h.timers.scheduled.at(-1)).toBe(4000);
    h.setToken('token-after-expiry');
    await h.attempt();
    expect(h.status()).toBe('reconnecting');
    client.emit('connect', { cmd: 'connack', sessionPresent: true });
    expect(h.status()).toBe('connected');
    expect(h.reconnected()).toBe(1);
    expect(client.passwords.at(-1)).toBe('token-after-expiry');
    // Subscribed again on the reconnect.
    expect(client.subscribes).toHaveLength(2);
  });

  it('renews the connection with a refreshed token, quickly, and only when the token changed', async () => {
    const h = harness();
    const client = await h.connectNow();
    h.handle.tokenChanged(); // same token: nothing to do
    expect(h.status()).toBe('connected');
    h.setToken('token-2');
    h.handle.tokenChanged();
    expect(h.status()).toBe('closed');
    expect(h.timers.scheduled.at(-1)).toBe(500); // within the initial delay, not the 4 s period
    await h.attempt();
    client.emit('connect', { cmd: 'connack', sessionPresent: true });
    expect(h.status()).toBe('connected');
    expect(client.passwords).toEqual(['token-1', 'token-2']);
    // A later loss is an ordinary reconnect again.
    client.emit('close');
    expect(h.timers.scheduled.at(-1)).toBe(4000);
  });

  it('logs a transient error and waits for the close', async () => {
    const h = harness();
    const client = await h.connectNow();
    client.emit('error', new Error('Keepalive timeout'));
    expect(h.status()).toBe('connected');
    expect(h.errors).toEqual(['Keepalive timeout']);
  });

  it('hands messages to onMessage; a failing handler does not break the client', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let calls = 0;
    const h = harness({
      onMessage: () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
      },
    });
    const client = await h.connectNow();
    client.emit('message', 'mp_u-1_message', new TextEncoder().encode('{"a":1}'));
    client.emit('message', 'mp_u-1_message', new TextEncoder().encode('{"a":2}'));
    expect(calls).toBe(2);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('validates subscribe, unsubscribe and publish with the SPEC texts', async () => {
    const h = harness();
    await expect(h.handle.publish(OWN_TOPIC, { a: 1 })).rejects.toThrow(NOT_CONNECTED_MESSAGE);
    await expect(h.handle.subscribe(OWN_CHAT)).rejects.toThrow(NOT_CONNECTED_MESSAGE);
    const client = await h.connectNow();
    for (const bad of ['', 'a/#/b', 'a/b+', 'x\u0000y', 'a'.repeat(65_536)]) {
      await expect(h.handle.subscribe(bad)).rejects.toThrow(INVALID_TOPIC_MESSAGE);
      await expect(h.handle.unsubscribe(bad)).rejects.toThrow(INVALID_TOPIC_MESSAGE);
    }
    await expect(h.handle.publish('a/+', {})).rejects.toThrow(INVALID_TOPIC_MESSAGE);
    await expect(h.handle.publish('a/#', {})).rejects.toThrow(INVALID_TOPIC_MESSAGE);
    await expect(h.handle.unsubscribe(OWN_CHAT)).rejects.toThrow(TOPIC_NOT_FOUND_MESSAGE);
    // Another seller's chat, and even the own one (chat events come from the server alone): the broker
    // would close the connection over it.
    await expect(h.handle.publish('/chatBot/salesBot/s-2/chat-1', {})).rejects.toThrow(
      PUBLISH_NOT_ALLOWED_MESSAGE,
    );
    await expect(h.handle.publish(OWN_CHAT, {})).rejects.toThrow(PUBLISH_NOT_ALLOWED_MESSAGE);
    expect(client.publishes).toHaveLength(0);
  });

  it('subscribes ad hoc topics at QoS 1 and unsubscribes them', async () => {
    const h = harness();
    const client = await h.connectNow();
    const subscribed = h.handle.subscribe(OWN_CHAT);
    await flush();
    expect(client.subscribes.at(-1)?.topics).toEqual({ [OWN_CHAT]: { qos: 1 } });
    client.suback([1]);
    await subscribed;
    expect(h.handle.actor.getSnapshot().context.subscriptions[OWN_CHAT]).toBe(1);
    const unsubscribed = h.handle.unsubscribe(OWN_CHAT);
    await flush();
    client.unsubscribes.at(-1)?.callback(null);
    await unsubscribed;
    expect(h.handle.actor.getSnapshot().context.subscriptions).not.toHaveProperty(OWN_CHAT);
    await expect(h.handle.unsubscribe(OWN_CHAT)).rejects.toThrow(TOPIC_NOT_FOUND_MESSAGE);
  });

  it('reports a refused subscription and stays connected', async () => {
    const h = harness();
    const client = await h.connectNow();
    const refused = h.handle.subscribe('/chatBot/salesBot/s-2/+');
    await flush();
    client.suback([0x80]);
    await expect(refused).rejects.toThrow('Subscribe error: Unspecified error');
    expect(h.status()).toBe('connected');
    expect(h.errors).toEqual(['Subscribe error: Unspecified error']);
  });

  it('publishes JSON at QoS 2, not retained', async () => {
    const h = harness();
    const client = await h.connectNow();
    const published = h.handle.publish(OWN_TOPIC, { text: 'hello' });
    await flush();
    expect(client.publishes[0]).toMatchObject({
      topic: OWN_TOPIC,
      payload: '{"text":"hello"}',
      options: { qos: 2, retain: false },
    });
    client.publishes[0]?.callback(null);
    await expect(published).resolves.toBeUndefined();
  });

  it('fails what is in flight with "client disconnecting" when stopped, and ends in closed', async () => {
    const h = harness();
    const client = await h.connectNow();
    const published = h.handle.publish(OWN_TOPIC, { text: 'late' });
    await flush();
    h.handle.stop();
    await expect(published).rejects.toThrow(CLIENT_DISCONNECTING_MESSAGE);
    expect(client.ended).toBe(true);
    expect(h.status()).toBe('closed');
    expect(h.timers.pending.size).toBe(0);
    client.publishes[0]?.callback(null); // a late answer changes nothing
    await h.handle.settled();
    // A new connect after the stop starts a new client.
    h.handle.connect();
    expect(h.status()).toBe('notConnected');
    expect(h.timers.pending.size).toBe(1);
  });

  it('stops before the first attempt without touching MQTT.js', async () => {
    const h = harness();
    h.handle.stop();
    expect(h.status()).toBe('closed');
    expect(h.timers.pending.size).toBe(0);
    await flush();
    expect(clients).toHaveLength(0);
  });
});
