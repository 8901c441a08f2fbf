// @vitest-environment node
// (MQTT.js picks its transport by environment: in node it speaks WebSocket through `ws`, as the real
// browser would through its own; jsdom's WebSocket would get in the way.)
//
// Model-based test of the broker statechart (ARCHITECTURE.md "Statecharts"): every path of
// `getShortestPaths()` of the REAL machine, plus one path per transition they miss, each run against
// the REAL adapter (startBroker), the REAL MQTT.js client and the REAL embedded broker of the REAL
// server (buildApp, listening on 127.0.0.1). Between the client and the server sits a TCP gate the test
// controls (let through, hold, refuse, cut, inject bytes), and the server itself is stopped and started
// again on the same port and database (a broker restart). Only the adapter's own attempt timers are
// fake (the test fires them), so each state holds still while it is checked.
// `getSimplePaths()` is not used: with the retry counter and the subscriptions in the context the simple
// paths number in the millions.

import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SnapshotFrom, waitFor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { allowedSubscriptions, salesBotTopic, userMessageTopic } from '../../contracts/broker-topics';
import { buildApp } from '../../server/app';
import { createTokenService } from '../../server/modules/auth/tokens';
import { createTestApp, demoEmails, signInAs, type TestApp } from '../../server/test-support';
import {
  connectionRefusedMessage,
  NO_CONNECTION_MESSAGE,
  NOT_CONNECTED_MESSAGE,
  PUBLISH_NOT_ALLOWED_MESSAGE,
} from '../../src/lib/broker-errors';
import { type BrokerEvent, type BrokerStatus, brokerMachine } from '../../src/machines/broker.machine';
import {
  type BrokerHandle,
  type BrokerSession,
  type BrokerTimers,
  type StartBrokerOptions,
  selectBrokerNotify,
  selectBrokerStatus,
  startBroker,
} from '../../src/services/broker-adapter';
import { FakeTimers } from '../../src/services/testing/fake-timers';
import {
  completionPaths,
  expectFullCoverage,
  type ModelPath as SharedModelPath,
  serializedNodeKey,
} from './model-paths';

type BrokerSnapshot = SnapshotFrom<typeof brokerMachine>;
type StateName = BrokerStatus;

const JWT_SECRET = 'broker-model-test-secret-0123456789abcdef';
const BAD_TOKEN = 'not-a-token';
const REFUSED = connectionRefusedMessage('Bad username or password');
const SUBSCRIBE_REFUSED = 'Subscribe error: Unspecified error';
const DUPLICATE_CONNACK = 'Protocol error: duplicate CONNACK on the same network connection';
/** Short for real waits; long where an attempt is held at the gate while its state is checked. */
const TIMING = { connectTimeoutMs: 15_000, retryDelayMs: 20, reconnectPeriodMs: 40, initialDelayMs: 10 };
const QUIET_MS = 60;
/** Messages published while the tab is away in the token-expiry scenario (replayed in a burst). */
const OFFLINE_MESSAGES = 3;

// ---------------------------------------------------------------------------------------------------
// The server: the real app on a fixed port, stopped and started again on the same database

class TestServer {
  app: FastifyInstance | null = null;
  port = 0;
  starts = 0;
  constructor(readonly test: TestApp) {}

  get up() {
    return this.app !== null;
  }

  async start() {
    if (this.app) return;
    const app =
      this.starts === 0
        ? this.test.app
        : await buildApp({
            config: this.test.config,
            database: this.test.database,
            jobs: { enabled: false },
          });
    await app.ready();
    await app.listen({ port: this.port, host: '127.0.0.1' });
    const address = app.server.address();
    this.port = typeof address === 'object' && address ? address.port : this.port;
    this.app = app;
    this.starts += 1;
  }

  /** A broker restart begins: the server (and with it Aedes and every session it held) goes away. */
  async stop() {
    const app = this.app;
    this.app = null;
    await app?.close();
  }

  get broker() {
    if (!this.app) throw new Error('the server is down');
    return this.app.broker;
  }
}

// ---------------------------------------------------------------------------------------------------
// The network between the browser and the server: a TCP gate

type GateMode = 'open' | 'hold' | 'refuse';

class Gate {
  readonly server: Server;
  mode: GateMode = 'open';
  port = 0;
  readonly held = new Set<{ socket: Socket; chunks: Buffer[] }>();
  readonly pairs = new Set<{ client: Socket; upstream: Socket }>();

  constructor(private readonly upstreamPort: () => number) {
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen() {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  private accept(socket: Socket) {
    socket.on('error', () => {});
    if (this.mode === 'refuse') {
      socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    const entry = { socket, chunks };
    if (this.mode === 'hold') {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => this.held.delete(entry));
      this.held.add(entry);
      return;
    }
    this.forward(socket, chunks);
  }

  private forward(client: Socket, chunks: Buffer[]) {
    client.removeAllListeners('data');
    client.pause();
    const upstream = tcpConnect(this.upstreamPort(), '127.0.0.1');
    const pair = { client, upstream };
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', drop);
    client.on('error', drop);
    upstream.on('close', drop);
    client.on('close', drop);
    upstream.on('connect', () => {
      for (const chunk of chunks) upstream.write(chunk);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  /** Let the held connections through (to whatever listens upstream now). */
  release() {
    this.mode = 'open';
    for (const entry of [...this.held]) {
      this.held.delete(entry);
      this.forward(entry.socket, entry.chunks);
    }
  }

  /** Drop the held connections (the attempt fails). */
  cutHeld() {
    for (const entry of [...this.held]) {
      this.held.delete(entry);
      entry.socket.destroy();
    }
  }

  /** Drop the live connections (a network failure). */
  cutAll() {
    for (const pair of [...this.pairs]) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
  }

  /** Bytes from "the server" to the client, between two of the server's own frames. */
  inject(bytes: Buffer) {
    const [pair] = [...this.pairs];
    if (!pair) throw new Error('no live connection');
    pair.client.write(bytes);
  }

  get live() {
    return [...this.pairs].filter((pair) => !pair.client.destroyed).length;
  }

  async close() {
    this.cutHeld();
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits for the condition, returning as soon as it holds (a loaded machine may take seconds). */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * While NOT connected there is nothing to wait for: a message that arrived anyway would show within
 * moments, so a short quiet window is the check. While connected, `barrier()` is used instead.
 */
const quiet = (ms = QUIET_MS) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One more message from the server, waited for: the broker delivers to a connection in order, so a
 * duplicate of anything before it would have arrived by then.
 */
async function barrier() {
  const text = await world.probe();
  await until(() => world.count(text) >= 1, 'the barrier message');
}

// ---------------------------------------------------------------------------------------------------
// The world of one path: one browser tab with its broker client

let server: TestServer;
let gate: Gate;
let seller: { userId: string; sellerId: string; sessionId: string; token: string };
let session: BrokerSession;
let chatTopic: string;
let ownTopic: string;
let foreignTopic: string;
let probeSeq = 0;

interface Received {
  topic: string;
  text: string;
}

class World {
  readonly timers = new FakeTimers();
  readonly received: Received[] = [];
  readonly errors: string[] = [];
  readonly storage = new Map<string, string>();
  reconnects = 0;
  tokenMode: 'good' | 'bad' | 'none' = 'good';
  handle!: BrokerHandle;
  /** Published while this tab's session existed at the broker but had no connection: due once. */
  due: string[] = [];
  /** This tab's non-clean session exists at the (current) broker. */
  sessionAtBroker = false;
  previousState: string | null = null;
  lastEvent: { type: string } | null = null;
  /** The path's events, to arrange the world for the step after this one. */
  upcoming: BrokerEvent[] = [];
  /** The real snapshot before the current step (to tell which guarded transition was taken). */
  before: BrokerSnapshot | null = null;
  /** A token of the scenario's own (instead of the seller's good one). */
  token: string | null = null;

  start(overrides: Partial<StartBrokerOptions> = {}) {
    this.handle = startBroker({
      url: `ws://127.0.0.1:${gate.port}/mqtt`,
      prefix: 'mp',
      session,
      getAccessToken: () =>
        this.tokenMode === 'none'
          ? null
          : this.tokenMode === 'bad'
            ? BAD_TOKEN
            : (this.token ?? seller.token),
      onMessage: (topic, payload) => this.received.push({ topic, text: new TextDecoder().decode(payload) }),
      onReconnected: () => {
        this.reconnects += 1;
      },
      onError: (message) => this.errors.push(message),
      timing: TIMING,
      timers: this.timers,
      random: () => 0.5,
      storage: {
        getItem: (key) => this.storage.get(key) ?? null,
        setItem: (key, value) => void this.storage.set(key, value),
      },
      autoConnect: false,
      ...overrides,
    });
  }

  get snapshot() {
    return this.handle.actor.getSnapshot();
  }

  count(text: string) {
    return this.received.filter((message) => message.text === text).length;
  }

  /** A message from the server on the user's topic, and whether this tab gets it now, later or never. */
  async probe() {
    const text = JSON.stringify({ type: 'NOTIFICATION', probe: ++probeSeq });
    await server.broker.publishToUser(seller.userId, JSON.parse(text));
    return text;
  }
}

let world: World;

async function destroyWorld(w: World) {
  w.handle.stop();
  await w.handle.settled();
  gate.cutHeld();
  gate.cutAll();
  gate.mode = 'open';
}

// ---------------------------------------------------------------------------------------------------
// The model: the machine itself, with the user's topics of the real seller, and sample payloads

/**
 * The events of the model in each state. A fatal error is a refused connection during an attempt, and
 * a protocol violation (a second CONNACK) on a live connection: what the real world produces there.
 */
const sampleEvents = (snapshot: BrokerSnapshot): BrokerEvent[] => [
  { type: 'broker.connect', hasToken: true },
  { type: 'broker.connect', hasToken: false },
  { type: 'broker.connected' },
  { type: 'broker.closed' },
  { type: 'broker.reconnecting' },
  { type: 'broker.error', message: snapshot.value === 'connected' ? DUPLICATE_CONNACK : REFUSED },
  { type: 'broker.end' },
  { type: 'broker.subscribed', topic: chatTopic, qos: 1 },
  { type: 'broker.subscribeFailed', topic: foreignTopic, message: SUBSCRIBE_REFUSED },
  { type: 'broker.unsubscribed', topic: chatTopic },
];

const valueKey = (snapshot: BrokerSnapshot) => {
  const { userTopics: _topics, maxRetries: _retries, ...rest } = snapshot.context;
  return JSON.stringify([snapshot.value, rest]);
};

/** A self-transition leads to a marked copy of its state, so transitions that stay are on paths too. */
function serializeNode(
  snapshot: BrokerSnapshot,
  event?: { type: string },
  previous?: BrokerSnapshot,
): string {
  return previous && event && valueKey(previous) === valueKey(snapshot)
    ? `${valueKey(snapshot)}~${event.type}`
    : valueKey(snapshot);
}

// ---------------------------------------------------------------------------------------------------
// Which transition of the machine a step takes (guarded candidates are told apart by their guard)

interface Candidate {
  target?: readonly { key: string }[];
  guard?: unknown;
}

const guardName = (guard: unknown): string =>
  typeof guard === 'string' ? guard : ((guard as { type?: string } | undefined)?.type ?? '');

function transitionId(from: string, eventType: string, candidate: Candidate): string {
  const target = candidate.target?.[0]?.key ?? from;
  return `${from}|${eventType}|${target}|${guardName(candidate.guard)}`;
}

function allTransitions(): string[] {
  const ids: string[] = [];
  for (const node of Object.values(brokerMachine.root.states)) {
    for (const [eventType, candidates] of node.transitions) {
      for (const candidate of candidates) ids.push(transitionId(node.key, eventType, candidate));
    }
  }
  return ids;
}

const guards = brokerMachine.implementations.guards as Record<
  string,
  (args: { context: BrokerSnapshot['context']; event: BrokerEvent }, params: unknown) => boolean
>;

/** The candidate the machine takes for `event` in `snapshot` (the first whose guard passes). */
function takenTransition(snapshot: BrokerSnapshot, event: BrokerEvent): string | null {
  const from = String(snapshot.value);
  const node = brokerMachine.root.states[from as StateName];
  for (const candidate of node?.transitions.get(event.type) ?? []) {
    const name = guardName(candidate.guard);
    if (!name || guards[name]?.({ context: snapshot.context, event }, undefined))
      return transitionId(from, event.type, candidate);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// How each event happens in the real world

async function ensureServerUp() {
  if (!server.up) {
    await server.start();
    // A new broker: the sessions of the old one are gone, and so is whatever they had queued.
    world.sessionAtBroker = false;
    world.due = [];
  }
}

async function reach(state: StateName) {
  await waitFor(world.handle.actor, (snapshot) => snapshot.value === state, { timeout: 20_000 });
}

const nextEvent = () => world.upcoming[0];

const eventExecutors: Record<BrokerEvent['type'], (event: BrokerEvent) => Promise<void>> = {
  'broker.connect': async (event) => {
    world.tokenMode = event.type === 'broker.connect' && event.hasToken ? 'good' : 'none';
    world.handle.connect();
  },
  // The broker accepts the connection: the first attempt with a good token, or the held attempt.
  'broker.connected': async () => {
    await ensureServerUp();
    const before = world.snapshot;
    const reconnects = world.reconnects;
    if (before.value === 'reconnecting') {
      gate.release();
    } else {
      gate.mode = 'open';
      world.tokenMode = 'good';
      world.timers.fireOnly();
    }
    await reach('connected');
    await world.handle.settled();
    world.sessionAtBroker = true;
    // The app refetches after a reconnect, not after the first connect.
    const isReconnect = before.value === 'reconnecting' && before.context.connectedOnce;
    expect(world.reconnects).toBe(reconnects + (isReconnect ? 1 : 0));
  },
  'broker.closed': async () => {
    const from = world.snapshot.value;
    if (from === 'connected') {
      // The broker restarts: the server goes down (it comes back when an attempt needs it).
      await server.stop();
      world.sessionAtBroker = false;
      world.due = [];
    } else if (from === 'reconnecting') {
      // The held attempt's connection drops.
      gate.cutHeld();
    } else {
      // The first attempt finds the door shut.
      gate.mode = 'refuse';
      world.timers.fireOnly();
    }
    await until(() => world.snapshot.value !== from, `leaving ${from}`);
  },
  // A scheduled attempt starts; it is held at the gate until the next step decides how it ends.
  'broker.reconnecting': async () => {
    world.tokenMode = nextEvent()?.type === 'broker.error' ? 'bad' : 'good';
    gate.mode = 'hold';
    world.timers.fireOnly();
    await reach('reconnecting');
    await until(() => gate.held.size === 1, 'the attempt at the gate');
  },
  'broker.error': async () => {
    const from = world.snapshot.value;
    if (from === 'connected') {
      // The broker breaks the protocol: a second CONNACK on the same connection (a WebSocket frame).
      gate.inject(Buffer.from([0x82, 0x04, 0x20, 0x02, 0x00, 0x00]));
    } else {
      await ensureServerUp();
      if (from === 'reconnecting') {
        gate.release(); // the held attempt carries a bad token (see broker.reconnecting)
      } else {
        world.tokenMode = 'bad';
        gate.mode = 'open';
        world.timers.fireOnly();
      }
    }
    await reach('error');
  },
  'broker.end': async () => {
    world.handle.stop();
    await world.handle.settled();
  },
  'broker.subscribed': async () => {
    await world.handle.subscribe(chatTopic);
  },
  'broker.subscribeFailed': async () => {
    await expect(world.handle.subscribe(foreignTopic)).rejects.toThrow(SUBSCRIBE_REFUSED);
  },
  'broker.unsubscribed': async () => {
    await world.handle.unsubscribe(chatTopic);
  },
};

// ---------------------------------------------------------------------------------------------------
// What each state means in the real world

const visitedStates = new Set<string>();
const executedTransitions = new Set<string>();

async function common(expected: BrokerSnapshot) {
  const real = world.snapshot;
  expect(real.value).toEqual(expected.value);
  expect(selectBrokerStatus(real)).toBe(expected.value);
  expect(selectBrokerNotify(real)).toBe(expected.context.notify);
  const { userTopics: _a, ...realContext } = real.context;
  const { userTopics: _b, ...expectedContext } = expected.context;
  expect(realContext).toEqual(expectedContext);
  // What the machine says went wrong is what the app was told.
  if (real.context.error) expect(world.errors).toContain(real.context.error);

  const state = String(real.value);
  visitedStates.add(state);
  if (world.before && world.lastEvent) {
    const id = takenTransition(world.before, world.lastEvent as BrokerEvent);
    if (id) executedTransitions.add(id);
  }
  world.before = real;
  world.lastEvent = null;
}

/**
 * Not connected in any way: a message published now is not received now; if this tab's session exists
 * at the broker (clean session false), it is due on the next connection, once.
 */
async function offline() {
  await until(() => gate.live === 0, 'no live connection');
  await expect(world.handle.publish(ownTopic, { from: 'tab' })).rejects.toThrow(NOT_CONNECTED_MESSAGE);
  await expect(world.handle.subscribe(chatTopic)).rejects.toThrow(NOT_CONNECTED_MESSAGE);
  if (!server.up) return; // the broker is down: nothing can be published
  const text = await world.probe();
  await quiet();
  expect(world.count(text), 'nothing arrives while not connected').toBe(0);
  if (world.sessionAtBroker) world.due.push(text);
}

const stateChecks: Record<StateName, (snapshot: BrokerSnapshot) => Promise<void>> = {
  notConnected: async (snapshot) => {
    await common(snapshot);
    // With a client, its first attempt is scheduled (within the initial delay); without, nothing.
    expect(world.timers.delays()).toEqual(snapshot.context.hasClient ? [TIMING.initialDelayMs / 2] : []);
    await until(() => gate.held.size === 0, 'no attempt at the gate');
    await offline();
  },
  connected: async (snapshot) => {
    await common(snapshot);
    expect(world.timers.pending.size).toBe(0);
    expect(gate.live, 'one client, one connection').toBe(1);
    // What was published while the session had no connection arrives now, once (clean session false).
    for (const text of world.due) await until(() => world.count(text) >= 1, `queued ${text}`);
    // The user's topic is subscribed: a message from the server arrives, once.
    const text = await world.probe();
    await until(() => world.count(text) >= 1, 'the probe');
    // A chat event from the server arrives (the sales-bot filter) ...
    const chat = JSON.stringify({ chat: probeSeq });
    await server.broker.publish(chatTopic, JSON.parse(chat), { qos: 1 });
    await until(() => world.count(chat) >= 1, 'the chat message');
    // ... and what this tab publishes on its own topic comes back; a chat topic is the server's alone.
    const own = JSON.stringify({ own: probeSeq });
    await world.handle.publish(ownTopic, JSON.parse(own));
    await until(() => world.count(own) >= 1, 'the own message');
    await expect(world.handle.publish(chatTopic, {})).rejects.toThrow(PUBLISH_NOT_ALLOWED_MESSAGE);
    await barrier();
    for (const due of [...world.due, text, chat, own])
      expect(world.count(due), `${due} exactly once`).toBe(1);
    world.due = [];
  },
  reconnecting: async (snapshot) => {
    await common(snapshot);
    expect(world.timers.pending.size).toBe(0);
    expect(gate.held.size, 'the attempt waits at the gate').toBe(1);
    await offline();
  },
  closed: async (snapshot) => {
    await common(snapshot);
    // With a client, the next attempt is scheduled: a retry before the first connection, a reconnect
    // after it (random 0.5: the middle of each jittered range).
    const next = snapshot.context.connectedOnce ? TIMING.reconnectPeriodMs : TIMING.retryDelayMs;
    expect(world.timers.delays()).toEqual(snapshot.context.hasClient ? [next] : []);
    await until(() => gate.held.size === 0, 'no attempt at the gate');
    await offline();
  },
  error: async (snapshot) => {
    await common(snapshot);
    // The client is ended: nothing scheduled, nothing open, and the reason was reported.
    expect(world.timers.pending.size).toBe(0);
    await until(() => gate.held.size === 0, 'no attempt at the gate');
    expect(world.errors.at(-1)).toBe(snapshot.context.error);
    expect([REFUSED, DUPLICATE_CONNACK, NO_CONNECTION_MESSAGE]).toContain(snapshot.context.error);
    await offline();
  },
};

// ---------------------------------------------------------------------------------------------------

type ModelPath = SharedModelPath<BrokerSnapshot, BrokerEvent>;

function describePath(path: ModelPath): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const name = event.type.replace(/^broker\./, '');
      return event.type === 'broker.connect' ? `${name}(${event.hasToken ? 'token' : 'no token'})` : name;
    });
  return `${String(path.state.value)} via ${events.join(' → ') || '(start)'}`;
}

describe('broker statechart × real adapter × real MQTT.js × real embedded broker', () => {
  let testApp: TestApp;
  let model: ReturnType<typeof createModel>;
  let groups: [string, ModelPath[]][] = [];

  function createModel() {
    return createTestModel(brokerMachine, {
      input: {
        userTopics: allowedSubscriptions(
          { id: seller.userId, role: 'Seller', sellerId: seller.sellerId },
          'mp',
        ),
      },
      events: sampleEvents,
      filterEvents: (snapshot, event) => snapshot.can(event),
      serializeState: serializeNode,
    });
  }

  beforeAll(async () => {
    testApp = await createTestApp({ env: { JWT_SECRET } });
    server = new TestServer(testApp);
    await server.start();
    gate = new Gate(() => server.port);
    await gate.listen();
    const signedIn = await signInAs(testApp.app, demoEmails.Seller);
    const claims = JSON.parse(Buffer.from(signedIn.token.split('.')[1] ?? '', 'base64url').toString());
    seller = {
      userId: signedIn.userId,
      sellerId: claims.sellerId,
      sessionId: claims.sid,
      token: signedIn.token,
    };
    session = { userId: seller.userId, role: 'Seller', sellerId: seller.sellerId };
    chatTopic = salesBotTopic(seller.sellerId, 'chat-1');
    ownTopic = userMessageTopic('mp', seller.userId);
    foreignTopic = '/chatBot/salesBot/someone-else/+';
  });

  afterAll(async () => {
    await gate?.close();
    await server?.stop();
    await testApp?.database.close();
    await rm(testApp?.dataDir ?? '', { recursive: true, force: true });
  });

  // The model needs the real seller's topics: the paths are built once the server is up.
  it('builds the model from the real machine', () => {
    model = createModel();
    const shortest = model.getShortestPaths() as ModelPath[];
    const covered = new Set(shortest.flatMap(transitionsOf));
    const extra = completionPaths<BrokerSnapshot, BrokerEvent>(
      model,
      (from, event) => takenTransition(from, event),
      covered,
      serializedNodeKey(serializeNode),
    );
    groups = [
      ['shortest paths', shortest],
      ['transitions the shortest paths miss', extra],
    ];
    expect(shortest.length).toBeGreaterThan(0);
    // The user's topics as the machine has them: the seller's message topic, settings changes and
    // sales-bot chats.
    expect(model.getShortestPaths()[0]?.state.context.userTopics).toEqual([
      `mp_${seller.userId}_message`,
      'mp_settings',
      `/chatBot/salesBot/${seller.sellerId}/+`,
    ]);
  });

  function transitionsOf(path: ModelPath): string[] {
    const ids: string[] = [];
    for (let i = 1; i < path.steps.length; i++) {
      const from = path.steps[i - 1]?.state as BrokerSnapshot;
      const id = takenTransition(from, path.steps[i]?.event as BrokerEvent);
      if (id) ids.push(id);
    }
    return ids;
  }

  async function runPath(path: ModelPath) {
    world = new World();
    world.upcoming = path.steps
      .map((step) => step.event)
      .filter((e): e is BrokerEvent => e.type !== 'xstate.init');
    world.start();
    try {
      await model.testPath(path as Parameters<typeof model.testPath>[0], {
        states: stateChecks,
        events: Object.fromEntries(
          Object.entries(eventExecutors).map(([type, exec]) => [
            type,
            async (step: { event: { type: string } }) => {
              world.upcoming.shift();
              world.lastEvent = step.event;
              world.before = world.snapshot;
              await exec(step.event as BrokerEvent);
            },
          ]),
        ),
      });
    } finally {
      await destroyWorld(world);
    }
  }

  it('runs every path against the real world', { timeout: 170_000 }, async () => {
    const ran: string[] = [];
    for (const [group, paths] of groups) {
      for (const path of paths) {
        const name = `${group}: ${describePath(path)}`;
        try {
          await runPath(path);
        } catch (error) {
          throw new Error(`${name}\n${error instanceof Error ? (error.stack ?? error.message) : error}`);
        }
        ran.push(name);
      }
    }
    expect(ran.length).toBe(groups.reduce((total, [, paths]) => total + paths.length, 0));
    console.info(
      `broker model: ${groups.map(([group, paths]) => `${paths.length} ${group}`).join(', ')}; ${ran.length} paths run, ${server.starts} server starts`,
    );
  });

  it('the executed paths reach every state and take every transition of the machine', () => {
    expectFullCoverage(brokerMachine, allTransitions(), visitedStates, executedTransitions);
  });

  // -------------------------------------------------------------------------------------------------
  // Scenarios the paths do not spell out: real timers where time matters

  describe('around the model', () => {
    const realTimers = (delays: number[]): BrokerTimers => ({
      setTimeout: (callback, ms) => {
        delays.push(ms);
        return setTimeout(callback, ms);
      },
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    });

    async function connected(w: World) {
      await waitFor(w.handle.actor, (snapshot) => snapshot.value === 'connected', { timeout: 8000 });
      await w.handle.settled();
    }

    it('reconnects with the fresh token after the broker closed the expired one, missing no QoS 2 message', {
      timeout: 20_000,
    }, async () => {
      await server.start();
      const shortLived = await createTokenService(testApp.database.db, {
        secret: JWT_SECRET,
        ttlSeconds: 2,
        sessions: testApp.app.sessions,
      });
      world = new World();
      world.token = await shortLived.sign({
        id: seller.userId,
        role: 'Seller',
        sellerId: seller.sellerId,
        sessionId: seller.sessionId,
      });
      world.start();
      try {
        world.handle.connect();
        world.timers.fireOnly();
        await connected(world);
        // The app refreshed the token but this tab did not get to renew (asleep, say): the broker
        // closes the connection when the old token expires.
        world.token = seller.token;
        await waitFor(world.handle.actor, (snapshot) => snapshot.value === 'closed', { timeout: 20_000 });
        // Published while the tab is away.
        const missed = [];
        for (let n = 0; n < OFFLINE_MESSAGES; n++) missed.push(await world.probe());
        await quiet();
        for (const text of missed) expect(world.count(text)).toBe(0);
        // The reconnect authenticates with the current token: the expired one would be refused.
        world.timers.fireOnly();
        await connected(world);
        expect(world.reconnects).toBe(1);
        for (const text of missed) await until(() => world.count(text) >= 1, text);
        await barrier();
        for (const text of missed) expect(world.count(text), `${text} exactly once`).toBe(1);
        expect(world.errors.filter((message) => message.startsWith('Connection refused'))).toEqual([]);
      } finally {
        await destroyWorld(world);
      }
    });

    it('renews the connection as soon as the token is refreshed, missing nothing', async () => {
      await server.start();
      world = new World();
      world.start();
      try {
        world.handle.connect();
        world.timers.fireOnly();
        await connected(world);
        const tokens = await createTokenService(testApp.database.db, {
          secret: JWT_SECRET,
          ttlSeconds: 600,
          sessions: testApp.app.sessions,
        });
        world.token = await tokens.sign({
          id: seller.userId,
          role: 'Seller',
          sellerId: seller.sellerId,
          sessionId: seller.sessionId,
        });
        expect(world.token).not.toBe(seller.token);
        world.handle.tokenChanged();
        await waitFor(world.handle.actor, (snapshot) => snapshot.value === 'closed', { timeout: 20_000 });
        // Within the initial delay, not the reconnect period.
        expect(world.timers.delays()).toEqual([TIMING.initialDelayMs / 2]);
        const meanwhile = await world.probe();
        world.timers.fireOnly();
        await connected(world);
        await until(() => world.count(meanwhile) >= 1, 'the message sent during the renewal');
        const after = await world.probe();
        await until(() => world.count(after) >= 1, 'a message after the renewal');
        await barrier();
        expect([world.count(meanwhile), world.count(after)]).toEqual([1, 1]);
        expect(world.reconnects).toBe(1);
      } finally {
        await destroyWorld(world);
      }
    });

    it('brings several tabs back after a broker restart, each at its own moment', {
      timeout: 30_000,
    }, async () => {
      await server.start();
      const tabs = [0, 1, 2].map(() => ({ world: new World(), delays: [] as number[] }));
      for (const tab of tabs) {
        tab.world.start({
          timers: realTimers(tab.delays),
          random: Math.random,
          timing: { ...TIMING, reconnectPeriodMs: 400 },
        });
        tab.world.handle.connect();
      }
      try {
        for (const tab of tabs) await connected(tab.world);
        // Three tabs of one user, three client ids: none takes another's session over.
        const ids = new Set(tabs.map((tab) => tab.world.storage.get('mp.broker.tabId')));
        expect(ids.size).toBe(3);
        await quiet(300);
        expect(tabs.map((tab) => selectBrokerStatus(tab.world.snapshot))).toEqual(Array(3).fill('connected'));
        expect(gate.live).toBe(3);

        await server.stop();
        await Promise.all(
          tabs.map((tab) =>
            waitFor(tab.world.handle.actor, (snapshot) => snapshot.value !== 'connected', {
              timeout: 20_000,
            }),
          ),
        );
        await server.start();
        for (const tab of tabs) await connected(tab.world);
        for (const tab of tabs) expect(tab.world.reconnects).toBeGreaterThanOrEqual(1);
        // Each came back after its own random pause within 400 ms ± 50 %.
        const firstPauses = tabs.map((tab) => tab.delays.find((ms) => ms >= 200) as number);
        for (const pause of firstPauses) expect(pause).toBeGreaterThanOrEqual(200);
        for (const pause of firstPauses) expect(pause).toBeLessThanOrEqual(600);
        expect(new Set(firstPauses).size).toBeGreaterThan(1);
        // And they are subscribed again on the new broker.
        const text = JSON.stringify({ type: 'NOTIFICATION', probe: ++probeSeq });
        await server.broker.publishToUser(seller.userId, JSON.parse(text));
        for (const tab of tabs) await until(() => tab.world.count(text) === 1, 'the message in every tab');
      } finally {
        for (const tab of tabs) await destroyWorld(tab.world);
      }
    });
  });
});
