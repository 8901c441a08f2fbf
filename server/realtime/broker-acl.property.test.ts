// ACL property test against the REAL embedded broker: real MQTT.js clients over WebSocket with real
// access tokens of five users (Admin, Staff, three sellers), and fast-check generating thousands of
// subscribe, publish, last-will and session-takeover attempts — own topics, other users' topics,
// wildcards, $SYS, other sellers' sales-bot chats, invalid filters. Whatever happens, no message sent by
// or for one user ever reaches another, and what the broker grants is exactly what
// contracts/broker-topics.ts allows (the admin and staff inboxes read every seller's chats, by design).
import fc from 'fast-check';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminTopic,
  allowedSubscriptions,
  type BrokerUser,
  isValidTopic,
  mayPublish,
  mayReceive,
  maySubscribe,
  salesBotFilter,
  salesBotTopic,
  topicMatches,
  userMessageTopic,
} from '../../contracts/broker-topics';
import { readsAllChats } from '../modules/help-chats/inbox-access';
import { createTestApp, type DemoRole, demoEmails, signInAs, type TestApp } from '../test-support';

const PREFIX = 'mp';
const LISTENERS_PER_USER = 2;
// ACL_RUNS=400 for a longer hunt (a loaded machine, a suspected race); CI runs 40.
const NUM_RUNS = Number(process.env.ACL_RUNS ?? 40);
const ACTIONS_PER_RUN = { minLength: 60, maxLength: 100 };

interface Account extends BrokerUser {
  token: string;
}

/** What every published payload carries, so a delivery tells who sent it, in which run. */
interface Marker {
  run: number;
  seq: number;
  sender: string; // a user id, or 'server'
}

interface Delivery {
  receiver: Account;
  listener: number;
  topic: string;
  marker: Marker;
}

type Action =
  | { kind: 'subscribe'; user: number; listener: number; filter: string; qos: 1 | 2 }
  | { kind: 'publish'; user: number; topic: string; qos: 0 | 1 | 2; retain: boolean }
  | { kind: 'will'; user: number; topic: string; qos: 0 | 1 | 2 }
  | { kind: 'takeover'; user: number; victim: number; listener: number; clean: boolean }
  | { kind: 'serverToUser'; user: number }
  | { kind: 'serverSalesBot'; user: number; session: string };

describe('broker ACLs under random attack (property, real broker)', () => {
  let t: TestApp;
  let url: string;
  let accounts: Account[];
  const listeners: { account: Account; index: number; id: string; client: mqtt.MqttClient }[] = [];
  const deliveries: Delivery[] = [];
  // What happened, in order (actions, listener reconnections, deliveries): a failure names its context.
  const events: string[] = [];
  const note = (event: string) => events.push(`${Date.now() % 1_000_000} ${event}`);

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mqtt`;
    const roles: DemoRole[] = ['Admin', 'Staff', 'Seller', 'Blocked', 'Kyc'];
    accounts = await Promise.all(
      roles.map(async (role) => {
        const { token } = await signInAs(t.app, demoEmails[role]);
        const user = await t.app.tokens.verify(token);
        const allChats = await readsAllChats(t.app.db, user);
        return { id: user.id, role: user.role, sellerId: user.sellerId, readsAllChats: allChats, token };
      }),
    );
    for (const account of accounts) {
      for (let index = 0; index < LISTENERS_PER_USER; index++) {
        // Sessions like a browser's (clean false, stable id): the ids other users try to take over.
        const id = `acl-${account.id}-${index}`;
        const client = await mqtt.connectAsync(url, {
          username: account.id,
          password: account.token,
          clientId: id,
          clean: false,
          // A protocol violation (an empty filter) makes the broker drop the connection, as MQTT says it
          // must; the listener comes back to its session, like a browser would.
          reconnectPeriod: 100,
        });
        for (const event of ['connect', 'close', 'offline', 'error'] as const) {
          client.on(event, (detail?: unknown) =>
            note(`${account.role}#${index} ${event}${detail instanceof Error ? ` ${detail.message}` : ''}`),
          );
        }
        client.on('message', (topic, payload) => {
          note(`${account.role}#${index} got ${payload.toString()} on ${topic}`);
          deliveries.push({
            receiver: account,
            listener: index,
            topic,
            marker: JSON.parse(payload.toString()),
          });
        });
        for (const filter of allowedSubscriptions(account, PREFIX)) {
          await client.subscribeAsync(filter, { qos: 2 });
        }
        listeners.push({ account, index, id, client });
      }
    }
  });
  afterAll(async () => {
    await Promise.all(listeners.map(({ client }) => client.endAsync(true)));
    await t?.close();
  });

  it('the users are distinct and so are the sellers (else sharing a sales-bot topic would be legitimate)', () => {
    expect(new Set(accounts.map((a) => a.id)).size).toBe(5);
    const sellerIds = accounts.map((a) => a.sellerId).filter(Boolean);
    expect(sellerIds).toHaveLength(3);
    expect(new Set(sellerIds).size).toBe(3);
    expect(new Set(accounts.map((a) => a.role))).toEqual(new Set(['Admin', 'Staff', 'Seller']));
    // The admin and the staff member hold the all-chats inbox: every seller's chats reach them too.
    expect(accounts.filter((a) => a.readsAllChats).map((a) => a.role)).toEqual(['Admin', 'Staff']);
  });

  it('pure rule: a filter one user may subscribe to never matches a topic of another user (chats aside for inboxes)', () => {
    const users = () => accounts;
    fc.assert(
      fc.property(topicArbitrary(users), fc.nat(4), fc.nat(4), fc.string(), (filter, a, b, session) => {
        fc.pre(a !== b);
        const [reader, owner] = [users()[a] as Account, users()[b] as Account];
        if (!maySubscribe(reader, filter, PREFIX)) return;
        const ownersTopics = [
          userMessageTopic(PREFIX, owner.id),
          adminTopic(PREFIX, owner.id),
          // A seller's chats are also the all-chats inboxes' to read.
          ...(owner.sellerId && !reader.readsAllChats ? [salesBotTopic(owner.sellerId, session || 's')] : []),
        ];
        for (const topic of ownersTopics) expect(topicMatches(filter, topic)).toBe(false);
        // And nobody publishes anywhere but on their own topics, which nobody else reads.
        if (mayPublish(reader, filter, PREFIX)) expect(mayReceive(owner, filter, PREFIX)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('thousands of random attempts never deliver one user’s message to another', {
    timeout: Math.max(180_000, NUM_RUNS * 4_000),
  }, async () => {
    let run = 0;
    let seq = 0;
    let attempts = 0;
    let legitimateDeliveries = 0;
    const actions = actionArbitrary(() => accounts);

    await fc.assert(
      fc.asyncProperty(fc.array(actions, ACTIONS_PER_RUN), async (batch) => {
        run += 1;
        /** Messages that must reach every listener of `owner` (QoS ≥ 1, allowed by the rule). */
        const expected: { owner: Account; topic: string; marker: Marker }[] = [];
        const subscribeOutcomes: { account: Account; filter: string; granted: boolean }[] = [];
        const publishOutcomes: { account: Account; topic: string; accepted: boolean }[] = [];

        for (const action of batch) {
          attempts += 1;
          const marker: Marker = { run, seq: ++seq, sender: 'server' };
          note(`seq ${marker.seq}: ${JSON.stringify({ ...action, user: accounts[action.user]?.role })}`);
          switch (action.kind) {
            case 'subscribe': {
              const account = accounts[action.user] as Account;
              const listener = listeners[action.user * LISTENERS_PER_USER + action.listener];
              // MQTT.js rejects a SUBACK failure, an invalid filter and a dropped connection. It resolves
              // with no grant at all when it skipped a filter it believes it holds already: no verdict.
              const granted = await listener?.client.subscribeAsync(action.filter, { qos: action.qos }).then(
                (grants) => (grants.length === 0 ? undefined : grants.every((grant) => grant.qos !== 128)),
                () => false,
              );
              if (granted !== undefined) subscribeOutcomes.push({ account, filter: action.filter, granted });
              break;
            }
            case 'publish': {
              const account = accounts[action.user] as Account;
              marker.sender = account.id;
              const accepted = await publishOnce(
                url,
                account,
                action.topic,
                marker,
                action.qos,
                action.retain,
              );
              if (action.qos > 0) publishOutcomes.push({ account, topic: action.topic, accepted });
              if (action.qos > 0 && mayPublish(account, action.topic, PREFIX)) {
                expected.push({ owner: account, topic: action.topic, marker });
              }
              break;
            }
            case 'will': {
              const account = accounts[action.user] as Account;
              marker.sender = account.id;
              await dieWithWill(url, account, action.topic, marker, action.qos);
              if (action.qos > 0 && mayPublish(account, action.topic, PREFIX)) {
                expected.push({ owner: account, topic: action.topic, marker });
              }
              break;
            }
            case 'takeover': {
              const account = accounts[action.user] as Account;
              const victim = listeners[action.victim * LISTENERS_PER_USER + action.listener];
              if (!victim || victim.account.id === account.id) break;
              const outcome = await mqtt
                .connectAsync(url, {
                  username: account.id,
                  password: account.token,
                  clientId: victim.id,
                  clean: action.clean,
                  reconnectPeriod: 0,
                })
                .then(
                  async (client) => {
                    await client.endAsync(true);
                    return 'connected';
                  },
                  (error: Error) => error.message,
                );
              expect(outcome).toMatch(/Identifier rejected/i);
              break;
            }
            case 'serverToUser': {
              const owner = accounts[action.user] as Account;
              await t.app.broker.publishToUser(owner.id, marker);
              expected.push({ owner, topic: userMessageTopic(PREFIX, owner.id), marker });
              break;
            }
            case 'serverSalesBot': {
              const owner = accounts[action.user] as Account;
              if (!owner.sellerId) break;
              const topic = salesBotTopic(owner.sellerId, action.session);
              await t.app.broker.publish(topic, marker, { qos: 1 });
              // The seller's inbox and every all-chats inbox must get it.
              for (const reader of accounts.filter((a) => a.id === owner.id || a.readsAllChats)) {
                expected.push({ owner: reader, topic, marker });
              }
              break;
            }
          }
        }

        // Let in-flight deliveries land: every expected one, then a moment for any stray one.
        await waitFor(() =>
          expected.every(({ owner, marker }) =>
            listeners
              .filter((l) => l.account.id === owner.id)
              .every((l) => deliveries.some((d) => d.listener === l.index && sameMarker(d, owner, marker))),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));

        // 1. Nothing crossed: every delivery was readable by its receiver and sent by them or the server.
        for (const delivery of deliveries) {
          expect(mayReceive(delivery.receiver, delivery.topic, PREFIX), explain(delivery)).toBe(true);
          expect([delivery.receiver.id, 'server'], explain(delivery)).toContain(delivery.marker.sender);
        }
        // 2. The broker granted exactly what the rule allows. It acknowledged every well-formed publish
        // (MQTT 3.1.1 §3.3.5: one off the client's topics is acknowledged and dropped, check 1 shows
        // it reached nobody) and closed the connection only on a malformed topic.
        for (const outcome of subscribeOutcomes) {
          expect(outcome.granted, `${outcome.account.role} subscribing ${outcome.filter}`).toBe(
            maySubscribe(outcome.account, outcome.filter, PREFIX),
          );
        }
        for (const outcome of publishOutcomes) {
          expect(outcome.accepted, `${outcome.account.role} publishing on ${outcome.topic}`).toBe(
            isValidTopic(outcome.topic),
          );
        }
        // 3. And the ACL did not swallow what was legitimate: every listener of the owner got it.
        for (const { owner, marker } of expected) {
          for (const listener of listeners.filter((l) => l.account.id === owner.id)) {
            expect(
              deliveries.some((d) => d.listener === listener.index && sameMarker(d, owner, marker)),
              `${owner.role} listener ${listener.index} missed ${JSON.stringify(marker)}\n${events.slice(-80).join('\n')}`,
            ).toBe(true);
          }
        }
        legitimateDeliveries += deliveries.filter((d) => d.marker.run === run).length;
        deliveries.length = 0;
        events.length = 0;
      }),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );

    // Not vacuous: thousands of attempts, and real traffic went through to its owners.
    expect(attempts).toBeGreaterThanOrEqual(NUM_RUNS * ACTIONS_PER_RUN.minLength);
    expect(legitimateDeliveries).toBeGreaterThan(attempts / 10);
    // The listeners are still (or again) connected: nobody's takeover attempt took their sessions.
    await waitFor(() => listeners.every(({ client }) => client.connected));
    for (const { client } of listeners) expect(client.connected).toBe(true);
  });
});

function sameMarker(delivery: Delivery, owner: Account, marker: Marker): boolean {
  return (
    delivery.receiver.id === owner.id &&
    delivery.marker.run === marker.run &&
    delivery.marker.seq === marker.seq
  );
}

function explain(delivery: Delivery): string {
  return `${delivery.receiver.role} got ${delivery.topic} from ${delivery.marker.sender}`;
}

// Generous: it returns as soon as everything arrived, and a loaded CI machine (the admin and staff
// listeners also take every chat event) can take seconds to finish the QoS 2 exchanges of a run.
async function waitFor(condition: () => boolean, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * One publish on a connection of its own (a malformed topic makes Aedes drop the connection, and
 * MQTT.js would resend a stored QoS 1/2 packet forever). Resolves whether the broker acknowledged it
 * (QoS 1/2); a malformed topic closes the connection instead.
 */
async function publishOnce(
  url: string,
  account: Account,
  topic: string,
  marker: Marker,
  qos: 0 | 1 | 2,
  retain: boolean,
): Promise<boolean> {
  const client = await mqtt.connectAsync(url, {
    username: account.id,
    password: account.token,
    reconnectPeriod: 0,
    clientId: `pub-${marker.run}-${marker.seq}`,
  });
  try {
    const closed = new Promise<false>((resolve) => client.once('close', () => resolve(false)));
    const acknowledged = client.publishAsync(topic, JSON.stringify(marker), { qos, retain }).then(
      () => true,
      () => false,
    );
    if (qos === 0) {
      await acknowledged;
      return true; // nothing to learn from; the checks on deliveries cover it
    }
    return await Promise.race([acknowledged, closed]);
  } finally {
    await client.endAsync(true);
  }
}

/** Connects with a last will on `topic`, then dies without a DISCONNECT so the broker sends the will. */
async function dieWithWill(url: string, account: Account, topic: string, marker: Marker, qos: 0 | 1 | 2) {
  const client = await mqtt.connectAsync(url, {
    username: account.id,
    password: account.token,
    reconnectPeriod: 0,
    clientId: `will-${marker.run}-${marker.seq}`,
    will: { topic, payload: Buffer.from(JSON.stringify(marker)), qos, retain: false },
  });
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  client.stream.destroy();
  await closed;
  await client.endAsync(true);
}

/** Topic names and filters: own and others' topics, wildcards, $SYS, invalid ones, random mixes. */
function topicArbitrary(users: () => Account[]): fc.Arbitrary<string> {
  const user = fc.nat(4).map((i) => users()[i] as Account);
  const sellerId = fc.constantFrom(0, 2, 3, 4).map((i) => users()[i]?.sellerId ?? 'no-seller');
  const session = fc.constantFrom('s1', 's2', 'abc', '+', '#');
  const known = fc.oneof(
    user.map((u) => userMessageTopic(PREFIX, u.id)),
    user.map((u) => adminTopic(PREFIX, u.id)),
    sellerId.map((id) => salesBotFilter(id)),
    fc.tuple(sellerId, session).map(([id, s]) => salesBotTopic(id, s)),
    fc.constantFrom(
      '#',
      '+',
      '+/+',
      '+/#',
      '/#',
      '/+/#',
      '$SYS/#',
      '$SYS/+/new/clients',
      'mp_+_message',
      '+_message',
      '/chatBot/#',
      '/chatBot/salesBot/#',
      '/chatBot/salesBot/+/+',
      '/chatBot/salesBot/+/#',
      '/+/salesBot/+/+',
      'a/#/b',
      'a#',
      'foo+',
      '/chatBot/salesBot//+',
    ),
  );
  const level = fc.oneof(
    fc.constantFrom('', '+', '#', 'chatBot', 'salesBot', '$SYS', 'mp', 'leads_product'),
    user.map((u) => u.id),
    user.map((u) => `${PREFIX}_${u.id}_message`),
    user.map((u) => `${PREFIX}_${u.id}_admin`),
    sellerId,
  );
  const mixed = fc.array(level, { minLength: 1, maxLength: 5 }).map((levels) => levels.join('/'));
  return fc.oneof({ weight: 3, arbitrary: known }, { weight: 2, arbitrary: mixed });
}

function actionArbitrary(users: () => Account[]): fc.Arbitrary<Action> {
  const topic = topicArbitrary(users);
  // Publish and will topics must be names (MQTT.js itself refuses wildcards there).
  const name = topic.filter((candidate) => isValidTopic(candidate));
  const userIndex = fc.nat(4);
  const qos = fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>;
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('subscribe' as const),
        user: userIndex,
        listener: fc.nat(LISTENERS_PER_USER - 1),
        filter: topic,
        // Not 0: re-subscribing one's own topic at QoS 0 would stop the session queueing it while the
        // listener reconnects, and the completeness check would see a (legitimate) loss.
        qos: fc.constantFrom(1, 2) as fc.Arbitrary<1 | 2>,
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('publish' as const),
        user: userIndex,
        topic: name,
        qos,
        retain: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('will' as const), user: userIndex, topic: name, qos }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('takeover' as const),
        user: userIndex,
        victim: userIndex,
        listener: fc.nat(LISTENERS_PER_USER - 1),
        clean: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('serverToUser' as const), user: userIndex }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('serverSalesBot' as const),
        user: userIndex,
        session: fc.constantFrom('s1', 's2', 'chat-9'),
      }),
    },
  );
}
