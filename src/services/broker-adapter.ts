// The broker adapter: the browser's ONE MQTT client with its real effects. The statechart
// (src/machines/broker.machine.ts) decides; this module does (MQTT.js, timers, the per-tab client id)
// and turns what MQTT.js reports into `broker.*` events.
//
// Connection policy (SPEC §9 "Broker"), and why:
// - keepalive 120 s, connect timeout 4 s, clean session false with a stable client id: the broker keeps
//   this tab's subscriptions and queues its QoS 2 messages while it is away (a lost connection, a token
//   renewal), and delivers them on the next connection, once.
// - MQTT.js's own reconnect timer is off (`reconnectPeriod: 0`); this adapter schedules every attempt,
//   always with a random part, so that a broker restart does not bring every browser back at the same
//   instant:
//   - the first attempt waits up to the initial delay (1 s, uniformly at random);
//   - a failed first attempt is retried up to 3 times, 2 s ± 50 % apart; then the client gives up
//     (error "No connection to broker"; a fresh token or a new connect starts a new client);
//   - a lost connection is reconnected every 4 s ± 50 % (the reconnect period), without limit: a
//     broker restart can take a while and the tab must come back by itself;
//   - a renewal (a new access token while connected) reconnects within the initial delay.
// - Every attempt authenticates with the user id and the CURRENT access token (`getAccessToken()` is
//   read at each attempt), so a reconnect after the broker closed an expired token's connection uses
//   the fresh one.
// - Publish: QoS 2, not retained. Subscribe: the user's topics QoS 2, ad hoc ones QoS 1.
//
// MQTT.js is large (~100 KB gzip): it is imported on the first connection attempt, never statically.
import type { IClientOptions, MqttClient } from 'mqtt';
import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { allowedSubscriptions, isValidTopic, mayPublish } from '../../contracts/broker-topics';
import {
  CLIENT_DISCONNECTING_MESSAGE,
  INVALID_TOPIC_MESSAGE,
  isFatalBrokerError,
  MAX_TOPIC_ALIAS,
  MISSING_CLIENT_ID_MESSAGE,
  NOT_CONNECTED_MESSAGE,
  PUBLISH_NOT_ALLOWED_MESSAGE,
  TOPIC_ALIAS_MAXIMUM_MESSAGE,
  TOPIC_NOT_FOUND_MESSAGE,
} from '../lib/broker-errors';
import {
  AD_HOC_TOPIC_QOS,
  type BrokerEvent,
  type BrokerMachine,
  type BrokerQos,
  type BrokerStatus,
  brokerMachine,
} from '../machines/broker.machine';

export interface BrokerSession {
  userId: string;
  role: 'Admin' | 'Staff' | 'Seller';
  sellerId: string | null;
  /** May view every seller's help chats: the client also listens to all sales-bot chats. */
  readsAllChats?: boolean;
}

/** SPEC §9's broker constants; tests shorten them. */
export interface BrokerTiming {
  keepaliveSeconds: number;
  connectTimeoutMs: number;
  reconnectPeriodMs: number;
  /** The first attempt waits a random time up to this. */
  initialDelayMs: number;
  retryDelayMs: number;
  /** Retries of a failed first connection before giving up. */
  retryAttempts: number;
  /** ± this fraction of the retry delay and the reconnect period. */
  jitter: number;
}

export const BROKER_TIMING: Readonly<BrokerTiming> = Object.freeze({
  keepaliveSeconds: 120,
  connectTimeoutMs: 4000,
  reconnectPeriodMs: 4000,
  initialDelayMs: 1000,
  retryDelayMs: 2000,
  retryAttempts: 3,
  jitter: 0.5,
});

export interface BrokerTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface StartBrokerOptions {
  /** ws(s)://…/mqtt (see `brokerUrlFor`). */
  url: string;
  /** MQTT topic prefix (runtime config mqttTopicPrefix). */
  prefix: string;
  session: BrokerSession;
  /** The current access token, read on every (re)connect. */
  getAccessToken(): string | null;
  onMessage(topic: string, payload: Uint8Array): void;
  /** After every successful reconnect (not the first connect): the app refetches notifications. */
  onReconnected?(): void;
  /** Broker error texts (SPEC §8), for logging. */
  onError?(message: string): void;
  // For tests and special set-ups; the defaults are SPEC §9's and the browser's.
  timing?: Partial<BrokerTiming>;
  timers?: BrokerTimers;
  /** Source of the jitter, in [0, 1). */
  random?: () => number;
  /** Where the per-tab id lives; defaults to sessionStorage (null: a new id for this adapter). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** MQTT 3.1.1 (4, what the embedded broker speaks) or 5. */
  protocolVersion?: 4 | 5;
  /** MQTT 5 only: at most 65535 (SPEC §5). */
  topicAliasMaximum?: number;
  /** Connect at once (default); false leaves it to `connect()`. */
  autoConnect?: boolean;
}

export type BrokerActor = Actor<BrokerMachine>;
export type BrokerSnapshot = SnapshotFrom<BrokerMachine>;

export interface BrokerHandle {
  actor: BrokerActor;
  /** Ad hoc subscription, QoS 1; rejects with "Invalid topic" for an invalid topic filter. */
  subscribe(topic: string): Promise<void>;
  /** Rejects with "Invalid topic", or "Topic not found." when not subscribed. */
  unsubscribe(topic: string): Promise<void>;
  /** JSON, QoS 2, not retained; rejects with "MQTT client not connected" when not connected. */
  publish(topic: string, message: unknown): Promise<void>;
  /**
   * The access token was refreshed: use it from now on. Connected: reconnects with it at once (within
   * the initial delay). No client (an error, or no token at the start): connects. Otherwise the next
   * attempt reads it.
   */
  tokenChanged(): void;
  /** Connects when no client exists (before the first connect, after `stop()` or an error). */
  connect(): void;
  /** Ends the client ("client disconnecting" for what is in flight); the machine goes to closed. */
  stop(): void;
  /** Resolves once every broker operation started so far (subscribes, publishes) has finished. */
  settled(): Promise<void>;
}

// Selectors for `useSelector(actor, …)`.
export const selectBrokerStatus = (snapshot: BrokerSnapshot): BrokerStatus => snapshot.value as BrokerStatus;
/** SPEC §4's broker-notify flag. */
export const selectBrokerNotify = (snapshot: BrokerSnapshot): boolean => snapshot.context.notify;
export const selectBrokerSubscriptions = (snapshot: BrokerSnapshot): Record<string, BrokerQos> =>
  snapshot.context.subscriptions;
export const selectBrokerError = (snapshot: BrokerSnapshot): string | null => snapshot.context.error;

/** The broker's URL: the configured one (MQTT_WS_URL), or /mqtt on this page's own origin. */
export function brokerUrlFor(
  location: Pick<Location, 'protocol' | 'host'>,
  configured: string | null,
): string {
  const secure = location.protocol === 'https:';
  const origin = `${secure ? 'wss' : 'ws'}://${location.host}`;
  const value = configured?.trim();
  if (!value) return `${origin}/mqtt`;
  if (value.startsWith('/')) return `${origin}${value}`;
  return value.replace(/^http(s?):\/\//, 'ws$1://');
}

/** `base` ± `jitter` (a fraction), at random: [base·(1−jitter), base·(1+jitter)). */
export function jitteredDelay(base: number, jitter: number, random: () => number = Math.random): number {
  return Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * random())));
}

export type AttemptKind = 'initial' | 'retry' | 'reconnect' | 'renew';

/** How long to wait before an attempt of this kind. */
export function attemptDelay(kind: AttemptKind, timing: BrokerTiming, random: () => number): number {
  switch (kind) {
    case 'initial':
    case 'renew':
      return Math.round(timing.initialDelayMs * random());
    case 'retry':
      return jitteredDelay(timing.retryDelayMs, timing.jitter, random);
    case 'reconnect':
      return jitteredDelay(timing.reconnectPeriodMs, timing.jitter, random);
  }
}

export const TAB_ID_KEY = 'mp.broker.tabId';

function randomHex(bytes: number): string {
  const values = new Uint8Array(bytes);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(values);
  else for (let i = 0; i < bytes; i++) values[i] = Math.floor(Math.random() * 256);
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}

function defaultStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage disabled
  }
}

/**
 * This tab's id, kept in sessionStorage: it survives a reload of the tab (the broker session resumes
 * and delivers what was queued meanwhile) but another tab gets its own. With one id for the whole
 * browser, two tabs would share one broker session: each connection takes the session over from the
 * other (MQTT closes the older one), both reconnect, and they keep kicking each other off. (A tab
 * duplicated by the browser copies sessionStorage, and with it the id; the broker then alternates
 * between the two until one is closed. Rare, and nothing is lost: each delivery goes to one of them
 * and the notifications list is the database's.)
 */
export function tabIdFrom(storage: Pick<Storage, 'getItem' | 'setItem'> | null): string {
  try {
    const existing = storage?.getItem(TAB_ID_KEY);
    if (existing && /^[0-9a-f]{16}$/.test(existing)) return existing;
    const id = randomHex(8);
    storage?.setItem(TAB_ID_KEY, id);
    return id;
  } catch {
    return randomHex(8);
  }
}

/** The MQTT client id: the user's, per tab (see `tabIdFrom`), never shared between users. */
export function brokerClientId(userId: string, tabId: string): string {
  return userId ? `bo_${userId}_${tabId}` : '';
}

export interface ClientOptionsInput {
  clientId: string;
  username: string;
  timing: BrokerTiming;
  protocolVersion?: 4 | 5;
  topicAliasMaximum?: number;
}

/** SPEC §5's checks on the client's own options; throws with the SPEC's texts. */
export function validateClientOptions(options: IClientOptions): void {
  if (options.clean === false && !options.clientId) throw new Error(MISSING_CLIENT_ID_MESSAGE);
  const aliasMaximum = options.properties?.topicAliasMaximum;
  if (aliasMaximum !== undefined && (aliasMaximum > MAX_TOPIC_ALIAS || aliasMaximum < 0)) {
    throw new Error(TOPIC_ALIAS_MAXIMUM_MESSAGE);
  }
}

/** The MQTT.js options (SPEC §9), validated. The password is set at each attempt. */
export function buildClientOptions(input: ClientOptionsInput): IClientOptions {
  const options: IClientOptions = {
    clientId: input.clientId,
    username: input.username,
    clean: false,
    keepalive: input.timing.keepaliveSeconds,
    connectTimeout: input.timing.connectTimeoutMs,
    // This adapter schedules every attempt (with jitter); MQTT.js's own timer stays off.
    reconnectPeriod: 0,
    // Nothing happens before the first scheduled attempt.
    manualConnect: true,
    // The statechart subscribes on every connect; MQTT.js's own resubscription stays off.
    resubscribe: false,
    protocolVersion: input.protocolVersion ?? 4,
    ...(input.topicAliasMaximum !== undefined
      ? { properties: { topicAliasMaximum: input.topicAliasMaximum } }
      : {}),
  };
  validateClientOptions(options);
  return options;
}

type MqttModule = typeof import('mqtt');
type ConnectFunction = MqttModule['connect'];

let mqttModule: Promise<ConnectFunction> | null = null;

/** MQTT.js, loaded on first use (and again after a failed load). */
function loadMqtt(): Promise<ConnectFunction> {
  mqttModule ??= import('mqtt').then(
    (module) => {
      const connect = (module as { connect?: ConnectFunction }).connect ?? module.default?.connect;
      if (typeof connect !== 'function') throw new Error('MQTT.js did not load');
      return connect;
    },
    (error: unknown) => {
      mqttModule = null;
      throw error;
    },
  );
  return mqttModule;
}

interface Pending {
  reject: (error: Error) => void;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Creates and starts the broker actor with its effects and (unless `autoConnect: false`) connects.
 * Throws "Missing clientId for unclean clients" without a user id, and refuses a topic alias maximum
 * above 65535.
 */
export function startBroker(options: StartBrokerOptions): BrokerHandle {
  const timing: BrokerTiming = { ...BROKER_TIMING, ...options.timing };
  const timers: BrokerTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
  const random = options.random ?? Math.random;
  const { session, prefix } = options;
  const user = {
    id: session.userId,
    role: session.role,
    sellerId: session.sellerId,
    readsAllChats: session.readsAllChats,
  };
  const tabId = tabIdFrom(options.storage === undefined ? defaultStorage() : options.storage);
  const clientOptions = buildClientOptions({
    clientId: brokerClientId(session.userId, tabId),
    username: session.userId,
    timing,
    protocolVersion: options.protocolVersion,
    topicAliasMaximum: options.topicAliasMaximum,
  });

  let client: MqttClient | null = null;
  /** Bumped whenever a client is created or ended: events of an ended client are ignored. */
  let generation = 0;
  let attemptTimer: unknown = null;
  /** The token the current connection authenticated with. */
  let connectedWith: string | null = null;
  let attemptToken: string | null = null;
  /** A renewal (new token while connected) closed the connection: reconnect quickly. */
  let renewing = false;
  const pendingOperations = new Set<Pending>();
  const tracked = new Set<Promise<unknown>>();

  function track<T>(promise: Promise<T>): Promise<T> {
    tracked.add(promise);
    const forget = () => tracked.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  // Declared before the actor: actions run during `start()` and only reach it through these.
  let actor: BrokerActor;
  const send = (event: BrokerEvent) => actor.send(event);
  const status = () => selectBrokerStatus(actor.getSnapshot());
  const report = (message: string) => {
    try {
      options.onError?.(message);
    } catch (error) {
      console.warn('Broker onError handler failed', error);
    }
  };

  function cancelAttempt() {
    if (attemptTimer !== null) timers.clearTimeout(attemptTimer);
    attemptTimer = null;
  }

  function wire(mqttClient: MqttClient, mine: number) {
    const current = () => mine === generation && client === mqttClient;
    mqttClient.on('connect', () => {
      if (!current()) return;
      connectedWith = attemptToken;
      renewing = false;
      send({ type: 'broker.connected' });
    });
    mqttClient.on('reconnect', () => {
      if (current()) send({ type: 'broker.reconnecting' });
    });
    mqttClient.on('close', () => {
      if (!current()) return;
      connectedWith = null;
      send({ type: 'broker.closed' });
    });
    mqttClient.on('error', (error) => {
      if (!current()) return;
      const message = errorText(error);
      // A refused connection or a protocol violation ends the client; the rest only closes the
      // connection (the `close` that follows schedules the next attempt) and is logged.
      if (isFatalBrokerError(message)) send({ type: 'broker.error', message });
      else report(message);
    });
    mqttClient.on('message', (topic, payload) => {
      if (!current()) return;
      try {
        options.onMessage(topic, payload);
      } catch (error) {
        console.error(`Broker message on ${topic} could not be handled`, error);
      }
    });
  }

  /** One connection attempt of the current client, with the current token. */
  function attempt(kind: AttemptKind) {
    const mine = generation;
    track(
      ensureClient(mine).then(
        (mqttClient) => {
          if (!mqttClient || mine !== generation) return;
          attemptToken = options.getAccessToken();
          // An empty password is refused by the broker like a wrong one: the machine ends the client.
          mqttClient.options.password = attemptToken ?? '';
          if (kind === 'initial') mqttClient.connect();
          // Keep the stores: QoS 2 exchanges in flight resume on the broker's session (clean false).
          else
            mqttClient.reconnect({
              incomingStore: mqttClient.incomingStore,
              outgoingStore: mqttClient.outgoingStore,
            });
        },
        (error: unknown) => {
          // MQTT.js could not be loaded (offline): a failed attempt like any other.
          report(errorText(error));
          if (mine !== generation) return;
          if (kind !== 'initial') send({ type: 'broker.reconnecting' });
          send({ type: 'broker.closed' });
        },
      ),
    );
  }

  let clientPromise: Promise<MqttClient | null> | null = null;

  function ensureClient(mine: number): Promise<MqttClient | null> {
    if (client) return Promise.resolve(client);
    clientPromise ??= loadMqtt().then(
      (connect) => {
        clientPromise = null;
        if (mine !== generation) return null;
        const created = connect(options.url, { ...clientOptions });
        client = created;
        wire(created, mine);
        return created;
      },
      (error: unknown) => {
        clientPromise = null;
        throw error;
      },
    );
    return clientPromise;
  }

  function schedule(kind: AttemptKind) {
    cancelAttempt();
    const mine = generation;
    attemptTimer = timers.setTimeout(
      () => {
        attemptTimer = null;
        if (mine === generation) attempt(kind);
      },
      attemptDelay(kind, timing, random),
    );
  }

  function endClient() {
    cancelAttempt();
    generation += 1;
    const ended = client;
    client = null;
    clientPromise = null;
    connectedWith = null;
    renewing = false;
    for (const operation of pendingOperations) operation.reject(new Error(CLIENT_DISCONNECTING_MESSAGE));
    pendingOperations.clear();
    // A client that never started an attempt has no stream to close. Its later events are ignored
    // (`current()` in `wire`).
    if (ended?.stream) ended.end(true);
  }

  /**
   * Runs an MQTT.js operation on the connected client; it fails with "client disconnecting" if the
   * client is ended meanwhile. (The subscribe on connect runs while the machine is entering `connected`.)
   */
  function operation<T>(
    run: (mqttClient: MqttClient, done: (error: Error | null, value?: T) => void) => void,
    requireConnected = true,
  ) {
    return track(
      new Promise<T>((resolve, reject) => {
        const mqttClient = client;
        if (!mqttClient || (requireConnected && status() !== 'connected')) {
          reject(new Error(NOT_CONNECTED_MESSAGE));
          return;
        }
        const pending: Pending = { reject };
        pendingOperations.add(pending);
        run(mqttClient, (error, value) => {
          if (!pendingOperations.delete(pending)) return; // already failed by endClient
          if (error) reject(error);
          else resolve(value as T);
        });
      }),
    );
  }

  /** Subscribes `topics`; reports each grant or refusal to the machine. Resolves with the refusals. */
  function subscribeAll(topics: Record<string, BrokerQos>, requireConnected = true) {
    const requested = Object.entries(topics);
    const mine = generation;
    return operation<string[]>((mqttClient, done) => {
      mqttClient.subscribe(
        Object.fromEntries(requested.map(([topic, qos]) => [topic, { qos }])),
        (error, granted, packet) => {
          const codes = packet && 'granted' in packet ? (packet.granted as number[]) : null;
          if (error && !codes) return done(error);
          if (mine !== generation) return done(null, []);
          const refused: string[] = [];
          requested.forEach(([topic], index) => {
            const code = codes?.[index] ?? granted?.[index]?.qos ?? 0x80;
            if ((code & 0x80) !== 0) {
              refused.push(topic);
              send({ type: 'broker.subscribeFailed', topic, message: error?.message ?? 'Subscribe error' });
            } else {
              send({ type: 'broker.subscribed', topic, qos: code as BrokerQos });
            }
          });
          if (error) done(Object.assign(new Error(error.message), { refused }));
          else done(null, refused);
        },
      );
    }, requireConnected);
  }

  const machine = brokerMachine.provide({
    actions: {
      openClient: () => {
        generation += 1;
        schedule('initial');
      },
      scheduleRetry: () => schedule('retry'),
      scheduleReconnect: () => schedule(renewing ? 'renew' : 'reconnect'),
      subscribeTopics: (_, { topics }) => {
        // Failures are in the machine already (broker.subscribeFailed) or mean the connection dropped
        // (the next connect subscribes again).
        subscribeAll(topics, false).catch(() => {});
      },
      endClient: () => endClient(),
      reportError: (_, { message }) => report(message),
      notifyReconnected: () => {
        try {
          options.onReconnected?.();
        } catch (error) {
          console.warn('Broker onReconnected handler failed', error);
        }
      },
    },
  });

  actor = createActor(machine, {
    input: { userTopics: allowedSubscriptions(user, prefix), maxRetries: timing.retryAttempts },
  });
  actor.start();

  const connect = () => send({ type: 'broker.connect', hasToken: options.getAccessToken() !== null });
  if (options.autoConnect !== false) connect();

  return {
    actor,
    async subscribe(topic) {
      if (!isValidTopic(topic, { filter: true })) throw new Error(INVALID_TOPIC_MESSAGE);
      const snapshot = actor.getSnapshot();
      if (snapshot.value !== 'connected') throw new Error(NOT_CONNECTED_MESSAGE);
      if (Object.hasOwn(snapshot.context.subscriptions, topic)) return;
      await subscribeAll({ [topic]: AD_HOC_TOPIC_QOS });
    },
    async unsubscribe(topic) {
      if (!isValidTopic(topic, { filter: true })) throw new Error(INVALID_TOPIC_MESSAGE);
      const snapshot = actor.getSnapshot();
      if (!Object.hasOwn(snapshot.context.subscriptions, topic)) throw new Error(TOPIC_NOT_FOUND_MESSAGE);
      const mine = generation;
      await operation<void>((mqttClient, done) =>
        mqttClient.unsubscribe(topic, (error) => done(error ?? null)),
      );
      if (mine === generation) send({ type: 'broker.unsubscribed', topic });
    },
    async publish(topic, message) {
      if (!isValidTopic(topic)) throw new Error(INVALID_TOPIC_MESSAGE);
      // The broker would close the connection over it: refuse here, with the broker's own words.
      if (!mayPublish(user, topic, prefix)) throw new Error(PUBLISH_NOT_ALLOWED_MESSAGE);
      const payload = JSON.stringify(message);
      await operation<void>((mqttClient, done) =>
        mqttClient.publish(topic, payload, { qos: 2, retain: false }, (error) => done(error ?? null)),
      );
    },
    tokenChanged() {
      const token = options.getAccessToken();
      if (token === null) return;
      const snapshot = actor.getSnapshot();
      const current = selectBrokerStatus(snapshot);
      // No client: it was ended (a refused, e.g. expired, token) or never created (no token at the
      // start): a new one with the fresh token. After `stop()` (closed) the app wants none.
      if (!snapshot.context.hasClient && current !== 'closed') connect();
      // Connected with the old token: reconnect with the new one now, before the broker closes the
      // connection when the old one expires. Nothing is lost: the session queues what comes meanwhile.
      else if (current === 'connected' && client && token !== connectedWith) {
        renewing = true;
        client.stream?.destroy();
      }
      // Otherwise the next attempt reads the new token anyway.
    },
    connect,
    stop() {
      send({ type: 'broker.end' });
      cancelAttempt();
    },
    async settled() {
      while (tracked.size > 0) await Promise.allSettled([...tracked]);
    },
  };
}
