// The broker statechart on its own: its decisions, with the effects recorded instead of performed.
// (tests/model/broker.model.test.ts runs every path of it against the real client and broker.)
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { NO_CONNECTION_MESSAGE } from '../lib/broker-errors';
import { type BrokerEvent, type BrokerQos, brokerMachine, topicsToSubscribe } from './broker.machine';

const USER_TOPICS = ['mp_u1_message', '/chatBot/salesBot/s1/+'];
const CHAT = '/chatBot/salesBot/s1/chat-9';

function start(maxRetries?: number) {
  const effects: string[] = [];
  const subscribed: Record<string, BrokerQos>[] = [];
  const reported: string[] = [];
  const record = (name: string) => () => {
    effects.push(name);
  };
  const machine = brokerMachine.provide({
    actions: {
      openClient: record('openClient'),
      scheduleRetry: record('scheduleRetry'),
      scheduleReconnect: record('scheduleReconnect'),
      endClient: record('endClient'),
      notifyReconnected: record('notifyReconnected'),
      subscribeTopics: (_, { topics }) => {
        effects.push('subscribeTopics');
        subscribed.push(topics);
      },
      reportError: (_, { message }) => {
        reported.push(message);
      },
    },
  });
  const actor = createActor(machine, { input: { userTopics: USER_TOPICS, maxRetries } }).start();
  const send = (...events: BrokerEvent[]) => {
    for (const event of events) actor.send(event);
  };
  return { actor, send, effects, subscribed, reported, snapshot: () => actor.getSnapshot() };
}

describe('broker statechart', () => {
  it('starts not connected, without a client, the notify flag off', () => {
    const { snapshot } = start();
    expect(snapshot().value).toBe('notConnected');
    expect(snapshot().context).toMatchObject({
      hasClient: false,
      notify: false,
      subscriptions: {},
      error: null,
    });
  });

  it('needs an access token to connect: without one nothing is created and the app is told', () => {
    const { send, snapshot, effects, reported } = start();
    send({ type: 'broker.connect', hasToken: false });
    expect(snapshot().value).toBe('notConnected');
    expect(snapshot().context.hasClient).toBe(false);
    expect(snapshot().context.error).toBe(NO_CONNECTION_MESSAGE);
    expect(effects).toEqual([]);
    expect(reported).toEqual([NO_CONNECTION_MESSAGE]);
  });

  it('creates only one client: a connect while one exists is ignored, in every state', () => {
    const { send, snapshot, effects } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.connect', hasToken: true });
    expect(effects).toEqual(['openClient']);
    send({ type: 'broker.connected' }, { type: 'broker.connect', hasToken: true });
    send({ type: 'broker.closed' }, { type: 'broker.connect', hasToken: true });
    send({ type: 'broker.reconnecting' }, { type: 'broker.connect', hasToken: true });
    expect(effects.filter((effect) => effect === 'openClient')).toHaveLength(1);
    expect(snapshot().value).toBe('reconnecting');
  });

  it('on connect subscribes the user topics at QoS 2 and sets the notify flag', () => {
    const { send, snapshot, subscribed } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.connected' });
    expect(snapshot().value).toBe('connected');
    expect(snapshot().context.notify).toBe(true);
    expect(subscribed).toEqual([{ [USER_TOPICS[0] as string]: 2, [USER_TOPICS[1] as string]: 2 }]);
    expect(snapshot().context.subscriptions).toEqual(subscribed[0]);
  });

  it('clears the notify flag on closed, reconnecting and error, and ends the client on error', () => {
    const { send, snapshot, effects } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.connected' }, { type: 'broker.closed' });
    expect(snapshot().value).toBe('closed');
    expect(snapshot().context.notify).toBe(false);
    send({ type: 'broker.reconnecting' });
    expect(snapshot().context.notify).toBe(false);
    send({ type: 'broker.error', message: 'Connection refused: Not authorized' });
    expect(snapshot().value).toBe('error');
    expect(snapshot().context).toMatchObject({
      notify: false,
      hasClient: false,
      subscriptions: {},
      error: 'Connection refused: Not authorized',
    });
    expect(effects.at(-1)).toBe('endClient');
  });

  it('subscribes the ad hoc topics again (QoS 1) with the user topics on every reconnect', () => {
    const { send, snapshot, subscribed, effects } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.connected' });
    send({ type: 'broker.subscribed', topic: CHAT, qos: 1 });
    send({ type: 'broker.closed' }, { type: 'broker.reconnecting' }, { type: 'broker.connected' });
    expect(subscribed.at(-1)).toEqual({
      [CHAT]: 1,
      [USER_TOPICS[0] as string]: 2,
      [USER_TOPICS[1] as string]: 2,
    });
    expect(snapshot().context.subscriptions).toEqual(subscribed.at(-1));
    expect(effects.filter((effect) => effect === 'notifyReconnected')).toHaveLength(1);
  });

  it('drops a refused or unsubscribed topic, and only unsubscribes what it has', () => {
    const { send, snapshot, reported } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.connected' });
    send({ type: 'broker.subscribed', topic: CHAT, qos: 1 });
    expect(snapshot().can({ type: 'broker.unsubscribed', topic: 'elsewhere' })).toBe(false);
    send({ type: 'broker.unsubscribed', topic: CHAT });
    expect(snapshot().context.subscriptions).not.toHaveProperty(CHAT);
    send({ type: 'broker.subscribeFailed', topic: 'x/+', message: 'Subscribe error: Unspecified error' });
    expect(snapshot().context.error).toBe('Subscribe error: Unspecified error');
    expect(reported).toEqual(['Subscribe error: Unspecified error']);
    expect(snapshot().value).toBe('connected');
  });

  it('retries a failed first connection 3 times, then gives up with "No connection to broker"', () => {
    const { send, snapshot, effects, reported } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.closed' });
    for (let retry = 1; retry <= 3; retry++) {
      expect(snapshot().value).toBe('closed');
      expect(snapshot().context.failedAttempts).toBe(retry);
      send({ type: 'broker.reconnecting' }, { type: 'broker.closed' });
    }
    expect(snapshot().value).toBe('error');
    expect(snapshot().context.error).toBe(NO_CONNECTION_MESSAGE);
    expect(effects.filter((effect) => effect === 'scheduleRetry')).toHaveLength(3);
    expect(effects.at(-1)).toBe('endClient');
    expect(reported).toEqual([NO_CONNECTION_MESSAGE]);
  });

  it('reconnects a lost connection without limit, and a late first success is not a reconnect', () => {
    const { send, snapshot, effects } = start();
    send(
      { type: 'broker.connect', hasToken: true },
      { type: 'broker.closed' },
      { type: 'broker.reconnecting' },
    );
    send({ type: 'broker.connected' });
    expect(effects).not.toContain('notifyReconnected');
    for (let lost = 0; lost < 10; lost++) {
      send({ type: 'broker.closed' }, { type: 'broker.reconnecting' }, { type: 'broker.closed' });
      expect(snapshot().value).toBe('closed');
      send({ type: 'broker.reconnecting' });
    }
    send({ type: 'broker.connected' });
    expect(snapshot().value).toBe('connected');
    expect(effects.filter((effect) => effect === 'scheduleReconnect')).toHaveLength(20);
  });

  it('starts a new client after an error or an end, but not while one exists', () => {
    const { send, snapshot, effects } = start();
    send(
      { type: 'broker.connect', hasToken: true },
      { type: 'broker.error', message: 'Connection refused: x' },
    );
    send({ type: 'broker.connect', hasToken: true });
    expect(snapshot().value).toBe('notConnected');
    expect(snapshot().context).toMatchObject({ hasClient: true, error: null });
    send({ type: 'broker.end' });
    expect(snapshot().value).toBe('closed');
    expect(snapshot().can({ type: 'broker.reconnecting' })).toBe(false);
    send({ type: 'broker.connect', hasToken: true });
    expect(snapshot().value).toBe('notConnected');
    expect(effects.filter((effect) => effect === 'openClient')).toHaveLength(3);
  });

  it('ignores what an ended client might still report', () => {
    const { send, snapshot } = start();
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.end' });
    for (const event of [
      { type: 'broker.connected' },
      { type: 'broker.closed' },
      { type: 'broker.reconnecting' },
      { type: 'broker.error', message: 'late' },
    ] as BrokerEvent[]) {
      expect(snapshot().can(event)).toBe(false);
    }
  });

  it('always allows at least one retry', () => {
    const { send, snapshot } = start(0);
    send({ type: 'broker.connect', hasToken: true }, { type: 'broker.closed' });
    expect(snapshot().value).toBe('closed');
    send({ type: 'broker.reconnecting' }, { type: 'broker.closed' });
    expect(snapshot().value).toBe('error');
  });

  it('topicsToSubscribe: the user topics at QoS 2 win over an ad hoc subscription of the same topic', () => {
    const context = start().snapshot().context;
    expect(
      topicsToSubscribe({ ...context, subscriptions: { [USER_TOPICS[0] as string]: 1, [CHAT]: 1 } }),
    ).toEqual({ [CHAT]: 1, [USER_TOPICS[0] as string]: 2, [USER_TOPICS[1] as string]: 2 });
  });
});
