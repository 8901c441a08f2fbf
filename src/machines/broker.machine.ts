// The broker connection statechart (SPEC §4 "Message broker connection"). Pure (ARCHITECTURE.md
// "Statecharts"): no invoke, no after, no spawn. Every effect is a named action with a no-op default that
// the adapter (src/services/broker-adapter.ts) provides around MQTT.js; everything MQTT.js reports is a
// namespaced `broker.*` event the adapter sends in.
//
// States, exactly as the SPEC: notConnected → connected → reconnecting / closed / error.
// - notConnected: no connection yet. `broker.connect` creates the one client (after the initial delay
//   the adapter makes the first attempt); without an access token nothing is created.
// - connected: the user's topics are subscribed (QoS 2, plus ad hoc ones at QoS 1) and the notify flag
//   is on.
// - closed: the connection is gone. With a client, the next attempt is scheduled (a retry 2 s apart
//   before the first success, a jittered reconnect after it); without one (`broker.end`), a new
//   `broker.connect` may start over.
// - reconnecting: an attempt is under way.
// - error: the broker refused the connection (a bad or expired token) or broke the protocol, or every
//   first attempt failed: the client is ended. Final for that client; a new `broker.connect` (e.g. with
//   a fresh token) creates a new one.
import { assign, setup } from 'xstate';
import { NO_CONNECTION_MESSAGE } from '../lib/broker-errors';

export type BrokerQos = 0 | 1 | 2;

/** SPEC §9: QoS 2 on the user's own topics, 1 on ad hoc ones. */
export const USER_TOPIC_QOS: BrokerQos = 2;
export const AD_HOC_TOPIC_QOS: BrokerQos = 1;
/** SPEC §9: 3 retry attempts before the first connection is given up. */
export const DEFAULT_MAX_RETRIES = 3;

export interface BrokerInput {
  /** The user's own topics (contracts/broker-topics.ts `allowedSubscriptions`), subscribed on every connect. */
  userTopics: string[];
  /** Retries after a failed first attempt before giving up (at least 1); SPEC §9: 3. */
  maxRetries?: number;
}

export interface BrokerContext {
  userTopics: string[];
  maxRetries: number;
  /** Only one client at a time (SPEC §4): true from `broker.connect` until the client is ended. */
  hasClient: boolean;
  /** The client has connected at least once: later attempts are reconnects, retried without limit. */
  connectedOnce: boolean;
  /** Failed attempts since the client was created, before its first connection. */
  failedAttempts: number;
  /** SPEC §4 "broker-notify flag": on once connected and subscribing; off on closed, reconnecting, error. */
  notify: boolean;
  /**
   * Topic → QoS of what this client subscribes: the user's topics from the moment it connects, ad hoc ones
   * once the broker granted them. Kept while the connection is down (the non-clean session keeps them and
   * the next connect subscribes them again); cleared when the client ends.
   */
  subscriptions: Record<string, BrokerQos>;
  /** The last error text (SPEC §8), for the UI and the logs. */
  error: string | null;
}

export type BrokerEvent =
  /** Create the client and connect. `hasToken`: an access token exists (the adapter reads it). */
  | { type: 'broker.connect'; hasToken: boolean }
  /** MQTT.js `connect`: the broker accepted the connection (CONNACK). */
  | { type: 'broker.connected' }
  /** MQTT.js `close`: the connection dropped, or an attempt failed. */
  | { type: 'broker.closed' }
  /** MQTT.js `reconnect`: a scheduled attempt started. */
  | { type: 'broker.reconnecting' }
  /** A fatal MQTT.js error (`isFatalBrokerError`): a refused connection or a protocol violation. */
  | { type: 'broker.error'; message: string }
  /** End the client (sign-out, the app stops it). */
  | { type: 'broker.end' }
  /** The broker granted a subscription (SUBACK). */
  | { type: 'broker.subscribed'; topic: string; qos: BrokerQos }
  /** The broker refused a subscription (SUBACK failure 0x80; the connection stays up). */
  | { type: 'broker.subscribeFailed'; topic: string; message: string }
  /** The broker confirmed an unsubscribe (UNSUBACK). */
  | { type: 'broker.unsubscribed'; topic: string };

export type BrokerStatus = 'notConnected' | 'connected' | 'reconnecting' | 'closed' | 'error';

type ConnectEvent = Extract<BrokerEvent, { type: 'broker.connect' }>;

/** What a connect subscribes: the user's topics at QoS 2 and the ad hoc ones still wanted at QoS 1. */
export function topicsToSubscribe(context: BrokerContext): Record<string, BrokerQos> {
  const topics: Record<string, BrokerQos> = {};
  for (const [topic, qos] of Object.entries(context.subscriptions)) {
    if (!context.userTopics.includes(topic)) topics[topic] = qos;
  }
  for (const topic of context.userTopics) topics[topic] = USER_TOPIC_QOS;
  return topics;
}

const reportEventError = {
  type: 'reportError',
  params: ({ event }: { event: BrokerEvent }) => ({ message: errorOf(event) }),
} as const;

/** No access token: nothing is created and the app is told why. */
const refuseWithoutToken = [
  { type: 'setError', params: { message: NO_CONNECTION_MESSAGE } },
  { type: 'reportError', params: { message: NO_CONNECTION_MESSAGE } },
] as const;

/** `broker.connect` where no client exists (closed after `broker.end`, error). */
const connectWhenNoClient = [
  { guard: 'canOpen', target: 'notConnected', actions: ['resetForNewClient', 'openClient'] },
  { guard: 'lacksToken', actions: refuseWithoutToken },
] as const;

const becomeConnected = {
  guard: 'hasClient',
  target: 'connected',
  actions: [
    'markConnected',
    'wantUserTopics',
    {
      type: 'subscribeTopics',
      params: ({ context }: { context: BrokerContext }) => ({ topics: { ...context.subscriptions } }),
    },
  ],
} as const;

/** The connection dropped: reconnect (after the jittered reconnect period), without limit. */
const connectionLost = {
  guard: 'hasClient',
  target: 'closed',
  actions: ['notifyOff', 'scheduleReconnect'],
} as const;

/** The first attempt failed: it is always retried (2 s apart). */
const firstAttemptFailed = {
  guard: 'hasClient',
  target: 'closed',
  actions: ['countFailedAttempt', 'scheduleRetry'],
} as const;

/**
 * An attempt from `reconnecting` failed: after a lost connection, reconnect again; before the first
 * success, retry while retries are left (SPEC §9: 3), then give up and end the client.
 */
const attemptFailed = [
  { ...connectionLost, guard: 'hasClientAndConnectedOnce' },
  {
    guard: 'hasClientAndRetriesLeft',
    target: 'closed',
    actions: ['countFailedAttempt', 'scheduleRetry'],
  },
  {
    guard: 'hasClient',
    target: 'error',
    actions: [
      'endClient',
      'forgetClient',
      { type: 'setError', params: { message: NO_CONNECTION_MESSAGE } },
      { type: 'reportError', params: { message: NO_CONNECTION_MESSAGE } },
    ],
  },
] as const;

/** A fatal error (a refused connection): the client is ended (SPEC §4). */
const failWith = {
  guard: 'hasClient',
  target: 'error',
  actions: ['endClient', 'forgetClient', 'setEventError', reportEventError],
} as const;

const endTo = { target: 'closed', actions: ['endClient', 'forgetClient'] } as const;

function errorOf(event: BrokerEvent): string {
  return 'message' in event ? event.message : NO_CONNECTION_MESSAGE;
}

function without(subscriptions: Record<string, BrokerQos>, topic: string): Record<string, BrokerQos> {
  const { [topic]: _removed, ...rest } = subscriptions;
  return rest;
}

export const brokerMachine = setup({
  types: {
    context: {} as BrokerContext,
    events: {} as BrokerEvent,
    input: {} as BrokerInput,
  },
  actions: {
    // Context only (pure).
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    setEventError: assign({ error: ({ event }) => errorOf(event) }),
    /** A new client: nothing of the previous (ended) one is carried over. */
    resetForNewClient: assign({
      hasClient: true,
      connectedOnce: false,
      failedAttempts: 0,
      notify: false,
      subscriptions: {},
      error: null,
    }),
    /** The client was ended: nothing of it remains. */
    forgetClient: assign({ hasClient: false, notify: false, subscriptions: {}, failedAttempts: 0 }),
    markConnected: assign({ connectedOnce: true, failedAttempts: 0, notify: true, error: null }),
    wantUserTopics: assign({ subscriptions: ({ context }) => topicsToSubscribe(context) }),
    notifyOff: assign({ notify: false }),
    countFailedAttempt: assign({ failedAttempts: ({ context }) => context.failedAttempts + 1 }),
    addSubscription: assign({
      subscriptions: ({ context, event }) =>
        event.type === 'broker.subscribed'
          ? { ...context.subscriptions, [event.topic]: event.qos }
          : context.subscriptions,
    }),
    removeSubscription: assign({
      subscriptions: ({ context, event }) =>
        'topic' in event ? without(context.subscriptions, event.topic) : context.subscriptions,
    }),
    // Effects: no-ops here, provided by the adapter with `brokerMachine.provide({ actions })`.
    /** Create the MQTT.js client and schedule its first attempt (after the initial delay). */
    openClient: () => {},
    /** Before the first success: the next attempt after the retry delay (jittered). */
    scheduleRetry: () => {},
    /** After a lost connection: the next attempt after the reconnect period (jittered). */
    scheduleReconnect: () => {},
    /** Subscribe these topics; answer with broker.subscribed / broker.subscribeFailed per topic. */
    subscribeTopics: (_, _params: { topics: Record<string, BrokerQos> }) => {},

    /** End the client and cancel its timers; operations in flight fail with "client disconnecting". */
    endClient: () => {},
    /** Tell the app (it logs SPEC §8 texts). */
    reportError: (_, _params: { message: string }) => {},

    /** A reconnect (not the first connect) succeeded: the app refetches what it may have missed. */
    notifyReconnected: () => {},
  },
  guards: {
    hasClient: ({ context }) => context.hasClient,
    canOpen: ({ context, event }) => !context.hasClient && (event as ConnectEvent).hasToken === true,
    lacksToken: ({ context, event }) => !context.hasClient && (event as ConnectEvent).hasToken !== true,
    hasClientAndConnectedOnce: ({ context }) => context.hasClient && context.connectedOnce,
    hasClientAndRetriesLeft: ({ context }) =>
      context.hasClient && context.failedAttempts < context.maxRetries,
    isSubscribed: ({ context, event }) =>
      'topic' in event && Object.hasOwn(context.subscriptions, event.topic),
  },
}).createMachine({
  id: 'broker',
  context: ({ input }) => ({
    userTopics: [...(input?.userTopics ?? [])],
    // The first failed attempt is always retried: at least one retry.
    maxRetries: Math.max(1, input?.maxRetries ?? DEFAULT_MAX_RETRIES),
    hasClient: false,
    connectedOnce: false,
    failedAttempts: 0,
    notify: false,
    subscriptions: {},
    error: null,
  }),
  initial: 'notConnected',
  states: {
    notConnected: {
      on: {
        // A connect while a client exists (connecting) is ignored: only one client at a time.
        'broker.connect': [
          { guard: 'canOpen', actions: ['resetForNewClient', 'openClient'] },
          { guard: 'lacksToken', actions: refuseWithoutToken },
        ],
        'broker.connected': becomeConnected,
        'broker.closed': firstAttemptFailed,
        'broker.error': failWith,
        'broker.end': endTo,
      },
    },
    connected: {
      on: {
        'broker.closed': connectionLost,
        // The broker broke the protocol (e.g. a duplicate CONNACK): the client is ended.
        'broker.error': failWith,
        'broker.end': endTo,
        'broker.subscribed': { actions: 'addSubscription' },
        'broker.subscribeFailed': { actions: ['removeSubscription', 'setEventError', reportEventError] },
        'broker.unsubscribed': { guard: 'isSubscribed', actions: 'removeSubscription' },
      },
    },
    closed: {
      on: {
        'broker.reconnecting': { guard: 'hasClient', target: 'reconnecting' },
        'broker.connect': connectWhenNoClient,
        'broker.end': { guard: 'hasClient', ...endTo },
      },
    },
    reconnecting: {
      on: {
        'broker.connected': [
          {
            ...becomeConnected,
            guard: 'hasClientAndConnectedOnce',
            actions: [...becomeConnected.actions, 'notifyReconnected'],
          },
          becomeConnected,
        ],
        'broker.closed': attemptFailed,
        'broker.error': failWith,
        'broker.end': endTo,
      },
    },
    error: {
      on: {
        'broker.connect': connectWhenNoClient,
        'broker.end': endTo,
      },
    },
  },
});

export type BrokerMachine = typeof brokerMachine;
